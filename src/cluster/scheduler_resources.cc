// Resource accounting for the scheduler (scheduler_plan.h): a pod's effective requests, the
// NodeResourcesFit filter and the LeastAllocated score, in upstream's units and order.
#include <algorithm>
#include <string>

#include "api/pod_requests.h"
#include "cluster/scheduler_filters.h"
#include "cluster/scheduler_preemption.h"

namespace lws::cluster {
namespace {

using api::Quantity;
using api::ResourceList;

constexpr std::string_view kGpu = "nvidia.com/gpu";

std::int64_t Amount(const scheduler::ResourceAmounts& amounts, const std::string& name) {
  auto it = amounts.find(name);
  return it == amounts.end() ? 0 : it->second;
}

// upstream leastRequestedScore: the free share after placing the pod, 0..100.
std::int64_t LeastRequested(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * 100 / capacity;
}

}  // namespace

ResourceList PodRequests(const api::Pod& pod) {
  return api::PodSpecRequests(pod.spec, {}, api::LimitsAsRequests::kYes);
}

namespace scheduler {

bool IsAccountedResource(std::string_view name) {
  if (name == "cpu" || name == "memory" || name == "ephemeral-storage") return true;
  if (name.starts_with("hugepages-") || name.starts_with("attachable-volumes-")) return true;
  // Extended resources: not native (native names have no domain or a kubernetes.io domain) and
  // not quota names.
  if (name.find('/') == std::string_view::npos) return false;
  if (name.find("kubernetes.io/") != std::string_view::npos) return false;
  return !name.starts_with("requests.");
}

ResourceAmounts ToAmounts(const ResourceList& list) {
  ResourceAmounts amounts;
  for (const auto& [name, amount] : list) {
    if (!IsAccountedResource(name)) continue;
    amounts[name] = name == "cpu" ? amount.MilliValue() : amount.Value();
  }
  return amounts;
}

namespace {

// The scored resources' names, in ScoredAmounts order.
const std::array<std::string, 3>& ScoredNames() {
  static const std::array<std::string, 3> kNames = {"cpu", "memory", std::string(kGpu)};
  return kNames;
}

ScoredAmounts ScoredOf(const ResourceAmounts& amounts) {
  ScoredAmounts out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = Amount(amounts, ScoredNames()[i]);
  return out;
}

// What the node has left of the item's resource.
std::int64_t FreeOf(const ResourceRequest::Item& item, const NodeTotals& totals) {
  if (item.scored >= 0) {
    const auto at = static_cast<std::size_t>(item.scored);
    return totals.scored_capacity[at] - totals.scored_requested[at];
  }
  return Amount(totals.allocatable, item.name) - Amount(totals.requested, item.name);
}

FilterStatus CheckResourcesOf(const ResourceRequest& request, const NodeInfo& info,
                              const NodeTotals& totals) {
  FilterStatus status;
  status.resolvable = true;  // evicting pods could make room
  if (static_cast<std::int64_t>(info.pods.size()) + 1 > totals.allowed_pods) {
    status.reasons.emplace_back(kReasonTooManyPods);
  }
  for (const ResourceRequest::Item& item : request.items) {
    if (item.amount > FreeOf(item, totals)) status.reasons.push_back(item.reason);
  }
  return status;
}

std::int64_t ScoreOf(const ScoredAmounts& nonzero_request, const NodeTotals& totals) {
  std::int64_t score_sum = 0;
  std::int64_t weight_sum = 0;
  for (std::size_t i = 0; i < nonzero_request.size(); ++i) {
    const std::int64_t capacity = totals.scored_capacity[i];
    if (capacity == 0) continue;  // upstream skips resources the node does not have
    score_sum += LeastRequested(nonzero_request[i] + totals.nonzero[i], capacity);
    ++weight_sum;
  }
  return weight_sum == 0 ? 0 : score_sum / weight_sum;
}

// `use(totals)` with the node's totals: the cache's when it set them, else computed here. The
// filters and the score run for every node of every attempt, where the cache has set them; the
// scratch totals are declared only on the other path, because constructing an empty
// std::optional<NodeTotals> zeroes its storage.
template <class Use>
auto WithTotals(const NodeInfo& info, Use use) {
  if (info.totals) return use(*info.totals);
  std::optional<NodeTotals> scratch;
  return use(TotalsOf(info, scratch));
}

}  // namespace

FilterStatus CheckResources(const ResourceRequest& request, const NodeInfo& info) {
  return WithTotals(
      info, [&](const NodeTotals& totals) { return CheckResourcesOf(request, info, totals); });
}

std::int64_t LeastAllocatedScore(const ScoredAmounts& nonzero_request, const NodeInfo& info) {
  return WithTotals(info,
                    [&](const NodeTotals& totals) { return ScoreOf(nonzero_request, totals); });
}

ResourceRequest::ResourceRequest(const ResourceAmounts& amounts) {
  const auto& scored = ScoredNames();
  for (const auto& [name, amount] : amounts) {
    if (amount <= 0) continue;
    const auto at = std::find(scored.begin(), scored.end(), name);
    items.push_back({name, amount, at == scored.end() ? -1 : static_cast<int>(at - scored.begin()),
                     "Insufficient " + name});
  }
}

ScoredAmounts NonZeroRequests(const api::Pod& pod) {
  // upstream DefaultMilliCPURequest and DefaultMemoryRequest.
  static const ResourceList kDefaults = {{"cpu", Quantity::FromMilli(100)},
                                         {"memory", Quantity::FromInt(200 * 1024 * 1024)}};
  return ScoredOf(
      ToAmounts(api::PodSpecRequests(pod.spec, kDefaults, api::LimitsAsRequests::kYes)));
}

void SetNodeAllocatable(NodeTotals& totals, const api::Node& node) {
  totals.allocatable = ToAmounts(node.status.allocatable);
  totals.scored_capacity = ScoredOf(totals.allocatable);
  auto pods = node.status.allocatable.find("pods");
  totals.allowed_pods = pods == node.status.allocatable.end() ? 0 : pods->second.Value();
  totals.lifecycle_taint = LifecycleTaint(node);
}

NodeTotals EmptyTotals(const api::Node& node) {
  NodeTotals totals;
  SetNodeAllocatable(totals, node);
  return totals;
}

void CountPod(NodeTotals& totals, const api::Pod* pod, int sign) {
  const ResourceAmounts requests = ToAmounts(PodRequests(*pod));
  for (const auto& [name, amount] : requests) totals.requested[name] += sign * amount;
  const ScoredAmounts scored = ScoredOf(requests);
  for (std::size_t i = 0; i < scored.size(); ++i) totals.scored_requested[i] += sign * scored[i];
  const ScoredAmounts nonzero = NonZeroRequests(*pod);
  for (std::size_t i = 0; i < nonzero.size(); ++i) totals.nonzero[i] += sign * nonzero[i];
  if (sign > 0) totals.lowest_priority = std::min(totals.lowest_priority, PodPriority(*pod));
  const auto& affinity = pod->spec.affinity;
  if (!affinity || !affinity->pod_anti_affinity) return;
  std::vector<const api::Pod*>& anti = totals.anti_affinity_pods;
  if (sign > 0) {
    anti.push_back(pod);
  } else {
    anti.erase(std::remove(anti.begin(), anti.end(), pod), anti.end());
  }
}

const NodeTotals& TotalsOf(const NodeInfo& info, std::optional<NodeTotals>& scratch) {
  if (info.totals) return *info.totals;
  NodeTotals& totals = scratch.emplace(EmptyTotals(*info.node));
  for (const api::Pod* pod : info.pods) CountPod(totals, pod, 1);
  return totals;
}

}  // namespace scheduler
}  // namespace lws::cluster
