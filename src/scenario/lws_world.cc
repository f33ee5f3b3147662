#include "scenario/lws_world.h"

#include "api/codec.h"
#include "api/disaggregatedset_crd.h"
#include "client/local/local_client.h"
#include "client/resource.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::scenario {

namespace {

bool Gang(const cluster::ClusterSpec& spec) {
  return spec.gang_scheduler == cluster::kVolcanoScheduler;
}

// The pod webhook names each group's PodGroup when the cluster gang-schedules (cli/up.cc).
admission::AdmissionChain WebhookChain(const cluster::ClusterSpec& spec, std::uint64_t seed) {
  admission::AdmissionChain chain;
  api::PodMutationOptions pod;
  pod.gang_scheduling = Gang(spec);
  pod.random_key_suffix = api::SeededKeySuffix(Rng(seed).Derive("group-key"));
  controllers::InstallLwsWebhooks(&chain, pod);
  return chain;
}

store::ListOptions InDefault(const api::StringMap& labels) {
  store::ListOptions options;
  options.namespace_ = "default";
  if (!labels.empty()) options.label_selector = api::Selector::FromSet(labels);
  return options;
}

template <class T>
std::optional<T> DecodeStored(const Result<store::ObjectPtr>& stored) {
  if (!stored.ok() || *stored == nullptr) return std::nullopt;
  auto decoded = api::Decode<T>((*stored)->document());
  if (!decoded.ok()) return std::nullopt;
  return *decoded;
}

}  // namespace

LwsWorld::LwsWorld(WorldOptions options)
    : options_(std::move(options)),
      control_plane_(options_.seed, /*install_lws_crd=*/true,
                     WebhookChain(options_.cluster, options_.seed)),
      user_(control_plane_.Client("kubectl")) {
  cluster::LocalClusterOptions cluster_options;
  cluster_options.seed = options_.seed;
  cluster_options.kubelet = options_.kubelet;
  if (options_.faulty_statefulset_client) {
    statefulset_local_ = std::make_unique<client::LocalClient>(
        control_plane_.server.get(), control_plane_.store.get(), "statefulset-controller");
    statefulset_client_ = std::make_unique<client::FaultyClient>(
        statefulset_local_.get(), Rng(options_.seed).Derive("faults/statefulset-controller"));
    cluster_options.statefulset_client = statefulset_client_.get();
  }
  cluster_ = std::make_unique<cluster::LocalCluster>(
      &loop(), client::LocalApi{control_plane_.server.get(), control_plane_.store.get()},
      options_.cluster, cluster_options);
  if (options_.faulty_controller_client) {
    controller_local_ = std::make_unique<client::LocalClient>(
        control_plane_.server.get(), control_plane_.store.get(),
        std::string(controllers::kLwsFieldManager));
    controller_client_ = std::make_unique<client::FaultyClient>(
        controller_local_.get(), Rng(options_.seed).Derive("faults/lws"));
  }
}

LwsWorld::~LwsWorld() {
  if (ds_manager_) ds_manager_->Stop();
  if (manager_) manager_->Stop();
  cluster_->Stop();
}

Status LwsWorld::Start() {
  if (options_.disaggregatedset) RETURN_IF_ERROR(InstallDisaggregatedSetCrds());
  RETURN_IF_ERROR(cluster_->Start());
  if (options_.start_controller) RETURN_IF_ERROR(StartController());
  loop().RunFor(std::chrono::seconds(1));
  return Status::Ok();
}

Status LwsWorld::InstallDisaggregatedSetCrds() {
  const client::Resource crds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};
  for (const Json* crd : {&api::DisaggregatedSetCrd(), &api::DisaggregatedSetRoleScalerCrd()}) {
    auto created = user_.Create(crds, *crd);
    if (!created.ok()) return created.status();
  }
  return Status::Ok();
}

std::unique_ptr<const client::Client> LwsWorld::ControllerLocalClient() {
  return std::make_unique<client::LocalClient>(control_plane_.server.get(),
                                               control_plane_.store.get(),
                                               std::string(controllers::kLwsFieldManager));
}

