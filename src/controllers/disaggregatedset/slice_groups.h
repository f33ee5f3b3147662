// File: controllers/disaggregatedset/slice_groups.h
//
// What the two halves of the slice plan share (slice_plan.cc: cleanup, the simple path and the
// start of a rollout; slice_step.cc: one rollout step): the slice's LeaderWorkerSets grouped by
// revision, and the actions' constructors.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "controllers/disaggregatedset/slice_plan.h"

namespace lws::disaggregatedset {

// The slice's LWS of one revision, by role (upstream RevisionRoles). A role with two LWS (a
// legacy and a sliced one) keeps the first by name, as upstream keeps one and warns.
struct RevisionGroup {
  std::string revision;
  std::map<std::string, const OwnedLws*> roles;
  std::string newest;  // the latest creation time among them (RFC 3339 sorts as text)
};

std::map<std::string, RevisionGroup> GroupByRevision(const std::vector<const OwnedLws*>& lws);

// The LWS of `role` in `group`, or null (also when `group` is null).
const OwnedLws* RoleLws(const RevisionGroup* group, const std::string& role);

SliceAction Event(std::string reason, std::string action, std::string note);
SliceAction Write(SliceAction::Kind kind, std::string lws, std::string role, int replicas,
                  int from = 0);

// Steps 3b and 3c of slice_plan.h: the stability gate, then one planner step.
void PlanRollingStep(const SliceInput& in, const std::vector<std::string>& roles,
                     const std::vector<const RevisionGroup*>& old, const RevisionGroup& target,
                     SlicePlan* plan);

}  // namespace lws::disaggregatedset
