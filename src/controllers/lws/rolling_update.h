// File: controllers/lws/rolling_update.h
//
// The rolling-update arithmetic of the LeaderWorkerSet controller (spec section 11), as pure
// functions over numbers and per-group states. Upstream's rollingUpdateParameters decides, every
// reconcile, the leader StatefulSet's (partition, replicas): the StatefulSet controller then
// replaces the leader pods at or above the partition (each replaced leader takes its group with
// it) and creates or removes the surge groups above spec.replicas.
//
// One function per upstream helper, each with its contract; RollingUpdateParameters composes
// them in the order of the spec's case table. The numbers are reproduced exactly, including the
// quirks of spec section 23 (Q7, Q17, Q18): users who switch from the Go controller must see the
// same partitions and surge sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "base/result.h"

namespace lws::controllers {

// What one group looks like to the rollout (spec 11.1 getReplicaStates).
struct GroupState {
  bool ready = false;    // leader Running+Ready, and its worker StatefulSet ready (size > 1)
  bool updated = false;  // leader and worker StatefulSet carry the current revision key
};

// The rollout settings of an LWS, scaled against spec.replicas.
struct RolloutSettings {
  std::int32_t replicas = 0;         // lwsR
  std::int32_t partition = 0;        // lwsP
  std::int32_t max_surge = 0;        // percent rounded up, then capped at replicas
  std::int32_t max_unavailable = 0;  // percent rounded down
};

// spec.rolloutStrategy.rollingUpdateConfiguration.partition, 0 when unset.
std::int32_t UserPartition(const api::LeaderWorkerSet& lws);

// Fails (BadRequest) when maxSurge or maxUnavailable is a string that is not a percentage.
// `replicas` replaces spec.replicas when set (a held scale-up, scale_up_hold.h): the settings of
// a rollout of that many groups.
Result<RolloutSettings> RolloutSettingsOf(const api::LeaderWorkerSet& lws,
                                          std::optional<std::int32_t> replicas = std::nullopt);

// The existing leader StatefulSet as the arithmetic reads it.
struct LeaderSetState {
  std::int32_t replicas = 0;   // stsR: spec.replicas
  std::int32_t partition = 0;  // stsP: spec.updateStrategy.rollingUpdate.partition
  // annR: leaderworkerset.sigs.k8s.io/replicas, or the error of reading it (strconv.Atoi's):
  // only the rolling-update rules 4 and 5 read it, so a set without it (written by an old
  // controller, or edited) still rolls out on a template change and heals at rest.
  Result<std::int32_t> replicas_annotation = 0;
};

// Groups [from, to] (inclusive) that a decision removes from the top: upstream reports them in a
// "deleting surge replica(s)" event, even for ordinary scale-downs (Q7).
struct SurgeDeletion {
  std::int32_t from = 0;
  std::int32_t to = 0;
};

struct RolloutDecision {
  std::int32_t partition = 0;
  std::int32_t replicas = 0;
  int rule = 0;  // which row of the spec 11.2 table decided (1, 2, 3, 30 for 3b, 4, 5)
  std::optional<SurgeDeletion> deleting;
};

// replicas + maxSurge: the most leader pods a rollout may run at once.
std::int32_t BurstReplicas(const RolloutSettings& settings);

// The number of consecutive groups, counting down from the highest index, that are both ready
// and updated (calculateContinuousReadyReplicas).
std::int32_t ContinuousReadyReplicas(const std::vector<GroupState>& states);

// The number of desired indexes [0, replicas) that are missing, not ready or not updated
// (calculateLWSUnreadyReplicas). Surge groups are never counted.
std::int32_t LwsUnreadyReplicas(const std::vector<GroupState>& states, std::int32_t replicas);

// The leader StatefulSet's replicas for `unready` desired groups (calculateRollingUpdateReplicas):
// replicas + max(0, unready - maxUnavailable) while unready <= maxSurge, else the full burst.
// Surge shrinks as soon as few enough desired groups are unready (Q18).
std::int32_t RollingUpdateReplicas(std::int32_t replicas, std::int32_t max_surge,
                                   std::int32_t max_unavailable, std::int32_t unready);

// The next partition of a rollout in progress (rollingUpdatePartition): start `step` groups below
// the ready-and-updated top, account for unready groups below that point, lower it across groups
// that are already down or done, and never raise it above `current`.
std::int32_t RollingUpdatePartition(const std::vector<GroupState>& states,
                                    std::int32_t sts_replicas, std::int32_t step,
                                    std::int32_t current);

// (partition, replicas) for the leader StatefulSet (rollingUpdateParameters). `sts` is null when
// the leader StatefulSet does not exist; `states` has one entry per index [0, sts->replicas);
// `lws_updated` says the template changed in this reconcile. Fails with the replicas annotation's
// error when rule 4 or 5 needs it and it is missing or not a number, as upstream does.
Result<RolloutDecision> RollingUpdateParameters(const RolloutSettings& settings,
                                                const LeaderSetState* sts,
                                                const std::vector<GroupState>& states,
                                                bool lws_updated);

}  // namespace lws::controllers
