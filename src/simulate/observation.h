// File: simulate/observation.h
//
// What a user watching an LWS sees at one instant, read from the API as kubectl would: the
// state of every group (by index, surge groups included), how many are ready, how many
// accelerators its pods hold, and where the rollout is. A group is ready as upstream counts
// it (leader Running and Ready, every worker of its StatefulSet available) and its leader is not
// terminating; it is new when its leader carries the revision the leader StatefulSet's template
// now names.
//
// groupIdentity Hash: the leaders run in a Deployment and a group is named by a random key, not
// an index. Each key gets a slot (the lowest free one, kept while any pod of the group exists),
// so that a group keeps its row of the timeline; the Deployment stands in for the leader
// StatefulSet (replicas, template revision; no partition), and the groups beyond spec.replicas,
// newest leaders first, are the surge.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/clock.h"
#include "client/local/local_client.h"

namespace lws::simulate {

enum class GroupState : char {
  kAbsent,       // no leader pod
  kPending,      // a pod of the group waits for a node
  kOldStarting,  // old revision, placed, not ready
  kOldReady,
  kNewStarting,  // new revision, placed, not ready
  kNewReady,
  kTerminating,  // the leader is being deleted
};

// "absent", "pending", "old-starting", "old-ready", "new-starting", "new-ready", "terminating".
const char* GroupStateName(GroupState state);

struct GroupView {
  int index = 0;
  GroupState state = GroupState::kAbsent;
  bool surge = false;                     // beyond spec.replicas (Ordinal: index >= replicas)
  std::int64_t accelerators = 0;          // held by its placed pods
  std::vector<std::string> waiting_pods;  // its pods without a node
};

struct Observation {
  Time at;
  std::int64_t generation = 0;
  std::int64_t observed_generation = 0;
  int replicas = 0;      // spec.replicas
  int size = 1;          // pods per group
  int sts_replicas = 0;  // the leader StatefulSet's spec.replicas
  int partition = 0;
  std::string update_revision;  // the leader StatefulSet template's revision
  bool available = false;
  bool update_in_progress = false;
  int ready = 0;                           // ready groups, surge ones included (they serve)
  int new_ready = 0;                       // ready groups of the update revision
  std::int64_t accelerators = 0;           // held by every pod of the LWS
  std::int64_t surge_accelerators = 0;     // held by groups with an index >= replicas
  std::int64_t stranded_accelerators = 0;  // held by placed pods of groups that are not ready
  std::vector<GroupView> groups;           // by index, 0 .. the highest seen
  std::int64_t restarts = 0;               // container restarts of its live pods, summed
};

// Hash groups' slots: group key -> slot, carried from one observation to the next.
using GroupSlots = std::map<std::string, int>;

// The LWS `name` in namespace default as `client` reads it; `accelerator` is the resource
// counted ("nvidia.com/gpu").
// `slots`: kept by the caller across observations (only Hash groups use it).
Observation Observe(const client::LocalClient& client, const std::string& name,
                    const std::string& accelerator, Time now, GroupSlots* slots);

}  // namespace lws::simulate
