#include "api/priority_class.h"

#include <string>

#include "api/builtin_json.h"

namespace lws::api {

namespace {

using builtin::Member;

struct SystemClass {
  const char* name;
  std::int64_t value;
  const char* description;
};

constexpr SystemClass kSystemClasses[] = {
    {"system-node-critical", 2'000'001'000,
     "Used for system critical pods that must not be moved from their current node."},
    {"system-cluster-critical", 2'000'000'000,
     "Used for system critical pods that must run in the cluster, but can be moved to another "
     "node if necessary."},
};

Json PolicyOf(const Json& object) {
  const Json* v = Member(object, "preemptionPolicy");
  return v != nullptr ? *v : Json(nullptr);
}

// IsKnownSystemPriorityClass's answer: "" when `name` is a system class with these settings.
std::string SystemClassError(const std::string& name, std::int64_t value, bool global_default) {
  for (const SystemClass& c : kSystemClasses) {
    if (name != c.name) continue;
    if (value != c.value)
      return "value of " + name + " PriorityClass must be " + std::to_string(c.value);
    if (global_default) return "globalDefault of " + name + " PriorityClass must be false";
    return "";
  }
  return name + " is not a known system priority class";
}

}  // namespace

std::vector<Json> SystemPriorityClasses() {
  std::vector<Json> classes;
  for (const SystemClass& c : kSystemClasses) {
    classes.push_back({{"apiVersion", "scheduling.k8s.io/v1"},
                       {"kind", "PriorityClass"},
                       {"metadata", {{"name", c.name}}},
                       {"value", c.value},
                       {"description", c.description},
                       {"preemptionPolicy", kPreemptLowerPriority}});
  }
  return classes;
}

void ApplyPriorityClassDefaults(Json* object) {
  if (object == nullptr || !object->is_object()) return;
  if (Member(*object, "preemptionPolicy") == nullptr)
    (*object)["preemptionPolicy"] = kPreemptLowerPriority;
}

PriorityClassSettings ReadPriorityClass(const Json& object) {
  PriorityClassSettings settings;
  if (const Json* v = Member(object, "value"); v != nullptr && v->is_number_integer()) {
    settings.value = v->get<std::int64_t>();
  }
  if (const Json* v = Member(object, "globalDefault"); v != nullptr && v->is_boolean()) {
    settings.global_default = v->get<bool>();
  }
  if (const Json* v = Member(object, "preemptionPolicy"); v != nullptr && v->is_string()) {
    settings.preemption_policy = v->get<std::string>();
  }
  return settings;
}

ErrorList ValidatePriorityClass(const Json& object, const Json* old) {
  ErrorList errs;
  const PriorityClassSettings settings = ReadPriorityClass(object);
  const Json* value = Member(object, "value");
  if (value != nullptr && !value->is_number_integer()) {
    errs.push_back(Invalid(FieldPath("value"), *value, "must be an integer"));
  }
  const Json* meta = Member(object, "metadata");
  const Json* name_json = meta != nullptr ? Member(*meta, "name") : nullptr;
  const std::string name =
      name_json != nullptr && name_json->is_string() ? name_json->get<std::string>() : "";
  if (name.rfind(kSystemPriorityClassPrefix, 0) == 0) {
    const std::string error = SystemClassError(name, settings.value, settings.global_default);
    if (!error.empty()) {
      errs.push_back(Forbidden(FieldPath("metadata").Child("name"),
                               std::string("priority class names with '") +
                                   kSystemPriorityClassPrefix +
                                   "' prefix are reserved for system use only. error: " + error));
    }
  } else if (settings.value > kHighestUserDefinablePriority) {
    errs.push_back(
        Forbidden(FieldPath("value"), "maximum allowed value of a user defined priority is " +
                                          std::to_string(kHighestUserDefinablePriority)));
  }
  const Json policy = PolicyOf(object);
  if (!policy.is_null() && policy != kPreemptLowerPriority && policy != kPreemptNever) {
    errs.push_back(NotSupported(FieldPath("preemptionPolicy"), policy,
                                {kPreemptLowerPriority, kPreemptNever}));
  }
  if (old != nullptr) {
    if (settings.value != ReadPriorityClass(*old).value) {
      errs.push_back(Forbidden(FieldPath("value"), "may not be changed in an update."));
    }
    if (policy != PolicyOf(*old)) {
      errs.push_back(Invalid(FieldPath("preemptionPolicy"), policy, "field is immutable"));
    }
  }
  return errs;
}

}  // namespace lws::api
