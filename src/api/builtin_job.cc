// batch/v1 Job: SetDefaults_Job (pkg/apis/batch/v1/defaults.go), the Job strategy's generated
// selector (pkg/registry/batch/job/strategy.go) and the commonly hit rules of ValidateJob and
// ValidateJobUpdate (pkg/apis/batch/validation), with upstream's paths and messages.
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

constexpr std::string_view kControllerUidLabel = "batch.kubernetes.io/controller-uid";
constexpr std::string_view kLegacyControllerUidLabel = "controller-uid";
constexpr std::string_view kJobNameLabel = "batch.kubernetes.io/job-name";
constexpr std::string_view kLegacyJobNameLabel = "job-name";
// Upstream's limit on completions and parallelism of an Indexed Job (maxParallelismForIndexedJob
// and maxCompletionsForIndexedJob differ; both are 100000 for a Job without backoffLimitPerIndex).
constexpr std::int64_t kIndexedJobLimit = 100000;

bool ManualSelector(const Json& spec) {
  const Json* manual = Member(spec, "manualSelector");
  return manual != nullptr && manual->is_boolean() && manual->get<bool>();
}

void ValidateIndexed(const Json& spec, const FieldPath& path, ErrorList* errs) {
  const Json* completions = Member(spec, "completions");
  if (IsUnset(completions)) {
    errs->push_back(Required(path.Child("completions"), "when completion mode is Indexed"));
  } else if (builtin::IntValue(completions) > kIndexedJobLimit) {
    errs->push_back(
        Invalid(path.Child("completions"), *completions, "must be less than or equal to 100000"));
  }
  const Json* parallelism = Member(spec, "parallelism");
  if (!IsUnset(parallelism) && builtin::IntValue(parallelism) > kIndexedJobLimit) {
    errs->push_back(
        Invalid(path.Child("parallelism"), *parallelism,
                "must be less than or equal to 100000 when completion mode is Indexed"));
  }
}

// ValidateGeneratedSelector: a Job without manualSelector carries the selector and labels the
// strategy generated from its uid.
void ValidateGeneratedSelector(const Json& job, ErrorList* errs) {
  const Json& spec = ChildOrNull(job, "spec");
  if (ManualSelector(spec)) return;
  const std::string uid = api::StringMember(ChildOrNull(job, "metadata"), "uid");
  const Json* selector = Object(spec, "selector");
  const Json* match = selector != nullptr ? Object(*selector, "matchLabels") : nullptr;
  if (match == nullptr || api::StringMember(*match, std::string(kControllerUidLabel)) != uid) {
    errs->push_back(Invalid(FieldPath("spec").Child("selector"),
                            selector != nullptr ? *selector : Json(),
                            "`selector` not auto-generated"));
  }
}

}  // namespace

void ApplyJobDefaults(Json* job) {
  Json* spec = Object(job, "spec");
  if (spec == nullptr) return;
  // Both unset: a non-parallel Job of one completion. An explicit null completions with a
  // parallelism is a work queue: completions stays unset.
  if (IsUnset(Member(spec, "completions")) && IsUnset(Member(spec, "parallelism"))) {
    (*spec)["completions"] = 1;
  }
  DefaultValue(spec, "parallelism", 1);
  DefaultValue(spec, "backoffLimit",
               IsUnset(Member(spec, "backoffLimitPerIndex")) ? 6 : 2147483647);
  DefaultString(spec, "completionMode", "NonIndexed");
  DefaultValue(spec, "suspend", false);
  DefaultString(spec, "podReplacementPolicy",
                IsUnset(Member(spec, "podFailurePolicy")) ? "TerminatingOrFailed" : "Failed");
  ApplyPodTemplateSpecDefaults(Object(Object(spec, "template"), "spec"));
  // Copied: adding members to the Job may move its spec (base/flat_map.h).
  const Json template_labels =
      ChildOrNull(ChildOrNull(ChildOrNull(*spec, "template"), "metadata"), "labels");
  if (!template_labels.is_object()) return;
  if (Json* metadata = EnsureObject(job, "metadata")) {
    const Json* labels = Object(*metadata, "labels");
    if (labels == nullptr || labels->empty()) (*metadata)["labels"] = template_labels;
  }
}

bool NeedsUidBeforeCreate(const ResourceInfo& info, const Json& object) {
  return info.group == "batch" && info.kind == "Job" &&
         !ManualSelector(ChildOrNull(object, "spec"));
}

