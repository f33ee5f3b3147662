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
//   lws-cpp.dev/rollout-before-scale-up: "true"  a replica increase during a rollout (or with
//                                          the template change) waits until the existing groups
//                                          run the new revision (scale_up_hold.h)
//   lws-cpp.dev/capacity-hand-off: "10m" the node of a pod being replaced stays held for its
//                                          replacement for up to 10m (capacity_hand_off.h)
//   lws-cpp.dev/capacity-hand-off-priority-class: "hold"  the placeholders' PriorityClass
//                                          (default: the pod's own)
//   lws-cpp.dev/paused: "true"           no further group is replaced (`kubectl lws rollout
//                                          pause`, resumed by removing it)
//   lws-cpp.dev/failure-policy: Pause|Rollback  what to do with a revision that fails
//   lws-cpp.dev/failure-threshold: "3"     it fails past 3 container restarts and group
//                                          recreations on its groups (or at the progress
//                                          deadline, when one is set) (failure_policy.h)
// Written by the controller when a revision failed:
//   lws-cpp.dev/failed-revision:
//   {"revision":"abc","policy":"Rollback","rolledBackTo":"def","reason":"..."}
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
inline const std::string kRolloutBeforeScaleUpAnnotation = "lws-cpp.dev/rollout-before-scale-up";
inline const std::string kCapacityHandOffAnnotation = "lws-cpp.dev/capacity-hand-off";
inline const std::string kHandOffPriorityClassAnnotation =
    "lws-cpp.dev/capacity-hand-off-priority-class";
// On the capacity hand-off's placeholder pods: the LWS they hold capacity for (a label, so that
// kubectl can select them), the pod they hold the node for, and until when.
inline const std::string kHandOffOfLabel = "lws-cpp.dev/capacity-hand-off-of";
inline const std::string kHandOffForAnnotation = "lws-cpp.dev/capacity-hand-off-for";
inline const std::string kHandOffUntilAnnotation = "lws-cpp.dev/capacity-hand-off-until";
inline const std::string kPausedAnnotation = "lws-cpp.dev/paused";
inline const std::string kFailurePolicyAnnotation = "lws-cpp.dev/failure-policy";
inline const std::string kFailureThresholdAnnotation = "lws-cpp.dev/failure-threshold";
inline const std::string kFailedRevisionAnnotation = "lws-cpp.dev/failed-revision";
inline const std::string kFailurePolicyPause = "Pause";
inline const std::string kFailurePolicyRollback = "Rollback";
inline constexpr std::int32_t kDefaultFailureThreshold = 3;

struct RolloutBehaviours {
  std::optional<Duration> progress_deadline;
  std::optional<Duration> surge_fallback_after;
  bool surge_fallback_release = false;
  bool rollout_before_scale_up = false;
  std::optional<Duration> capacity_hand_off;
  std::string hand_off_priority_class;  // "": the held pod's own
  bool paused = false;
  std::string failure_policy;  // "", Pause or Rollback
  std::int32_t failure_threshold = kDefaultFailureThreshold;
};

// A revision the failure policy acted on.
struct FailedRevision {
  std::string revision;
  std::string policy;          // Pause or Rollback
  std::string rolled_back_to;  // Rollback: the revision restored
  std::string reason;
  bool operator==(const FailedRevision&) const = default;
};
std::optional<FailedRevision> ReadFailedRevision(const ObjectMeta& meta);
// The annotation's value for `failed`.
std::string EncodeFailedRevision(const FailedRevision& failed);

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
// A flag annotation (surge-fallback-release, rollout-before-scale-up, paused) is "true": the one
// reading of them, cheap enough for every reconcile.
bool AnnotationFlag(const ObjectMeta& meta, const std::string& key);

// The webhook's checks: the deadlines are Go durations in [10s, 24h], the flags "true" or
// "false", the failure policy Pause or Rollback, the threshold an integer >= 1, the states the
// controller's JSON.
ErrorList ValidateRolloutAnnotations(const LeaderWorkerSet& lws);

}  // namespace lws::api
