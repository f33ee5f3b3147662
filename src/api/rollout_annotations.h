// File: api/rollout_annotations.h
//
// The opt-in rollout behaviours for accelerator scarcity (docs/scarcity.md), configured with LWS
// annotations under the project's own domain: without them an LWS behaves as upstream's. Each is
// read leniently by the controller (a value that does not parse is unset) and checked strictly
// by the LWS webhook, with the annotation's field path.
//
//   lws-cpp.dev/progress-deadline: "15m"   a rollout or scale that makes no progress for 15m sets
//                                          Progressing=False, reason ProgressDeadlineExceeded
#pragma once

#include <optional>
#include <string>

#include "api/field.h"
#include "api/lws_types.h"
#include "base/clock.h"

namespace lws::api {

inline const std::string kProgressDeadlineAnnotation = "lws-cpp.dev/progress-deadline";

struct RolloutBehaviours {
  std::optional<Duration> progress_deadline;
};
RolloutBehaviours ReadRolloutBehaviours(const ObjectMeta& meta);

// The webhook's checks: the progress deadline is a Go duration in [10s, 24h].
ErrorList ValidateRolloutAnnotations(const LeaderWorkerSet& lws);

}  // namespace lws::api
