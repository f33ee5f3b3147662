// File: controllers/disaggregatedset/slice_plan.h
//
// One reconcile of one slice of a DisaggregatedSet, as a pure function: what upstream's
// reconcileSlice and its rolling-update executor (executor.go; docs/disaggregatedset-upstream.md
// sections 4.6 and 5.3) would do, given the LeaderWorkerSets of the slice the set controls.
// The result is a list of writes and events, in upstream's order; the controller performs them
// in turn and stops at the first failure (upstream returns the error and is retried).
//
//   1. Delete every old revision whose LeaderWorkerSets are all at 0 replicas ("drained").
//   2. No old revision with replicas of a current role left: the simple path. Each role's LWS of
//      the target revision is created at, or scaled to, its target.
//   3. Otherwise a rolling update:
//      a. no LWS of the target revision yet: the start. Event RollingUpdateStarted, the
//         initial-replicas annotation on every old LWS, the new revision's LWS created at 0,
//         and a look again in 1 s;
//      b. a target-revision LWS of some role not ready (spec.replicas != readyReplicas): wait,
//         and look again in 1 s (the stability gate);
//      c. else one planner step (planner.h): the new revision scaled up, then the old ones
//         drained newest first, a group that would leave a role at 0 drained to 0 on every role
//         (the coordinated drain). No step: event RollingUpdateCompleted.
//
// Where upstream iterates a Go map (roles only old revisions have, roles in the simple path)
// this plan uses name order, and old revisions with the same creation time are ordered by name:
// the same inputs always give the same plan.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/disaggregatedset_types.h"
#include "controllers/disaggregatedset/observed.h"
#include "controllers/disaggregatedset/planner.h"

namespace lws::disaggregatedset {

struct SliceAction {
  enum class Kind {
    kDelete,           // delete LWS `lws`
    kAnnotateInitial,  // set the initial-replicas annotation of `lws` to `replicas`
    kCreate,           // create the target revision's LWS of `role` with `replicas`
    kScale,            // set spec.replicas of `lws` (of `role`) from `from` to `replicas`
    kEvent,            // record `reason`/`note` (type Normal, action `action`) on the set
  };
  Kind kind = Kind::kEvent;
  std::string lws;
  std::string role;
  int replicas = 0;
  int from = 0;
  std::string reason;
  std::string action;
  std::string note;
  bool operator==(const SliceAction&) const = default;
};

struct SlicePlan {
  std::vector<SliceAction> actions;
  bool requeue_soon = false;  // upstream's RequeueAfter: 1s
  bool rolling = false;       // old revisions with replicas are still there
  std::string log;            // why, for the controller's log
};

struct SliceInput {
  const api::DisaggregatedSet* ds = nullptr;
  std::string revision;  // the target revision
  int slice = 0;
  std::vector<OwnedLws> lws;  // the slice's LWS the set controls
  const ScalersByRole* scalers = nullptr;
};

SlicePlan PlanSlice(const SliceInput& in);

// A role's rollout limits as the executor resolves them (upstream extractRollingUpdateConfig):
// percentages of `replicas` (its target per slice), maxSurge rounded up and maxUnavailable down,
// errors read as 0; without a rollingUpdateConfiguration, or with both limits 0, the planner's
// default {maxSurge 1, maxUnavailable 0}.
RoleRollout RolloutOf(const api::DisaggregatedRoleSpec& role, int replicas);

}  // namespace lws::disaggregatedset
