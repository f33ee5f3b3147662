// PodDisruptionBudget selection, condition and validation (disruption_budget.h).
#include "api/disruption_budget.h"

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/codec.h"
#include "api/selector.h"

namespace lws::api {

using builtin::Member;
using builtin::Object;

namespace {

StringMap LabelsOf(const Json& object) {
  StringMap labels;
  const Json* meta = Object(object, "metadata");
  const Json* map = meta != nullptr ? Object(*meta, "labels") : nullptr;
  if (map == nullptr) return labels;
  for (const auto& [key, value] : map->items()) {
    if (value.is_string()) labels[key] = value.get<std::string>();
  }
  return labels;
}

std::string MetaField(const Json& object, const char* key) {
  const Json* meta = Object(object, "metadata");
  return meta != nullptr ? StringMember(*meta, key) : "";
}

// The condition entry of `type` in `status.conditions`, appended when absent.
Json& ConditionEntry(Json* status, const char* type) {
  Json& conditions = (*status)["conditions"];
  if (!conditions.is_array()) conditions = Json::array();
  for (Json& condition : conditions) {
    if (condition.is_object() && StringMember(condition, "type") == type) return condition;
  }
  conditions.push_back(Json{{"type", type}});
  return conditions.back();
}

}  // namespace

bool BudgetCoversPod(const Json& pdb, const Json& pod) {
  if (MetaField(pdb, "namespace") != MetaField(pod, "namespace")) return false;
  const Json* spec = Object(pdb, "spec");
  const Json* selector_json = spec != nullptr ? Object(*spec, "selector") : nullptr;
  if (selector_json == nullptr) return false;  // LabelSelectorAsSelector(nil): Nothing()
  LabelSelector selector;
  if (!DecodeInto(*selector_json, &selector).empty()) return false;
  Result<Selector> parsed = Selector::FromLabelSelector(&selector);
  return parsed.ok() && parsed->Matches(LabelsOf(pod));
}

bool IsPodReadyJson(const Json& pod) {
  const Json* status = Object(pod, "status");
  const Json* conditions = status != nullptr ? Member(*status, "conditions") : nullptr;
  if (conditions == nullptr || !conditions->is_array()) return false;
  for (const Json& condition : *conditions) {
    if (StringMember(condition, "type") == "Ready")
      return StringMember(condition, "status") == "True";
  }
  return false;
}

void SetDisruptionAllowedCondition(Json* status, const std::string& condition_status,
                                   const std::string& reason, const std::string& message,
                                   Time now) {
  Json& condition = ConditionEntry(status, kDisruptionAllowedCondition);
  if (StringMember(condition, "status") != condition_status ||
      !condition.contains("lastTransitionTime")) {
    condition["lastTransitionTime"] = FormatRfc3339(now);
  }
  condition["status"] = condition_status;
  condition["reason"] = reason;
  condition["message"] = message;
  const Json* generation = Member(*status, "observedGeneration");
  condition["observedGeneration"] = generation != nullptr ? *generation : Json(0);
}

void UpdateDisruptionAllowedCondition(Json* status, Time now) {
  const Json* allowed = Member(*status, "disruptionsAllowed");
  const bool positive =
      allowed != nullptr && allowed->is_number_integer() && allowed->get<std::int64_t>() > 0;
  SetDisruptionAllowedCondition(status, positive ? "True" : "False",
                                positive ? kSufficientPodsReason : kInsufficientPodsReason, "",
                                now);
}

ErrorList ValidatePodDisruptionBudgetSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  const Json* min_available = Member(spec, "minAvailable");
  const Json* max_unavailable = Member(spec, "maxUnavailable");
  const bool has_min = min_available != nullptr && !min_available->is_null();
  const bool has_max = max_unavailable != nullptr && !max_unavailable->is_null();
  if (has_min && has_max) {
    errs.push_back(Invalid(path.Child("minAvailable"), *min_available,
                           "minAvailable and maxUnavailable cannot be both set"));
  }
  for (const auto& [value, name] :
       {std::pair{min_available, "minAvailable"}, std::pair{max_unavailable, "maxUnavailable"}}) {
    if (value == nullptr || value->is_null()) continue;
    PositiveIntOrPercent(value, path.Child(name), &errs);
    if (value->is_string()) {
      const std::string& text = value->get_ref<const std::string&>();
      Result<std::int64_t> percent = GoAtoi(text.substr(0, text.empty() ? 0 : text.size() - 1));
      if (!text.empty() && text.back() == '%' && percent.ok() && *percent > 100) {
        errs.push_back(Invalid(path.Child(name), *value, "must not be greater than 100%"));
      }
    }
  }
  if (const Json* selector = Object(spec, "selector")) {
    AppendErrors(&errs, ValidateSelectorSyntax(*selector, path.Child("selector")));
  }
  const Json* policy = Member(spec, "unhealthyPodEvictionPolicy");
  if (policy != nullptr && !policy->is_null()) {
    const std::string value = policy->is_string() ? policy->get<std::string>() : policy->dump();
    if (value != kIfHealthyBudget && value != kAlwaysAllow) {
      errs.push_back(NotSupported(path.Child("unhealthyPodEvictionPolicy"), *policy,
                                  {kAlwaysAllow, kIfHealthyBudget}));
    }
  }
  return errs;
}

}  // namespace lws::api
