// The LeaderWorkerSet reconciler's steps for lws-cpp's opt-in behaviours (docs/scarcity.md):
// the surge fallback, the failure policy, the progress deadline's memory and the pruning of the
// restart counts. Each does nothing for an LWS without its annotations (lws_controller.h).
#include <algorithm>

#include "api/group_restarts.h"
#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "controllers/lws/failure_policy.h"
#include "controllers/lws/lws_controller.h"
#include "controllers/lws/lws_status.h"
#include "controllers/lws/surge_fallback.h"

namespace lws::controllers {

Result<RolloutSettings> LwsController::ApplySurgeFallback(const runtime::Key& key,
                                                         const api::LeaderWorkerSet& lws,
                                                         const RolloutSettings& settings,
                                                         const std::string& revision_key,
                                                         const std::vector<GroupState>& states,
                                                         bool rolling,
                                                         std::optional<Duration>* recheck) {
  SurgeFallbackInputs in;
  in.lws = &lws;
  in.settings = settings;
  in.revision_key = revision_key;
  in.now = loop_->clock().Now();
  for (std::int32_t i = 0; rolling && i < static_cast<std::int32_t>(states.size()); ++i) {
    if (i < settings.replicas && !states[i].updated) in.update_in_progress = true;
    if (i >= settings.replicas) {
      in.surge.push_back({i, caches_->GroupPods(key.namespace_, key.name, std::to_string(i))});
    }
  }
  SurgeFallbackDecision d = DecideSurgeFallback(in);
  *recheck = d.recheck_after;
  if (d.blocked) Event(lws, "Warning", kReasonSurgeUnschedulable, *d.blocked, "Update");
  if (!d.engage) return d.effective;
  auto patched = client_->Patch(client::kLeaderWorkerSets, key.namespace_, key.name,
                                apiserver::PatchType::kMerge,
                                api::SurgeFallbackPatch(*d.engage, lws.metadata.resource_version));
  if (!patched.ok()) return patched.status();
  Expect(key, caches_->sets.informer(), (*patched)->json);
  Event(lws, "Warning", kReasonSurgeUnschedulable, d.engage->reason, "Update");
  return d.effective;
}

Result<bool> LwsController::ApplyFailurePolicy(const runtime::Key& key,
                                               const api::LeaderWorkerSet& lws,
                                               const std::string& revision_key,
                                               const std::vector<GroupState>& states,
                                               std::int32_t replicas,
                                               const api::RevisionRefs& revisions,
                                               const LeaderSetState* current,
                                               RolloutDecision* decision) {
  if (lws.metadata.annotations.count(api::kFailurePolicyAnnotation) == 0 &&
      lws.metadata.annotations.count(api::kFailedRevisionAnnotation) == 0) {
    return false;
  }
  FailureInputs in;
  in.lws = &lws;
  in.revision_key = revision_key;
  in.deadline_exceeded = ProgressDeadlineExceeded(lws.status);
  in.revisions = &revisions;
  in.watching = InFailureWindow(lws.status, loop_->clock().Now());
  std::vector<std::vector<const api::Pod*>> groups;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(states.size()); ++i) {
    if (i < replicas && !states[i].updated) in.watching = true;
    for (const api::Pod* pod : caches_->GroupPods(key.namespace_, key.name, std::to_string(i))) {
      in.pods.push_back(pod);
    }
  }
  FailureDecision d = DecideFailure(in);
  if (d.rollback) {
    auto written = client_->Update(client::kLeaderWorkerSets, api::Encode(*d.rollback));
    if (!written.ok()) return written.status();
    Expect(key, caches_->sets.informer(), (*written)->json);
    Event(lws, "Warning", kReasonRolloutFailed, d.record->reason, "Update");
    return true;
  }
  if (d.record) {
    api::Json patch = {{"metadata",
                        {{"resourceVersion", lws.metadata.resource_version},
                         {"annotations",
                          {{api::kFailedRevisionAnnotation, api::EncodeFailedRevision(*d.record)}}}}}};
    auto patched = client_->Patch(client::kLeaderWorkerSets, key.namespace_, key.name,
                                  apiserver::PatchType::kMerge, patch);
    if (!patched.ok()) return patched.status();
    Expect(key, caches_->sets.informer(), (*patched)->json);
    Event(lws, "Warning", kReasonRolloutFailed, d.record->reason, "Update");
  }
  if (d.paused && current != nullptr) {
    decision->partition = std::max(decision->partition, current->partition);
  }
  return false;
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
  auto patched = client_->Patch(client::kLeaderWorkerSets, key.namespace_, key.name,
                                apiserver::PatchType::kMerge,
                                api::GroupRestartCountsPatch(*pruned, lws.metadata.resource_version));
  if (!patched.ok()) return patched.status();
  Expect(key, caches_->sets.informer(), (*patched)->json);
  return Status::Ok();
}

std::optional<ProgressMark> LwsController::Remembered(const runtime::Key& key) {
  std::lock_guard<std::mutex> lock(progress_mu_);
  auto it = progress_.find(key);
  if (it == progress_.end()) return std::nullopt;
  return it->second;
}

void LwsController::Remember(const runtime::Key& key, const std::optional<ProgressMark>& mark) {
  std::lock_guard<std::mutex> lock(progress_mu_);
  if (mark) {
    progress_[key] = *mark;
  } else {
    progress_.erase(key);
  }
}

}  // namespace lws::controllers
