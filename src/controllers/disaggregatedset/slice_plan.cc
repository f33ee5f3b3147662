#include "controllers/disaggregatedset/slice_plan.h"

#include <algorithm>
#include <map>

#include "controllers/disaggregatedset/naming.h"
#include "controllers/disaggregatedset/scalers.h"
#include "controllers/disaggregatedset/slice_groups.h"

namespace lws::disaggregatedset {
namespace {

using Kind = SliceAction::Kind;

// Step 1, upstream cleanupDrainedLWS. Returns the LWS left.
std::vector<const OwnedLws*> DeleteDrained(const SliceInput& in, SlicePlan* plan) {
  std::vector<const OwnedLws*> all;
  for (const OwnedLws& l : in.lws) all.push_back(&l);
  std::vector<const OwnedLws*> kept;
  for (const auto& [revision, group] : GroupByRevision(all)) {
    bool drained = revision != in.revision;
    for (const auto& [role, l] : group.roles) drained = drained && l->spec_replicas == 0;
    for (const OwnedLws* l : all) {
      if (l->revision != revision) continue;
      if (!drained) {
        kept.push_back(l);
        continue;
      }
      plan->actions.push_back(Write(Kind::kDelete, l->name, l->role, 0));
      plan->actions.push_back(Event("LWSDeleted", "Delete", "Deleted drained LWS " + l->name));
    }
  }
  return kept;
}

// The spec's roles in spec order, then the roles only old revisions have, by name.
std::vector<std::string> AllRoles(const api::DisaggregatedSet& ds,
                                  const std::vector<const RevisionGroup*>& old) {
  std::vector<std::string> roles;
  for (const auto& role : ds.spec.roles) roles.push_back(role.name);
  std::vector<std::string> removed;
  for (const RevisionGroup* g : old) {
    for (const auto& [role, l] : g->roles) {
      if (ds.FindRole(role) == nullptr) removed.push_back(role);
    }
  }
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  roles.insert(roles.end(), removed.begin(), removed.end());
  return roles;
}

// Step 2, upstream reconcileSimple.
void PlanSimple(const SliceInput& in, const RevisionGroup* target, SlicePlan* plan) {
  for (const auto& role : in.ds->spec.roles) {
    const OwnedLws* existing = RoleLws(target, role.name);
    const int desired = TargetReplicas(&role, *in.scalers, existing ? existing->spec_replicas : 0);
    if (existing == nullptr) {
      plan->actions.push_back(Write(Kind::kCreate,
                                    LwsName(in.ds->metadata.name, in.slice, in.revision, role.name),
                                    role.name, desired));
    } else if (existing->spec_replicas != desired) {
      plan->actions.push_back(
          Write(Kind::kScale, existing->name, role.name, desired, existing->spec_replicas));
    }
  }
}

// Step 3a, upstream initRollingUpdate.
void PlanStart(const SliceInput& in, const std::vector<const RevisionGroup*>& old,
               SlicePlan* plan) {
  plan->actions.push_back(
      Event("RollingUpdateStarted", "Update", "Started rolling update to revision " + in.revision));
  for (const RevisionGroup* g : old) {
    for (const auto& [role, l] : g->roles) {
      if (l->initial_replicas == l->spec_replicas) continue;
      plan->actions.push_back(Write(Kind::kAnnotateInitial, l->name, role, l->spec_replicas));
    }
  }
  for (const auto& role : in.ds->spec.roles) {
    plan->actions.push_back(Write(Kind::kCreate,
                                  LwsName(in.ds->metadata.name, in.slice, in.revision, role.name),
                                  role.name, 0));
  }
  plan->requeue_soon = true;
  plan->log = "started a rolling update";
}

}  // namespace

SlicePlan PlanSlice(const SliceInput& in) {
  SlicePlan plan;
  std::vector<const OwnedLws*> kept = DeleteDrained(in, &plan);
  std::map<std::string, RevisionGroup> groups = GroupByRevision(kept);
  const RevisionGroup* target = nullptr;
  std::vector<const RevisionGroup*> old;
  int total_old = 0;
  for (const auto& [revision, group] : groups) {
    if (revision == in.revision) {
      target = &group;
      continue;
    }
    old.push_back(&group);
    for (const auto& [role, l] : group.roles) {
      if (in.ds->FindRole(role) != nullptr) total_old += l->spec_replicas;
    }
  }
  if (old.empty() || total_old <= 0) {
    PlanSimple(in, target, &plan);
    return plan;
  }
  plan.rolling = true;
  if (target == nullptr) {
    PlanStart(in, old, &plan);
    return plan;
  }
  PlanRollingStep(in, AllRoles(*in.ds, old), old, *target, &plan);
  return plan;
}

}  // namespace lws::disaggregatedset
