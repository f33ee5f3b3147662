// File: simulate/watched.h
//
// What a run watches, read through the API as kubectl would. One LWS: its Observation
// (observation.h), unchanged. Several workloads (a DisaggregatedSet, or LWSs the timeline
// changes together): one role per LWS and per role of each DisaggregatedSet, and all of them
// together as one Observation, every group on a row of its own (kept while the run lasts, so
// that the timeline's rows do not shift).
//
// A DisaggregatedSet's role is every LeaderWorkerSet the set made for it (one per slice and
// revision while it rolls): the groups of an LWS at the set's current revision are new, the
// others old, its target is slices x the role's replicas, its floor slices x (replicas -
// maxUnavailable) as the set's executor resolves it, and groups beyond the target (the old
// revision's counted first) are its surge.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "simulate/observation.h"
#include "simulate/scenario_file.h"

namespace lws::simulate {

struct WatchedWorkload {
  std::string kind;  // api::kLwsKind or api::kDsKind
  std::string name;
  bool operator==(const WatchedWorkload&) const = default;
};

WatchedWorkload WorkloadOf(const Json& object);

// The workloads of a run a change applies to: the one it names if the run has it; every LWS
// and DisaggregatedSet for a change that names none.
std::vector<const Json*> Targets(const Change& c, const std::vector<Json>& workloads);

// What a run watches: the workloads the timeline changes, in the order first changed; when it
// changes none, the first LWS or DisaggregatedSet.
std::vector<WatchedWorkload> WatchedOf(const Scenario& s, const std::vector<Json>& workloads);

struct RoleObservation {
  std::string name;  // the LWS's, or the DisaggregatedSet role's
  Observation o;     // replicas: the role's target
  int floor = 0;     // replicas - maxUnavailable, as the role's rollout resolves them
  std::int64_t ready_accelerators = 0;  // held by its ready groups
};

struct WatchedObservation {
  Observation total;                   // every role's groups; replicas and counts summed
  std::vector<RoleObservation> roles;  // empty when one LWS is watched
  // Every watched workload observed its last change and is at rest: an LWS Available, no
  // update in progress, its leader StatefulSet at spec.replicas; a DisaggregatedSet Available
  // with only LWSs of its current revision, each at rest and at the role's target.
  bool at_rest = false;
};

class Watched {
 public:
  Watched(std::vector<WatchedWorkload> workloads, std::string accelerator)
      : workloads_(std::move(workloads)), accelerator_(std::move(accelerator)) {}

  const std::vector<WatchedWorkload>& workloads() const { return workloads_; }
  // "llama", "pd", "prefill,decode": what the report names.
  std::string Names() const;
  // A change of `w` made its generation `generation`: at rest needs it observed.
  void Changed(const WatchedWorkload& w, std::int64_t generation);

  WatchedObservation Observe(const client::LocalClient& client, Time now);
  // The label of a row of the total when several roles are watched ("prefill 0"), else "".
  std::string RowLabel(int row) const;

 private:
  bool ObserveLws(const client::LocalClient& client, const std::string& name, Time now,
                  std::vector<RoleObservation>* roles);
  bool ObserveSet(const client::LocalClient& client, const std::string& name, Time now,
                  std::vector<RoleObservation>* roles);
  // The rows of `part`'s groups (LWS `lws` of role `role`) in the total, allocated on first
  // sight.
  void Place(const std::string& role, const std::string& lws, const Observation& part,
             std::vector<GroupView>* rows);
  std::int64_t ChangeGeneration(const WatchedWorkload& w) const;
  // A watched LWS at rest after its last change.
  bool LwsAtRest(const std::string& name, const Observation& o) const;

  std::vector<WatchedWorkload> workloads_;
  std::string accelerator_;
  std::map<std::string, GroupSlots> slots_;          // per LWS (Hash groups)
  std::map<std::pair<std::string, int>, int> rows_;  // (LWS, group) -> row of the total
  std::vector<std::string> row_labels_;              // by row
  std::map<std::pair<std::string, std::string>, std::int64_t> changed_;  // (kind, name) -> gen
};

}  // namespace lws::simulate
