// File: cluster/replicaset_plan.h
//
// The decisions of kube-controller-manager's ReplicaSet controller (upstream
// pkg/controller/replicaset/replica_set.go) as one pure function: a ReplicaSet, the pods it
// controls and the time in; the writes of one sync and the status out (DESIGN.md 2.1).
//
// Rules, in the order of one sync (upstream syncReplicaSet and manageReplicas):
//   1. The *active* pods count: not Succeeded, not Failed, not being deleted.
//   2. Fewer active pods than spec.replicas: create the difference (at most kBurstReplicas per
//      sync) from the template: its labels, annotations and finalizers, generateName
//      "<set>-", a controller ownerReference to the set (blockOwnerDeletion), its spec.
//      The reconciler creates them in slow-start batches (1, 2, 4, ...) and stops at the first
//      failure, as upstream's slowStartBatch does.
//   3. More: delete the difference, the first ones of the active pods ranked as upstream's
//      ActivePodsWithRanks sorts them (ComparePodsToDelete below).
//   4. Status (calculateStatus): replicas = active pods, fullyLabeledReplicas = those whose
//      labels include all the template's, readyReplicas = Ready, availableReplicas = Ready for
//      more than minReadySeconds, observedGeneration; a ReplicaFailure condition is kept only
//      while creating or deleting fails (the reconciler adds it, WithReplicaFailure).
//      kUpdateStatus is emitted only when the status differs.
//   5. A pod Ready but not yet available asks for kRequeueAfter the shortest remaining wait.
// A set being deleted only gets its status.
//
// Left out (upstream has it): adopting orphans that match the selector and releasing owned
// pods that stop matching it; the terminatingReplicas field (alpha feature gate).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/apps_workloads.h"
#include "base/clock.h"

namespace lws::cluster {

// Upstream's burstReplicas: at most this many pods are created or deleted per sync.
inline constexpr int kBurstReplicas = 500;
inline constexpr std::string_view kPodDeletionCostAnnotation =
    "controller.kubernetes.io/pod-deletion-cost";

struct ReplicaSetSnapshot {
  api::ReplicaSet set;
  // The pods the set controls, in any state.
  std::vector<std::shared_ptr<const api::Pod>> pods;
  // The active pods of the set's siblings (the ReplicaSets of the same Deployment) and its own:
  // pods on a node crowded with them go first on scale-down. Empty: the set's own pods.
  std::vector<std::shared_ptr<const api::Pod>> related;
  Time now;
};

enum class ReplicaSetActionKind {
  kCreatePod,     // create `pod` (generateName)
  kDeletePod,     // delete pod `name` with precondition `uid`
  kUpdateStatus,  // write the plan's status
  kRequeueAfter,  // sync again after `requeue_after`
};

struct ReplicaSetAction {
  ReplicaSetActionKind kind = ReplicaSetActionKind::kCreatePod;
  std::string name;
  std::string uid;
  std::optional<api::Pod> pod;
  Duration requeue_after{0};
};

struct ReplicaSetPlan {
  std::vector<ReplicaSetAction> actions;
  api::ReplicaSetStatus status;
};

ReplicaSetPlan PlanReplicaSet(const ReplicaSetSnapshot& snapshot);

// Whether the sync of `snapshot` deletes some but not all of the set's active pods, the only
// case that ranks them and reads `related` (which the reconciler then gathers).
bool RanksPodsToDelete(const ReplicaSetSnapshot& snapshot);

// The pod upstream's GetPodFromTemplate makes for `set`.
api::Pod NewReplicaSetPod(const api::ReplicaSet& set);

// Upstream's ActivePodsWithRanks.Less: true when `a` should be deleted before `b`. Unassigned
// before assigned; Pending, Unknown, then Running; not Ready before Ready; lower
// pod-deletion-cost first; more related pods on the same node (`rank`) first; Ready for less
// time first and newer pods first, both compared in log2 buckets of their age at `now`
// (LogarithmicScaleDown), ties broken by uid; more container restarts first.
bool ComparePodsToDelete(const api::Pod& a, int rank_a, const api::Pod& b, int rank_b, Time now);

// `status` with the ReplicaFailure condition of a failed create or delete (upstream's
// manageReplicasErr): reason FailedCreate or FailedDelete, the error as message.
api::ReplicaSetStatus WithReplicaFailure(api::ReplicaSetStatus status, const std::string& reason,
                                         const std::string& message, Time now);

}  // namespace lws::cluster
