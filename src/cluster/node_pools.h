// File: cluster/node_pools.h
//
// The machines of the simulated cluster and the cloud's cluster-autoscaler that grows and shrinks
// them. NodePools creates each pool's initial nodes (cluster_spec.h), then behaves as
// cluster-autoscaler does against a cloud provider whose node groups are the pools:
//   - Scale-up: pods the scheduler marked PodScheduled=False/Unschedulable are packed first-fit
//     onto nodes already being provisioned, then onto new nodes of the first pool (spec order)
//     whose empty node would take them (node_pool_plan.h decides; it reuses the scheduler's
//     filters). A new node registers, Ready, after the pool's provisioning_delay. Pods get the
//     autoscaler's events: TriggeredScaleUp, or NotTriggerScaleUp with the reasons per pool
//     ("1 max node group size reached", "1 Insufficient nvidia.com/gpu").
//   - Stockouts (scripted): a scale-up into a stocked-out pool fails as a GCE out-of-resources
//     error would (a Warning FailedScaleUp event on the pod) and the pool is in Backoff until the
//     stockout ends (upstream's backoff is exponential from 5 minutes; here it lasts exactly as
//     long as the stockout, which is what a script means by one). Provisioning already requested
//     before the stockout completes.
//   - Scale-down: a node with no pod bound to it (terminated pods and, as cluster-autoscaler
//     has it, DaemonSet pods aside) for the pool's scale_down_delay is deleted, highest index
//     first, never below min_nodes.
//   - Status: the ConfigMap kube-system/cluster-autoscaler-status holds the YAML status of
//     cluster-autoscaler 1.30+ (clusterWide and per nodeGroups health, scaleUp, scaleDown),
//     rewritten only when its content changes. Two deviations, both to keep it readable and
//     change-driven: no lastProbeTime/lastTransitionTime, and a non-upstream `message` under a
//     group's scaleUp saying why pods wait on it ("max node group size reached").
//   - Scripted capacity changes (ClusterSpec.changes, relative to Start): stockouts, and zones or
//     single nodes going NotReady and back (SetNodeReady, kubelet.h). Failing the pods of a
//     NotReady node is the kubelets' job, not this one's.
//
// Runs on its EventLoop only: informer handlers and timers; every write goes through the
// LocalClient as field manager "cluster-autoscaler". Deterministic for a given Rng seed.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/event_loop.h"
#include "base/rng.h"
#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "cluster/cluster_spec.h"

namespace lws::cluster {

// The autoscaler's status ConfigMap (namespace kube-system).
inline constexpr const char* kAutoscalerStatusConfigMap = "cluster-autoscaler-status";
inline constexpr const char* kAutoscalerComponent = "cluster-autoscaler";
// The taint the node lifecycle controller puts on a node whose kubelet stopped reporting.
inline constexpr const char* kUnreachableTaint = "node.kubernetes.io/unreachable";

// The pool a node belongs to (its kNodePoolLabel); "" when unlabelled.
std::string NodePool(const store::StoredObject& node);

// The nodes of a pool, and how many of them are Ready (the status ConfigMap's nodeCounts).
struct NodeCounts {
  int total = 0;
  int ready = 0;
};

class NodePools {
 public:
  // REQUIRES: loop, client and spec outlive this object.
  NodePools(EventLoop* loop, const client::LocalClient* client, const ClusterSpec* spec, Rng rng);
  ~NodePools();
  NodePools(const NodePools&) = delete;
  NodePools& operator=(const NodePools&) = delete;

  // Creates the initial nodes that do not exist yet (nodes of the same names are kept, so a
  // resumed cluster is left alone), schedules the spec's capacity changes relative to now and
  // starts watching pods and nodes.
  Status Start();
  // Cancels pending provisioning, changes and timers and stops watching.
  void Stop();

  // For `lws up` to print what it built, and for tests. Counts come from the node informer, so
  // they are current once the loop has run.
  struct PoolState {
    std::string name;
    int nodes = 0;
    int provisioning = 0;
    int max_nodes = 0;
    bool stocked_out = false;
  };
  std::vector<PoolState> pools() const;

 private:
  struct Pool {
    const NodePoolSpec* spec = nullptr;
    std::set<int> provisioning;  // indexes requested and not registered yet
    bool stocked_out = false;
    bool backoff = false;        // a scale-up hit the stockout
    std::string waiting_reason;  // why the last pass left pods waiting on this pool
  };

  void OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now);
  // Runs `task` at `when` unless Stop came first.
  void Schedule(Time when, std::function<void()> task);
  // Coalesces change notifications into one pass per loop turn.
  void RequestPass();
  void RunPass(bool periodic);
  void ScaleUp();
  void ScaleDown();
  void Provisioned(const std::string& pool, int index);
  void ApplyChange(const CapacityChange& change);
  void ApplyReadiness(const std::string& node);
  void WriteStatus();
  std::string StatusYaml() const;
  int PoolSize(const std::string& pool) const;
  // Keeps node_entries_ and node_counts_ in step with one node event (null `now`: deleted).
  void CountNode(const std::string& name, const store::ObjectPtr& now);

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  const ClusterSpec* const spec_;
  Rng rng_;
  client::Informer pods_;
  client::Informer nodes_;
  client::EventRecorder recorder_;
  std::map<std::string, Pool> pools_;
  // Non-terminated pods bound to each node, and the unschedulable pods, kept by OnPod.
  std::map<std::string, int> pods_on_node_;
  std::set<store::ObjectName> unschedulable_;
  std::map<std::string, Time> empty_since_;
  // What a pass reads of each node, kept by OnNode: a pass then costs O(changes) and not
  // O(nodes), which made the passes (one per loop turn with pod events) grow with the fleet.
  struct NodeEntry {
    std::string pool;  // "" when unlabelled
    bool ready = false;
  };
  std::map<std::string, NodeEntry> node_entries_;
  std::map<std::string, NodeCounts> node_counts_;  // by pool
  // Nodes whose existence, pool or emptiness changed since the last ScaleDown: the only ones
  // whose empty_since_ entry can change, apart from the clock.
  std::set<std::string> scale_down_dirty_;
  // The last NotTriggerScaleUp message per pod: repeated only when it changes.
  std::map<store::ObjectName, std::string> last_no_scale_up_;
  // Pods already reported as larger than every node shape (NoNodeLargeEnough, once each).
  std::set<store::ObjectName> too_large_;
  std::set<std::string> down_zones_;
  std::set<std::string> down_nodes_;
  std::map<std::uint64_t, TaskId> timers_;
  std::uint64_t next_timer_ = 0;
  bool running_ = false;
  bool pass_posted_ = false;
  bool scale_up_due_ = true;  // pending pods or nodes changed since the last scale-up check
  bool periodic_scheduled_ = false;
  std::string status_body_;  // the status last written, without its time line
  api::Json status_object_;  // the ConfigMap as last written (events are recorded on it)
};

// The Node object for node `index` of `pool` (named NodeName(pool.name, index)), Ready since
// `now`. Zones go round-robin by index: zone zones[index % zones.size()]. Racks and NVLink
// domains are consecutive runs of indexes: rack <pool>-rack-<index / nodes_per_rack>. The
// InternalIP is 10.<hash of the pool name>.<index / 250>.<index % 250 + 1>.
api::Json NewNode(const NodePoolSpec& pool, int index, Time now);

}  // namespace lws::cluster
