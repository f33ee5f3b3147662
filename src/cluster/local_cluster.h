// File: cluster/local_cluster.h
//
// The simulated cluster behind the embedded API server: node pools with their autoscaler, the
// scheduler, the kubelets, the StatefulSet, ReplicaSet, Deployment, Job and DaemonSet
// controllers and the
// garbage collector, each with its
// own in-process client (so managedFields and events name the component, as on a real cluster),
// all on one EventLoop. `lws up` runs it on the real clock; simulations and tests run it on a
// VirtualLoop, where a run is a pure function of the cluster spec, the workload and the seed.
//
// Every component talks to the others only through the API (watches and writes), as the real
// ones do: the scheduler never calls the kubelet, the autoscaler learns about unschedulable pods
// from their PodScheduled condition.
//
// Threading: Start and Stop must run on the loop (from a task, or before a virtual loop runs);
// the cluster's work then runs in the loop's tasks.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "base/event_loop.h"
#include "client/local/local_client.h"
#include "cluster/cluster_spec.h"
#include "cluster/daemonset_controller.h"
#include "cluster/deployment_controller.h"
#include "cluster/disruption_controller.h"
#include "cluster/garbage_collector.h"
#include "cluster/job_controller.h"
#include "cluster/kubelet.h"
#include "cluster/kubelet_log.h"
#include "cluster/node_leases.h"
#include "cluster/node_pools.h"
#include "cluster/replicaset_controller.h"
#include "cluster/scheduler.h"
#include "cluster/statefulset_controller.h"
#include "cluster/tenant_pods.h"
#include "store/store.h"

namespace lws::cluster {

struct LocalClusterOptions {
  KubeletMode kubelet = KubeletMode::kAuto;
  std::uint64_t seed = 1;    // the root of every component's random stream
  bool node_leases = false;  // kubelets renew node Leases (node_leases.h): `lws up` only
  // Keep each container instance's lifecycle log (kubelet_log.h) for `kubectl logs`.
  bool container_logs = false;
  // The StatefulSet controller's client instead of the cluster's own in-process one: the
  // simulations' fault-injecting wrapper (client/faulty_client.h) around a LocalClient with
  // the field manager "statefulset-controller". Not owned; outlives the cluster.
  const client::Client* statefulset_client = nullptr;
};

class LocalCluster {
 public:
  // `local`: the embedded API server every component writes through (each with its own client).
  LocalCluster(EventLoop* loop, client::LocalApi local, ClusterSpec spec,
               LocalClusterOptions options);
  ~LocalCluster();
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;

  Status Start();
  void Stop();

  const ClusterSpec& spec() const { return spec_; }
  NodePools& node_pools() { return *node_pools_; }
  Kubelets& kubelets() { return *kubelets_; }
  // The container logs, when the options keep them (else null): the API server's
  // podlog::PodLogSource (the caller hands them to ApiServer::set_pod_log_source).
  KubeletLogs* container_logs() { return container_logs_.get(); }
  Scheduler& scheduler() { return *scheduler_; }
  // The "volcano" gang scheduler, when the spec asks for one (ClusterSpec::gang_scheduler).
  Scheduler* gang_scheduler() { return gang_scheduler_.get(); }
  StatefulSetController& statefulsets() { return *statefulsets_; }
  ReplicaSetController& replicasets() { return *replicasets_; }
  DeploymentController& deployments() { return *deployments_; }
  JobController& jobs() { return *jobs_; }
  DaemonSetController& daemonsets() { return *daemonsets_; }
  std::uint64_t gc_passes() const { return gc_passes_; }

 private:
  // The garbage collector acts on deletions: a pass runs after any object of an owning kind is
  // deleted or marked for deletion (several in one loop turn share one pass), and after one is
  // created naming an owner that is already gone.
  // Custom resources can own objects too (upstream's collector follows every resource discovery
  // serves): each CRD's kind gets a watch when the CRD appears (OnCrd), so a kind installed
  // after the start triggers passes like the built-in ones.
  Status WatchForCollection();
  void OnCrd(const store::WatchEvent& event);
  // Creates the PodGroup CRD unless it exists.
  Status InstallPodGroupCrd();
  void OnPossibleGarbage(const store::WatchEvent& event);
  // True when `object` names an owner the store does not hold (gone, or another uid).
  bool HasAbsentOwner(const store::StoredObject& object) const;
  void CollectGarbage();

  EventLoop* loop_;
  store::Store* store_;
  ClusterSpec spec_;
  LocalClusterOptions options_;
  client::LocalClient pools_client_;
  client::LocalClient scheduler_client_;
  client::LocalClient kubelet_client_;
  client::LocalClient statefulset_client_;
  client::LocalClient replicaset_client_;
  client::LocalClient deployment_client_;
  client::LocalClient disruption_client_;
  client::LocalClient job_client_;
  client::LocalClient daemonset_client_;
  client::LocalClient gc_client_;
  client::LocalClient namespace_client_;
  client::LocalClient gang_client_;
  client::LocalClient tenants_client_;
  std::unique_ptr<NodePools> node_pools_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Scheduler> gang_scheduler_;
  std::unique_ptr<TenantPods> tenants_;  // when the spec has other tenants
  std::unique_ptr<Kubelets> kubelets_;
  std::unique_ptr<KubeletLogs> container_logs_;
  std::unique_ptr<StatefulSetController> statefulsets_;
  std::unique_ptr<ReplicaSetController> replicasets_;
  std::unique_ptr<DeploymentController> deployments_;
  std::unique_ptr<DisruptionController> disruption_;
  std::unique_ptr<NodeLeases> node_leases_;
  std::unique_ptr<JobController> jobs_;
  std::unique_ptr<DaemonSetController> daemonsets_;
  std::vector<std::unique_ptr<client::Subscription>> gc_watches_;
  std::map<std::string, std::unique_ptr<client::Subscription>> crd_watches_;  // by CRD name
  bool gc_scheduled_ = false;
  std::uint64_t gc_passes_ = 0;
  std::optional<Time> last_gc_;  // when the last pass ran
  GcGraph gc_graph_;             // kept across passes: each reads only what changed
  // During a rollout that deletes pods all the time, passes are spaced at least this far apart,
  // so that one pass takes many deletions; a lone deletion is still collected at once.
  static constexpr Duration kGcMinInterval = std::chrono::milliseconds(500);
};

}  // namespace lws::cluster
