#include "controllers/lws/failure_policy.h"

#include <fmt/format.h>

#include <algorithm>

#include "controllers/lws/own_conditions.h"

namespace lws::controllers {
namespace {

// Why the revision failed, or "" when it has not.
std::string FailureCause(const FailureInputs& in, const api::RolloutBehaviours& b) {
  Result<api::GroupRestartCounts> counts = api::ReadGroupRestartCounts(in.lws->metadata);
  const std::int64_t failures =
      RevisionFailures(in.pods, counts.ok() ? *counts : api::GroupRestartCounts{}, in.revision_key);
  if (failures > b.failure_threshold) {
    return fmt::format("{} container restarts and group recreations on its groups ({}: {})",
                       failures, api::kFailureThresholdAnnotation, b.failure_threshold);
  }
  if (in.deadline_exceeded) {
    return fmt::format("the rollout made no progress for its {}", api::kProgressDeadlineAnnotation);
  }
  return "";
}

}  // namespace

const api::ControllerRevision* PreviousRevision(const api::RevisionRefs& revisions,
                                                const std::string& key, const std::string& failed) {
  const api::ControllerRevision* previous = nullptr;
  for (const api::ControllerRevision* r : revisions) {
    if (api::RevisionKey(*r) == key || api::RevisionKey(*r) == failed) continue;
    if (previous == nullptr || r->revision > previous->revision) previous = r;
  }
  return previous;
}

std::int64_t RevisionFailures(const std::vector<const api::Pod*>& pods,
                              const api::GroupRestartCounts& counts,
                              const std::string& revision_key) {
  std::int64_t failures = 0;
  for (const api::Pod* pod : pods) {
    if (pod->metadata.Label(api::kRevisionLabel) != revision_key) continue;
    for (const auto& s : pod->status.init_container_statuses) failures += s.restart_count;
    for (const auto& s : pod->status.container_statuses) failures += s.restart_count;
  }
  const std::string prefix = revision_key + "/";
  for (const auto& [key, entry] : counts) {
    if (key.compare(0, prefix.size(), prefix) == 0) failures += entry.restarts;
  }
  return failures;
}

bool InFailureWindow(const api::LeaderWorkerSetStatus& status, Time now) {
  for (const api::Condition& c : status.conditions) {
    if (c.type != api::kConditionUpdateInProgress) continue;
    if (c.status == "True") return true;
    Result<Time> at = ParseRfc3339(c.last_transition_time);
    return at.ok() && now - *at < kFailureWindow;
  }
  return false;
}

FailureDecision DecideFailure(const FailureInputs& in) {
  FailureDecision d;
  const api::LeaderWorkerSet& lws = *in.lws;
  // A recorded revision is not rolled out again by itself.
  const std::optional<api::FailedRevision> failed = api::ReadFailedRevision(lws.metadata);
  if (failed && failed->revision == in.revision_key) {
    d.paused = true;
    return d;
  }
  // The revision rolled back to is not judged again (the status still describes the failed
  // rollout until it is written again): a new template starts a new judgement.
  if (failed && failed->rolled_back_to == in.revision_key) return d;
  const api::RolloutBehaviours b = api::ReadRolloutBehaviours(lws.metadata);
  if (b.failure_policy.empty() || !in.watching) return d;
  const std::string cause = FailureCause(in, b);
  if (cause.empty()) return d;
  api::FailedRevision record{in.revision_key, b.failure_policy, "", ""};
  const api::ControllerRevision* previous =
      in.revisions != nullptr
          ? PreviousRevision(*in.revisions, in.revision_key, failed ? failed->revision : "")
          : nullptr;
  if (b.failure_policy == api::kFailurePolicyRollback && previous != nullptr) {
    Result<api::LeaderWorkerSet> restored = api::ApplyRevision(lws, *previous);
    if (restored.ok()) {
      record.rolled_back_to = api::RevisionKey(*previous);
      record.reason = fmt::format("revision {} failed: {}; rolled back to revision {}",
                                  in.revision_key, cause, record.rolled_back_to);
      restored->metadata.annotations[api::kFailedRevisionAnnotation] =
          api::EncodeFailedRevision(record);
      d.rollback = std::move(*restored);
      d.record = record;
      return d;
    }
  }
  record.policy = api::kFailurePolicyPause;
  record.reason = fmt::format(
      "revision {} failed: {}; paused, no further group is replaced{}", in.revision_key, cause,
      b.failure_policy == api::kFailurePolicyRollback ? " (no previous revision to roll back to)"
                                                      : "");
  d.paused = true;
  d.record = record;
  return d;
}

bool SetRolloutFailedCondition(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                               std::vector<api::Condition>* conditions, const std::string& now) {
  auto failed = api::ReadFailedRevision(lws.metadata);
  const std::int64_t generation = lws.metadata.generation;
  if (!failed || (failed->revision != revision_key && failed->rolled_back_to != revision_key)) {
    return SetOwnCondition(conditions,
                           OwnCondition(kConditionRolloutFailed, false, "NoFailedRevision",
                                        "The revision in force has not failed", generation, now));
  }
  return SetOwnCondition(
      conditions, OwnCondition(kConditionRolloutFailed, true,
                               failed->revision == revision_key ? "RolloutPaused" : "RolledBack",
                               failed->reason.empty() ? "revision " + failed->revision + " failed"
                                                      : failed->reason,
                               generation, now));
}

}  // namespace lws::controllers
