// File: controllers/disaggregatedset/scalers.h
//
// Role scaling (upstream KEP-849; docs/disaggregatedset-upstream.md section 6.1). A Static role
// (or one without `scaling`) runs its spec.replicas per slice. An External role runs what its
// DisaggregatedSetRoleScaler `<ds>-<role>` says in spec.replicas, which an autoscaler (HPA, KEDA)
// writes through the scaler's /scale subresource; the role's own spec.replicas is ignored.
//
// The controller keeps one scaler per External role (upstream ScalerManager.Reconcile) and
// reports on it what the autoscaler reads back: the role's LeaderWorkerSet groups and a selector
// of their leader pods (upstream updateScalerStatus). These are the pure decisions; the
// controller creates, deletes and patches.
#pragma once

#include <string>
#include <vector>

#include "api/disaggregatedset_types.h"
#include "controllers/disaggregatedset/observed.h"

namespace lws::disaggregatedset {

// The replicas per slice `role` should run (upstream getTargetReplicas). A role the spec no longer
// has (null) reads 1, as upstream's. An External role reads its scaler's spec.replicas, and
// without a scaler (not created yet, or its name taken by an object this set does not control)
// holds `current_new`, the target revision's current count. A Static role reads spec.replicas,
// nil as 1.
int TargetReplicas(const api::DisaggregatedRoleSpec* role, const ScalersByRole& scalers,
                   int current_new);

// spec.replicas of a newly created scaler for `role` (upstream seedForRole): the sum of
// spec.replicas of every owned LeaderWorkerSet of the role, all slices and revisions, so a
// Static-to-External flip keeps the running size; 1 when there is none, because HPA reading 0
// from /scale parks in ScalingDisabled and never scales up.
int SeedForRole(const std::string& role, const std::vector<OwnedLws>& owned);

// `<ds>-<role>` (upstream ScalerName): no slice, no revision.
std::string ScalerName(const std::string& ds, const std::string& role);

// The scaler's status.selector: the role's leader pods of every revision and slice, so HPA
// averages its metrics over one pod per group, the unit spec.replicas counts.
std::string ScalerSelector(const std::string& ds, const std::string& role);

// What to do to the scalers: create (in spec order) and delete (in the order given).
struct ScalerPlan {
  std::vector<api::DisaggregatedSetRoleScaler> create;
  std::vector<std::string> delete_names;
};

// Upstream ScalerManager.Reconcile. `controlled` are the scalers labelled with `ds`'s name whose
// controller ownerReference is `ds`; `owned` every LeaderWorkerSet `ds` owns. A controlled
// scaler whose role is not an External role of the spec is deleted (deleting it does not opt the
// role out: switching the role to Static does). An External role without a controlled scaler
// gets one, named ScalerName, labelled with the set and role names, controlled by `ds`
// (blockOwnerDeletion true) and seeded with SeedForRole. Creating it may find the name taken;
// the controller then adopts it only if `ds` controls it (upstream create).
ScalerPlan PlanScalers(const api::DisaggregatedSet& ds, const std::vector<OwnedScaler>& controlled,
                       const std::vector<OwnedLws>& owned);

// The status `scaler` should have (upstream WriteStatus), starting from its `current` one:
// replicas = the status.replicas (groups) of every owned LeaderWorkerSet of its role, the
// leader-only selector, observedGeneration = the scaler's generation, and condition Ready True
// (reason Bound), set as meta.SetStatusCondition does: lastTransitionTime becomes `now` only when
// the condition is new or its status changes.
api::RoleScalerStatus ScalerStatus(const api::DisaggregatedSet& ds, const OwnedScaler& scaler,
                                   const std::vector<OwnedLws>& owned,
                                   const api::RoleScalerStatus& current, const std::string& now);

// True iff `a` and `b` agree on every field ScalerStatus writes: the controller patches the
// status only when they differ.
bool SameScalerStatus(const api::RoleScalerStatus& a, const api::RoleScalerStatus& b);

}  // namespace lws::disaggregatedset
