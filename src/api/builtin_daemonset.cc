// apps/v1 DaemonSet: SetDefaults_DaemonSet (pkg/apis/apps/v1/defaults.go) and the commonly hit
// rules of ValidateDaemonSetSpec (pkg/apis/apps/validation), with upstream's paths and messages.
#include <string>

#include "api/builtin_defaults.h"
#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/meta.h"

namespace lws::api {

using builtin::DefaultString;
using builtin::DefaultValue;
using builtin::EnsureObject;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

// ValidateRollingUpdateDaemonSet.
void RollingUpdate(const Json& rolling, const FieldPath& path, ErrorList* errs) {
  const Json* max_unavailable = Member(rolling, "maxUnavailable");
  const Json* max_surge = Member(rolling, "maxSurge");
  PositiveIntOrPercent(max_unavailable, path.Child("maxUnavailable"), errs);
  PositiveIntOrPercent(max_surge, path.Child("maxSurge"), errs);
  for (auto [value, key] :
       {std::pair{max_unavailable, "maxUnavailable"}, {max_surge, "maxSurge"}}) {
    bool percent = false;
    if (IntOrPercent(value, &percent) > 100 && percent) {
      errs->push_back(Invalid(path.Child(key), *value, "must not be greater than 100%"));
    }
  }
  // Exactly one of the two is non-zero.
  const bool has_unavailable = IntOrPercent(max_unavailable) != 0;
  const bool has_surge = IntOrPercent(max_surge) != 0;
  if (has_unavailable && has_surge) {
    errs->push_back(Invalid(path.Child("maxSurge"), *max_surge,
                            "may not be set when maxUnavailable is non-zero"));
  } else if (!has_unavailable && !has_surge) {
    errs->push_back(Required(path.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"));
  }
}

// ValidateDaemonSetUpdateStrategy.
void UpdateStrategy(const Json& spec, const FieldPath& path, ErrorList* errs) {
  const Json* strategy = Object(spec, "updateStrategy");
  const std::string type = strategy != nullptr ? StringMember(*strategy, "type") : "";
  if (type == "OnDelete") return;
  if (type == "RollingUpdate") {
    const Json* rolling = Object(*strategy, "rollingUpdate");
    if (rolling == nullptr) {
      errs->push_back(Required(path.Child("rollingUpdate"), ""));
    } else {
      RollingUpdate(*rolling, path.Child("rollingUpdate"), errs);
    }
    return;
  }
  errs->push_back(
      NotSupported(path, strategy != nullptr ? *strategy : Json(), {"RollingUpdate", "OnDelete"}));
}

}  // namespace

void ApplyDaemonSetDefaults(Json* set) {
  Json* spec = Object(set, "spec");
  if (spec == nullptr) return;
  if (Json* strategy = EnsureObject(spec, "updateStrategy")) {
    DefaultString(strategy, "type", "RollingUpdate");
    if (StringMember(*strategy, "type") == "RollingUpdate") {
      if (Json* rolling = EnsureObject(strategy, "rollingUpdate")) {
        DefaultValue(rolling, "maxUnavailable", 1);
        DefaultValue(rolling, "maxSurge", 0);
      }
    }
  }
  DefaultValue(spec, "revisionHistoryLimit", 10);
  ApplyPodTemplateSpecDefaults(Object(Object(spec, "template"), "spec"));
}

ErrorList ValidateDaemonSetSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  ValidateWorkloadSelector(spec, path, "daemonset", &errs);
  ValidateWorkloadTemplate(spec, Member(spec, "selector"), path, "DaemonSet", &errs);
  const Json* tmpl = Object(spec, "template");
  if (const Json* pod_spec = tmpl != nullptr ? Object(*tmpl, "spec") : nullptr) {
    AppendErrors(&errs, ValidatePodSpecSubset(*pod_spec, path.Child("template").Child("spec")));
  }
  NonNegative(spec, "minReadySeconds", path.Child("minReadySeconds"), &errs);
  NonNegative(spec, "templateGeneration", path.Child("templateGeneration"), &errs);
  NonNegative(spec, "revisionHistoryLimit", path.Child("revisionHistoryLimit"), &errs);
  UpdateStrategy(spec, path.Child("updateStrategy"), &errs);
  return errs;
}

}  // namespace lws::api
