// File: controllers/disaggregatedset/planner.h
//
// The DisaggregatedSet rolling-update planner (upstream pkg/controllers/disaggregatedset/
// planner.go, the batch planner; docs/disaggregatedset-upstream.md section 4): a pure function
// over per-role replica counts. One index per role; the controller orders them as the spec's
// roles, then roles only old revisions still have. The new revision is scaled up and the old
// ones drained in lock step across roles, scale-up first, so the roles' ratio holds through the
// rollout. The controller keeps no state: it derives the next step from the counts it observes.
#pragma once

#include <optional>
#include <vector>

namespace lws::disaggregatedset {

// A role's rollout limits, resolved to replica counts.
struct RoleRollout {
  int max_surge = 1;
  int max_unavailable = 0;
};

// The replicas a step asks for: of the old revisions together (`old`) and of the new one.
struct UpdateStep {
  std::vector<int> old;
  std::vector<int> new_;
  bool operator==(const UpdateStep&) const = default;
};

struct PlannerInput {
  // Old-revision replicas of each role when the rollout began (the initial-replicas
  // annotations), and now.
  std::vector<int> initial_old;
  std::vector<int> current_old;
  std::vector<int> current_new;  // of the target revision
  std::vector<int> target;       // 0 for a role the spec no longer has
  std::vector<RoleRollout> rollout;
};

// The steps the slowest role needs: max over roles of ceil(max(initial_old, target) / batch),
// batch being maxSurge, or max(1, maxUnavailable) without surge (upstream computeTotalSteps).
int TotalSteps(const PlannerInput& in);

// The next step, or nullopt: the rollout is complete, or no move is allowed now.
// REQUIRES: every vector has one entry per role.
std::optional<UpdateStep> NextStep(const PlannerInput& in);

// Every step from {initial_old, zeros} to the end, the initial state first (upstream
// ComputeAllSteps, which its tests and the docs' rollout tables use).
std::vector<UpdateStep> AllSteps(const std::vector<int>& initial_old,
                                 const std::vector<int>& target,
                                 const std::vector<RoleRollout>& rollout);

}  // namespace lws::disaggregatedset
