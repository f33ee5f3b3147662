// ValidatePodUpdate's spec rules (pkg/apis/core/validation), over JSON.
#include <limits>
#include <map>
#include <set>
#include <string>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"

namespace lws::api {

using builtin::Array;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

constexpr std::int64_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();

// Upstream's updatablePodSpecFields, joined with "," as in the message.
constexpr std::string_view kPodUpdateMessage =
    "pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

std::size_t Count(const Json* array) { return array != nullptr ? array->size() : 0; }

// ValidateContainerUpdates; returns false when the lists differ in length (upstream stops).
bool ValidateContainerUpdates(const Json& spec, const Json& old_spec, const char* list,
                              const FieldPath& path, ErrorList* errs) {
  const Json* items = Array(spec, list);
  if (Count(items) != Count(Array(old_spec, list))) {
    errs->push_back(Forbidden(path, "pod updates may not add or remove containers"));
    return false;
  }
  for (std::size_t i = 0; i < Count(items); ++i) {
    const std::string image = StringMember((*items)[i], "image");
    if (image.empty()) errs->push_back(Required(path.Index(i).Child("image"), ""));
    const auto first = image.find_first_not_of(" \t\n\r\f\v");
    const auto last = image.find_last_not_of(" \t\n\r\f\v");
    if (!image.empty() && (first != 0 || last != image.size() - 1)) {
      errs->push_back(Invalid(path.Index(i).Child("image"), image,
                              "must not have leading or trailing whitespace"));
    }
  }
  return true;
}

// Returns true when upstream stops validating (an out-of-range or increased deadline).
bool ValidateDeadlineUpdate(const Json& spec, const Json& old_spec, const FieldPath& path,
                            ErrorList* errs) {
  const Json* now = Member(spec, "activeDeadlineSeconds");
  const Json* before = Member(old_spec, "activeDeadlineSeconds");
  if (!IsUnset(now)) {
    const std::int64_t value = builtin::IntValue(now);
    if (value < 0 || value > kMaxInt32) {
      errs->push_back(Invalid(path, value, InclusiveRangeError(0, kMaxInt32)));
      return true;
    }
    if (!IsUnset(before) && builtin::IntValue(before) < value) {
      errs->push_back(Invalid(path, value, "must be less than or equal to previous value"));
      return true;
    }
  } else if (!IsUnset(before)) {
    errs->push_back(Invalid(path, Json(), "must not update from a positive integer to nil value"));
  }
  return false;
}

// A toleration's identity for validateOnlyAddedTolerations: everything but tolerationSeconds.
std::string TolerationKey(const Json& toleration) {
  Json copy = toleration;
  if (copy.is_object()) copy.erase("tolerationSeconds");
  return NormalizedForCompare(copy).dump();
}

// validateOnlyAddedTolerations: every old toleration is still present, up to tolerationSeconds.
// A set of the new ones keeps this linear: a pod may carry thousands of tolerations.
void ValidateTolerationUpdate(const Json& spec, const Json& old_spec, const FieldPath& path,
                              ErrorList* errs) {
  const Json* now = Array(spec, "tolerations");
  const Json* before = Array(old_spec, "tolerations");
  std::set<std::string> present;
  for (std::size_t j = 0; j < Count(now); ++j) present.insert(TolerationKey((*now)[j]));
  for (std::size_t i = 0; i < Count(before); ++i) {
    if (!present.count(TolerationKey((*before)[i]))) {
      errs->push_back(
          Forbidden(path, "existing toleration can not be modified except its tolerationSeconds"));
      return;
    }
  }
}

// validateOnlyDeletedSchedulingGates.
void ValidateGateUpdate(const Json& spec, const Json& old_spec, const FieldPath& path,
                        ErrorList* errs) {
  std::set<std::string> old_names;
  const Json* before = Array(old_spec, "schedulingGates");
  for (std::size_t i = 0; i < Count(before); ++i)
    old_names.insert(StringMember((*before)[i], "name"));
  const Json* now = Array(spec, "schedulingGates");
  std::map<std::string, std::size_t> added;  // upstream reports each new name once, last index
  for (std::size_t i = 0; i < Count(now); ++i) {
    const std::string name = StringMember((*now)[i], "name");
    if (old_names.count(name) == 0) added[name] = i;
  }
  for (const auto& [name, i] : added) {
    errs->push_back(
        Forbidden(path.Index(i).Child("name"),
                  "only deletion is allowed, but found new scheduling gate '" + name + "'"));
  }
}

// The new spec with every field a user may change set back to its stored value.
Json MungedSpec(const Json& spec, const Json& old_spec) {
  if (!spec.is_object()) return spec;
  Json munged = spec;
  for (const char* list : {"containers", "initContainers"}) {
    Json* items = Array(&munged, list);
    const Json* old_items = Array(old_spec, list);
    for (std::size_t i = 0; i < Count(items) && i < Count(old_items); ++i) {
      if ((*items)[i].is_object() && (*old_items)[i].is_object()) {
        const Json* image = Member((*old_items)[i], "image");
        if (image != nullptr)
          (*items)[i]["image"] = *image;
        else
          (*items)[i].erase("image");
      }
    }
  }
  for (const char* key : {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
    const Json* stored = Member(old_spec, key);
    if (stored != nullptr)
      munged[key] = *stored;
    else
      munged.erase(key);
  }
  const Json* old_grace = Member(old_spec, "terminationGracePeriodSeconds");
  const Json* new_grace = Member(munged, "terminationGracePeriodSeconds");
  if (!IsUnset(old_grace) && builtin::IntValue(old_grace) < 0 && !IsUnset(new_grace) &&
      builtin::IntValue(new_grace) == 1) {
    munged["terminationGracePeriodSeconds"] = *old_grace;
  }
  return munged;
}

void DiffInto(const Json& a, const Json& b, const std::string& path, std::string* out) {
  if (a == b) return;
  if (a.is_object() && b.is_object()) {
    std::set<std::string> keys;
    for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
    for (auto it = b.begin(); it != b.end(); ++it) keys.insert(it.key());
    for (const auto& k : keys) {
      DiffInto(a.contains(k) ? a[k] : Json(), b.contains(k) ? b[k] : Json(), path + "." + k, out);
    }
    return;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      DiffInto(a[i], b[i], path + "[" + std::to_string(i) + "]", out);
    }
    return;
  }
  if (!a.is_null()) *out += "- " + path + ": " + a.dump() + "\n";
  if (!b.is_null()) *out += "+ " + path + ": " + b.dump() + "\n";
}

}  // namespace

