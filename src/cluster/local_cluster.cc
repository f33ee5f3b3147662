#include "cluster/local_cluster.h"

#include <algorithm>

#include "base/log.h"
#include "cluster/garbage_collector.h"
#include "cluster/namespace_deleter.h"
#include "cluster/volcano_crd.h"
#include "store/object_meta.h"

namespace lws::cluster {

namespace {

// Kinds whose deletion can leave dependents behind in this cluster (a namespace: its content).
const client::Resource* const kOwners[] = {&client::kStatefulSets,
                                           &client::kPods,
                                           &client::kControllerRevisions,
                                           &client::kServices,
                                           &client::kPersistentVolumeClaims,
                                           &client::kLeaderWorkerSets,
                                           &client::kDeployments,
                                           &client::kReplicaSets,
                                           &client::kDaemonSets,
                                           &client::kJobs,
                                           &client::kDisaggregatedSets,
                                           &client::kRoleScalers,
                                           &client::kNamespaces};

const client::Resource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};

bool MarkedForDeletion(const store::WatchEvent& event) {
  if (event.type == store::EventType::kDeleted) return true;
  return event.object->deleting();
}

}  // namespace

LocalCluster::LocalCluster(EventLoop* loop, client::LocalApi local, ClusterSpec spec,
                           LocalClusterOptions options)
    : loop_(loop),
      store_(local.store),
      spec_(std::move(spec)),
      options_(options),
      pools_client_(local.Client("cluster-autoscaler")),
      scheduler_client_(local.Client("default-scheduler")),
      kubelet_client_(local.Client("kubelet")),
      statefulset_client_(local.Client("statefulset-controller")),
      replicaset_client_(local.Client(std::string(kReplicaSetControllerName))),
      deployment_client_(local.Client(std::string(kDeploymentControllerName))),
      disruption_client_(local.Client("kube-controller-manager")),
      job_client_(local.Client(std::string(kJobControllerName))),
      daemonset_client_(local.Client(std::string(kDaemonSetControllerName))),
      gc_client_(local.Client("generic-garbage-collector")),
      namespace_client_(local.Client("namespace-controller")),
      gang_client_(local.Client(std::string(kVolcanoScheduler))),
      tenants_client_(local.Client("other-tenants")) {
  Rng root(options_.seed);
  node_pools_ =
      std::make_unique<NodePools>(loop, &pools_client_, &spec_, root.Derive("node-pools"));
  scheduler_ = std::make_unique<Scheduler>(loop, &scheduler_client_);
  if (spec_.gang_scheduler == kVolcanoScheduler) {
    SchedulerOptions gang;
    gang.scheduler_name = std::string(kVolcanoScheduler);
    gang.gang = true;
    gang_scheduler_ = std::make_unique<Scheduler>(loop, &gang_client_, gang);
  }
  if (!spec_.other_tenants.empty()) {
    tenants_ =
        std::make_unique<TenantPods>(loop, &tenants_client_, &spec_, root.Derive("other-tenants"));
  }
  KubeletOptions kubelet_options;
  kubelet_options.mode = options_.kubelet;
  kubelets_ = std::make_unique<Kubelets>(loop, &kubelet_client_, &spec_, root.Derive("kubelets"),
                                         kubelet_options);
  if (options_.container_logs) {
    container_logs_ = std::make_unique<KubeletLogs>(loop, &kubelet_client_);
  }
  statefulsets_ = std::make_unique<StatefulSetController>(
      loop,
      options_.statefulset_client != nullptr ? options_.statefulset_client : &statefulset_client_);
  replicasets_ = std::make_unique<ReplicaSetController>(loop, &replicaset_client_);
  deployments_ = std::make_unique<DeploymentController>(loop, &deployment_client_);
  disruption_ = std::make_unique<DisruptionController>(loop, &disruption_client_);
  if (options_.node_leases) node_leases_ = std::make_unique<NodeLeases>(loop, &kubelet_client_);
  jobs_ = std::make_unique<JobController>(loop, &job_client_);
  daemonsets_ = std::make_unique<DaemonSetController>(loop, &daemonset_client_);
}

LocalCluster::~LocalCluster() { Stop(); }

Status LocalCluster::Start() {
  // Nodes first, so that the first scheduling pass sees them.
  if (Status s = node_pools_->Start(); !s.ok()) return s;
  if (Status s = kubelets_->Start(); !s.ok()) return s;
  if (node_leases_) {
    if (Status s = node_leases_->Start(); !s.ok()) return s;
  }
  if (container_logs_) {
    if (Status s = container_logs_->Start(); !s.ok()) return s;
  }
  if (Status s = scheduler_->Start(); !s.ok()) return s;
  if (gang_scheduler_) {
    if (Status s = InstallPodGroupCrd(); !s.ok()) return s;
    if (Status s = gang_scheduler_->Start(); !s.ok()) return s;
  }
  if (Status s = statefulsets_->Start(); !s.ok()) return s;
  if (Status s = replicasets_->Start(); !s.ok()) return s;
  if (Status s = deployments_->Start(); !s.ok()) return s;
  if (Status s = disruption_->Start(); !s.ok()) return s;
  if (Status s = jobs_->Start(); !s.ok()) return s;
  if (Status s = daemonsets_->Start(); !s.ok()) return s;
  if (tenants_) {
    if (Status s = tenants_->Start(); !s.ok()) return s;
  }
  return WatchForCollection();
}

