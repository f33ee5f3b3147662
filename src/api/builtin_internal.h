// File: api/builtin_internal.h
//
// Pieces shared by the built-in defaulting, status and validation files (builtin_*.cc). Not part
// of the API other layers use: include builtin_defaults.h, builtin_status.h or
// builtin_validation.h instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/identical_json.h"

namespace lws::api {

// SetObjectDefaults_Pod: the Pod-only defaults, then the pod spec ones.
void ApplyPodDefaults(Json* pod);

// SetDefaults_PersistentVolumeClaimSpec plus the quantity form of its resources.
void ApplyClaimSpecDefaults(Json* claim_spec);

// Rewrites every parseable quantity of a ResourceList in Quantity.String() form, rounded up to
// milli precision as SetDefaults_ResourceList does ("0.5" -> "500m", "1000m" -> "1"). Values that
// do not parse are left for the decoder to reject.
void CanonicalizeQuantities(Json* resource_list);

// Go's %#v of a map[string]string: map[string]string{"a":"b", "c":"d"} (keys sorted).
std::string GoStringMap(const Json& map);

// Moves every error of `from` to the end of `to`.
inline void AppendErrors(ErrorList* to, ErrorList from) {
  for (auto& e : from) to->push_back(std::move(e));
}

// ---- Validation pieces (builtin_validation.cc, builtin_pod_validation.cc) -------------------

// ValidatePodSpec's commonly hit checks (see builtin_validation.h for the list).
ErrorList ValidatePodSpecSubset(const Json& spec, const FieldPath& path);
// ValidatePodUpdate's spec rules: container count, images, activeDeadlineSeconds, tolerations
// and scheduling gates, and the "pod updates may not change fields other than" check.
ErrorList ValidatePodSpecUpdate(const Json& spec, const Json& old_spec, const FieldPath& path);

// ValidateStatefulSetSpec and ValidateStatefulSetUpdate's spec rule
// (builtin_workload_validation.cc).
ErrorList ValidateStatefulSetSpec(const Json& spec, const FieldPath& path);
ErrorList ValidateStatefulSetSpecUpdate(const Json& spec, const Json& old_spec);
// The rules the apps kinds share (builtin_workload_validation.cc): a member that must be >= 0;
// spec.selector required, well formed and not empty ("empty selector is invalid for <kind>");
// the template's labels matched by the selector, restartPolicy Always and no
// activeDeadlineSeconds (`kind` names the validator: "StatefulSet" or "ReplicaSet").
void NonNegative(const Json& obj, std::string_view key, const FieldPath& path, ErrorList* errs);
void ValidateWorkloadSelector(const Json& spec, const FieldPath& path, std::string_view kind,
                              ErrorList* errs);
void ValidateWorkloadTemplate(const Json& spec, const Json* selector, const FieldPath& path,
                              std::string_view kind, ErrorList* errs);
// unversioned ValidateLabelSelector: matchLabels and matchExpressions syntax.
ErrorList ValidateSelectorSyntax(const Json& selector, const FieldPath& path);
// The template's labels must match the selector ("`selector` does not match template
// `labels`"); an unparseable selector is reported as invalid.
void ValidateTemplateLabelsMatch(const Json& spec, const Json* selector, const FieldPath& path,
                                 ErrorList* errs);
// ValidateJob's spec rules (builtin_job.cc), the generated selector on create and
// ValidateJobSpecUpdate's immutable fields on update (`old` non-null).
ErrorList ValidateJobSpec(const Json& spec, const FieldPath& path);
ErrorList ValidateJobSpecUpdate(const Json& spec, const Json& old_spec);
ErrorList ValidateJob(const Json& job, const Json* old);
// ValidateDaemonSetSpec (builtin_daemonset.cc).
ErrorList ValidateDaemonSetSpec(const Json& spec, const FieldPath& path);
// SetDefaults_Job and SetDefaults_DaemonSet (apps/v1, batch/v1), with the template's pod spec.
void ApplyJobDefaults(Json* job);
void ApplyDaemonSetDefaults(Json* set);
// ValidatePositiveIntOrPercent and getIntOrPercentValue (builtin_deployment_validation.cc).
void PositiveIntOrPercent(const Json* value, const FieldPath& path, ErrorList* errs);
std::int64_t IntOrPercent(const Json* value, bool* is_percent = nullptr);

// ValidateDeploymentSpec and ValidateReplicaSetSpec, and their updates' immutable selector
// (builtin_deployment_validation.cc).
ErrorList ValidateDeploymentSpec(const Json& spec, const FieldPath& path);
ErrorList ValidateReplicaSetSpec(const Json& spec, const FieldPath& path);
ErrorList ValidateSelectorUpdate(const Json& spec, const Json& old_spec);

// ValidateService's spec rules and ValidateServiceUpdate's cluster IP rule
// (builtin_service_validation.cc).
ErrorList ValidateServiceSpec(const Json& spec, const FieldPath& path);
ErrorList ValidateServiceSpecUpdate(const Json& spec, const Json& old_spec);

// unversioned ValidateLabels over a JSON map: keys qualified names, values label values.
ErrorList ValidateLabelMap(const Json& labels, const FieldPath& path);

// validation.IsValidPortNum and IsValidPortName.
std::vector<std::string> IsValidPortNum(std::int64_t port);
std::vector<std::string> IsValidPortName(std::string_view port);
// validation.InclusiveRangeError: "must be between 1 and 65535, inclusive".
std::string InclusiveRangeError(std::int64_t lo, std::int64_t hi);

// One line per differing leaf, "- path: old" / "+ path: new", in the spirit of the cmp.Diff
// upstream appends to immutability errors (not its exact text: that prints Go structs).
std::string JsonDiff(const Json& before, const Json& after, const std::string& root);

}  // namespace lws::api
