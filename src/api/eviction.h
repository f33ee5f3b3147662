// File: api/eviction.h
//
// The decision behind POST pods/{name}/eviction, as kube-apiserver's EvictionREST.Create makes
// it (k8s.io/kubernetes pkg/registry/core/pod/storage/eviction.go), as a pure function of the pod
// and the budgets of its namespace. The API server does the I/O: it writes the budget's new
// status (the decrement that reserves the disruption) and then deletes the pod.
//
//   - A pod that is Pending, Succeeded, Failed or already being deleted is deleted without
//     looking at budgets: it is not available, so evicting it disrupts nothing.
//   - More than one budget covering the pod: 500, the subresource does not support it.
//   - A pod that is not Ready is deleted without spending the budget when the budget's policy is
//     AlwaysAllow, or when the budget is met (currentHealthy >= desiredHealthy > 0); the delete
//     then carries the pod's resourceVersion, so a pod that became Ready meanwhile is not lost.
//   - Otherwise the budget must allow a disruption: a status the disruption controller has not
//     caught up with (observedGeneration < generation) or no disruption left is 429
//     TooManyRequests with a DisruptionBudget cause, which `kubectl drain` retries; a negative
//     count or more than 2000 pending disruptions is 403. Allowed: disruptionsAllowed - 1, the
//     pod recorded in disruptedPods (the controller does not count it as healthy until it is
//     gone, or for two minutes) and the condition updated.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/field.h"
#include "base/clock.h"
#include "base/status.h"

namespace lws::api {

// PodDisruptionBudgetStatus.disruptedPods beyond which evictions are refused
// (eviction.go MaxDisruptedPodSize).
inline constexpr std::size_t kMaxDisruptedPods = 2000;

struct EvictionPlan {
  enum class Action {
    kDelete,  // delete the pod (after writing `budget_status` when set)
    kRefuse,  // answer `refusal`
  };
  Action action = Action::kDelete;
  // kDelete: with the pod's resourceVersion as a precondition.
  bool require_pod_resource_version = false;
  // kDelete: the name and new status of the budget to write first (the reserved disruption).
  std::string budget_name;
  std::optional<Json> budget_status;
  // kRefuse: the error, and for 429s the Retry-After seconds the Status carries.
  Status refusal;
  int retry_after_seconds = 0;
};

// `pod`: the live pod; `budgets`: every PodDisruptionBudget of its namespace; `dry_run`: the
// budget is checked but not spent.
EvictionPlan PlanEviction(const Json& pod, const std::vector<Json>& budgets, bool dry_run,
                          Time now);

// The 429 of a budget whose status is stale ("is still being processed by the server").
Status BudgetStaleError(const std::string& budget_name);

}  // namespace lws::api
