// The eviction decision (eviction.h).
#include "api/eviction.h"

#include <fmt/format.h>

#include "api/builtin_json.h"
#include "api/disruption_budget.h"

namespace lws::api {

using builtin::Member;
using builtin::Object;

namespace {

constexpr const char* kEvictionRefused =
    "Cannot evict pod as it would violate the pod's disruption budget.";

std::string Phase(const Json& pod) {
  const Json* status = Object(pod, "status");
  return status != nullptr ? StringMember(*status, "phase") : "";
}

bool Deleting(const Json& pod) {
  const Json* meta = Object(pod, "metadata");
  const Json* at = meta != nullptr ? Member(*meta, "deletionTimestamp") : nullptr;
  return at != nullptr && !at->is_null();
}

// canIgnorePDB: the pod is not available, so evicting it disrupts nothing.
bool CanIgnoreBudget(const Json& pod) {
  const std::string phase = Phase(pod);
  return phase == "Succeeded" || phase == "Failed" || phase == "Pending" || Deleting(pod);
}

// shouldEnforceResourceVersion: a pending pod might become ready before the delete lands.
bool ShouldEnforceResourceVersion(const Json& pod) {
  const std::string phase = Phase(pod);
  return phase != "Succeeded" && phase != "Failed" && !Deleting(pod);
}

std::int64_t IntAt(const Json* object, const char* key) {
  const Json* value = object != nullptr ? Member(*object, key) : nullptr;
  return value != nullptr && value->is_number_integer() ? value->get<std::int64_t>() : 0;
}

std::int64_t Generation(const Json& budget) {
  return IntAt(Object(budget, "metadata"), "generation");
}

std::string NameOf(const Json& object) {
  const Json* meta = Object(object, "metadata");
  return meta != nullptr ? StringMember(*meta, "name") : "";
}

Status Forbidden(const std::string& budget, const std::string& why) {
  return Status(Code::kForbidden,
                "poddisruptionbudget.policy " + GoQuote(budget) + " is forbidden: " + why);
}

EvictionPlan Refuse(Status status, int retry_after = 0) {
  EvictionPlan plan;
  plan.action = EvictionPlan::Action::kRefuse;
  plan.refusal = std::move(status);
  plan.retry_after_seconds = retry_after;
  return plan;
}

// checkAndDecrement: the budget's status after spending one disruption, or the refusal.
EvictionPlan SpendDisruption(const Json& pod, const Json& budget, bool dry_run, Time now) {
  const std::string name = NameOf(budget);
  const Json* status = Object(budget, "status");
  if (IntAt(status, "observedGeneration") < Generation(budget)) {
    return Refuse(BudgetStaleError(name), 10);
  }
  const std::int64_t allowed = IntAt(status, "disruptionsAllowed");
  if (allowed < 0) return Refuse(Forbidden(name, "pdb disruptions allowed is negative"));
  const Json* disrupted = status != nullptr ? Object(*status, "disruptedPods") : nullptr;
  if (disrupted != nullptr && disrupted->size() > kMaxDisruptedPods) {
    return Refuse(Forbidden(
        name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller"));
  }
  if (allowed == 0) {
    return Refuse(Status(Code::kTooManyRequests, kEvictionRefused,
                         {FieldCause{kDisruptionBudgetCause,
                                     fmt::format("The disruption budget {} needs {} healthy pods "
                                                 "and has {} currently",
                                                 name, IntAt(status, "desiredHealthy"),
                                                 IntAt(status, "currentHealthy")),
                                     ""}}));
  }
  EvictionPlan plan;
  plan.budget_name = name;
  if (dry_run) return plan;  // checked, not spent
  Json next = status != nullptr ? *status : Json::object();
  next["disruptionsAllowed"] = allowed - 1;
  if (allowed - 1 == 0) UpdateDisruptionAllowedCondition(&next, now);
  if (!next["disruptedPods"].is_object()) next["disruptedPods"] = Json::object();
  next["disruptedPods"][NameOf(pod)] = FormatRfc3339(now);
  plan.budget_status = std::move(next);
  return plan;
}

}  // namespace

Status BudgetStaleError(const std::string& budget_name) {
  return Status(Code::kTooManyRequests, kEvictionRefused,
                {FieldCause{kDisruptionBudgetCause,
                            "The disruption budget " + budget_name +
                                " is still being processed by the server.",
                            ""}});
}

EvictionPlan PlanEviction(const Json& pod, const std::vector<Json>& budgets, bool dry_run,
                          Time now) {
  EvictionPlan plan;
  if (CanIgnoreBudget(pod)) {
    plan.require_pod_resource_version = ShouldEnforceResourceVersion(pod);
    return plan;
  }
  std::vector<const Json*> covering;
  for (const Json& budget : budgets) {
    if (BudgetCoversPod(budget, pod)) covering.push_back(&budget);
  }
  if (covering.size() > 1) {
    return Refuse(Status::Internal(
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not "
        "support."));
  }
  if (covering.empty()) return plan;
  const Json& budget = *covering.front();
  if (!IsPodReadyJson(pod)) {
    const Json* spec = Object(budget, "spec");
    const Json* status = Object(budget, "status");
    const std::int64_t desired = IntAt(status, "desiredHealthy");
    const bool always_allow =
        spec != nullptr && StringMember(*spec, "unhealthyPodEvictionPolicy") == kAlwaysAllow;
    if (always_allow || (IntAt(status, "currentHealthy") >= desired && desired > 0)) {
      plan.require_pod_resource_version = true;
      return plan;
    }
  }
  return SpendDisruption(pod, budget, dry_run, now);
}

}  // namespace lws::api