Status LwsWorld::StartController(controllers::LwsManagerOptions options) {
  if (Gang(options_.cluster)) options.gang = controllers::GangProvider::kVolcano;
  if (controller_client_) {
    manager_ =
        std::make_unique<controllers::LwsManager>(&loop(), controller_client_.get(), options);
  } else {
    manager_ = std::make_unique<controllers::LwsManager>(&loop(), ControllerLocalClient(), options);
  }
  RETURN_IF_ERROR(manager_->Start());
  if (!options_.disaggregatedset) return Status::Ok();
  if (controller_client_) {
    ds_manager_ = std::make_unique<disaggregatedset::DsManager>(&loop(), controller_client_.get());
  } else {
    ds_manager_ = std::make_unique<disaggregatedset::DsManager>(&loop(), ControllerLocalClient());
  }
  return ds_manager_->Start();
}

void LwsWorld::StopController() {
  if (ds_manager_) ds_manager_->Stop();
  ds_manager_.reset();
  if (manager_) manager_->Stop();
  manager_.reset();
}

Status LwsWorld::RestartController() {
  StopController();
  return StartController();
}

bool LwsWorld::RunUntil(const std::function<bool()>& done, Duration limit, Duration step) {
  Time deadline = loop().Now() + limit;
  while (!done()) {
    if (loop().Now() >= deadline) return false;
    loop().RunFor(step);
  }
  return true;
}

std::optional<api::LeaderWorkerSet> LwsWorld::Lws(const std::string& name) const {
  return DecodeStored<api::LeaderWorkerSet>(user_.Get(client::kLeaderWorkerSets, "default", name));
}

std::optional<api::StatefulSet> LwsWorld::StatefulSet(const std::string& name) const {
  return DecodeStored<api::StatefulSet>(user_.Get(client::kStatefulSets, "default", name));
}

std::optional<api::Pod> LwsWorld::Pod(const std::string& name) const {
  return DecodeStored<api::Pod>(user_.Get(client::kPods, "default", name));
}

std::vector<Json> LwsWorld::List(const client::Resource& resource,
                                 const api::StringMap& labels) const {
  std::vector<Json> out;
  auto listed = user_.List(resource, InDefault(labels));
  if (!listed.ok()) return out;
  for (const store::ObjectPtr& item : listed->items) out.push_back(item->document());
  return out;
}

std::vector<Json> LwsWorld::LwsRevisions(const std::string& name) const {
  std::vector<Json> out;
  for (const Json& r : List(client::kControllerRevisions, {{api::kSetNameLabel, name}})) {
    for (const Json& owner : r["metadata"].value("ownerReferences", Json::array())) {
      if (owner.value("kind", "") == api::kLwsKind && owner.value("controller", false))
        out.push_back(r);
    }
  }
  return out;
}

std::vector<api::Pod> LwsWorld::Pods(const api::StringMap& labels) const {
  std::vector<api::Pod> out;
  for (const Json& json : List(client::kPods, labels)) {
    if (auto pod = api::Decode<api::Pod>(json); pod.ok()) out.push_back(*pod);
  }
  return out;
}

std::vector<api::StatefulSet> LwsWorld::StatefulSets(const api::StringMap& labels) const {
  std::vector<api::StatefulSet> out;
  for (const Json& json : List(client::kStatefulSets, labels)) {
    if (auto sts = api::Decode<api::StatefulSet>(json); sts.ok()) out.push_back(*sts);
  }
  return out;
}

std::vector<api::Event> LwsWorld::Events(const std::string& reason) const {
  std::vector<api::Event> out;
  for (const Json& json : List(client::kEvents)) {
    auto event = api::Decode<api::Event>(json);
    if (event.ok() && (reason.empty() || event->reason == reason)) out.push_back(*event);
  }
  std::stable_sort(out.begin(), out.end(), [](const api::Event& a, const api::Event& b) {
    return a.first_timestamp < b.first_timestamp;
  });
  return out;
}

Result<store::ObjectPtr> LwsWorld::Create(const client::Resource& resource,
                                          const Json& object) const {
  return user_.Create(resource, object);
}

