// File: controllers/lws/scale_up_hold.h
//
// Rollout before scale-up (docs/scarcity.md), opt-in with the LWS annotation
// lws-cpp.dev/rollout-before-scale-up: "true". Upstream grows first: when a template change and
// a replica increase arrive together, the new groups are created on the new template and the
// existing ones wait for them to be Ready (spec 11.2 rule 2, then rule 5 counts from the top).
// Where the new groups need capacity that only the old template's groups hold (one 8-GPU group
// becoming two 4-GPU groups, upstream issues 717 and 1018), nothing moves.
//
// With the annotation the rollout works on the groups that exist (the leader StatefulSet's
// replicas annotation, the spec.replicas it was last applied for) as if spec.replicas were that
// number, with maxSurge and maxUnavailable scaled against it, until every one of them at or
// above the user's partition runs the current revision and is Ready; then the new groups are
// added (rule 3b: no surge while growing). The same holds for a replica increase that arrives
// while a rollout is in progress. A decrease, or an increase at rest, is never held. Nothing is
// stored: the held number is the leader StatefulSet's own annotation, which the controller keeps
// at the held number while it holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "controllers/lws/rolling_update.h"

namespace lws::controllers {

struct ScaleUpHold {
  std::int32_t groups = 0;  // the existing groups the rollout works on
  std::int32_t wanted = 0;  // spec.replicas, added once they are done
  bool operator==(const ScaleUpHold&) const = default;
};

// Whether the scale-up waits, for an LWS with the annotation (`enabled`). `sts` is the leader
// StatefulSet (null: none yet, nothing to hold), `states` its groups against the current
// revision, `lws_updated` that the template changed in this reconcile (the replicas annotation
// may then be missing: a set written by an old controller; its replicas are the groups).
std::optional<ScaleUpHold> DecideScaleUpHold(bool enabled, std::int32_t replicas,
                                             std::int32_t partition, const LeaderSetState* sts,
                                             const std::vector<GroupState>& states,
                                             bool lws_updated);

// The condition ScaleUpHeld for `hold` (null: not holding), set with SetOwnCondition: True while
// it holds, False (reason ScaleUpReleased) once it did and no longer does. True when
// `conditions` changed; `event` gets the Normal event to record when its status changed:
// (reason, note).
bool SetScaleUpHeldCondition(const api::LeaderWorkerSet& lws,
                             const std::optional<ScaleUpHold>& hold,
                             std::vector<api::Condition>* conditions, const std::string& now,
                             std::optional<std::pair<std::string, std::string>>* event);

inline const std::string kConditionScaleUpHeld = "ScaleUpHeld";
inline const std::string kReasonRolloutBeforeScaleUp = "RolloutBeforeScaleUp";
inline const std::string kReasonScaleUpReleased = "ScaleUpReleased";

}  // namespace lws::controllers