Json NormalizedForCompare(const Json& v) {
  if (v.is_object()) {
    Json out = Json::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      Json item = NormalizedForCompare(*it);
      const bool zero = item.is_null() ||
                        (item.is_string() && item.get_ref<const std::string&>().empty()) ||
                        (item.is_array() && item.empty());
      if (!zero) out[it.key()] = std::move(item);
    }
    return out;
  }
  if (v.is_array()) {
    Json out = Json::array();
    for (const auto& item : v) out.push_back(NormalizedForCompare(item));
    return out;
  }
  return v;
}

std::string JsonDiff(const Json& before, const Json& after, const std::string& root) {
  std::string out;
  DiffInto(before, after, root, &out);
  return out;
}

ErrorList ValidatePodSpecUpdate(const Json& spec, const Json& old_spec, const FieldPath& path) {
  ErrorList errs;
  if (!ValidateContainerUpdates(spec, old_spec, "containers", path.Child("containers"), &errs))
    return errs;
  if (!ValidateContainerUpdates(spec, old_spec, "initContainers", path.Child("initContainers"),
                                &errs)) {
    return errs;
  }
  if (ValidateDeadlineUpdate(spec, old_spec, path.Child("activeDeadlineSeconds"), &errs))
    return errs;
  ValidateTolerationUpdate(spec, old_spec, path.Child("tolerations"), &errs);
  ValidateGateUpdate(spec, old_spec, path.Child("schedulingGates"), &errs);
  const Json before = NormalizedForCompare(old_spec);
  const Json after = NormalizedForCompare(MungedSpec(spec, old_spec));
  if (before != after) {
    errs.push_back(Forbidden(
        path, std::string(kPodUpdateMessage) + "\n" + JsonDiff(before, after, path.String())));
  }
  return errs;
}

}  // namespace lws::api
