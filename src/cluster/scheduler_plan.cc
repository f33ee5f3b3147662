// SchedulePod (scheduler_plan.h): the filters in plugin order per node, the LeastAllocated pick
// among the nodes that pass, and otherwise the FailedScheduling message with its preemption part.
#include "cluster/scheduler_plan.h"

#include <algorithm>

#include "cluster/scheduler_filters.h"
#include "cluster/scheduler_preemption.h"

namespace lws::cluster {
namespace {

using scheduler::FilterStatus;

constexpr std::string_view kNoNodes = "no nodes available to schedule pods";
}  // namespace

namespace scheduler {

FilterStatus RunFilters(const api::Pod& pod, const NodeInfo& info, const ResourceRequest& request,
                        const InterPodAffinity& inter_pod) {
  const api::Node& node = *info.node;
  FilterStatus status = CheckUnschedulable(pod, node);
  if (!status.Passed()) return status;
  status =
      info.totals ? CheckTaints(pod, node, info.totals->lifecycle_taint) : CheckTaints(pod, node);
  if (!status.Passed()) return status;
  status = CheckNodeAffinity(pod, node);
  if (!status.Passed()) return status;
  status = CheckResources(request, info);
  if (!status.Passed()) return status;
  return inter_pod.Check(node);
}

}  // namespace scheduler

std::size_t NumFeasibleNodesToFind(std::size_t node_count) {
  constexpr std::size_t kMinFeasibleNodes = 100;
  constexpr std::size_t kMinPercentage = 5;
  if (node_count < kMinFeasibleNodes) return node_count;
  const std::size_t drop = node_count / 125;
  const std::size_t percentage = drop >= 50 - kMinPercentage ? kMinPercentage : 50 - drop;
  return std::max(kMinFeasibleNodes, node_count * percentage / 100);
}

ScheduleResult SchedulePod(const api::Pod& pod, const std::vector<NodeInfo>& nodes,
                           NodeSearch search, const NominatedPods* nominated) {
  ScheduleResult result;
  if (nodes.empty()) {
    result.message = std::string(kNoNodes);
    result.condition_reason = "SchedulerError";
    return result;
  }
  const scheduler::ResourceRequest request(scheduler::ToAmounts(PodRequests(pod)));
  const ScoredAmounts nonzero = scheduler::NonZeroRequests(pod);
  const scheduler::InterPodAffinity inter_pod(pod, nodes);

  const std::size_t count = nodes.size();
  const std::size_t start = search.sample ? search.start % count : 0;
  const std::size_t wanted = search.sample ? NumFeasibleNodesToFind(count) : count;
  std::size_t feasible = 0;
  std::size_t processed = 0;
  std::int64_t best_score = -1;
  // The preemption dry run's per-node verdicts: evicting could help, or could not.
  int no_victims = 0, not_helpful = 0;
  bool victims_possible = false;
  NodeInfo scratch;
  for (; processed < count && feasible < wanted; ++processed) {
    const NodeInfo& node = nodes[(start + processed) % count];
    const NodeInfo* with_nominated = WithNominatedPods(pod, node, nominated, &scratch);
    const NodeInfo& info = with_nominated != nullptr ? *with_nominated : node;
    FilterStatus status = scheduler::RunFilters(pod, info, request, inter_pod);
    const std::string& name = info.node->metadata.name;
    if (status.Passed()) {
      ++feasible;
      const std::int64_t score = scheduler::LeastAllocatedScore(nonzero, info);
      if (score > best_score || (score == best_score && name < result.node_name)) {
        best_score = score;
        result.node_name = name;
      }
      continue;
    }
    for (const std::string& reason : status.reasons) ++result.reasons[reason];
    // Where evicting pods could help but none has a lower priority, there are no victims.
    ++(status.resolvable ? no_victims : not_helpful);
    victims_possible = victims_possible || (status.resolvable && HasLowerPriorityPod(pod, info));
  }
  result.next_start = (start + processed) % count;
  if (!result.node_name.empty()) {
    result.reasons.clear();
    return result;
  }

  result.condition_reason = "Unschedulable";
  std::string preemption_text;
  if (NeverPreempts(pod)) {
    preemption_text = "not eligible due to preemptionPolicy=Never.";
  } else if (victims_possible) {
    PreemptionResult preemption = Preempt(pod, nodes, request, inter_pod, nominated);
    if (!preemption.node.empty()) {
      // PostFilter succeeded: the message has no preemption part (upstream FitError.Error()).
      result.nominated_node = preemption.node;
      result.victims = std::move(preemption.victims);
      result.message = FitErrorText(nodes.size(), result.reasons);
      return result;
    }
    preemption_text = preemption.message;
  } else {
    // No pod of lower priority where it would help: upstream's dry run finds no victims.
    std::map<std::string, int> preemption;
    if (no_victims > 0) preemption["No preemption victims found for incoming pod"] = no_victims;
    if (not_helpful > 0) preemption["Preemption is not helpful for scheduling"] = not_helpful;
    preemption_text = FitErrorText(nodes.size(), preemption);
  }
  // upstream appends PostFilter's message with " %v.", after a text that already ends in ".".
  result.message =
      FitErrorText(nodes.size(), result.reasons) + " preemption: " + preemption_text + ".";
  return result;
}

}  // namespace lws::cluster
