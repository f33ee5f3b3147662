// Deployment and ReplicaSet spec rules of pkg/apis/apps/validation (ValidateDeploymentSpec,
// ValidateReplicaSetSpec) over JSON, with upstream's paths and messages.
#include <string>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/meta.h"
#include "api/object_meta_validation.h"

namespace lws::api {

using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

// ValidatePositiveIntOrPercent.
void PositiveIntOrPercent(const Json* value, const FieldPath& path, ErrorList* errs) {
  if (IsUnset(value)) return;
  if (value->is_string()) {
    for (const std::string& msg : IsValidPercent(value->get_ref<const std::string&>())) {
      errs->push_back(Invalid(path, *value, msg));
    }
  } else if (value->is_number_integer()) {
    if (value->get<std::int64_t>() < 0) {
      errs->push_back(Invalid(path, *value, "must be greater than or equal to 0"));
    }
  } else {
    errs->push_back(Invalid(path, *value, "must be an integer or percentage (e.g '5%')"));
  }
}

// getIntOrPercentValue: the int, or the number before "%" (0 when it does not parse).
std::int64_t IntOrPercent(const Json* value, bool* is_percent) {
  if (is_percent != nullptr) *is_percent = false;
  if (IsUnset(value)) return 0;
  if (value->is_number_integer()) return value->get<std::int64_t>();
  if (!value->is_string()) return 0;
  std::string text = value->get<std::string>();
  if (text.empty() || text.back() != '%') return 0;
  text.pop_back();
  Result<std::int64_t> number = GoAtoi(text);
  if (!number.ok()) return 0;
  if (is_percent != nullptr) *is_percent = true;
  return *number;
}

namespace {

// ValidateRollingUpdateDeployment.
void RollingUpdate(const Json& rolling, const FieldPath& path, ErrorList* errs) {
  const Json* max_unavailable = Member(rolling, "maxUnavailable");
  const Json* max_surge = Member(rolling, "maxSurge");
  PositiveIntOrPercent(max_unavailable, path.Child("maxUnavailable"), errs);
  PositiveIntOrPercent(max_surge, path.Child("maxSurge"), errs);
  if (IntOrPercent(max_unavailable) == 0 && IntOrPercent(max_surge) == 0) {
    errs->push_back(Invalid(path.Child("maxUnavailable"),
                            IsUnset(max_unavailable) ? Json(0) : *max_unavailable,
                            "may not be 0 when `maxSurge` is 0"));
  }
  bool percent = false;
  std::int64_t unavailable = IntOrPercent(max_unavailable, &percent);
  if (percent && unavailable > 100) {
    errs->push_back(
        Invalid(path.Child("maxUnavailable"), *max_unavailable, "must not be greater than 100%"));
  }
}

// ValidateDeploymentStrategy.
void Strategy(const Json& spec, const FieldPath& path, ErrorList* errs) {
  const Json* strategy = Object(spec, "strategy");
  const std::string type = strategy != nullptr ? StringMember(*strategy, "type") : "";
  const Json* rolling = strategy != nullptr ? Member(*strategy, "rollingUpdate") : nullptr;
  if (type == "Recreate") {
    if (!IsUnset(rolling)) {
      errs->push_back(Forbidden(path.Child("rollingUpdate"),
                                "may not be specified when strategy `type` is 'Recreate'"));
    }
  } else if (type == "RollingUpdate") {
    if (IsUnset(rolling) || !rolling->is_object()) {
      errs->push_back(
          Required(path.Child("rollingUpdate"), "this should be defaulted and never be nil"));
    } else {
      RollingUpdate(*rolling, path.Child("rollingUpdate"), errs);
    }
  } else {
    errs->push_back(NotSupported(path, strategy != nullptr ? *strategy : Json(),
                                 {"Recreate", "RollingUpdate"}));
  }
}

// The template rules of ValidatePodTemplateSpecForReplicaSet, plus the pod spec checks of
// ValidatePodTemplateSpec.
void Template(const Json& spec, const FieldPath& path, ErrorList* errs) {
  ValidateWorkloadTemplate(spec, Member(spec, "selector"), path, "ReplicaSet", errs);
  const Json* tmpl = Object(spec, "template");
  const Json* pod_spec = tmpl != nullptr ? Object(*tmpl, "spec") : nullptr;
  if (pod_spec != nullptr) {
    AppendErrors(errs, ValidatePodSpecSubset(*pod_spec, path.Child("template").Child("spec")));
  }
}

}  // namespace

ErrorList ValidateDeploymentSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  NonNegative(spec, "replicas", path.Child("replicas"), &errs);
  ValidateWorkloadSelector(spec, path, "deployment", &errs);
  Template(spec, path, &errs);
  Strategy(spec, path.Child("strategy"), &errs);
  NonNegative(spec, "minReadySeconds", path.Child("minReadySeconds"), &errs);
  NonNegative(spec, "revisionHistoryLimit", path.Child("revisionHistoryLimit"), &errs);
  const Json* deadline = Member(spec, "progressDeadlineSeconds");
  if (!IsUnset(deadline)) {
    NonNegative(spec, "progressDeadlineSeconds", path.Child("progressDeadlineSeconds"), &errs);
    if (builtin::IntValue(deadline) <= builtin::IntValue(Member(spec, "minReadySeconds"))) {
      errs.push_back(Invalid(path.Child("progressDeadlineSeconds"), *deadline,
                             "must be greater than minReadySeconds"));
    }
  }
  return errs;
}

ErrorList ValidateReplicaSetSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  NonNegative(spec, "replicas", path.Child("replicas"), &errs);
  NonNegative(spec, "minReadySeconds", path.Child("minReadySeconds"), &errs);
  // Upstream's ReplicaSet rule says "deployment" too.
  ValidateWorkloadSelector(spec, path, "deployment", &errs);
  Template(spec, path, &errs);
  return errs;
}

// apps/v1 forbids changing the selector (the strategies' ValidateImmutableField).
ErrorList ValidateSelectorUpdate(const Json& spec, const Json& old_spec) {
  const Json* now = Member(spec, "selector");
  const Json* before = Member(old_spec, "selector");
  Json a = IsUnset(now) ? Json() : NormalizedForCompare(*now);
  Json b = IsUnset(before) ? Json() : NormalizedForCompare(*before);
  if (a == b) return {};
  return {Invalid(FieldPath("spec").Child("selector"), IsUnset(now) ? Json() : *now,
                  "field is immutable")};
}

}  // namespace lws::api
