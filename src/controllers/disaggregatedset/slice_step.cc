// File: controllers/disaggregatedset/slice_step.cc
//
// One step of a DisaggregatedSet rollout in a slice (slice_plan.h, steps 3b and 3c; upstream
// executor.go ReconcileRollingUpdate, buildPlannerState, extractRollingUpdateConfig, scaleUpNew
// and scaleDownOld).
#include <algorithm>

#include "api/intstr.h"
#include "controllers/disaggregatedset/naming.h"
#include "controllers/disaggregatedset/planner.h"
#include "controllers/disaggregatedset/scalers.h"
#include "controllers/disaggregatedset/slice_groups.h"

namespace lws::disaggregatedset {
namespace {

using Kind = SliceAction::Kind;

// The counts the planner needs, one entry per role of `roles`.
struct State {
  PlannerInput planner;
  std::vector<bool> in_spec;
};

State BuildState(const SliceInput& in, const std::vector<std::string>& roles,
                 const std::vector<const RevisionGroup*>& old, const RevisionGroup& target) {
  State s;
  PlannerInput& p = s.planner;
  for (const std::string& name : roles) {
    int initial = 0, current = 0;
    for (const RevisionGroup* g : old) {
      const OwnedLws* l = RoleLws(g, name);
      if (l == nullptr) continue;
      initial += l->initial_replicas.value_or(l->spec_replicas);
      current += l->spec_replicas;
    }
    const api::DisaggregatedRoleSpec* role = in.ds->FindRole(name);
    const OwnedLws* now = RoleLws(&target, name);
    const int current_new = role != nullptr && now != nullptr ? now->spec_replicas : 0;
    int wanted = role != nullptr ? TargetReplicas(role, *in.scalers, current_new) : 0;
    // An External role does not shrink while old revisions remain (upstream's no-shrink guard).
    if (role != nullptr && role->IsExternal() && wanted < current_new) wanted = current_new;
    p.initial_old.push_back(initial);
    p.current_old.push_back(current);
    p.current_new.push_back(current_new);
    p.target.push_back(wanted);
    p.rollout.push_back(RoleRollout{});
    s.in_spec.push_back(role != nullptr);
  }
  return s;
}

void ApplyRolloutConfig(const SliceInput& in, const std::vector<std::string>& roles, State* s) {
  for (std::size_t i = 0; i < roles.size(); ++i) {
    const api::DisaggregatedRoleSpec* role = in.ds->FindRole(roles[i]);
    if (role == nullptr) continue;
    s->planner.rollout[i] = RolloutOf(*role, TargetReplicas(role, *in.scalers, 0));
  }
}

// upstream isRevisionStable: every role of the spec has its target LWS with all replicas ready.
bool Stable(const SliceInput& in, const RevisionGroup& target) {
  for (const auto& role : in.ds->spec.roles) {
    const OwnedLws* l = RoleLws(&target, role.name);
    if (l == nullptr || l->spec_replicas != l->ready_replicas) return false;
  }
  return true;
}

void ScaleUp(const SliceInput& in, const std::vector<std::string>& roles, const State& s,
             const RevisionGroup& target, const UpdateStep& step, SlicePlan* plan) {
  for (std::size_t i = 0; i < roles.size(); ++i) {
    const int from = s.planner.current_new[i];
    if (!s.in_spec[i] || from >= step.new_[i]) continue;
    const OwnedLws* l = RoleLws(&target, roles[i]);
    const std::string name =
        l != nullptr ? l->name : LwsName(in.ds->metadata.name, in.slice, in.revision, roles[i]);
    plan->actions.push_back(Write(Kind::kScale, name, roles[i], step.new_[i], from));
    plan->actions.push_back(Event("ScalingUp", "Update",
                                  "Scaling up " + roles[i] + " LWS " + name + " from " +
                                      std::to_string(from) + " to " + std::to_string(step.new_[i]) +
                                      " replicas"));
  }
}

// Old revisions newest first; the same creation time falls back to the revision name, where
// upstream's unstable sort leaves the order open.
std::vector<const RevisionGroup*> NewestFirst(std::vector<const RevisionGroup*> old) {
  std::sort(old.begin(), old.end(), [](const RevisionGroup* a, const RevisionGroup* b) {
    return a->newest != b->newest ? a->newest > b->newest : a->revision < b->revision;
  });
  return old;
}

// upstream scaleDownOld: each role's drain budget is taken from the newest old revision first;
// a revision whose drain would leave any role at 0 goes to 0 on every role.
void ScaleDown(const std::vector<std::string>& roles, const State& s,
               const std::vector<const RevisionGroup*>& old, const UpdateStep& step,
               SlicePlan* plan) {
  std::vector<int> budget(roles.size());
  for (std::size_t i = 0; i < roles.size(); ++i) budget[i] = s.planner.current_old[i] - step.old[i];
  for (const RevisionGroup* g : NewestFirst(old)) {
    if (std::all_of(budget.begin(), budget.end(), [](int b) { return b <= 0; })) break;
    std::vector<int> drain(roles.size(), 0), next(roles.size(), 0);
    std::vector<bool> triggers(roles.size(), false);
    bool any = false;
    for (std::size_t i = 0; i < roles.size(); ++i) {
      const OwnedLws* l = RoleLws(g, roles[i]);
      if (l == nullptr) continue;
      drain[i] = std::min(budget[i], l->spec_replicas);
      next[i] = l->spec_replicas - drain[i];
      triggers[i] = next[i] == 0;
      any = any || triggers[i];
    }
    for (std::size_t i = 0; i < roles.size(); ++i) {
      const OwnedLws* l = RoleLws(g, roles[i]);
      if (l == nullptr) continue;
      if (any) next[i] = 0;
      if (l->spec_replicas <= next[i]) continue;
      plan->actions.push_back(Write(Kind::kScale, l->name, roles[i], next[i], l->spec_replicas));
      plan->actions.push_back(Event("ScalingDown", "Update",
                                    "Scaling down " + roles[i] + " LWS " + l->name + " from " +
                                        std::to_string(l->spec_replicas) + " to " +
                                        std::to_string(next[i]) + " replicas"));
      if (triggers[i] || !any) budget[i] -= drain[i];
    }
  }
}

}  // namespace

RoleRollout RolloutOf(const api::DisaggregatedRoleSpec& role, int replicas) {
  const auto& config = role.spec.rollout_strategy.rolling_update_configuration;
  if (!config) return RoleRollout{};
  auto surge = api::GetScaledValueFromIntOrPercent(config->max_surge, replicas, true);
  auto unavailable = api::GetScaledValueFromIntOrPercent(config->max_unavailable, replicas, false);
  const int ms = surge.ok() ? static_cast<int>(*surge) : 0;
  const int mu = unavailable.ok() ? static_cast<int>(*unavailable) : 0;
  if (mu > 0) return RoleRollout{ms, mu};
  if (ms > 0) return RoleRollout{ms, 0};
  return RoleRollout{};
}

std::map<std::string, RevisionGroup> GroupByRevision(const std::vector<const OwnedLws*>& lws) {
  std::map<std::string, RevisionGroup> groups;
  for (const OwnedLws* l : lws) {
    RevisionGroup& g = groups[l->revision];
    g.revision = l->revision;
    auto [it, inserted] = g.roles.emplace(l->role, l);
    if (!inserted && l->name < it->second->name) it->second = l;
    g.newest = std::max(g.newest, l->creation_timestamp);
  }
  return groups;
}

const OwnedLws* RoleLws(const RevisionGroup* group, const std::string& role) {
  if (group == nullptr) return nullptr;
  auto it = group->roles.find(role);
  return it == group->roles.end() ? nullptr : it->second;
}

SliceAction Event(std::string reason, std::string action, std::string note) {
  SliceAction a;
  a.kind = Kind::kEvent;
  a.reason = std::move(reason);
  a.action = std::move(action);
  a.note = std::move(note);
  return a;
}

SliceAction Write(Kind kind, std::string lws, std::string role, int replicas, int from) {
  SliceAction a;
  a.kind = kind;
  a.lws = std::move(lws);
  a.role = std::move(role);
  a.replicas = replicas;
  a.from = from;
  return a;
}

void PlanRollingStep(const SliceInput& in, const std::vector<std::string>& roles,
                     const std::vector<const RevisionGroup*>& old, const RevisionGroup& target,
                     SlicePlan* plan) {
  // Ours: a target LWS missing after a failed create is created at 0; upstream's stability gate
  // would wait for it forever.
  for (const auto& role : in.ds->spec.roles) {
    if (RoleLws(&target, role.name) != nullptr) continue;
    plan->actions.push_back(Write(Kind::kCreate,
                                  LwsName(in.ds->metadata.name, in.slice, in.revision, role.name),
                                  role.name, 0));
  }
  if (!Stable(in, target)) {
    plan->requeue_soon = true;
    plan->log = "waiting for the new revision to become ready";
    return;
  }
  State s = BuildState(in, roles, old, target);
  ApplyRolloutConfig(in, roles, &s);
  std::optional<UpdateStep> step = NextStep(s.planner);
  if (!step) {
    plan->actions.push_back(Event("RollingUpdateCompleted", "Update",
                                  "Completed rolling update to revision " + in.revision));
    plan->log = "no further step";
    return;
  }
  ScaleUp(in, roles, s, target, *step, plan);
  ScaleDown(roles, s, old, *step, plan);
  plan->log = "took a rollout step";
}

}  // namespace lws::disaggregatedset