Result<store::ObjectPtr> LwsWorld::MergePatch(const client::Resource& resource,
                                              const std::string& name, const Json& patch,
                                              const std::string& subresource) const {
  return user_.Patch(resource, "default", name, client::PatchType::kMerge, patch, subresource);
}

Result<store::ObjectPtr> LwsWorld::Delete(const client::Resource& resource,
                                          const std::string& name) const {
  return user_.Delete(resource, "default", name);
}

Status LwsWorld::MarkPodReady(const std::string& pod, bool ready) const {
  Json patch = {
      {"status",
       {{"phase", ready ? "Running" : "Pending"},
        {"conditions", Json::array({{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})}}}};
  auto patched =
      user_.Patch(client::kPods, "default", pod, client::PatchType::kStrategic, patch, "status");
  return patched.ok() ? Status::Ok() : patched.status();
}

Status LwsWorld::MarkGroupReady(const std::string& lws, int group) const {
  auto pods = Pods({{api::kSetNameLabel, lws}, {api::kGroupIndexLabel, std::to_string(group)}});
  if (pods.empty()) return Status::NotFound("no pods of group " + std::to_string(group));
  for (const api::Pod& pod : pods) RETURN_IF_ERROR(MarkPodReady(pod.metadata.name));
  return Status::Ok();
}

cluster::ClusterSpec GpuCluster(int nodes, int gpus, int startup_seconds) {
  cluster::NodePoolSpec pool;
  pool.name = "gpu";
  pool.initial_nodes = nodes;
  pool.min_nodes = nodes;
  pool.max_nodes = nodes;
  pool.allocatable = {
      {"cpu", "96"}, {"memory", "1Ti"}, {"nvidia.com/gpu", std::to_string(gpus)}, {"pods", "110"}};
  pool.zones = {"zone-a", "zone-b"};
  pool.startup = {cluster::Distribution::Kind::kFixed, static_cast<double>(startup_seconds), 0};
  pool.termination = std::chrono::seconds(1);
  cluster::ClusterSpec spec;
  spec.pools.push_back(pool);
  return spec;
}

Json WorkerImagePatch(const std::string& image) {
  Json container = {{"name", "worker"}, {"image", image}};
  return {{"spec",
           {{"leaderWorkerTemplate",
             {{"workerTemplate", {{"spec", {{"containers", Json::array({container})}}}}}}}}}};
}

api::Condition LwsWorld::LwsCondition(const std::string& name, const std::string& type) const {
  std::optional<api::LeaderWorkerSet> lws = Lws(name);
  if (lws) {
    for (const api::Condition& c : lws->status.conditions) {
      if (c.type == type) return c;
    }
  }
  return api::Condition{};
}

Json LwsObject(const LwsShape& s) {
  auto container = [&](const std::string& name) {
    Json c = {{"name", name}, {"image", s.image}};
    if (s.gpus > 0) c["resources"]["limits"]["nvidia.com/gpu"] = std::to_string(s.gpus);
    return c;
  };
  Json worker = container("worker");
  worker["ports"] = Json::array({{{"containerPort", 8080}, {"protocol", "TCP"}}});
  Json lwt = {{"size", s.size},
              {"restartPolicy", s.restart_policy},
              {"leaderTemplate", {{"spec", {{"containers", Json::array({container("leader")})}}}}},
              {"workerTemplate", {{"spec", {{"containers", Json::array({worker})}}}}}};
  if (s.sub_group_size > 0) lwt["subGroupPolicy"] = {{"subGroupSize", s.sub_group_size}};
  return {{"apiVersion", "leaderworkerset.x-k8s.io/v1"},
          {"kind", "LeaderWorkerSet"},
          {"metadata", {{"name", s.name}, {"namespace", "default"}}},
          {"spec",
           {{"replicas", s.replicas},
            {"leaderWorkerTemplate", lwt},
            {"startupPolicy", s.startup_policy},
            {"networkConfig", {{"subdomainPolicy", s.subdomain_policy}}},
            {"rolloutStrategy",
             {{"type", "RollingUpdate"},
              {"rollingUpdateConfiguration",
               {{"partition", s.partition},
                {"maxUnavailable", s.max_unavailable},
                {"maxSurge", s.max_surge}}}}}}}};
}

}  // namespace lws::scenario
