// File: scenario/hash_rollout_checker.h
//
// The safety properties of a rollout of an LWS with groupIdentity Hash (upstream KEP 898), where
// the leader Deployment rolls the groups and a group is named by its key, checked against what
// the API stores after every change:
//   1. live (not terminating) leaders never exceed replicas + maxSurge (the Deployment's bound;
//      maxSurge scaled up against replicas, not capped);
//   2. without faults, once the LWS was Available, ready groups never fall below
//      replicas - maxUnavailable while a rollout is in progress;
//   3. a ready group never mixes revisions (leader, worker StatefulSet, live workers);
//   4. a live leader's worker StatefulSet (named after its hostname) is controlled by that very
//      leader, and no two live leaders share a hostname;
//   5. no two ControllerRevisions of the LWS carry one template-revision-hash (as RolloutChecker);
// and, once faults stop, Converged(): the Deployment asks for spec.replicas leaders of the current
// revision (that of the LWS's current template), exactly that many live leaders, none gated, every
// group ready and updated, no group left tearing down, Available=True without UpdateInProgress, one
// revision.
//
// A group is ready as in RolloutChecker: leader Running and Ready (which the group-ready gate
// already ties to the workers), worker StatefulSet fully available, leader not being deleted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "client/local/local_client.h"
#include "scenario/rollout_checker.h"

namespace lws::scenario {

class HashRolloutChecker : public CheckerBase {
 public:
  HashRolloutChecker(const client::LocalClient* client, std::string lws_name, RolloutLimits limits)
      : CheckerBase(client, std::move(lws_name), limits) {}

  void Check();
  void SpecChanged(const RolloutLimits& limits) { limits_ = limits; }
  bool Converged(std::string* why);

 private:
  struct Group {
    std::string leader;    // the live leader's pod name ("" when none: tearing down)
    std::string hostname;  // its hostname, the worker StatefulSet's name
    bool gated = false;
    std::string phase;  // the live leader's phase
    bool ready = false;
    std::vector<std::string> revisions;  // of the leader, its worker StatefulSet, live workers
  };
  struct View {
    api::Json lws;
    api::Json deployment;                    // null when absent
    std::map<std::string, Group> groups;     // by group key
    std::vector<std::string> problems;       // property 4
    std::vector<std::string> revision_keys;  // LwsRevisionKeys
    bool available = false;
    bool update_in_progress = false;
  };
  View Read() const;
};

}  // namespace lws::scenario
