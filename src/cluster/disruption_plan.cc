// The PodDisruptionBudget status decision (disruption_plan.h).
#include "cluster/disruption_plan.h"

#include <map>
#include <set>

#include "api/disruption_budget.h"
#include "api/intstr.h"
#include "api/meta.h"

namespace lws::cluster {
namespace {

using api::ChildOrNull;

std::string Meta(const Json& object, const char* key) {
  const Json& value = ChildOrNull(ChildOrNull(object, "metadata"), key);
  return value.is_string() ? value.get<std::string>() : "";
}

std::int64_t IntOf(const Json& value) {
  return value.is_number_integer() ? value.get<std::int64_t>() : 0;
}

std::optional<api::IntOrString> Bound(const Json& spec, const char* key) {
  const Json& value = ChildOrNull(spec, key);
  if (value.is_number_integer()) return api::IntOrString::FromInt(value.get<std::int32_t>());
  if (value.is_string()) return api::IntOrString::FromString(value.get<std::string>());
  return std::nullopt;
}

struct Expected {
  std::int64_t count = 0;
  std::int64_t desired = 0;
  std::string error;  // the sync fails safe when set
};

// getExpectedScale: each found controller's scale once; unmanaged pods are skipped.
Expected ExpectedScale(const std::vector<CoveredPod>& pods, std::vector<std::string>* unmanaged) {
  Expected out;
  std::set<std::string> counted;
  for (const CoveredPod& covered : pods) {
    if (covered.controller == CoveredPod::Controller::kNone) {
      unmanaged->push_back(Meta(*covered.pod, "name"));
    } else if (covered.controller == CoveredPod::Controller::kNotFound) {
      out.error = "found no controllers for pod " + api::GoQuote(Meta(*covered.pod, "name"));
      return out;
    } else if (counted.insert(covered.controller_uid).second) {
      out.count += covered.controller_scale;
    }
  }
  return out;
}

// getExpectedPodCount.
Expected ExpectedPodCount(const Json& spec, const std::vector<CoveredPod>& pods,
                          std::vector<std::string>* unmanaged) {
  Expected out;
  const std::optional<api::IntOrString> max_unavailable = Bound(spec, "maxUnavailable");
  const std::optional<api::IntOrString> min_available = Bound(spec, "minAvailable");
  if (max_unavailable) {
    out = ExpectedScale(pods, unmanaged);
    if (!out.error.empty()) return out;
    Result<std::int64_t> scaled =
        api::GetScaledValueFromIntOrPercent(*max_unavailable, out.count, true);
    if (!scaled.ok()) return Expected{0, 0, scaled.status().message()};
    out.desired = std::max<std::int64_t>(0, out.count - *scaled);
  } else if (min_available && !min_available->is_string()) {
    out.desired = min_available->int_value();
    out.count = static_cast<std::int64_t>(pods.size());
  } else if (min_available) {
    out = ExpectedScale(pods, unmanaged);
    if (!out.error.empty()) return out;
    Result<std::int64_t> scaled =
        api::GetScaledValueFromIntOrPercent(*min_available, out.count, true);
    if (!scaled.ok()) return Expected{0, 0, scaled.status().message()};
    out.desired = *scaled;
  }
  return out;
}

// buildDisruptedPodMap: the entries still pending, the earliest expiry, and NotDeleted events
// for pods an eviction was granted for that are still there after the timeout.
Json PendingDisruptions(const Json& budget, const std::vector<CoveredPod>& pods, Time now,
                        BudgetStatusPlan* plan) {
  Json pending = Json::object();
  const Json& disrupted = ChildOrNull(ChildOrNull(budget, "status"), "disruptedPods");
  if (!disrupted.is_object()) return pending;
  for (const CoveredPod& covered : pods) {
    const std::string name = Meta(*covered.pod, "name");
    if (!Meta(*covered.pod, "deletionTimestamp").empty()) continue;  // already going
    auto entry = disrupted.find(name);
    if (entry == disrupted.end() || !entry->is_string()) continue;
    Result<Time> at = ParseRfc3339(entry->get<std::string>());
    if (!at.ok()) continue;
    const Time expires = *at + kDisruptionDeletionTimeout;
    if (expires < now) {
      plan->events.push_back({"Warning", "NotDeleted",
                              "Pod was expected by PDB " + Meta(budget, "namespace") + "/" +
                                  Meta(budget, "name") + " to be deleted but it wasn't",
                              name});
      continue;
    }
    pending[name] = *entry;
    if (!plan->recheck || expires < *plan->recheck) plan->recheck = expires;
  }
  return pending;
}

// countHealthyPods.
std::int64_t CountHealthy(const std::vector<CoveredPod>& pods, const Json& pending) {
  std::int64_t healthy = 0;
  for (const CoveredPod& covered : pods) {
    if (!Meta(*covered.pod, "deletionTimestamp").empty()) continue;
    if (pending.contains(Meta(*covered.pod, "name"))) continue;
    if (api::IsPodReadyJson(*covered.pod)) ++healthy;
  }
  return healthy;
}

}  // namespace

BudgetStatusPlan PlanBudgetStatus(const Json& budget, const std::vector<CoveredPod>& pods,
                                  Time now) {
  BudgetStatusPlan plan;
  const Json& old_status = ChildOrNull(budget, "status");
  const Json& spec = ChildOrNull(budget, "spec");
  if (pods.empty()) plan.events.push_back({"Normal", "NoPods", "No matching pods found", ""});
  std::vector<std::string> unmanaged;
  Expected expected = ExpectedPodCount(spec, pods, &unmanaged);
  if (!unmanaged.empty()) {
    plan.events.push_back(
        {"Warning", "UnmanagedPods",
         "Pods selected by this PodDisruptionBudget (selector: " +
             ChildOrNull(spec, "selector").dump() +
             ") were found to be unmanaged. As a result, the status of the PDB cannot be "
             "calculated correctly, which may result in undefined behavior. To account for these "
             "pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
         ""});
  }
  if (!expected.error.empty()) {
    // failSafe: the old counts, no disruption allowed, and why.
    plan.events.push_back({"Warning", "CalculateExpectedPodCountFailed",
                           "Failed to calculate the number of expected pods: " + expected.error,
                           ""});
    plan.status = old_status.is_object() ? old_status : Json::object();
    plan.status["disruptionsAllowed"] = 0;
    api::SetDisruptionAllowedCondition(&plan.status, "False", api::kSyncFailedReason,
                                       expected.error, now);
    plan.changed = plan.status != old_status;
    return plan;
  }
  Json pending = PendingDisruptions(budget, pods, now, &plan);
  const std::int64_t healthy = CountHealthy(pods, pending);
  std::int64_t allowed = healthy - expected.desired;
  if (expected.count <= 0 || allowed <= 0) allowed = 0;
  Json status = old_status.is_object() ? old_status : Json::object();
  status["currentHealthy"] = healthy;
  status["desiredHealthy"] = expected.desired;
  status["expectedPods"] = expected.count;
  status["disruptionsAllowed"] = allowed;
  status["observedGeneration"] = IntOf(ChildOrNull(ChildOrNull(budget, "metadata"), "generation"));
  if (pending.empty()) {
    status.erase("disruptedPods");
  } else {
    status["disruptedPods"] = std::move(pending);
  }
  api::UpdateDisruptionAllowedCondition(&status, now);
  plan.changed = status != old_status;
  plan.status = std::move(status);
  return plan;
}

}  // namespace lws::cluster
