// File: cluster/scheduler_filters.h
//
// The per-node filters behind SchedulePod (scheduler_plan.h), one function per kube-scheduler
// plugin, each returning upstream's reason strings. Internal to the cluster layer: exposed so
// scheduler_plan.cc can chain them and tests can name the reason constants.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/scheduler_plan.h"

namespace lws::cluster::scheduler {

inline constexpr std::string_view kReasonUnschedulable = "node(s) were unschedulable";
inline constexpr std::string_view kReasonNodeAffinity =
    "node(s) didn't match Pod's node affinity/selector";
inline constexpr std::string_view kReasonTooManyPods = "Too many pods";
inline constexpr std::string_view kReasonPodAffinity = "node(s) didn't match pod affinity rules";
inline constexpr std::string_view kReasonPodAntiAffinity =
    "node(s) didn't match pod anti-affinity rules";
inline constexpr std::string_view kReasonExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";

// A plugin's verdict on one node: no reasons means the node passes. `resolvable` is upstream's
// Unschedulable (removing pods could help, so preemption looks for victims) as opposed to
// UnschedulableAndUnresolvable.
struct FilterStatus {
  std::vector<std::string> reasons;
  bool resolvable = false;
  bool Passed() const { return reasons.empty(); }
};

// Resource amounts in the scheduler's units: millicores for cpu, Value() for everything else.
using cluster::ResourceAmounts;

// True iff the scheduler accounts for `name`: cpu, memory, ephemeral-storage, extended
// resources (domain-prefixed outside kubernetes.io, e.g. nvidia.com/gpu), hugepages-* and
// attachable-volumes-* (upstream IsScalarResourceName).
bool IsAccountedResource(std::string_view name);
// `list` in scheduler units, keeping only accounted resources.
ResourceAmounts ToAmounts(const api::ResourceList& list);

// NodeUnschedulable.
FilterStatus CheckUnschedulable(const api::Pod& pod, const api::Node& node);
// The taint the node lifecycle controller keeps on a node that is not Ready (a kubelet also
// registers its node with the not-ready taint), unless the node carries it already; nullopt for
// a Ready node. It comes after the node's own taints.
std::optional<api::Taint> LifecycleTaint(const api::Node& node);
// TaintToleration, with the not-ready/unreachable taint described in scheduler_plan.h.
FilterStatus CheckTaints(const api::Pod& pod, const api::Node& node);
// The same with the node's LifecycleTaint given (NodeTotals keeps it).
FilterStatus CheckTaints(const api::Pod& pod, const api::Node& node,
                         const std::optional<api::Taint>& lifecycle);
// NodeAffinity: nodeSelector and required node affinity.
FilterStatus CheckNodeAffinity(const api::Pod& pod, const api::Node& node);
// A pod's accounted requests (ToAmounts(PodRequests(pod))) made ready once per attempt for the
// resource filter, which runs for every node: each positive amount with its position among the
// scored resources (ScoredAmounts; -1 for the others, which are looked up in the maps) and its
// reason. In name order, the order of the filter's reasons.
struct ResourceRequest {
  struct Item {
    std::string name;
    std::int64_t amount = 0;
    int scored = -1;
    std::string reason;  // "Insufficient <name>"
  };
  explicit ResourceRequest(const ResourceAmounts& amounts);
  std::vector<Item> items;
};
// NodeResourcesFit.
FilterStatus CheckResources(const ResourceRequest& request, const NodeInfo& node);

// True iff `tolerations` tolerate the taint (upstream Toleration.ToleratesTaint).
bool Tolerates(const std::vector<api::Toleration>& tolerations, const api::Taint& taint);

// InterPodAffinity: the counts upstream's PreFilter computes once per pod, then a per-node check.
class InterPodAffinity {
 public:
  InterPodAffinity(const api::Pod& pod, const std::vector<NodeInfo>& nodes);
  FilterStatus Check(const api::Node& node) const;

 private:
  // The placed pods' required anti-affinity against the pod, on a node with `labels`.
  FilterStatus ExistingAntiAffinity(const api::StringMap& labels) const;

  // (topology key, value) -> number of matching terms or pods.
  using TopologyCounts = std::map<std::pair<std::string, std::string>, int>;
  const api::Pod& pod_;
  // Whether the pod has required (anti-)affinity terms of its own: most pods have none, and the
  // per-node check then only looks at the placed pods' anti-affinity.
  bool has_own_terms_ = false;
  TopologyCounts affinity_counts_;                // pods matching all of the pod's affinity terms
  TopologyCounts anti_affinity_counts_;           // pods matching one of its anti-affinity terms
  TopologyCounts existing_anti_affinity_counts_;  // existing pods' terms matching the pod
};

// The first plugin that rejects the node, in the default profile's filter order (scheduler_plan.h).
FilterStatus RunFilters(const api::Pod& pod, const NodeInfo& info, const ResourceRequest& request,
                        const InterPodAffinity& inter_pod);

// LeastAllocated score (0-100) of a feasible node for a pod with `nonzero_request`.
std::int64_t LeastAllocatedScore(const ScoredAmounts& nonzero_request, const NodeInfo& node);
// The pod's cpu/memory/gpu requests with upstream's non-zero defaults for cpu and memory.
ScoredAmounts NonZeroRequests(const api::Pod& pod);

// Totals of a node with no pods.
NodeTotals EmptyTotals(const api::Node& node);
// Sets what `totals` holds of the node itself (allocatable and what derives from it, and the
// node's LifecycleTaint).
void SetNodeAllocatable(NodeTotals& totals, const api::Node& node);
// Adds (`sign` 1) or removes (`sign` -1) `pod` from `totals`.
void CountPod(NodeTotals& totals, const api::Pod* pod, int sign);
// `*info.totals` when set, else the totals computed from its node and pods into `scratch`.
const NodeTotals& TotalsOf(const NodeInfo& info, std::optional<NodeTotals>& scratch);

}  // namespace lws::cluster::scheduler
