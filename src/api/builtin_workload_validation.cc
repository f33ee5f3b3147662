// StatefulSet spec rules of pkg/apis/apps/validation over JSON, and the selector and template
// rules the apps kinds share. See builtin_validation.h for what is covered.
#include <optional>
#include <set>
#include <string>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/meta.h"
#include "api/name_validation.h"
#include "api/selector.h"

namespace lws::api {

using builtin::Array;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

constexpr std::string_view kNegative = "must be greater than or equal to 0";

FieldError WithRendered(FieldError e, std::string rendered) {
  e.rendered_value = std::move(rendered);
  return e;
}

// %#v of a metav1.LabelSelector as field errors print a selector value.
std::string GoLabelSelector(const Json& selector) {
  const Json* labels = Object(selector, "matchLabels");
  const Json* exprs = Array(selector, "matchExpressions");
  std::string out = "v1.LabelSelector{MatchLabels:";
  out += labels != nullptr ? GoStringMap(*labels) : "map[string]string(nil)";
  out += ", MatchExpressions:[]v1.LabelSelectorRequirement";
  if (exprs == nullptr) return out + "(nil)}";
  out += "{";
  for (std::size_t i = 0; i < exprs->size(); ++i) {
    const Json& r = (*exprs)[i];
    std::vector<std::string> values;
    if (const Json* vs = Array(r, "values")) {
      for (const auto& v : *vs) values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    }
    if (i > 0) out += ", ";
    out += "v1.LabelSelectorRequirement{Key:" + GoQuote(StringMember(r, "key")) +
           ", Operator:" + GoQuote(StringMember(r, "operator")) + ", Values:" +
           GoStringSlice(values, Array(r, "values") ? EmptySlice::kEmpty : EmptySlice::kNil) + "}";
  }
  return out + "}}";
}

// unversioned ValidateLabelSelector.
ErrorList SelectorSyntax(const Json& selector, const FieldPath& path) {
  ErrorList errs;
  if (const Json* labels = Object(selector, "matchLabels"))
    AppendErrors(&errs, ValidateLabelMap(*labels, path.Child("matchLabels")));
  const Json* exprs = Array(selector, "matchExpressions");
  for (std::size_t i = 0; exprs != nullptr && i < exprs->size(); ++i) {
    const Json& r = (*exprs)[i];
    const FieldPath at = path.Child("matchExpressions").Index(i);
    const std::string op = StringMember(r, "operator");
    const Json* values = Array(r, "values");
    const std::size_t count = values != nullptr ? values->size() : 0;
    if (op == "In" || op == "NotIn") {
      if (count == 0)
        errs.push_back(
            Required(at.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (count > 0)
        errs.push_back(
            Forbidden(at.Child("values"),
                      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push_back(Invalid(at.Child("operator"), op, "not a valid selector operator"));
    }
    const std::string key = StringMember(r, "key");
    for (const auto& p : IsQualifiedName(key)) errs.push_back(Invalid(at.Child("key"), key, p));
    for (std::size_t j = 0; j < count; ++j) {
      const std::string v =
          (*values)[j].is_string() ? (*values)[j].get<std::string>() : (*values)[j].dump();
      for (const auto& p : IsValidLabelValue(v))
        errs.push_back(Invalid(at.Child("values").Index(j), v, p));
    }
  }
  return errs;
}

void ValidateUpdateStrategy(const Json& spec, const FieldPath& path, ErrorList* errs) {
  const Json* strategy = Object(spec, "updateStrategy");
  const std::string type = strategy != nullptr ? StringMember(*strategy, "type") : "";
  const Json* rolling = strategy != nullptr ? Member(*strategy, "rollingUpdate") : nullptr;
  const FieldPath rolling_path = path.Child("rollingUpdate");
  if (type.empty()) {
    errs->push_back(Required(path, ""));
  } else if (type == "OnDelete") {
    if (!IsUnset(rolling)) {
      const std::int64_t partition =
          rolling->is_object() ? builtin::IntValue(Member(*rolling, "partition")) : 0;
      errs->push_back(WithRendered(
          Invalid(rolling_path, Json(), "only allowed for updateStrategy 'RollingUpdate'"),
          "apps.RollingUpdateStatefulSetStrategy{Partition:" + std::to_string(partition) +
              ", MaxUnavailable:(*intstr.IntOrString)(nil)}"));
    }
  } else if (type == "RollingUpdate") {
    if (rolling != nullptr && rolling->is_object())
      NonNegative(*rolling, "partition", rolling_path.Child("partition"), errs);
  } else {
    const std::string pointer =
        IsUnset(rolling) ? "(nil)" : "(0xc000000000)";  // Go prints an address
    errs->push_back(WithRendered(Invalid(path, Json(), "must be 'RollingUpdate' or 'OnDelete'"),
                                 "apps.StatefulSetUpdateStrategy{Type:" + GoQuote(type) +
                                     ", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)" +
                                     pointer + "}"));
  }
}

}  // namespace

ErrorList ValidateSelectorSyntax(const Json& selector, const FieldPath& path) {
  return SelectorSyntax(selector, path);
}

void NonNegative(const Json& obj, std::string_view key, const FieldPath& path, ErrorList* errs) {
  const std::int64_t value = builtin::IntValue(Member(obj, key));
  if (value < 0) errs->push_back(Invalid(path, value, std::string(kNegative)));
}

void ValidateWorkloadSelector(const Json& spec, const FieldPath& path, std::string_view kind,
                              ErrorList* errs) {
  const Json* selector = Member(spec, "selector");
  if (IsUnset(selector)) {
    errs->push_back(Required(path.Child("selector"), ""));
  } else if (selector->is_object()) {
    AppendErrors(errs, SelectorSyntax(*selector, path.Child("selector")));
    const Json* labels = Object(*selector, "matchLabels");
    const Json* exprs = Array(*selector, "matchExpressions");
    if ((labels == nullptr || labels->empty()) && (exprs == nullptr || exprs->empty())) {
      errs->push_back(WithRendered(Invalid(path.Child("selector"), Json(),
                                           "empty selector is invalid for " + std::string(kind)),
                                   GoLabelSelector(*selector)));
    }
  }
}

void ValidateTemplateLabelsMatch(const Json& spec, const Json* selector_json, const FieldPath& path,
                                 ErrorList* errs) {
  const Json* tmpl = Object(spec, "template");
  const Json* meta = tmpl != nullptr ? Object(*tmpl, "metadata") : nullptr;
  const Json* labels = meta != nullptr ? Object(*meta, "labels") : nullptr;
  // A missing selector selects nothing, so upstream also reports the template labels.
  std::optional<Selector> selector;
  LabelSelector typed;
  if (IsUnset(selector_json)) {
    selector = Selector::Nothing();
  } else if (selector_json->is_object() && DecodeInto(*selector_json, &typed).empty()) {
    auto parsed = Selector::FromLabelSelector(&typed);
    if (parsed.ok()) selector = *parsed;
  }
  StringMap label_map;
  if (labels != nullptr) {
    for (const auto& [k, v] : labels->items())
      label_map[k] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (!selector.has_value()) {
    errs->push_back(
        WithRendered(Invalid(path.Child("selector"), Json(), ""), GoLabelSelector(*selector_json)));
  } else if (!selector->Empty() && !selector->Matches(label_map)) {
    errs->push_back(
        WithRendered(Invalid(path.Child("template").Child("metadata").Child("labels"), Json(),
                             "`selector` does not match template `labels`"),
                     labels != nullptr ? GoStringMap(*labels) : "map[string]string(nil)"));
  }
}

void ValidateWorkloadTemplate(const Json& spec, const Json* selector_json, const FieldPath& path,
                              std::string_view kind, ErrorList* errs) {
  ValidateTemplateLabelsMatch(spec, selector_json, path, errs);
  const Json* tmpl = Object(spec, "template");
  const Json* meta = tmpl != nullptr ? Object(*tmpl, "metadata") : nullptr;
  const Json* labels = meta != nullptr ? Object(*meta, "labels") : nullptr;
  if (labels != nullptr)
    AppendErrors(errs, ValidateLabelMap(*labels, path.Child("template").Child("labels")));
  const Json* pod_spec = tmpl != nullptr ? Object(*tmpl, "spec") : nullptr;
  const std::string restart = pod_spec != nullptr ? StringMember(*pod_spec, "restartPolicy") : "";
  const FieldPath spec_path = path.Child("template").Child("spec");
  if (restart != "Always")
    errs->push_back(NotSupported(spec_path.Child("restartPolicy"), restart, {"Always"}));
  if (pod_spec != nullptr && !IsUnset(Member(*pod_spec, "activeDeadlineSeconds"))) {
    errs->push_back(
        Forbidden(spec_path.Child("activeDeadlineSeconds"),
                  "activeDeadlineSeconds in " + std::string(kind) + " is not Supported"));
  }
}

ErrorList ValidateStatefulSetSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  const std::string policy = StringMember(spec, "podManagementPolicy");
  if (policy.empty()) {
    errs.push_back(Required(path.Child("podManagementPolicy"), ""));
  } else if (policy != "OrderedReady" && policy != "Parallel") {
    errs.push_back(
        Invalid(path.Child("podManagementPolicy"), policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  ValidateUpdateStrategy(spec, path.Child("updateStrategy"), &errs);
  if (const Json* retention = Object(spec, "persistentVolumeClaimRetentionPolicy")) {
    for (const char* key : {"whenDeleted", "whenScaled"}) {
      const std::string value = StringMember(*retention, key);
      if (value != "Retain" && value != "Delete") {
        errs.push_back(NotSupported(path.Child("persistentVolumeClaimRetentionPolicy").Child(key),
                                    value, {"Retain", "Delete"}));
      }
    }
  }
  NonNegative(spec, "replicas", path.Child("replicas"), &errs);
  NonNegative(spec, "minReadySeconds", path.Child("minReadySeconds"), &errs);
  if (const Json* ordinals = Object(spec, "ordinals"))
    NonNegative(*ordinals, "start", path.Child("ordinals.start"), &errs);
  ValidateWorkloadSelector(spec, path, "statefulset", &errs);
  ValidateWorkloadTemplate(spec, Member(spec, "selector"), path, "StatefulSet", &errs);
  return errs;
}

ErrorList ValidateStatefulSetSpecUpdate(const Json& spec, const Json& old_spec) {
  Json now = spec.is_object() ? spec : Json::object();
  Json before = old_spec.is_object() ? old_spec : Json::object();
  for (const char* key : {"replicas", "ordinals", "template", "updateStrategy",
                          "persistentVolumeClaimRetentionPolicy", "minReadySeconds"}) {
    now.erase(key);
    before.erase(key);
  }
  if (NormalizedForCompare(now) == NormalizedForCompare(before)) return {};
  return {Forbidden(
      FieldPath("spec"),
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
      "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
      "forbidden")};
}

}  // namespace lws::api
