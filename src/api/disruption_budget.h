// File: api/disruption_budget.h
//
// policy/v1 PodDisruptionBudget facts shared by the API server (validation, the pods/eviction
// subresource) and the simulated cluster's disruption controller, over JSON objects:
//   - which pods a budget covers (k8s.io/kubernetes pkg/registry/core/pod/storage/eviction.go
//     getPodDisruptionBudgets: on policy/v1 an empty selector matches every pod of the
//     namespace, a missing one matches none);
//   - the DisruptionAllowed condition (component-helpers UpdateDisruptionAllowedCondition);
//   - ValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation) with upstream's messages.
#pragma once

#include <string>

#include "api/field.h"
#include "base/clock.h"

namespace lws::api {

inline constexpr const char* kDisruptionAllowedCondition = "DisruptionAllowed";
inline constexpr const char* kSufficientPodsReason = "SufficientPods";
inline constexpr const char* kInsufficientPodsReason = "InsufficientPods";
inline constexpr const char* kSyncFailedReason = "SyncFailed";
// unhealthyPodEvictionPolicy values.
inline constexpr const char* kIfHealthyBudget = "IfHealthyBudget";
inline constexpr const char* kAlwaysAllow = "AlwaysAllow";
// The StatusCause type of an eviction refused by a budget (policyv1.DisruptionBudgetCause).
inline constexpr const char* kDisruptionBudgetCause = "DisruptionBudget";

// Whether `pdb` covers `pod`: same namespace and the selector matches the pod's labels. A
// selector that does not parse covers nothing.
bool BudgetCoversPod(const Json& pdb, const Json& pod);

// podutil.IsPodReady: the Ready condition is True.
bool IsPodReadyJson(const Json& pod);

// Sets status.conditions' DisruptionAllowed from status.disruptionsAllowed (True/SufficientPods
// when positive, else False/InsufficientPods), keeping lastTransitionTime unless the status
// flips (meta.SetStatusCondition); observedGeneration is the status's.
void UpdateDisruptionAllowedCondition(Json* status, Time now);
// The same condition False with `reason` and `message` (the controller's failSafe).
void SetDisruptionAllowedCondition(Json* status, const std::string& condition_status,
                                   const std::string& reason, const std::string& message, Time now);

// ValidatePodDisruptionBudget's spec rules: minAvailable and maxUnavailable exclusive, each a
// non-negative int or a percentage up to 100%, the selector well formed, and the eviction policy
// one of IfHealthyBudget and AlwaysAllow.
ErrorList ValidatePodDisruptionBudgetSpec(const Json& spec, const FieldPath& path);

}  // namespace lws::api
