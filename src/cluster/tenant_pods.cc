// Other tenants' pods (tenant_pods.h).
#include "cluster/tenant_pods.h"

#include <fmt/format.h>

#include "api/pod_requests.h"
#include "api/rollout_annotations.h"
#include "base/log.h"
#include "client/resource.h"
#include "store/decoded_view.h"

namespace lws::cluster {
namespace {

using api::Json;

// The amount of `resource` a pod asked for (its requests, a limit standing in), as text; "" for
// none.
std::string AmountOf(const api::Pod& pod, const std::string& resource) {
  api::ResourceList requests = api::PodSpecRequests(pod.spec, {}, api::LimitsAsRequests::kYes);
  auto it = requests.find(resource);
  if (it == requests.end() || it->second.IsZero()) return "";
  return it->second.String();
}

}  // namespace

TenantPods::TenantPods(EventLoop* loop, const client::LocalClient* client, const ClusterSpec* spec,
                       Rng rng)
    : loop_(loop), client_(client), spec_(spec), rng_(std::move(rng)) {}

Status TenantPods::Start() {
  running_ = true;
  const cluster::OtherTenants& tenants = spec_->other_tenants;
  for (const cluster::OtherTenants::Arrival& arrival : tenants.arrivals) {
    tasks_.push_back(loop_->After(arrival.at, [this, arrival] {
      for (int i = 0; i < arrival.pods; ++i) {
        std::string name = CreatePod(arrival.requests, "", arrival.pool);
        if (!name.empty() && arrival.hold > Duration::zero())
          DeleteLater(arrival.hold, name, false);
      }
    }));
  }
  if (!tenants.take_freed) return Status::Ok();
  ASSIGN_OR_RETURN(watch_, client_->Watch(loop_, client::kPods, "",
                                          [this](const store::WatchEvent& e) { OnPod(e); }));
  return Status::Ok();
}

void TenantPods::Stop() {
  running_ = false;
  watch_.reset();
  for (TaskId task : tasks_) loop_->Cancel(task);
  tasks_.clear();
}

void TenantPods::OnPod(const store::WatchEvent& event) {
  if (!running_ || event.type != store::EventType::kDeleted) return;
  if (event.object->labels().count(kTenantLabel)) return;
  // A capacity hand-off placeholder gives back what the pod it held for already freed: that
  // capacity drew its tenant when the pod left.
  if (event.object->labels().count(api::kHandOffOfLabel)) return;
  Result<std::shared_ptr<const api::Pod>> pod = store::DecodedView<api::Pod>(*event.object);
  if (!pod.ok() || (*pod)->spec.node_name.empty()) return;
  const cluster::OtherTenants::TakeFreed& take = *spec_->other_tenants.take_freed;
  const std::string amount = AmountOf(**pod, take.resource);
  if (amount.empty() || !rng_.Bernoulli(take.probability)) return;
  const std::string node = (*pod)->spec.node_name;
  auto create = [this, node, amount, take] {
    std::string name = CreatePod({{take.resource, amount}}, node, "");
    if (name.empty()) return;
    DeleteLater(take.patience, name, true);
    if (take.hold > Duration::zero()) DeleteLater(take.hold, name, false);
  };
  if (take.delay == Duration::zero()) {
    create();
  } else {
    tasks_.push_back(loop_->After(take.delay, create));
  }
}

std::string TenantPods::CreatePod(const std::map<std::string, std::string>& requests,
                                  const std::string& node, const std::string& pool) {
  const std::string name = fmt::format("tenant-{}", ++created_);
  Json resources = Json::object();
  for (const auto& [resource, amount] : requests) resources[resource] = amount;
  Json container = {{"name", "work"},
                    {"image", "tenant/batch:latest"},
                    {"resources", {{"requests", resources}, {"limits", resources}}}};
  Json spec = {{"containers", Json::array({container})},
               {"tolerations", Json::array({{{"operator", "Exists"}}})}};
  if (!node.empty()) spec["nodeSelector"] = {{"kubernetes.io/hostname", node}};
  if (!pool.empty()) spec["nodeSelector"] = {{kNodePoolLabel, pool}};
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name}, {"namespace", "default"}, {"labels", {{kTenantLabel, "true"}}}}},
              {"spec", std::move(spec)}};
  Result<store::ObjectPtr> created = client_->Create(client::kPods, std::move(pod));
  if (!created.ok()) {
    Logger("other-tenants")->warn("cannot create {}: {}", name, created.status().message());
    return "";
  }
  return name;
}

void TenantPods::DeleteLater(Duration after, const std::string& name, bool only_pending) {
  tasks_.push_back(loop_->After(after, [this, name, only_pending] {
    if (!running_) return;
    Result<store::ObjectPtr> pod = client_->Get(client::kPods, "default", name);
    if (!pod.ok()) return;
    if (only_pending && !(*pod)->uid().empty()) {
      const Json& spec = api::ChildOrNull((*pod)->document(), "spec");
      if (!api::StringMember(spec, "nodeName").empty()) return;  // placed: kept
    }
    client::DeleteOptions options;
    options.grace_period_seconds = 0;
    (void)client_->Delete(client::kPods, "default", name, options);
  }));
}

}  // namespace lws::cluster
