#include "api/disaggregatedset_validation.h"

#include <algorithm>

#include "api/lws_validation.h"

namespace lws::api {
namespace {

// Characters of the revision hash in the generated names (sheet 3.1: revisionLength).
constexpr int kRevisionLength = 8;
// The longest object name a scaler may have (a DNS-1123 subdomain).
constexpr std::size_t kMaxScalerName = 253;
constexpr int kDns1035Limit = 63;

FieldPath RolePath(std::size_t i) { return FieldPath("spec").Child("roles").Index(i); }

int DecimalDigits(std::int64_t n) { return static_cast<int>(std::to_string(n).size()); }

// Rules 2.2.2: partition, then maxUnavailable and maxSurge as the LWS webhook checks them.
void ValidateRollingUpdate(const DisaggregatedRoleSpec& role, const FieldPath& rollout,
                           ErrorList* errs) {
  const auto& config = role.spec.rollout_strategy.rolling_update_configuration;
  if (!config) return;
  const FieldPath path = rollout.Child("rollingUpdateConfiguration");
  if (config->partition.value_or(0) != 0) {
    errs->push_back(Forbidden(path.Child("partition"),
                              "partition is not supported by DisaggregatedSet; rolling updates are "
                              "managed across roles by the DisaggregatedSet controller"));
  }
  if (!role.spec.replicas || *role.spec.replicas == 0) return;
  const std::int64_t replicas = *role.spec.replicas;
  const FieldPath mu_path = path.Child("maxUnavailable");
  const FieldPath ms_path = path.Child("maxSurge");
  ErrorList shape;
  ValidateIntOrPercent(config->max_unavailable, mu_path, &shape);
  ValidateIntOrPercent(config->max_surge, ms_path, &shape);
  errs->insert(errs->end(), shape.begin(), shape.end());
  if (!shape.empty()) return;
  // Unlike the LWS webhook, the first value that does not scale ends the check.
  auto mu = GetScaledValueFromIntOrPercent(config->max_unavailable, replicas, false);
  if (!mu.ok()) {
    errs->push_back(InvalidIntOrString(mu_path, config->max_unavailable, "invalid value"));
    return;
  }
  auto ms = GetScaledValueFromIntOrPercent(config->max_surge, replicas, true);
  if (!ms.ok()) {
    errs->push_back(InvalidIntOrString(ms_path, config->max_surge, "invalid value"));
    return;
  }
  if (*mu == 0 && *ms == 0) {
    errs->push_back(
        InvalidIntOrString(mu_path, config->max_unavailable, "must not be 0 when `maxSurge` is 0"));
  }
}

// Rule 2.2.3: an External role's scaler is named "<ds>-<role>".
void ValidateExternalRole(const DisaggregatedSet& ds, const DisaggregatedRoleSpec& role,
                          std::size_t i, DsValidation* out) {
  const std::string scaler = ds.metadata.name + "-" + role.name;
  if (scaler.size() > kMaxScalerName) {
    out->errors.push_back(
        Invalid(RolePath(i).Child("name"), role.name,
                "would produce scaler name " + GoQuote(scaler) + " exceeding 253 characters"));
  }
  if (role.spec.replicas && *role.spec.replicas > 1) {
    out->warnings.push_back(
        "role " + GoQuote(role.name) +
        " sets scaling.mode: External and spec.replicas: " + std::to_string(*role.spec.replicas) +
        " \u2014 spec.replicas is ignored; drive replicas via "
        "DisaggregatedSetRoleScaler " +
        GoQuote(scaler) + " instead");
  }
}

// Rule 2.2.5 (validateGeneratedNames): "<ds>-<slice>-<rev>-<role>" plus the longest suffix a
// name or label derived from it gets: "-prv" for the Service, "-<group>-<10 hex>" for the worker
// StatefulSet pods' controller-revision-hash label.
void ValidateGeneratedNames(const DisaggregatedSet& ds, ErrorList* errs) {
  const int slice_digits = DecimalDigits(ds.Slices() - 1);
  for (std::size_t i = 0; i < ds.spec.roles.size(); ++i) {
    const DisaggregatedRoleSpec& role = ds.spec.roles[i];
    const int lws_name = static_cast<int>(ds.metadata.name.size() + role.name.size()) + 3 +
                         slice_digits + kRevisionLength;
    const std::int32_t replicas = role.spec.replicas.value_or(0);
    const int group_digits = replicas <= 0 ? 1 : DecimalDigits(replicas - 1);
    const int max_suffix = std::max(4, 1 + group_digits + 11);
    if (lws_name + max_suffix <= kDns1035Limit) continue;
    errs->push_back(Invalid(
        RolePath(i).Child("name"), role.name,
        "the generated names (" + std::to_string(lws_name + max_suffix) +
            " chars) would exceed the DNS-1035 limit of 63 characters (accounting for service "
            "name and StatefulSet revision hash labels); reduce the DisaggregatedSet name and/or "
            "role name (combined limit: " +
            std::to_string(kDns1035Limit - 3 - slice_digits - kRevisionLength - max_suffix) +
            " characters)"));
  }
}

// The first LWS exclusive-placement annotation on a role: its metadata, then the leader
// template's, then the worker template's; empty when there is none.
std::string ExclusiveAnnotation(const DisaggregatedRoleSpec& role) {
  const auto& lwt = role.spec.leader_worker_template;
  for (const std::string* key : {&kExclusiveKeyAnnotation, &kSubGroupExclusiveKeyAnnotation}) {
    if (role.metadata.annotations.contains(*key)) return *key;
    if (lwt.leader_template && lwt.leader_template->metadata.annotations.contains(*key))
      return *key;
    if (lwt.worker_template.metadata.annotations.contains(*key)) return *key;
  }
  return "";
}

// Rule 2.2.6 (validatePlacement).
void ValidatePlacement(const DisaggregatedSet& ds, ErrorList* errs) {
  const auto& policy = ds.spec.placement_policy;
  if (!policy || policy->IsNone()) return;
  if (policy->topology.empty()) {
    errs->push_back(Required(FieldPath("spec").Child("placementPolicy").Child("topology"),
                             "topology is required when type is not None"));
  }
  for (std::size_t i = 0; i < ds.spec.roles.size(); ++i) {
    std::string key = ExclusiveAnnotation(ds.spec.roles[i]);
    if (key.empty()) continue;
    errs->push_back(Forbidden(RolePath(i), "the " + GoQuote(key) +
                                               " annotation must not be combined with a non-None "
                                               "spec.placementPolicy.type (" +
                                               policy->type + ")"));
  }
}

}  // namespace

DsValidation ValidateDisaggregatedSet(const DisaggregatedSet& ds) {
  DsValidation out;
  bool any_external = false;
  for (std::size_t i = 0; i < ds.spec.roles.size(); ++i) {
    const DisaggregatedRoleSpec& role = ds.spec.roles[i];
    const FieldPath rollout = RolePath(i).Child("spec").Child("rolloutStrategy");
    const std::string& type = role.spec.rollout_strategy.type;
    if (!type.empty() && type != kRollingUpdateStrategy) {
      out.errors.push_back(NotSupported(rollout.Child("type"), type, {kRollingUpdateStrategy, ""}));
    }
    ValidateRollingUpdate(role, rollout, &out.errors);
    if (role.IsExternal()) {
      any_external = true;
      ValidateExternalRole(ds, role, i, &out);
    }
  }
  if (any_external && ds.spec.slices && *ds.spec.slices > 1) {
    out.errors.push_back(Forbidden(FieldPath("spec").Child("slices"),
                                   "spec.slices > 1 is not supported while any role has "
                                   "scaling.mode: External (alpha restriction)"));
  }
  ValidateGeneratedNames(ds, &out.errors);
  ValidatePlacement(ds, &out.errors);
  return out;
}

}  // namespace lws::api
