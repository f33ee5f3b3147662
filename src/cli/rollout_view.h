// File: cli/rollout_view.h
//
// What `lws rollout` (`kubectl lws rollout` as a kubectl plugin) shows and decides, as pure
// functions of the LWS and its ControllerRevisions; cli/rollout.cc does the reading and writing.
// The words follow kubectl's own rollout commands for Deployments and StatefulSets, with "groups"
// for replicas, so that an LWS reads as the workloads users know.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/lws_types.h"
#include "api/revision.h"
#include "base/result.h"

namespace lws::cli {

// How kubectl names an LWS in its output: leaderworkerset.leaderworkerset.x-k8s.io/NAME.
std::string LwsRef(const std::string& name);

// One look of `rollout status` (kubectl's DeploymentStatusViewer and the StatefulSet one for a
// partition): a line to print, whether the rollout is done, or why it will never be (the
// progress deadline passed, the failure policy acted).
struct RolloutStatusView {
  std::string message;  // without the newline
  bool done = false;
  std::optional<std::string> error;
};
RolloutStatusView ViewRolloutStatus(const api::LeaderWorkerSet& lws);

// `rollout history`: the revisions, oldest first, with the one in force and a failed one marked.
std::string FormatHistory(const api::LeaderWorkerSet& lws, const api::RevisionRefs& revisions);
// `rollout history --revision N`: the templates that revision restores. NotFound when absent.
Result<std::string> FormatRevision(const api::LeaderWorkerSet& lws,
                                   const api::RevisionRefs& revisions, std::int64_t number);

// `rollout undo [--to-revision N]` (0: the newest revision that is not in force): the LWS to
// write, or `skipped` when the template already matches the revision. Fails as kubectl does
// when there is no such revision.
struct UndoPlan {
  std::optional<api::LeaderWorkerSet> restored;
  std::int64_t revision = 0;
  bool skipped = false;
};
Result<UndoPlan> PlanUndo(const api::LeaderWorkerSet& lws, const api::RevisionRefs& revisions,
                          std::int64_t to_revision);

// `rollout pause` and `resume`: the merge patch of the lws-cpp.dev/paused annotation, or the
// error kubectl gives for a Deployment already paused (not paused).
Result<api::Json> PausePatch(const api::LeaderWorkerSet& lws, bool pause);

}  // namespace lws::cli
