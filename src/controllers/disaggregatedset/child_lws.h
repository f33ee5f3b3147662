// File: controllers/disaggregatedset/child_lws.h
//
// The LeaderWorkerSet a DisaggregatedSet creates for one role of one slice at one revision
// (upstream LeaderWorkerSetManager.Create; docs/disaggregatedset-upstream.md section 3.4):
//   - named <ds>-<slice>-<revision>-<role> in the DisaggregatedSet's namespace, controlled by it
//     (an ownerReference with controller: true and no blockOwnerDeletion);
//   - the role's metadata labels and annotations, with the DisaggregatedSet's labels over them;
//   - the role's LWS spec as is, with the requested replicas, and the same labels merged into the
//     leader and worker pod templates, so every pod says which set, role, slice and revision it
//     belongs to;
//   - the placement policy's affinities in both templates (placement.h).
// Only spec.replicas of an existing LeaderWorkerSet is ever changed afterwards.
#pragma once

#include <string>

#include "api/disaggregatedset_types.h"

namespace lws::disaggregatedset {

api::LeaderWorkerSet ChildLws(const api::DisaggregatedSet& ds,
                              const api::DisaggregatedRoleSpec& role, int slice,
                              const std::string& revision, int replicas);

// The controller reference every child carries.
api::OwnerReference ControllerRef(const api::DisaggregatedSet& ds);

// True iff `meta`'s controller reference is `ds` (by uid).
bool ControlledBy(const api::ObjectMeta& meta, const api::DisaggregatedSet& ds);

}  // namespace lws::disaggregatedset
