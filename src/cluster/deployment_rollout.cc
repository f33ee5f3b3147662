// The Deployment strategies and the proportional scale (upstream rolling.go, recreate.go,
// sync.go scale()), and the status with progress (progress.go syncRolloutStatus).
#include <fmt/format.h>

#include <algorithm>

#include "api/codec.h"
#include "cluster/deployment_sync.h"

namespace lws::cluster {

namespace {

using Kind = DeploymentActionKind;

std::int32_t Spec(const api::ReplicaSet& set) { return set.spec.replicas.value_or(1); }

}  // namespace

bool DeploymentSync::ScaleSet(api::ReplicaSet& set, std::int32_t size, std::int32_t max_surge) {
  const std::int32_t before = Spec(set);
  const bool size_changed = before != size;
  const bool annotations_changed =
      IntAnnotation(set.metadata, kDesiredReplicasAnnotation) != replicas_ ||
      IntAnnotation(set.metadata, kMaxReplicasAnnotation) != replicas_ + max_surge;
  if (!size_changed && !annotations_changed) return false;
  set.spec.replicas = size;
  set.metadata.annotations[std::string(kDesiredReplicasAnnotation)] = std::to_string(replicas_);
  set.metadata.annotations[std::string(kMaxReplicasAnnotation)] =
      std::to_string(replicas_ + max_surge);
  DeploymentAction update{
      .kind = Kind::kUpdateReplicaSet, .name = set.metadata.name, .replica_set = set};
  if (size_changed) {
    update.event = DeploymentEvent{
        "Normal", "ScalingReplicaSet",
        fmt::format("Scaled {} replica set {} from {} to {}", before < size ? "up" : "down",
                    set.metadata.name, before, size)};
  }
  plan_.actions.push_back(std::move(update));
  return size_changed;
}

// ---- RollingUpdate ---------------------------------------------------------------------------

Status DeploymentSync::RolloutRolling() {
  RETURN_IF_ERROR(SyncRevision(true));
  ASSIGN_OR_RETURN(bool scaled_up, ReconcileNew());
  if (!scaled_up) {
    ASSIGN_OR_RETURN(bool scaled_down, ReconcileOld());
    if (!scaled_down && DeploymentComplete(d_, d_.status)) Cleanup(sets_);
  }
  SyncRolloutStatus();
  return Status::Ok();
}

Result<bool> DeploymentSync::ReconcileNew() {
  api::ReplicaSet& set = *New();
  ASSIGN_OR_RETURN(std::int32_t max_surge, MaxSurge(d_));
  if (Spec(set) == replicas_) return false;
  if (Spec(set) > replicas_) return ScaleSet(set, replicas_, max_surge);
  ASSIGN_OR_RETURN(std::int32_t size, NewRSNewReplicas(d_, All(), set));
  if (size == Spec(set)) return false;
  return ScaleSet(set, size, max_surge);
}

Result<bool> DeploymentSync::ReconcileOld() {
  std::int64_t old_total = 0;
  for (const api::ReplicaSet* set : Old()) old_total += Spec(*set);
  if (old_total == 0) return false;
  ASSIGN_OR_RETURN(std::int32_t max_unavailable, MaxUnavailable(d_));
  const std::int64_t min_available = replicas_ - max_unavailable;
  const api::ReplicaSet& fresh = *New();
  const std::int64_t new_unavailable = Spec(fresh) - fresh.status.available_replicas;
  const std::int64_t max_scaled_down = SpecReplicas(All()) - min_available - new_unavailable;
  if (max_scaled_down <= 0) return false;
  const std::int32_t cleaned = CleanupUnhealthy(static_cast<std::int32_t>(max_scaled_down));
  if (cleaned < 0) return false;  // upstream logs the invalid scale and waits
  ASSIGN_OR_RETURN(std::int32_t scaled, ScaleDownOld());
  return cleaned + scaled > 0;
}

// Old sets lose pods that are not available first, oldest set first; -1 when a set claims more
// available pods than it wants (upstream's "invalid request to scale down").
std::int32_t DeploymentSync::CleanupUnhealthy(std::int32_t max_cleanup) {
  const std::int32_t max_surge = MaxSurge(d_).ok() ? *MaxSurge(d_) : 0;
  std::int32_t total = 0;
  for (api::ReplicaSet* set : Old()) {
    if (total >= max_cleanup) break;
    if (Spec(*set) == 0 || Spec(*set) == set->status.available_replicas) continue;
    if (Spec(*set) < set->status.available_replicas) return -1;
    const std::int32_t down =
        std::min(max_cleanup - total, Spec(*set) - set->status.available_replicas);
    ScaleSet(*set, Spec(*set) - down, max_surge);
    total += down;
  }
  return total;
}

Result<std::int32_t> DeploymentSync::ScaleDownOld() {
  ASSIGN_OR_RETURN(std::int32_t max_unavailable, MaxUnavailable(d_));
  ASSIGN_OR_RETURN(std::int32_t max_surge, MaxSurge(d_));
  const std::int64_t min_available = replicas_ - max_unavailable;
  std::int64_t available = 0;
  for (const api::ReplicaSet& set : sets_) available += set.status.available_replicas;
  if (available <= min_available) return 0;
  const std::int64_t to_scale = available - min_available;
  std::int32_t done = 0;
  for (api::ReplicaSet* set : Old()) {
    if (done >= to_scale) break;
    if (Spec(*set) == 0) continue;
    const auto down =
        static_cast<std::int32_t>(std::min<std::int64_t>(Spec(*set), to_scale - done));
    ScaleSet(*set, Spec(*set) - down, max_surge);
    done += down;
  }
  return done;
}

// ---- Recreate --------------------------------------------------------------------------------

Status DeploymentSync::RolloutRecreate() {
  RETURN_IF_ERROR(SyncRevision(false));
  bool scaled_down = false;
  for (api::ReplicaSet* set : Old()) {
    if (Spec(*set) > 0) scaled_down |= ScaleSet(*set, 0, 0);
  }
  if (scaled_down || OldPodsRunning()) {
    SyncRolloutStatus();
    return Status::Ok();
  }
  if (New() == nullptr) RETURN_IF_ERROR(SyncRevision(true));
  ScaleSet(*New(), replicas_, 0);
  if (DeploymentComplete(d_, d_.status)) Cleanup(sets_);
  SyncRolloutStatus();
  return Status::Ok();
}

bool DeploymentSync::OldPodsRunning() const {
  for (std::size_t i = 0; i < sets_.size(); ++i) {
    if (i == new_index_) continue;
    if (sets_[i].status.replicas > 0 || snap_.sets_with_running_pods.count(sets_[i].metadata.uid)) {
      return true;
    }
  }
  return false;
}

// ---- Proportional scale (sync.go scale) ----------------------------------------------------

Status DeploymentSync::Scale() {
  ASSIGN_OR_RETURN(std::int32_t max_surge, MaxSurge(d_));
  std::vector<api::ReplicaSet*> old = Old();
  std::vector<api::ReplicaSet*> active;
  for (api::ReplicaSet* set : old) {
    if (Spec(*set) > 0) active.push_back(set);
  }
  api::ReplicaSet* fresh = New();
  if (fresh != nullptr && Spec(*fresh) > 0) active.push_back(fresh);
  // FindActiveOrLatest: one active set, or none (the new set, else the newest old one).
  api::ReplicaSet* only = nullptr;
  if (active.size() == 1) only = active[0];
  if (active.empty()) only = fresh != nullptr ? fresh : (old.empty() ? nullptr : old.back());
  if (only != nullptr || active.empty()) {
    if (only != nullptr && Spec(*only) != replicas_) ScaleSet(*only, replicas_, max_surge);
    return Status::Ok();
  }
  const bool saturated = fresh != nullptr && Spec(*fresh) == replicas_ &&
                         IntAnnotation(fresh->metadata, kDesiredReplicasAnnotation) == replicas_ &&
                         fresh->status.available_replicas == replicas_;
  if (saturated) {
    for (api::ReplicaSet* set : old) {
      if (Spec(*set) > 0) ScaleSet(*set, 0, max_surge);
    }
    return Status::Ok();
  }
  if (d_.spec.strategy.type != api::kRollingUpdateDeployment) return Status::Ok();
  const std::int64_t allowed = replicas_ > 0 ? replicas_ + max_surge : 0;
  const std::int64_t to_add = allowed - SpecReplicas({active.begin(), active.end()});
  // Larger sets first; among equals the newer when growing, the older when shrinking.
  std::stable_sort(active.begin(), active.end(),
                   [&](const api::ReplicaSet* a, const api::ReplicaSet* b) {
                     if (Spec(*a) != Spec(*b)) return Spec(*a) > Spec(*b);
                     return to_add > 0 ? OlderFirst(b, a) : OlderFirst(a, b);
                   });
  std::vector<std::int32_t> sizes;
  std::int64_t added = 0;
  for (api::ReplicaSet* set : active) {
    std::int64_t proportion = 0;
    if (to_add != 0 && Spec(*set) != 0 && to_add != added) {
      const std::int64_t fraction = ReplicaSetFraction(*set, d_, max_surge);
      proportion =
          to_add > 0 ? std::min(fraction, to_add - added) : std::max(fraction, to_add - added);
    }
    sizes.push_back(static_cast<std::int32_t>(Spec(*set) + proportion));
    added += proportion;
  }
  for (std::size_t i = 0; i < active.size(); ++i) {
    if (i == 0 && to_add != 0) {
      sizes[0] = std::max<std::int32_t>(0, static_cast<std::int32_t>(sizes[0] + to_add - added));
    }
    ScaleSet(*active[i], sizes[i], max_surge);
  }
  return Status::Ok();
}

// ---- Status with progress (progress.go) ----------------------------------------------------

void DeploymentSync::SyncRolloutStatus() {
  api::DeploymentStatus status = CalculateStatus();
  auto drop = [&](std::string_view type) {
    std::erase_if(status.conditions,
                  [&](const api::WorkloadCondition& c) { return c.type == type; });
  };
  if (!HasProgressDeadline(d_)) drop("Progressing");
  const api::WorkloadCondition* current = api::FindCondition(conditions_, "Progressing");
  const bool complete = status.replicas == status.updated_replicas && current != nullptr &&
                        current->reason == kNewRSAvailableReason;
  const api::ReplicaSet* fresh = new_index_ ? &sets_[*new_index_] : nullptr;
  const std::string subject = fresh != nullptr
                                  ? fmt::format("ReplicaSet \"{}\"", fresh->metadata.name)
                                  : fmt::format("Deployment \"{}\"", d_.metadata.name);
  if (HasProgressDeadline(d_) && !complete) {
    if (DeploymentComplete(d_, status)) {
      SetCondition(status.conditions,
                   NewCondition("Progressing", "True", std::string(kNewRSAvailableReason),
                                subject + " has successfully progressed.", snap_.now));
    } else if (DeploymentProgressing(d_, status)) {
      api::WorkloadCondition c = NewCondition("Progressing", "True", "ReplicaSetUpdated",
                                              subject + " is progressing.", snap_.now);
      if (current != nullptr) {
        if (current->status == "True") c.last_transition_time = current->last_transition_time;
        drop("Progressing");
      }
      SetCondition(status.conditions, std::move(c));
    } else if (DeploymentTimedOut(d_, status, snap_.now)) {
      SetCondition(status.conditions,
                   NewCondition("Progressing", "False", std::string(kTimedOutReason),
                                subject + " has timed out progressing.", snap_.now));
    }
  }
  // The new set's ReplicaFailure, else any set's, shows on the Deployment.
  std::optional<api::WorkloadCondition> failure;
  for (int pass = 0; pass < 2 && !failure; ++pass) {
    for (const api::ReplicaSet& set : sets_) {
      if ((pass == 0) != (&set == fresh)) continue;
      for (const api::WorkloadCondition& c : set.status.conditions) {
        if (c.type == "ReplicaFailure" && !failure) failure = c;
      }
    }
  }
  if (failure) {
    failure->last_update_time = failure->last_transition_time;
    SetCondition(status.conditions, *failure);
  } else {
    drop("ReplicaFailure");
  }
  plan_.status = status;
  plan_.annotations = annotations_;
  if (api::Encode(status) != api::Encode(d_.status) || annotations_ != d_.metadata.annotations) {
    plan_.actions.push_back({.kind = Kind::kUpdateStatus, .name = d_.metadata.name});
    return;
  }
  // Nothing new: look again when the progress deadline would pass (requeueStuckDeployment).
  if (!HasProgressDeadline(d_) || current == nullptr || DeploymentComplete(d_, status) ||
      current->reason == kTimedOutReason) {
    return;
  }
  Result<Time> updated = ParseRfc3339(current->last_update_time);
  if (!updated.ok()) return;
  Duration after = *updated + std::chrono::seconds(*d_.spec.progress_deadline_seconds) - snap_.now;
  after = after < std::chrono::seconds(1) ? Duration(std::chrono::seconds(1))
                                          : after + std::chrono::seconds(1);
  plan_.actions.push_back(
      {.kind = Kind::kRequeueAfter, .name = d_.metadata.name, .requeue_after = after});
}

}  // namespace lws::cluster