void GenerateJobSelector(Json* job) {
  Json* metadata = Object(job, "metadata");
  Json* spec = Object(job, "spec");
  if (metadata == nullptr || spec == nullptr) return;
  const std::string name = StringMember(*metadata, "name");
  const std::string uid = StringMember(*metadata, "uid");
  Json* tmpl = EnsureObject(spec, "template");
  Json* tmpl_meta = tmpl != nullptr ? EnsureObject(tmpl, "metadata") : nullptr;
  Json* labels = tmpl_meta != nullptr ? EnsureObject(tmpl_meta, "labels") : nullptr;
  if (labels == nullptr) return;
  // Labels the user set are kept: a conflict is validation's to report.
  for (std::string_view key : {kLegacyJobNameLabel, kJobNameLabel}) {
    if (!labels->contains(key)) (*labels)[std::string(key)] = name;
  }
  for (std::string_view key : {kLegacyControllerUidLabel, kControllerUidLabel}) {
    if (!labels->contains(key)) (*labels)[std::string(key)] = uid;
  }
  // A real cluster's Job shows its template's labels once read back (the defaulting of a stored
  // object copies them when the Job has none): here they are copied at once.
  const Json* own = Object(*metadata, "labels");
  if (own == nullptr || own->empty()) (*metadata)["labels"] = *labels;
  // Last: a new member of the spec may move its template (base/flat_map.h).
  Json* selector = EnsureObject(spec, "selector");
  Json* match = selector != nullptr ? EnsureObject(selector, "matchLabels") : nullptr;
  if (match != nullptr && !match->contains(kControllerUidLabel)) {
    (*match)[std::string(kControllerUidLabel)] = uid;
  }
}

ErrorList ValidateJobSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  for (const char* key : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                          "ttlSecondsAfterFinished"}) {
    if (!IsUnset(Member(spec, key))) NonNegative(spec, key, path.Child(key), &errs);
  }
  const Json* selector = Member(spec, "selector");
  if (IsUnset(selector)) {
    errs.push_back(Required(path.Child("selector"), ""));
  } else if (selector->is_object()) {
    AppendErrors(&errs, ValidateSelectorSyntax(*selector, path.Child("selector")));
  }
  ValidateTemplateLabelsMatch(spec, selector, path, &errs);
  const std::string mode = StringMember(spec, "completionMode");
  if (mode == "Indexed") {
    ValidateIndexed(spec, path, &errs);
  } else if (mode != "NonIndexed") {
    errs.push_back(NotSupported(path.Child("completionMode"), mode, {"NonIndexed", "Indexed"}));
  }
  const std::string replacement = StringMember(spec, "podReplacementPolicy");
  if (replacement != "TerminatingOrFailed" && replacement != "Failed") {
    errs.push_back(NotSupported(path.Child("podReplacementPolicy"), replacement,
                                {"Failed", "TerminatingOrFailed"}));
  }
  const Json* tmpl = Object(spec, "template");
  const Json* pod_spec = tmpl != nullptr ? Object(*tmpl, "spec") : nullptr;
  const FieldPath spec_path = path.Child("template").Child("spec");
  const std::string restart = pod_spec != nullptr ? StringMember(*pod_spec, "restartPolicy") : "";
  if (restart != "OnFailure" && restart != "Never") {
    errs.push_back(NotSupported(spec_path.Child("restartPolicy"), restart, {"OnFailure", "Never"}));
  }
  if (pod_spec != nullptr) AppendErrors(&errs, ValidatePodSpecSubset(*pod_spec, spec_path));
  return errs;
}

ErrorList ValidateJobSpecUpdate(const Json& spec, const Json& old_spec) {
  ErrorList errs;
  const FieldPath path("spec");
  auto immutable = [&](const char* key, const FieldPath& at) {
    const Json* now = Member(spec, key);
    const Json* before = Member(old_spec, key);
    Json a = IsUnset(now) ? Json() : NormalizedForCompare(*now);
    Json b = IsUnset(before) ? Json() : NormalizedForCompare(*before);
    if (a != b) errs.push_back(Invalid(at, IsUnset(now) ? Json() : *now, "field is immutable"));
  };
  immutable("selector", path.Child("selector"));
  immutable("completionMode", path.Child("completionMode"));
  // Indexed Jobs may scale completions with parallelism (elastic Indexed Jobs); others may not.
  if (StringMember(spec, "completionMode") != "Indexed") {
    immutable("completions", path.Child("completions"));
  }
  // A suspended Job's template may still change (its pods are not running).
  const Json* suspended = Member(old_spec, "suspend");
  if (suspended == nullptr || !suspended->is_boolean() || !suspended->get<bool>()) {
    immutable("template", path.Child("template"));
  }
  return errs;
}

ErrorList ValidateJob(const Json& job, const Json* old) {
  ErrorList errs;
  const Json& spec = ChildOrNull(job, "spec");
  AppendErrors(&errs, ValidateJobSpec(spec, FieldPath("spec")));
  if (old == nullptr) {
    ValidateGeneratedSelector(job, &errs);
  } else {
    AppendErrors(&errs, ValidateJobSpecUpdate(spec, ChildOrNull(*old, "spec")));
  }
  return errs;
}

}  // namespace lws::api
