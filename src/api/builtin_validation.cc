// ValidateBuiltin: dispatch, metadata, ConfigMap and Secret, and the small validation helpers the
// other builtin_*validation files share. See builtin_validation.h.
#include "api/builtin_validation.h"

#include <algorithm>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/disruption_budget.h"
#include "api/event_validation.h"
#include "api/meta.h"
#include "api/name_validation.h"
#include "api/object_meta_validation.h"
#include "api/priority_class.h"

namespace lws::api {

using builtin::Is;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

constexpr std::size_t kMaxDataSize = 1024 * 1024;  // core.MaxSecretSize, also for ConfigMaps
constexpr std::string_view kImmutableSetMessage = "field is immutable when `immutable` is set";

NameRule NameRuleFor(const ResourceInfo& info) {
  if (Is(info, "", "Service")) return NameRule::kDNS1035Label;
  if (Is(info, "", "Namespace") || Is(info, "apps", "StatefulSet")) return NameRule::kDNS1123Label;
  return NameRule::kDNS1123Subdomain;
}

ErrorList ValidateMetadata(const ResourceInfo& info, const Json& object, bool check_name) {
  ObjectMeta meta;
  ErrorList errs;
  const Json* metadata = Member(object, "metadata");
  if (metadata != nullptr && metadata->is_object()) {
    errs = DecodeInto(*metadata, &meta, FieldPath("metadata"));
  } else if (!IsUnset(metadata)) {
    errs.push_back(TypeInvalid(FieldPath("metadata"), metadata->type_name(), "expected object"));
  }
  AppendErrors(&errs,
               ValidateObjectMeta(meta, NameRuleFor(info), FieldPath("metadata"),
                                  info.namespaced ? MetaScope::kNamespaced : MetaScope::kCluster));
  if (!check_name) {
    std::erase_if(errs, [](const FieldError& e) {
      return e.field == "metadata.name" || e.field == "metadata.generateName";
    });
  }
  return errs;
}

// validation.IsConfigMapKey.
std::vector<std::string> IsConfigMapKey(std::string_view key) {
  std::vector<std::string> errs;
  if (key.size() > kDNS1123SubdomainMaxLength) {
    errs.push_back("must be no more than " + std::to_string(kDNS1123SubdomainMaxLength) +
                   " characters");
  }
  const bool charset_ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_';
  });
  if (!charset_ok) {
    errs.push_back(
        RegexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                   "[-._a-zA-Z0-9]+", {"key.name", "KEY_NAME", "key-name"}));
  }
  if (key == ".") {
    errs.push_back("must not be '.'");
  } else if (key == "..") {
    errs.push_back("must not be '..'");
  } else if (key.substr(0, 2) == "..") {
    errs.push_back("must not start with '..'");
  }
  return errs;
}

// The byte length of a base64 value as Go decodes it ([]byte fields in JSON).
std::size_t DecodedSize(const Json& value) {
  if (!value.is_string()) return 0;
  const auto& s = value.get_ref<const std::string&>();
  std::size_t pad = 0;
  for (auto it = s.rbegin(); it != s.rend() && *it == '='; ++it) ++pad;
  return (s.size() / 4) * 3 - std::min(pad, (s.size() / 4) * 3);
}

// Checks the keys of the map `member`; adds the value sizes to `total`.
void ValidateDataKeys(const Json& object, std::string_view member, bool base64, const Json* other,
                      std::string_view other_name, ErrorList* errs, std::size_t* total) {
  const Json* data = Object(object, member);
  if (data == nullptr) return;
  const FieldPath path(member);
  for (const auto& [key, value] : data->items()) {
    for (const auto& p : IsConfigMapKey(key)) errs->push_back(Invalid(path.Key(key), key, p));
    if (other != nullptr && other->contains(key)) {
      errs->push_back(
          Invalid(path.Key(key), key, "duplicate of key present in " + std::string(other_name)));
    }
    *total += base64 ? DecodedSize(value)
                     : (value.is_string() ? value.get_ref<const std::string&>().size() : 0);
  }
}

bool IsImmutable(const Json& object) {
  const Json* immutable = Member(object, "immutable");
  return immutable != nullptr && immutable->is_boolean() && immutable->get<bool>();
}

// The `immutable` rules of ValidateConfigMapUpdate / ValidateSecretUpdate.
void ValidateImmutableData(const Json& object, const Json& old,
                           const std::vector<const char*>& members, ErrorList* errs) {
  if (!IsImmutable(old)) return;
  if (!IsImmutable(object))
    errs->push_back(Forbidden(FieldPath("immutable"), std::string(kImmutableSetMessage)));
  for (const char* member : members) {
    const Json* now = Member(object, member);
    const Json* before = Member(old, member);
    if (NormalizedForCompare(now ? *now : Json()) !=
        NormalizedForCompare(before ? *before : Json())) {
      errs->push_back(Forbidden(FieldPath(member), std::string(kImmutableSetMessage)));
    }
  }
}

ErrorList ValidateConfigMap(const Json& object, const Json* old) {
  ErrorList errs;
  if (old != nullptr) ValidateImmutableData(object, *old, {"data", "binaryData"}, &errs);
  std::size_t total = 0;
  ValidateDataKeys(object, "data", false, Object(object, "binaryData"), "binaryData", &errs,
                   &total);
  ValidateDataKeys(object, "binaryData", true, Object(object, "data"), "data", &errs, &total);
  if (total > kMaxDataSize)
    errs.push_back(TooLong(FieldPath(""), Json(), static_cast<int>(kMaxDataSize)));
  return errs;
}

