// File: controllers/lws/failure_policy.h
//
// The opt-in failure policy (lws-cpp.dev/failure-policy, api/rollout_annotations.h). During a
// rollout and for kFailureWindow after it completed (a build that crashes minutes after it is
// Ready may reach every group first), the revision rolled out has failed when the container
// restarts of its pods plus the recreations of its groups (the counts of api/group_restarts.h, kept
// whenever a failure policy is set) exceed lws-cpp.dev/failure-threshold, or when the rollout
// passed its progress deadline (controllers/lws/progress_deadline.h). Then:
//   - Pause: no further group is replaced (the leader StatefulSet's partition is not lowered);
//   - Rollback: the LWS's template is restored from the previous revision, as `kubectl rollout
//     undo` does for a Deployment, and the rollout goes back.
// Either way the failed revision is recorded on the LWS (lws-cpp.dev/failed-revision), a Warning
// event RolloutFailed says why, and the condition RolloutFailed shows it. A recorded revision is
// never rolled out again by itself: if the template comes back to it (a GitOps tool re-applying
// the manifest), the rollout is paused at once, whatever the policy, until the annotation is
// removed or the template changes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/group_restarts.h"
#include "api/lws_types.h"
#include "api/pod.h"
#include "api/revision.h"
#include "api/rollout_annotations.h"
#include "base/clock.h"

namespace lws::controllers {

inline const std::string kConditionRolloutFailed = "RolloutFailed";
inline const std::string kReasonRolloutFailed = "RolloutFailed";

struct FailureInputs {
  const api::LeaderWorkerSet* lws = nullptr;
  std::string revision_key;  // the revision being rolled out
  bool watching = false;     // in a rollout, or within kFailureWindow after one (InFailureWindow)
  std::vector<const api::Pod*> pods;             // the LWS's pods
  bool deadline_exceeded = false;                // Progressing is False for the progress deadline
  const api::RevisionRefs* revisions = nullptr;  // the LWS's ControllerRevisions
};

struct FailureDecision {
  bool paused = false;  // hold the partition where it is
  // The failed revision to record (with the Warning event's note in its reason), when the
  // policy acts now.
  std::optional<api::FailedRevision> record;
  // Rollback: the LWS to write (the previous revision's template, the record in its annotations).
  std::optional<api::LeaderWorkerSet> rollback;
};

// How long after a rollout completed its revision can still fail.
inline constexpr Duration kFailureWindow = std::chrono::minutes(10);

// UpdateInProgress is True, or turned False less than kFailureWindow before `now`.
bool InFailureWindow(const api::LeaderWorkerSetStatus& status, Time now);

FailureDecision DecideFailure(const FailureInputs& in);

// The newest of `revisions` whose key is neither `key` nor `failed` (the recorded failed
// revision, "" for none): what a rollback restores, and what truncation keeps for it.
const api::ControllerRevision* PreviousRevision(const api::RevisionRefs& revisions,
                                                const std::string& key, const std::string& failed);

// Container restarts of the pods on `revision_key`, plus recreations of its groups.
std::int64_t RevisionFailures(const std::vector<const api::Pod*>& pods,
                              const api::GroupRestartCounts& counts,
                              const std::string& revision_key);

// The RolloutFailed condition: True while the recorded revision is the one in force (paused on
// it) or the one rolled back from (rolled back to the one in force); False once neither holds,
// if it was ever set. True when `conditions` changed.
bool SetRolloutFailedCondition(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                               std::vector<api::Condition>* conditions, const std::string& now);

}  // namespace lws::controllers
