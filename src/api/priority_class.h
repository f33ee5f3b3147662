// File: api/priority_class.h
//
// PriorityClass (scheduling.k8s.io/v1) as kube-apiserver v1.32 serves it: the defaults
// (preemptionPolicy PreemptLowerPriority), the registry validation
// (pkg/apis/scheduling/validation: the "system-" names reserved for the two system classes, user
// values at most one billion, value and preemptionPolicy immutable), and the two system classes
// the server creates at start (pkg/apis/scheduling/helpers.go). The Priority admission plugin
// that resolves a pod's priorityClassName is apiserver/priority_admission.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/field.h"

namespace lws::api {

inline constexpr std::int64_t kHighestUserDefinablePriority = 1'000'000'000;
inline constexpr char kSystemPriorityClassPrefix[] = "system-";
inline constexpr char kPreemptLowerPriority[] = "PreemptLowerPriority";
inline constexpr char kPreemptNever[] = "Never";

// What a PriorityClass object says, read leniently: a missing or mistyped field is unset (value 0,
// not the default, policy "").
struct PriorityClassSettings {
  std::int64_t value = 0;
  bool global_default = false;
  std::string preemption_policy;
};
PriorityClassSettings ReadPriorityClass(const Json& object);

// system-node-critical (2000001000) and system-cluster-critical (2000000000).
std::vector<Json> SystemPriorityClasses();

void ApplyPriorityClassDefaults(Json* object);

// Create (`old == nullptr`) or update; the metadata rules are the caller's.
ErrorList ValidatePriorityClass(const Json& object, const Json* old);

}  // namespace lws::api