void LocalCluster::Stop() {
  gc_watches_.clear();
  crd_watches_.clear();
  if (tenants_) tenants_->Stop();
  if (disruption_) disruption_->Stop();
  if (daemonsets_) daemonsets_->Stop();
  if (jobs_) jobs_->Stop();
  if (deployments_) deployments_->Stop();
  if (replicasets_) replicasets_->Stop();
  if (statefulsets_) statefulsets_->Stop();
  if (scheduler_) scheduler_->Stop();
  if (gang_scheduler_) gang_scheduler_->Stop();
  if (node_leases_) node_leases_->Stop();
  if (kubelets_) kubelets_->Stop();
  if (container_logs_) container_logs_->Stop();
  if (node_pools_) node_pools_->Stop();
}

Status LocalCluster::InstallPodGroupCrd() {
  Result<store::ObjectPtr> created = gang_client_.Create(kCrds, VolcanoPodGroupCrd());
  if (created.ok() || created.status().code() == Code::kAlreadyExists) return Status::Ok();
  return Status(created.status().code(),
                "installing the PodGroup CRD for gang scheduling: " + created.status().message());
}

Status LocalCluster::WatchForCollection() {
  for (const client::Resource* resource : kOwners) {
    auto sub = gc_client_.Watch(loop_, *resource, "",
                                [this](const store::WatchEvent& e) { OnPossibleGarbage(e); });
    if (!sub.ok()) {
      if (sub.status().code() == Code::kNotFound) continue;  // a CRD not installed
      return sub.status();
    }
    gc_watches_.push_back(std::move(*sub));
  }
  ASSIGN_OR_RETURN(auto crds, gc_client_.Watch(loop_, kCrds, "",
                                               [this](const store::WatchEvent& e) { OnCrd(e); }));
  gc_watches_.push_back(std::move(crds));
  return Status::Ok();
}

void LocalCluster::OnCrd(const store::WatchEvent& event) {
  const std::string& crd = event.object->name().name;  // "<plural>.<group>"
  if (event.type == store::EventType::kDeleted) {
    // Its objects go with it: their dependents are for the pass this deletion starts.
    crd_watches_.erase(crd);
    OnPossibleGarbage(event);
    return;
  }
  if (crd_watches_.contains(crd)) return;
  for (const client::Resource* owner : kOwners) {
    if (owner->resource + "." + owner->group == crd) return;  // watched from the start
  }
  // A version the API server serves now (any one: a watch of it sees every object); none yet
  // (the CRD not established): its next update tries again.
  std::shared_ptr<const api::ResourceRegistry> served = gc_client_.ServedRegistry();
  for (const api::ResourceInfo* info : served->All()) {
    if (!info->custom || info->GroupResource() != crd) continue;
    auto sub = gc_client_.Watch(loop_, client::ResourceOf(*info), "",
                                [this](const store::WatchEvent& e) { OnPossibleGarbage(e); });
    if (sub.ok()) crd_watches_[crd] = std::move(*sub);
    return;
  }
}

// A dependent created after its owner was deleted (a controller acting on a stale cache: the
// LWS pod controller making a worker StatefulSet for a leader pod a slow watch still showed)
// brings no deletion that would start a pass; upstream's graph builder meets the unknown owner
// when the dependent is added and has the collector look it up at once (attemptToDelete of a
// virtual node), so the dependent goes. Without this it stayed until some later deletion.
bool LocalCluster::HasAbsentOwner(const store::StoredObject& object) const {
  const std::vector<store::OwnerRefView> refs = store::OwnerReferences(object);
  if (refs.empty()) return false;
  std::shared_ptr<const api::ResourceRegistry> served = gc_client_.ServedRegistry();
  const std::string& ns = object.name().namespace_;
  for (const store::OwnerRefView& ref : refs) {
    const api::ResourceInfo* info =
        served->FindByKind(std::string(ref.api_version), std::string(ref.kind));
    if (info == nullptr) continue;  // a kind not served: the collector leaves it alone too
    Result<store::ObjectPtr> owner =
        store_->Get(*info, info->namespaced ? ns : "", std::string(ref.name));
    if (!owner.ok() || *owner == nullptr) return true;
    if ((*owner)->uid() != ref.uid) return true;
  }
  return false;
}

void LocalCluster::OnPossibleGarbage(const store::WatchEvent& event) {
  if (gc_scheduled_) return;
  const bool orphan = event.type == store::EventType::kAdded && HasAbsentOwner(*event.object);
  if (!orphan && !MarkedForDeletion(event)) return;
  gc_scheduled_ = true;
  const Time now = loop_->Now();
  const Time when = last_gc_ ? std::max(now, *last_gc_ + kGcMinInterval) : now;
  loop_->At(when, [this] { CollectGarbage(); });
}

void LocalCluster::CollectGarbage() {
  gc_scheduled_ = false;
  ++gc_passes_;
  last_gc_ = loop_->Now();
  std::shared_ptr<const api::ResourceRegistry> served = gc_client_.ServedRegistry();
  GarbageCollector gc(store_, &gc_client_, served.get(), &gc_graph_);
  Result<int> actions = gc.RunUntilStable(100);
  if (!actions.ok()) {
    Logger("gc")->warn("garbage collection pass failed: {}", actions.status().message());
  }
  std::optional<Time> namespace_due;
  Result<int> terminated = NamespaceDeleter(store_, &namespace_client_, served.get())
                               .RunOnce(loop_->Now(), &namespace_due);
  if (!terminated.ok()) {
    Logger("namespace-controller")
        ->warn("namespace deletion pass failed: {}", terminated.status().message());
  }
  // A namespace in its deletion grace period: a pass when it is due.
  if (namespace_due && !gc_scheduled_) {
    gc_scheduled_ = true;
    loop_->At(*namespace_due, [this] { CollectGarbage(); });
  }
}

}  // namespace lws::cluster
