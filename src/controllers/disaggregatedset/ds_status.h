// File: controllers/disaggregatedset/ds_status.h
//
// A DisaggregatedSet's status (upstream updateStatus and setDisaggregatedSetCondition,
// pkg/controllers/disaggregatedset/disaggregatedset_controller.go; docs/disaggregatedset-
// upstream.md section 5.4):
//   - roleStatuses: one entry per role of the current spec, in spec order (a removed role's
//     draining LeaderWorkerSets are not reported), summing every owned LeaderWorkerSet of the
//     role over all slices; updatedReplicas counts only those at the target revision.
//   - conditions: Available when every role is satisfied, else Progressing. The two are an
//     exclusive pair: at most one is True. Other condition types are never touched.
//   - observedGeneration: the set's metadata.generation.
// The controller writes the status (an update of the whole object) only when ApplyStatus says it
// changed, and always after the slices, even when some of them failed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/disaggregatedset_types.h"
#include "controllers/disaggregatedset/observed.h"

namespace lws::disaggregatedset {

// The roleStatuses of `ds` when `revision` is the target revision. `owned` is every
// LeaderWorkerSet `ds` owns, all slices (legacy unlabelled ones count as slice 0).
std::vector<api::RoleStatus> RoleStatuses(const api::DisaggregatedSet& ds,
                                          const std::string& revision,
                                          const std::vector<OwnedLws>& owned);

// True iff every role is satisfied: replicas, readyReplicas and updatedReplicas all equal the
// role's target (TargetReplicas with no current count) times the slice count. An External role
// without a scaler is never satisfied: its target is unknown, and guessing one could declare the
// set Available by accident. A role whose target is 0 is satisfied once all three are 0.
// REQUIRES: `statuses` is RoleStatuses(ds, ...): one entry per spec role, in spec order.
bool AllRolesSatisfied(const api::DisaggregatedSet& ds,
                       const std::vector<api::RoleStatus>& statuses, const ScalersByRole& scalers);

// The condition upstream asserts, status True, observedGeneration `generation`: Available
// (AllRolesReady) when `available`, else Progressing (RolloutInProgress).
api::Condition AvailabilityCondition(bool available, std::int64_t generation);

// Sets `wanted` (status True, from AvailabilityCondition) in `conditions` as upstream
// setDisaggregatedSetCondition does, with its follow-up fix; returns true iff anything changed.
//   - The condition of wanted's type: a different status replaces it, lastTransitionTime `now`;
//     the same status takes wanted's observedGeneration, reason and message and keeps its
//     lastTransitionTime. Absent, wanted is appended with lastTransitionTime `now`.
//   - The other member of the Available/Progressing pair: True turns False, with
//     lastTransitionTime `now` and wanted's observedGeneration, reason and message (they explain
//     the flip); already False, only its observedGeneration catches up.
bool SetCondition(std::vector<api::Condition>* conditions, api::Condition wanted,
                  const std::string& now);

// Brings `status` up to date (upstream updateStatus's compare-then-update): roleStatuses replaced
// by `statuses` unless equal element-wise, the availability condition set, observedGeneration =
// ds's generation. Returns true iff `status` changed, i.e. the controller must write it.
bool ApplyStatus(const api::DisaggregatedSet& ds, std::vector<api::RoleStatus> statuses,
                 bool available, const std::string& now, api::DisaggregatedSetStatus* status);

}  // namespace lws::disaggregatedset
