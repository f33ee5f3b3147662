// File: controllers/lws/surge_fallback.h
//
// The opt-in surge fallback (lws-cpp.dev/surge-fallback-after, api/rollout_annotations.h). Under
// a stockout a surge group may never be scheduled, and upstream's rollout waits for it forever
// (the maintainers' advice is to set maxSurge to 0 by hand). With the fallback, once a surge
// group's pod has been unschedulable for the configured time, the rollout goes on with the surge
// that runs: maxSurge becomes the number of surge groups whose pods are all placed (the
// unplaced ones are removed by the usual arithmetic) and the rollout continues within
// maxUnavailable. Where maxUnavailable is 0 and no surge group runs, nothing could move: with
// lws-cpp.dev/surge-fallback-release: "true" one group at a time is released (maxUnavailable 1),
// without it the rollout keeps waiting and a Warning says why.
//
// The fallback is recorded on the LWS for the revision being rolled out (so it holds across
// reconciles and controller restarts, and the next template change starts with the user's
// settings again), shown in the SurgeFallback condition, and announced by a Warning event.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "api/pod.h"
#include "api/rollout_annotations.h"
#include "base/clock.h"
#include "controllers/lws/rolling_update.h"

namespace lws::controllers {

inline const std::string kConditionSurgeFallback = "SurgeFallback";
inline const std::string kReasonSurgeUnschedulable = "SurgeUnschedulable";

// A group at an index >= replicas, with its pods.
struct SurgeGroup {
  std::int32_t index = 0;
  std::vector<const api::Pod*> pods;
};

struct SurgeFallbackInputs {
  const api::LeaderWorkerSet* lws = nullptr;
  RolloutSettings settings;         // from the spec
  std::string revision_key;         // the revision being rolled out
  bool update_in_progress = false;  // some desired group is not on revision_key
  std::vector<SurgeGroup> surge;
  Time now;
};

struct SurgeFallbackDecision {
  RolloutSettings effective;                      // what the rollout uses
  std::optional<api::SurgeFallbackState> engage;  // write it and record the Warning event
  std::optional<std::string> blocked;             // Warning: stuck, and the fallback cannot help
  std::optional<Duration> recheck_after;          // when a waiting surge group reaches the time
};

SurgeFallbackDecision DecideSurgeFallback(const SurgeFallbackInputs& in);

// The SurgeFallback condition: True (reason SurgeUnschedulable, the recorded reason as message)
// while a fallback is recorded for `revision_key`; False once none is, if it was ever set.
// True when `conditions` changed.
bool SetSurgeFallbackCondition(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                               std::vector<api::Condition>* conditions, const std::string& now);

}  // namespace lws::controllers
