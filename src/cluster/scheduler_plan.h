// File: cluster/scheduler_plan.h
//
// The decisions of the simulated kube-scheduler, as one pure function: a pending pod and a
// snapshot of the nodes (each with the pods bound to it) in, the chosen node or the reasons why
// there is none out. It reads no clock, client or random source; the caller binds the pod or
// writes the PodScheduled=False condition and the FailedScheduling event (issue 4).
//
// Filters, run per node in kube-scheduler v1.32's default plugin order; the first plugin that
// rejects a node gives that node's reasons (as upstream's RunFilterPlugins):
//   1. NodeUnschedulable: spec.unschedulable, unless the pod tolerates the
//      node.kubernetes.io/unschedulable:NoSchedule taint.
//   2. TaintToleration: the first NoSchedule/NoExecute taint no toleration tolerates. A node
//      whose Ready condition is not True carries, in addition to its own taints, the taint the
//      node lifecycle controller would add: node.kubernetes.io/not-ready (Ready False or absent,
//      as the kubelet registers a node) or node.kubernetes.io/unreachable (Ready Unknown).
//   3. NodeAffinity: spec.nodeSelector and required node affinity.
//   4. NodeResourcesFit: "Too many pods" against allocatable "pods", then every requested
//      resource against allocatable minus the requests of every pod bound to the node
//      (terminating pods included: they hold their resources until they are gone). One node may
//      give several reasons ("Insufficient cpu" and "Insufficient memory").
//   5. InterPodAffinity: required pod affinity, required pod anti-affinity, and the required
//      anti-affinity of pods already placed against the incoming pod.
//
// Scoring (a documented simplification): upstream sums several score plugins and picks one of
// the best nodes at random. Here a feasible node scores NodeResourcesFit's LeastAllocated
// formula over cpu, memory and nvidia.com/gpu (each weight 1, skipped where the node has none of
// it; cpu and memory requests default to 100m and 200Mi per container as upstream's
// NonZeroRequested), so pods spread the way the default profile spreads them; ties go to the
// node name that sorts first. With a full search (the default NodeSearch) the result does not
// depend on the order of `nodes` or of the pods in them.
//
// When no node fits, DefaultPreemption (scheduler_preemption.h) looks for victims of lower
// priority: the result then names the node to nominate and the pods to evict. Pods nominated on
// a node with at least the incoming pod's priority count there as if placed.
//
// Left out: volumes, host ports, topology
// spread constraints, preferred (soft) terms, PreFilter node-name narrowing for matchFields,
// namespaceSelector with terms (needs namespace labels; an empty one means all namespaces), and
// percentageOfNodesToScore.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/core.h"
#include "api/pod.h"

