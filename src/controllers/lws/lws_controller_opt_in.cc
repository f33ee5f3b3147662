// The LeaderWorkerSet reconciler's steps for lws-cpp's opt-in behaviours (docs/scarcity.md):
// the surge fallback, the failure policy, the progress deadline's memory, and the tidying of the
// state they keep on the LWS. Each does nothing for an LWS without its annotations
// (lws_controller.h).
#include <algorithm>

#include "api/group_restarts.h"
#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "controllers/lws/failure_policy.h"
#include "controllers/lws/lws_controller.h"
#include "controllers/lws/lws_status.h"
#include "controllers/lws/surge_fallback.h"

namespace lws::controllers {

Result<RolloutSettings> LwsController::ApplySurgeFallback(
    const runtime::Key& key, const api::LeaderWorkerSet& lws, const RolloutSettings& settings,
    const std::string& revision_key, const std::vector<GroupState>& states, bool rolling,
    bool updating, std::optional<Duration>* recheck) {
  // Without its annotations there is nothing to decide: no pod lookups on upstream's path.
  if (lws.metadata.annotations.count(api::kSurgeFallbackAfterAnnotation) == 0 &&
      lws.metadata.annotations.count(api::kSurgeFallbackAnnotation) == 0) {
    return settings;
  }
  SurgeFallbackInputs in;
  in.lws = &lws;
  in.settings = settings;
  in.revision_key = revision_key;
  in.now = loop_->clock().Now();
  in.update_in_progress = rolling && updating;
  for (std::int32_t i = settings.replicas; rolling && i < static_cast<std::int32_t>(states.size());
       ++i) {
    in.surge.push_back({i, caches_->GroupPods(key.namespace_, key.name, std::to_string(i))});
  }
  SurgeFallbackDecision d = DecideSurgeFallback(in);
  *recheck = d.recheck_after;
  if (d.blocked) Event(lws, "Warning", kReasonSurgeUnschedulable, *d.blocked, "Update");
  if (!d.engage) return d.effective;
  RETURN_IF_ERROR(PatchLws(key, api::SurgeFallbackPatch(*d.engage, lws.metadata.resource_version)));
  Event(lws, "Warning", kReasonSurgeUnschedulable, d.engage->reason, "Update");
  return d.effective;
}

Result<LwsController::FailureAction> LwsController::ApplyFailurePolicy(
    const runtime::Key& key, const api::LeaderWorkerSet& lws, const std::string& revision_key,
    std::int32_t groups, bool updating, const api::RevisionRefs& revisions) {
  if (lws.metadata.annotations.count(api::kFailurePolicyAnnotation) == 0 &&
      lws.metadata.annotations.count(api::kFailedRevisionAnnotation) == 0) {
    return FailureAction::kNone;
  }
  FailureInputs in;
  in.lws = &lws;
  in.revision_key = revision_key;
  in.deadline_exceeded = ProgressDeadlineExceeded(lws.status);
  in.revisions = &revisions;
  in.watching = updating || InFailureWindow(lws.status, loop_->clock().Now());
  for (std::int32_t i = 0; i < groups; ++i) {
    for (const api::Pod* pod : caches_->GroupPods(key.namespace_, key.name, std::to_string(i))) {
      in.pods.push_back(pod);
    }
  }
  FailureDecision d = DecideFailure(in);
  if (d.rollback) {
    auto written = client_->Update(client::kLeaderWorkerSets, api::Encode(*d.rollback));
    if (!written.ok()) return written.status();
    Expect(key, caches_->sets.informer(), **written);
    Event(lws, "Warning", kReasonRolloutFailed, d.record->reason, "Update");
    return FailureAction::kRolledBack;
  }
  if (d.record) {
    RETURN_IF_ERROR(PatchLws(key, api::AnnotationPatch(api::kFailedRevisionAnnotation,
                                                       api::EncodeFailedRevision(*d.record),
                                                       lws.metadata.resource_version)));
    Event(lws, "Warning", kReasonRolloutFailed, d.record->reason, "Update");
  }
  return d.paused ? FailureAction::kPause : FailureAction::kNone;
}

Status LwsController::PruneGroupRestarts(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                                         const std::string& revision_key, bool update_done) {
  if (lws.metadata.annotations.count(api::kGroupRestartsAnnotation) == 0) return Status::Ok();
  // Counts that do not parse are replaced by the pod controller's next write.
  Result<api::GroupRestartCounts> counts = api::ReadGroupRestartCounts(lws.metadata);
  if (!counts.ok()) return Status::Ok();
  const api::StatefulSet* sts = caches_->statefulsets.Get(key.namespace_, key.name);
  const std::int32_t groups =
      std::max(lws.Replicas(), sts != nullptr ? sts->spec.replicas.value_or(0) : 0);
  auto pruned = api::PruneGroupRestartCounts(*counts, revision_key, update_done, groups);
  if (!pruned) return Status::Ok();
  return PatchLws(key, api::GroupRestartCountsPatch(*pruned, lws.metadata.resource_version));
}

Result<bool> LwsController::ClearSurgeFallback(const runtime::Key& key,
                                               const api::LeaderWorkerSet& lws, bool update_done) {
  // The rollout the fallback was for is done: the next one starts with the user's settings.
  if (!update_done || lws.metadata.annotations.count(api::kSurgeFallbackAnnotation) == 0) {
    return false;
  }
  RETURN_IF_ERROR(
      PatchLws(key, api::SurgeFallbackPatch(std::nullopt, lws.metadata.resource_version)));
  return true;
}

Status LwsController::PatchLws(const runtime::Key& key, const api::Json& patch) {
  auto patched = client_->Patch(client::kLeaderWorkerSets, key.namespace_, key.name,
                                client::PatchType::kMerge, patch);
  if (!patched.ok()) return patched.status();
  Expect(key, caches_->sets.informer(), **patched);
  return Status::Ok();
}

std::optional<ProgressMark> LwsController::Remembered(const runtime::Key& key) {
  MutexLock lock(&progress_mu_);
  auto it = progress_.find(key);
  if (it == progress_.end()) return std::nullopt;
  return it->second;
}

void LwsController::Remember(const runtime::Key& key, const std::optional<ProgressMark>& mark) {
  MutexLock lock(&progress_mu_);
  if (mark) {
    progress_[key] = *mark;
  } else {
    progress_.erase(key);
  }
}

}  // namespace lws::controllers
