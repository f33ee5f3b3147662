// File: api/rollout_annotations.h
//
// The opt-in rollout behaviours for accelerator scarcity (docs/scarcity.md), configured with LWS
// annotations under the project's own domain: without them an LWS behaves as upstream's. Each is
// read leniently by the controller (a value that does not parse is unset) and checked strictly
// by the LWS webhook, with the annotation's field path.
//
//   lws-cpp.dev/progress-deadline: "15m"   a rollout or scale that makes no progress for 15m sets
//                                          Progressing=False, reason ProgressDeadlineExceeded
//   lws-cpp.dev/surge-fallback-after: "5m" a surge group unschedulable for 5m makes the rollout
//                                          go on with the surge that runs (surge_fallback.h)
//   lws-cpp.dev/surge-fallback-release: "true"  and, with maxUnavailable 0, release one group at
//                                          a time when no surge group runs
// Written by the controller when the surge fallback engages, for the revision being rolled out:
//   lws-cpp.dev/surge-fallback: {"revision":"abc","maxSurge":0,"maxUnavailable":1,"reason":"..."}
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/field.h"
#include "api/lws_types.h"
#include "base/clock.h"

namespace lws::api {

inline const std::string kProgressDeadlineAnnotation = "lws-cpp.dev/progress-deadline";
inline const std::string kSurgeFallbackAfterAnnotation = "lws-cpp.dev/surge-fallback-after";
inline const std::string kSurgeFallbackReleaseAnnotation = "lws-cpp.dev/surge-fallback-release";
inline const std::string kSurgeFallbackAnnotation = "lws-cpp.dev/surge-fallback";

struct RolloutBehaviours {
  std::optional<Duration> progress_deadline;
  std::optional<Duration> surge_fallback_after;
  bool surge_fallback_release = false;
};

// The surge fallback in force for one revision's rollout.
struct SurgeFallbackState {
  std::string revision;
  std::int32_t max_surge = 0;
  std::int32_t max_unavailable = 0;
  std::string reason;  // why, for the condition
  bool operator==(const SurgeFallbackState&) const = default;
};
// nullopt when absent or malformed (the webhook keeps users from writing a malformed one).
std::optional<SurgeFallbackState> ReadSurgeFallbackState(const ObjectMeta& meta);
// The merge patch writing `state` (removing the annotation when null), with the LWS's
// resourceVersion as a precondition.
Json SurgeFallbackPatch(const std::optional<SurgeFallbackState>& state,
                        const std::string& resource_version);
RolloutBehaviours ReadRolloutBehaviours(const ObjectMeta& meta);

// The webhook's checks: the deadlines are Go durations in [10s, 24h], the release flag "true" or
// "false", the state the controller's JSON.
ErrorList ValidateRolloutAnnotations(const LeaderWorkerSet& lws);

}  // namespace lws::api
