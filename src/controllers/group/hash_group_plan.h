// File: controllers/group/hash_group_plan.h
//
// The steps PlanGroup (group_plan.h) adds for a leader of groupIdentity Hash (upstream KEP 898,
// the pod controller's hash branches): the group-replacement gate, the worker StatefulSet's
// ownership check, and the group-ready condition. Pure, like PlanGroup.
#pragma once

#include <string>

#include "controllers/group/group_plan.h"

namespace lws::controllers {

// How long a deferred leader waits before the gate is looked at again (upstream
// groupReplacementRequeueDelay); a pod deletion of the LWS looks again sooner.
inline constexpr std::int64_t kGroupReplacementRequeueMs = 10'000;

// Step 7c. For a leader carrying the group-replacement gate: either lift it (a patch and the
// GroupReplacementAdmitted event) and return false, or record GroupReplacementDeferred, requeue
// and return true (the plan stops: nothing is created for a gated group).
bool PlanReplacementGate(const GroupSnapshot& s, GroupPlan& plan);

// Step 9's readiness: Hash leaders are Ready only with their workers (the group-ready gate), so
// LeaderReady waits for ContainersReady instead.
bool LeaderReadyForWorkers(const api::LeaderWorkerSet& lws, const api::Pod& leader);

// Step 10b: "leader pod <ns>/<name> has no hostname or subdomain", or OK.
Status CheckHashLeaderAddress(const api::LeaderWorkerSet& lws, const api::Pod& leader);

// Step 12's guard: the StatefulSet of the worker StatefulSet's name exists but another leader
// controls it. Adds the FailedCreate warning and returns the error.
Status CheckWorkerStatefulSetOwner(const GroupSnapshot& s, GroupPlan& plan);

// Step 13: the group-ready condition patch, when its status changes.
void PlanGroupReady(const GroupSnapshot& s, const std::string& now, GroupPlan& plan);

// Notes of the gate's events (upstream's words).
std::string GroupReplacementDeferredNote(const std::string& leader, int tearing_down);
std::string GroupReplacementAdmittedNote(const std::string& leader);

}  // namespace lws::controllers
