// Volcano-style gang placement (scheduler_gang.h).
#include "cluster/scheduler_gang.h"

#include <fmt/format.h>

#include <deque>

#include "cluster/scheduler_filters.h"

namespace lws::cluster {
namespace {

std::string NotReadyMessage(int total, int waiting, int min_member) {
  return fmt::format(
      "{}/{} tasks in gang unschedulable: pod group is not ready, {} Pending, {} "
      "minAvailable; Pending: {} Unschedulable",
      waiting, total, waiting, min_member, waiting);
}

// Whether the free resources of the nodes a pod could use (schedulable and Ready) cover
// `wanted`, counted in the scheduler's units.
bool CoversMinResources(const std::vector<NodeInfo>& nodes, const api::ResourceList& wanted) {
  const ResourceAmounts need = scheduler::ToAmounts(wanted);
  if (need.empty()) return true;
  ResourceAmounts free;
  for (const NodeInfo& info : nodes) {
    std::optional<NodeTotals> scratch;
    const NodeTotals& totals = scheduler::TotalsOf(info, scratch);
    if (info.node->spec.unschedulable || totals.lifecycle_taint.has_value()) continue;
    for (const auto& [name, allocatable] : totals.allocatable) {
      auto used = totals.requested.find(name);
      free[name] += allocatable - (used == totals.requested.end() ? 0 : used->second);
    }
  }
  for (const auto& [name, amount] : need) {
    auto it = free.find(name);
    if (it == free.end() || it->second < amount) return false;
  }
  return true;
}

}  // namespace

GangPlacement PlaceGang(const std::vector<const api::Pod*>& waiting, int bound,
                        const GangSpec& gang, const std::vector<NodeInfo>& nodes) {
  GangPlacement out;
  const int total = bound + static_cast<int>(waiting.size());
  const int waiting_count = static_cast<int>(waiting.size());
  if (total < gang.min_member) {
    out.reason = "NotEnoughPods";
    out.message = NotReadyMessage(total, waiting_count, gang.min_member);
    return out;
  }
  if (bound == 0 && !CoversMinResources(nodes, gang.min_resources)) {
    out.reason = "NotEnoughResources";
    out.message = NotReadyMessage(total, waiting_count, gang.min_member) +
                  "; the cluster's free resources do not cover the pod group's minResources";
    return out;
  }
  // Each pod placed on a copy of the nodes that counts the ones placed before it.
  std::vector<NodeInfo> scratch = nodes;
  std::deque<api::Pod> assumed;  // stable addresses for the copies' pod pointers
  std::string first_failure;
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    ScheduleResult result = SchedulePod(*waiting[i], scratch);
    if (result.node_name.empty()) {
      if (first_failure.empty()) first_failure = result.message;
      continue;
    }
    for (NodeInfo& info : scratch) {
      if (info.node->metadata.name != result.node_name) continue;
      api::Pod& pod = assumed.emplace_back(*waiting[i]);
      pod.spec.node_name = result.node_name;
      info.pods.push_back(&pod);
      if (info.totals) scheduler::CountPod(*info.totals, &pod, 1);
      break;
    }
    out.placed.emplace_back(i, result.node_name);
  }
  if (bound + static_cast<int>(out.placed.size()) >= gang.min_member) {
    out.admitted = true;
    return out;
  }
  const int unplaced = waiting_count - static_cast<int>(out.placed.size());
  out.placed.clear();
  out.reason = "Unschedulable";
  out.message = fmt::format(
      "{}/{} tasks in gang unschedulable: pod group is not ready, {} "
      "Pending, {} minAvailable; Pending: {} Unschedulable, {} Schedulable. "
      "Origin reason is {}",
      unplaced, total, waiting_count, gang.min_member, unplaced, waiting_count - unplaced,
      first_failure);
  return out;
}

}  // namespace lws::cluster