ErrorList ValidateSecret(const Json& object, const Json* old) {
  ErrorList errs;
  if (old != nullptr) {
    const std::string type = StringMember(object, "type");
    if (type != StringMember(*old, "type"))
      errs.push_back(Invalid(FieldPath("type"), type, "field is immutable"));
    ValidateImmutableData(object, *old, {"data"}, &errs);
  }
  std::size_t total = 0;
  ValidateDataKeys(object, "data", true, nullptr, "", &errs, &total);
  if (total > kMaxDataSize)
    errs.push_back(TooLong(FieldPath("data"), "", static_cast<int>(kMaxDataSize)));
  return errs;
}

const Json& SpecOf(const Json& object) { return ChildOrNull(object, "spec"); }

}  // namespace

ErrorList ValidateLabelMap(const Json& labels, const FieldPath& path) {
  ErrorList errs;
  if (!labels.is_object()) return errs;
  for (const auto& [key, value] : labels.items()) {
    for (const auto& p : IsQualifiedName(key)) errs.push_back(Invalid(path, key, p));
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    for (const auto& p : IsValidLabelValue(text)) errs.push_back(Invalid(path, text, p));
  }
  return errs;
}

std::string InclusiveRangeError(std::int64_t lo, std::int64_t hi) {
  return "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", inclusive";
}

std::vector<std::string> IsValidPortNum(std::int64_t port) {
  if (port >= 1 && port <= 65535) return {};
  return {InclusiveRangeError(1, 65535)};
}

std::vector<std::string> IsValidPortName(std::string_view port) {
  std::vector<std::string> errs;
  if (port.size() > 15) errs.push_back("must be no more than 15 characters");
  bool charset_ok = !port.empty();
  bool has_letter = false;
  for (char c : port) {
    const bool letter = c >= 'a' && c <= 'z';
    has_letter = has_letter || letter;
    if (!letter && !(c >= '0' && c <= '9') && c != '-') charset_ok = false;
  }
  if (!charset_ok)
    errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!has_letter) errs.push_back("must contain at least one letter (a-z)");
  if (port.find("--") != std::string_view::npos)
    errs.push_back("must not contain consecutive hyphens");
  if (!port.empty() && (port.front() == '-' || port.back() == '-')) {
    errs.push_back("must not begin or end with a hyphen");
  }
  return errs;
}

ErrorList ValidateBuiltin(const ResourceInfo& info, const Json& object, const Json* old) {
  if (info.custom || info.group == "apiextensions.k8s.io") return {};
  // Events skip the generic metadata rules, as upstream's event strategy does.
  if (Is(info, "", "Event")) return ValidateEvent(object, old, EventApi::kCoreV1);
  const bool statefulset = Is(info, "apps", "StatefulSet");
  // StatefulSet names became DNS labels in 1.27; updates skip the name so older objects can
  // still be finalized (ValidateStatefulSetUpdate).
  ErrorList errs = ValidateMetadata(info, object, !(statefulset && old != nullptr));
  const Json& spec = SpecOf(object);
  if (Is(info, "", "Pod")) {
    AppendErrors(&errs, ValidatePodSpecSubset(spec, FieldPath("spec")));
    if (old != nullptr)
      AppendErrors(&errs, ValidatePodSpecUpdate(spec, SpecOf(*old), FieldPath("spec")));
  } else if (statefulset) {
    AppendErrors(&errs, ValidateStatefulSetSpec(spec, FieldPath("spec")));
    if (old != nullptr) AppendErrors(&errs, ValidateStatefulSetSpecUpdate(spec, SpecOf(*old)));
  } else if (Is(info, "apps", "Deployment") || Is(info, "apps", "ReplicaSet")) {
    AppendErrors(&errs, Is(info, "apps", "Deployment")
                            ? ValidateDeploymentSpec(spec, FieldPath("spec"))
                            : ValidateReplicaSetSpec(spec, FieldPath("spec")));
    if (old != nullptr) AppendErrors(&errs, ValidateSelectorUpdate(spec, SpecOf(*old)));
  } else if (Is(info, "apps", "DaemonSet")) {
    AppendErrors(&errs, ValidateDaemonSetSpec(spec, FieldPath("spec")));
    if (old != nullptr) AppendErrors(&errs, ValidateSelectorUpdate(spec, SpecOf(*old)));
  } else if (Is(info, "batch", "Job")) {
    AppendErrors(&errs, ValidateJob(object, old));
  } else if (Is(info, "", "Service")) {
    if (old != nullptr) AppendErrors(&errs, ValidateServiceSpecUpdate(spec, SpecOf(*old)));
    AppendErrors(&errs, ValidateServiceSpec(spec, FieldPath("spec")));
  } else if (Is(info, "", "ConfigMap")) {
    AppendErrors(&errs, ValidateConfigMap(object, old));
  } else if (Is(info, "", "Secret")) {
    AppendErrors(&errs, ValidateSecret(object, old));
  } else if (Is(info, "scheduling.k8s.io", "PriorityClass")) {
    AppendErrors(&errs, ValidatePriorityClass(object, old));
  } else if (Is(info, "policy", "PodDisruptionBudget")) {
    AppendErrors(&errs, ValidatePodDisruptionBudgetSpec(spec, FieldPath("spec")));
  }
  return errs;
}

ErrorList ValidateBuiltinStatusWrite(const ResourceInfo& info, const Json& object) {
  if (info.custom || Is(info, "", "Event")) return {};
  return ValidateMetadata(info, object, false);
}

}  // namespace lws::api
