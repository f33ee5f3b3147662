// SchedulePod (scheduler_plan.h): the filters in plugin order per node, the LeastAllocated pick
// among the nodes that pass, and otherwise the FailedScheduling message with its preemption part.
#include "cluster/scheduler_plan.h"

#include <algorithm>

#include "cluster/scheduler_filters.h"

namespace lws::cluster {
namespace {

using scheduler::FilterStatus;

constexpr std::string_view kNoNodes = "no nodes available to schedule pods";
constexpr std::string_view kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
constexpr std::string_view kNoVictims = "No preemption victims found for incoming pod";

// "0/N nodes are available: <count reason, ...>." with the histogram sorted as strings, count
// prefix included, as upstream FitError.Error() does.
std::string FitErrorText(std::size_t node_count, const std::map<std::string, int>& reasons) {
  std::vector<std::string> parts;
  for (const auto& [reason, count] : reasons) parts.push_back(std::to_string(count) + " " + reason);
  std::sort(parts.begin(), parts.end());
  std::string text = "0/" + std::to_string(node_count) + " nodes are available:";
  if (parts.empty()) return text;
  text += " ";
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text + ".";
}

bool NeverPreempts(const api::Pod& pod) {
  if (!pod.spec.rest.is_object()) return false;
  auto it = pod.spec.rest.find("preemptionPolicy");
  return it != pod.spec.rest.end() && it->is_string() && *it == "Never";
}

// The first plugin that rejects the node, in the default profile's filter order.
FilterStatus RunFilters(const api::Pod& pod, const NodeInfo& info,
                        const scheduler::ResourceRequest& request,
                        const scheduler::InterPodAffinity& inter_pod) {
  const api::Node& node = *info.node;
  FilterStatus status = scheduler::CheckUnschedulable(pod, node);
  if (!status.Passed()) return status;
  status = info.totals ? scheduler::CheckTaints(pod, node, info.totals->lifecycle_taint)
                       : scheduler::CheckTaints(pod, node);
  if (!status.Passed()) return status;
  status = scheduler::CheckNodeAffinity(pod, node);
  if (!status.Passed()) return status;
  status = scheduler::CheckResources(request, info);
  if (!status.Passed()) return status;
  return inter_pod.Check(node);
}

}  // namespace

std::size_t NumFeasibleNodesToFind(std::size_t node_count) {
  constexpr std::size_t kMinFeasibleNodes = 100;
  constexpr std::size_t kMinPercentage = 5;
  if (node_count < kMinFeasibleNodes) return node_count;
  const std::size_t drop = node_count / 125;
  const std::size_t percentage = drop >= 50 - kMinPercentage ? kMinPercentage : 50 - drop;
  return std::max(kMinFeasibleNodes, node_count * percentage / 100);
}

ScheduleResult SchedulePod(const api::Pod& pod, const std::vector<NodeInfo>& nodes,
                           NodeSearch search) {
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
  for (; processed < count && feasible < wanted; ++processed) {
    const NodeInfo& info = nodes[(start + processed) % count];
    FilterStatus status = RunFilters(pod, info, request, inter_pod);
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
    // Every pod has the same priority here, so a node where evicting pods could help has no
    // victims to evict.
    ++(status.resolvable ? no_victims : not_helpful);
  }
  result.next_start = (start + processed) % count;
  if (!result.node_name.empty()) {
    result.reasons.clear();
    return result;
  }

  result.condition_reason = "Unschedulable";
  std::map<std::string, int> preemption;
  if (no_victims > 0) preemption[std::string(kNoVictims)] = no_victims;
  if (not_helpful > 0) preemption[std::string(kPreemptionNotHelpful)] = not_helpful;
  const std::string preemption_text = NeverPreempts(pod)
                                          ? "not eligible due to preemptionPolicy=Never."
                                          : FitErrorText(nodes.size(), preemption);
  // upstream appends PostFilter's message with " %v.", after a text that already ends in ".".
  result.message = FitErrorText(nodes.size(), result.reasons) + " preemption: " + preemption_text + ".";
  return result;
}

}  // namespace lws::cluster
