// File: operator/rollout_metrics.h
//
// lws-cpp's rollout metrics, derived from LeaderWorkerSet objects as an informer delivers them
// (no hook in the controller: the status the controller writes is the source of truth, and
// anything watching LWS objects can feed these):
//   lws_rollout_groups_updated{namespace,name}  status.updatedReplicas
//   lws_rollout_surge_groups{namespace,name}    status.replicas - spec.replicas, at least 0:
//                                               the groups maxSurge adds during an update
//   lws_rollout_duration_seconds{namespace,name}  one observation per finished rolling update:
//      from the UpdateInProgress condition's lastTransitionTime when it turned True to the one
//      when it turned False (spec 12: it turns False when Available turns True).
//   lws_rollout_progress_deadline_exceeded{namespace,name}  1 while Progressing is False with
//      reason ProgressDeadlineExceeded (the opt-in progress deadline), else 0
// Times come from the objects, not from when we saw them, so a restarted operator measures a
// rollout it saw only the end of correctly, as long as it saw the True condition once; a
// rollout whose start it never saw is not observed.
//
//   RolloutMetrics rollouts(&metrics);
//   lws_informer.AddHandler([&](const auto& old, const auto& now) { rollouts.OnChange(old, now);
//   });
//
// Threading: OnChange on one loop; the gauges are read by scrapes (thread-safe registry).
#pragma once

#include <map>
#include <optional>

#include "api/codec.h"
#include "base/clock.h"
#include "operator/controller_metrics.h"
#include "store/object.h"

namespace lws::op {

// What one LeaderWorkerSet says about its rollout.
struct RolloutSample {
  int groups_updated = 0;
  int surge_groups = 0;
  bool update_in_progress = false;
  std::optional<Time> update_transition;  // UpdateInProgress' lastTransitionTime, when present
  bool progress_deadline_exceeded = false;
  bool operator==(const RolloutSample&) const = default;
};

// Reads the sample from an LWS object; absent or mistyped fields read as zero / absent.
RolloutSample RolloutSampleOf(const api::Json& lws);

class RolloutMetrics {
 public:
  // REQUIRES: metrics outlives this.
  explicit RolloutMetrics(const OperatorMetrics* metrics) : metrics_(metrics) {}

  // An informer handler: `old` null for a new object, `now` null for a deleted one.
  void OnChange(const store::ObjectPtr& old, const store::ObjectPtr& now);
  // The same from plain objects: the current state of `ns`/`name`.
  void Observe(const std::string& ns, const std::string& name, const RolloutSample& sample);
  // The LWS is gone: its series stop being reported.
  void Forget(const std::string& ns, const std::string& name);

 private:
  const OperatorMetrics* const metrics_;
  // Rolling updates in progress: when each started.
  std::map<store::ObjectName, Time> started_;
};

}  // namespace lws::op
