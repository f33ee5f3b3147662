// File: simulate/rollout_metrics.h
//
// The numbers `lws simulate` reports for one run, accumulated over the observations of the
// rollout window (from the first change of the LWS until the rollout completes or the horizon
// ends). Each observation's values hold until the next one (a step function), so times and
// hours are exact for what the observations saw:
//   - serving capacity: the fewest ready groups, the time spent below replicas - maxUnavailable
//     (the floor) and below replicas, and group-hours lost (the integral of the groups missing
//     below replicas);
//   - cost: the most accelerators the LWS's pods held, and surge accelerator-hours (held by
//     groups with an index at or above replicas);
//   - stalls: intervals of at least `stall` with no progress (the update revision's ready and
//     placed groups, the leader StatefulSet's partition and replicas, the ready groups all
//     unchanged), with the groups that had pods waiting for a node.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "simulate/observation.h"

namespace lws::simulate {

struct Stall {
  double from_s = 0;  // seconds from the window's start
  double to_s = 0;
  std::set<int> waiting_groups;
  std::vector<std::string> waiting_pods;  // for the reasons (RunScenario fills `reasons`)
  std::vector<std::pair<std::string, std::int64_t>> reasons;  // message -> times seen
};

struct RunMetrics {
  bool completed = false;
  double duration_s = 0;  // to completion, or the time observed when not completed
  std::optional<double> first_new_ready_s;
  int min_ready = 0;
  double below_floor_s = 0;
  double below_replicas_s = 0;
  double group_hours_lost = 0;
  std::int64_t peak_accelerators = 0;
  double surge_accelerator_hours = 0;
  // Accelerator-hours held by groups that were not ready (partly placed, or starting): what
  // gang scheduling saves when a group can only partly fit.
  double stranded_accelerator_hours = 0;
  int nodes_provisioned = 0;
  int nodes_released = 0;
  std::vector<Stall> stalls;
  std::int64_t recreations = 0;
  std::int64_t crashes = 0;
  // Pods the scheduler evicted for pods of higher priority (Preempted events), the capacity
  // hand-off's placeholders aside: other tenants' work lost when the LWS takes capacity back by
  // preemption.
  std::int64_t preemptions = 0;
};

class MetricsRecorder {
 public:
  // `start`: the window's start; `floor`: replicas - maxUnavailable; `stall`: the no-progress span.
  MetricsRecorder(Time start, int floor, Duration stall);

  void Add(const Observation& o);
  // Closes the window at `end`.
  RunMetrics Finish(Time end, bool completed);

 private:
  struct Progress {
    int new_ready = 0, new_placed = 0, partition = 0, sts_replicas = 0, ready = 0;
    bool operator==(const Progress&) const = default;
  };
  void Integrate(Time until);
  void TrackStall(const Observation& o, const Progress& now);

  Time start_;
  int floor_;
  Duration stall_;
  std::optional<Observation> last_;
  std::optional<Progress> progress_;
  Time progress_at_;
  bool stalled_ = false;
  std::int64_t restarts_at_start_ = -1;
  RunMetrics m_;
};

}  // namespace lws::simulate
