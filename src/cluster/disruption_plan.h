// File: cluster/disruption_plan.h
//
// The disruption controller's decision for one PodDisruptionBudget, as kube-controller-manager's
// (k8s.io/kubernetes pkg/controller/disruption/disruption.go trySync): from the budget and the
// pods it covers, the status that pods/eviction spends (api/eviction.h).
//
//   expectedPods   maxUnavailable or a percentage minAvailable: the sum of the scales of the
//                  covered pods' controllers (a Deployment's replicas for its ReplicaSets'
//                  pods, a StatefulSet's, a bare ReplicaSet's), each controller counted once;
//                  an integer minAvailable: the number of covered pods.
//   desiredHealthy expectedPods - maxUnavailable (rounded up, at least 0), or minAvailable
//                  (a percentage of expectedPods rounded up).
//   currentHealthy covered pods that are Ready, not being deleted and not in disruptedPods
//                  (an eviction granted less than two minutes ago whose delete has not landed).
//   disruptionsAllowed currentHealthy - desiredHealthy, 0 when negative or when no pod is
//                  expected (a budget whose pods have not appeared yet is safe).
//
// Pods without a controller are left out of the scale ("unmanaged", with an UnmanagedPods
// event); a controller that cannot be found fails the sync safe: no disruption allowed, the
// DisruptionAllowed condition False with reason SyncFailed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/field.h"
#include "base/clock.h"

namespace lws::cluster {

using api::Json;

// One pod the budget covers, with what the controller found of its controller.
struct CoveredPod {
  enum class Controller {
    kNone,      // no controller reference: unmanaged
    kFound,     // `controller_uid` with scale `controller_scale`
    kNotFound,  // a controller reference to nothing this controller knows
  };
  const Json* pod = nullptr;
  Controller controller = Controller::kNone;
  std::string controller_uid;
  std::int64_t controller_scale = 0;
};

struct BudgetEvent {
  std::string type;  // "Normal" or "Warning"
  std::string reason;
  std::string message;
  std::string pod;  // the pod the event is about; "" for the budget
};

struct BudgetStatusPlan {
  Json status;                  // the budget's next status
  bool changed = false;         // differs from the stored one: write it
  std::optional<Time> recheck;  // the earliest disruptedPods entry to expire
  std::vector<BudgetEvent> events;
};

// DeletionTimeout: how long an eviction's entry in disruptedPods holds the pod out of the count.
inline constexpr Duration kDisruptionDeletionTimeout = std::chrono::minutes(2);

BudgetStatusPlan PlanBudgetStatus(const Json& budget, const std::vector<CoveredPod>& pods,
                                  Time now);

}  // namespace lws::cluster
