// File: cluster/deployment_sync.h
//
// One Deployment sync over a snapshot (deployment_plan.h), as upstream's syncDeployment walks
// it: the sets are copies the steps resize in memory, each write is appended to the plan, and
// the status is computed from the copies at the end. Internal to deployment_plan.cc and
// deployment_rollout.cc.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/deployment_internal.h"
#include "cluster/deployment_plan.h"

namespace lws::cluster {

class DeploymentSync {
 public:
  explicit DeploymentSync(const DeploymentSnapshot& snapshot);

  Result<DeploymentPlan> Run();

 private:
  // deployment_plan.cc: the sets, revisions and status.
  void FindSets();
  std::vector<const api::ReplicaSet*> All() const;
  std::vector<api::ReplicaSet*> Old();
  api::ReplicaSet* New() { return new_index_ ? &sets_[*new_index_] : nullptr; }
  // getAllReplicaSetsAndSyncRevision: the new set's annotations synced, or it created.
  Status SyncRevision(bool create);
  Status CreateNewSet(std::int64_t revision);
  bool IsScalingEvent() const;
  api::DeploymentStatus CalculateStatus() const;
  // The status write (syncDeploymentStatus), and with progress (syncRolloutStatus).
  void SyncStatus();
  void SyncRolloutStatus();
  void CheckPausedConditions();
  // Deletes old sets beyond the history limit, judged by `sets` (the sync's sets at some step).
  void Cleanup(const std::vector<api::ReplicaSet>& sets);

  // deployment_rollout.cc: the strategies and the proportional scale.
  Status RolloutRolling();
  Status RolloutRecreate();
  Status Scale();
  Result<bool> ReconcileNew();
  Result<bool> ReconcileOld();
  std::int32_t CleanupUnhealthy(std::int32_t max_cleanup);
  Result<std::int32_t> ScaleDownOld();
  bool OldPodsRunning() const;
  // scaleReplicaSet: the new size and the replicas annotations; an update when either changed,
  // with the ScalingReplicaSet event when the size did. Returns whether the size changed.
  bool ScaleSet(api::ReplicaSet& set, std::int32_t size, std::int32_t max_surge);

  const DeploymentSnapshot& snap_;
  const api::Deployment& d_;
  std::int32_t replicas_;
  std::vector<api::ReplicaSet> sets_;  // reserved for one more: pointers stay valid
  std::optional<std::size_t> new_index_;
  std::vector<api::WorkloadCondition> conditions_;  // the Deployment's, as the steps change them
  api::StringMap annotations_;
  DeploymentPlan plan_;
};

}  // namespace lws::cluster
