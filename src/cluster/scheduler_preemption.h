// File: cluster/scheduler_preemption.h
//
// kube-scheduler v1.32's DefaultPreemption (PostFilter) and the nominated-pod accounting that
// goes with it, as pure functions over the snapshot of scheduler_plan.h. When a pod fits no node:
//   1. It is not eligible with preemptionPolicy Never, or while a lower-priority pod that the
//      scheduler preempted for it is still terminating on its nominated node.
//   2. On every node whose filters failed for a reason that removing pods can resolve (resources,
//      anti-affinity), every pod of lower priority is taken away; if the pod then fits, as many
//      of them as possible are given back, the most important first (higher priority, then the
//      earlier start), and the rest are the victims. A node with no lower-priority pod has "No
//      preemption victims found for incoming pod"; one where the pod does not fit even then keeps
//      the filter's reasons; the others "Preemption is not helpful for scheduling".
//   3. Among the nodes with victims the one picked has (upstream pickOneNodeForPreemption; there
//      are no PodDisruptionBudgets here) the lowest highest-priority victim, then the lowest sum
//      of victim priorities, then the fewest victims, then the latest start among its
//      highest-priority victims, then the first name.
// The caller nominates the pod on that node (status.nominatedNodeName), marks the victims with
// the DisruptionTarget condition, deletes them, and tries the pod again once they are gone.
// Meanwhile a pod of lower or equal priority does not take the room: the filters count the pods
// nominated on a node with a priority at least the incoming pod's as if they ran there
// (upstream RunFilterPluginsWithNominatedPods, resources only here).
//
// Simplification: removing victims changes the resource totals only; the inter-pod
// (anti-)affinity verdict is the one computed with every pod in place.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "api/pod.h"
#include "cluster/scheduler_filters.h"
#include "cluster/scheduler_plan.h"

namespace lws::cluster {

// spec.priority as the Priority admission plugin sets it; 0 when absent.
std::int32_t PodPriority(const api::Pod& pod);
// spec.preemptionPolicy is Never.
bool NeverPreempts(const api::Pod& pod);

struct PreemptionResult {
  std::string node;                      // empty: no node, see `message`
  std::vector<const api::Pod*> victims;  // the most important first
  // Without a node: PostFilter's message, e.g. "0/4 nodes are available: 4 No preemption victims
  // found for incoming pod." or "not eligible due to preemptionPolicy=Never.".
  std::string message;
};

// Steps 1-3 for `pod`, which fit no node of `nodes` (with the pods `nominated` there).
PreemptionResult Preempt(const api::Pod& pod, const std::vector<NodeInfo>& nodes,
                         const scheduler::ResourceRequest& request,
                         const scheduler::InterPodAffinity& inter_pod,
                         const NominatedPods* nominated = nullptr);

// True iff a pod of lower priority than `pod` runs on `info`: without one, preemption has no
// victim there.
bool HasLowerPriorityPod(const api::Pod& pod, const NodeInfo& info);

// `info` with the pods nominated on its node that are at least as important as `pod` (other than
// `pod` itself) counted in its totals; null when there are none (use `info` as it is).
// `scratch` holds the copy.
const NodeInfo* WithNominatedPods(const api::Pod& pod, const NodeInfo& info,
                                  const NominatedPods* nominated, NodeInfo* scratch);

// "0/N nodes are available: <count reason, ...>." (upstream FitError.Error()).
std::string FitErrorText(std::size_t node_count, const std::map<std::string, int>& reasons);

}  // namespace lws::cluster
