// File: cli/demo_view.h
//
// What `lws up --demo` shows of a LeaderWorkerSet rollout, computed from API objects alone: the
// pure half of the demo (the driver that polls the API and prints is cli/demo.h).
//
// A RolloutView is one snapshot: the leader StatefulSet's partition and replicas, the LWS status
// counts and True conditions, and for every group index whether its leader pod runs the leader
// StatefulSet's current revision (new) or not (old), and whether the group is ready, starting or
// terminating. It is built only from what `kubectl get lws,sts,pods` shows, never from the
// controller's memory, so the terminal view and kubectl always tell the same story.
//
// cli/demo_render.h draws a view within a terminal's width.
//
// RolloutStats folds the snapshots of one rollout into its summary: how long it took, the fewest
// ready groups seen (the maxUnavailable promise) and the most surge groups used (the maxSurge one).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/apps.h"
#include "api/lws_types.h"
#include "api/pod.h"
#include "base/clock.h"

namespace lws::cli {

enum class GroupRevision { kUnknown, kOld, kNew };
// kMissing: the leader StatefulSet wants the group but its leader pod does not exist yet.
enum class GroupState { kMissing, kStarting, kReady, kTerminating };

struct GroupView {
  std::int32_t index = 0;
  bool surge = false;  // index >= spec.replicas: an extra group maxSurge allows during a rollout
  GroupRevision revision = GroupRevision::kUnknown;
  GroupState state = GroupState::kMissing;
};

struct RolloutView {
  std::int32_t replicas = 0;         // LWS spec.replicas
  std::int32_t size = 1;             // pods per group
  std::int32_t max_unavailable = 0;  // scaled against replicas, rounded down (spec 11.1)
  std::int32_t max_surge = 0;        // scaled, rounded up, capped at replicas
  std::int32_t partition = 0;        // LWS rollingUpdateConfiguration.partition
  std::int64_t generation = 0;       // LWS metadata.generation
  std::int64_t observed_generation = 0;
  std::int32_t ready_replicas = 0;  // LWS status (includes surge groups)
  std::int32_t updated_replicas = 0;
  std::vector<std::string> true_conditions;  // types of the LWS conditions with status True

  bool sts_found = false;  // the leader StatefulSet exists
  std::int32_t sts_replicas = 0;
  std::int32_t sts_partition = 0;
  std::string revision;  // the leader StatefulSet's template-revision-hash label

  std::vector<GroupView> groups;  // by index, 0 up to the highest index wanted or present

  bool HasCondition(const std::string& type) const;
  // Groups whose leader and workers are all up, at any index (surge groups serve too).
  int ReadyGroups() const;
  // Surge groups that have a leader pod, in any state.
  int SurgeGroups() const;
};

// The objects a view is built from. `worker_sets` are keyed by name (= the leader pod's name);
// `leader_pods` are the pods labelled name=<lws>, worker-index=0.
struct RolloutObjects {
  api::LeaderWorkerSet lws;
  std::optional<api::StatefulSet> leader_set;
  std::map<std::string, api::StatefulSet> worker_sets;
  std::vector<api::Pod> leader_pods;
};

RolloutView BuildRolloutView(const RolloutObjects& objects);

// True when the rollout away from `old_revision` is over: the controller has seen the latest
// spec and moved the leader StatefulSet to another revision, at the LWS partition (0 unless the
// user staged a canary), with no surge; every group at or above the partition is new and ready;
// Available and not UpdateInProgress.
bool RolloutComplete(const RolloutView& view, const std::string& old_revision);

// Why the rollout is not complete (the first unmet condition), for the timeout message; "" when
// it is complete.
std::string RolloutBlocker(const RolloutView& view, const std::string& old_revision);

class RolloutStats {
 public:
  explicit RolloutStats(Time start) : start_(start), end_(start) {}

  void Observe(const RolloutView& view, Time now);

  Duration Elapsed() const { return end_ - start_; }
  // -1 before the first Observe.
  int MinReadyGroups() const { return min_ready_; }
  int MaxSurgeGroups() const { return max_surge_; }

  // The summary printed at the end: duration, fewest ready groups against the floor
  // replicas - maxUnavailable, most surge groups against maxSurge.
  std::string Summary(const RolloutView& last) const;

 private:
  Time start_;
  Time end_;
  int min_ready_ = -1;
  int max_surge_ = 0;
};

// "12.4s", "2m03.5s": elapsed times in the demo's output.
std::string FormatElapsed(Duration d);

}  // namespace lws::cli