namespace lws::cluster {

// One node of the snapshot with every pod bound to it.
// Resource name -> amount in the scheduler's units (cpu in millicores, the rest in units).
using ResourceAmounts = std::map<std::string, std::int64_t>;

// The resources the LeastAllocated score weighs, in this order: cpu (millicores), memory,
// nvidia.com/gpu. A fixed array, not a map: the score runs for every feasible node of every
// attempt, and needs no lookup by name.
using ScoredAmounts = std::array<std::int64_t, 3>;

// The sums the resource filter and score need, kept by a cache that owns its pods so that a
// scheduling attempt does not re-add every bound pod's requests on every node (which made
// scheduling quadratic in the pods of the cluster).
struct NodeTotals {
  ResourceAmounts allocatable;      // the node's allocatable, accounted resources only
  std::int64_t allowed_pods = 0;    // the node's allocatable "pods" (not an accounted resource)
  ResourceAmounts requested;        // sum of the pods' effective requests
  ScoredAmounts scored_capacity{};  // `allocatable` of the scored resources (0: absent)
  // `requested` of the scored resources: the resource filter reads these three from the arrays,
  // not the maps, for every node an attempt examines.
  ScoredAmounts scored_requested{};
  ScoredAmounts nonzero{};  // sum of the pods' scored requests with upstream's non-zero defaults
  // The pods with required pod anti-affinity: the only placed pods that can reject an incoming
  // pod without affinity terms of its own (upstream's HavePodsWithRequiredAntiAffinityList).
  std::vector<const api::Pod*> anti_affinity_pods;
  // scheduler::LifecycleTaint of the node: read for every node of every attempt, and only a
  // node update changes it.
  std::optional<api::Taint> lifecycle_taint;
  // At most the lowest spec.priority of the pods on the node (never raised when a pod leaves):
  // where it is not below a pod's priority, preemption has no victim to look for.
  std::int32_t lowest_priority = INT32_MAX;
};

struct NodeInfo {
  const api::Node* node = nullptr;
  // Pods whose spec.nodeName is this node, terminating ones included.
  std::vector<const api::Pod*> pods;
  // When set, equal to what the functions of scheduler_filters.h would compute from `node` and
  // `pods`; when unset they compute it.
  std::optional<NodeTotals> totals;
};

struct ScheduleResult {
  std::string node_name;  // empty when the pod is unschedulable
  // The FailedScheduling event and PodScheduled condition message when node_name is empty.
  std::string message;
  // The PodScheduled=False reason: "Unschedulable", or "SchedulerError" when there are no
  // nodes at all (upstream reports ErrNoNodesAvailable as an error, not a fit error).
  std::string condition_reason;
  // Filter reason -> number of nodes that gave it.
  std::map<std::string, int> reasons;
  // Where the next attempt's node search starts (NodeSearch).
  std::size_t next_start = 0;
  // When no node fits but preemption makes room: the node to nominate the pod on, and the pods
  // to evict there (the most important first).
  std::string nominated_node;
  std::vector<const api::Pod*> victims;

  bool operator==(const ScheduleResult&) const = default;
};

// Picks the node for `pod` among `nodes`, or explains why none fits with v1.32's message, e.g.
// "0/8 nodes are available: 3 Insufficient nvidia.com/gpu, 5 node(s) didn't match Pod's node
// affinity/selector. preemption: 0/8 nodes are available: 3 No preemption victims found for
// incoming pod, 5 Preemption is not helpful for scheduling..". The doubled final period is
// upstream's: the preemption text ends with one and the outer message appends another.
// REQUIRES: every NodeInfo::node is non-null; node names are unique; pod.spec.nodeName is empty.
// How much of the cluster one attempt examines. kube-scheduler stops filtering once it has found
// NumFeasibleNodesToFind(nodes) feasible nodes (percentageOfNodesToScore, adaptive by default)
// and starts the next attempt where this one stopped, so large clusters are not filtered and
// scored in full for every pod. Clusters under 100 nodes are always examined in full.
struct NodeSearch {
  bool sample = false;    // false: every node (as the autoscaler's simulation does)
  std::size_t start = 0;  // index into `nodes` where the search begins
};

// upstream numFeasibleNodesToFind with the adaptive percentage (50 - nodes/125, at least 5%, at
// least 100 nodes).
std::size_t NumFeasibleNodesToFind(std::size_t node_count);

// Pods nominated on each node (status.nominatedNodeName), by node name.
using NominatedPods = std::map<std::string, std::vector<const api::Pod*>>;

ScheduleResult SchedulePod(const api::Pod& pod, const std::vector<NodeInfo>& nodes,
                           NodeSearch search = {}, const NominatedPods* nominated = nullptr);

// The pod's effective requests, as upstream resourcehelper.PodRequests: the sum over containers,
// raised to the largest init container (sidecars, i.e. init containers with restartPolicy
// Always, add to both), plus spec.overhead. A container resource with a limit and no request
// requests its limit (the API server's defaulting, applied again for robustness).
api::ResourceList PodRequests(const api::Pod& pod);

}  // namespace lws::cluster
