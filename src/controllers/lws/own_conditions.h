// File: controllers/lws/own_conditions.h
//
// The conditions lws-cpp adds to an LWS for its opt-in behaviours (Degraded, SurgeFallback,
// RolloutFailed, ScaleUpHeld, Paused). Unlike upstream's setCondition (lws_status.h: reason and
// message never refresh, Q5), ours say what holds now: the reason and message follow the state, and
// the lastTransitionTime moves only when the status does.
#pragma once

#include <string>
#include <vector>

#include "api/lws_types.h"

namespace lws::controllers {

// Sets `wanted` as the condition of its type: a False one is never added (an LWS that never
// used the behaviour shows nothing), a present one is replaced when its status, reason or
// message differ. True when `conditions` changed.
bool SetOwnCondition(std::vector<api::Condition>* conditions, api::Condition wanted);

// A condition of `type` with the given status, words and times.
api::Condition OwnCondition(const std::string& type, bool status, const std::string& reason,
                            const std::string& message, std::int64_t generation,
                            const std::string& now);

inline const std::string kConditionPaused = "Paused";

// Paused: True while the LWS carries lws-cpp.dev/paused: "true" (`kubectl lws rollout pause`),
// False once it did and no longer does. True when `conditions` changed.
bool SetPausedCondition(const api::LeaderWorkerSet& lws, std::vector<api::Condition>* conditions,
                        const std::string& now);

}  // namespace lws::controllers
