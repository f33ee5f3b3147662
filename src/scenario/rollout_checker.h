// File: scenario/rollout_checker.h
//
// The safety properties of an LWS rollout, checked against what the API stores, after every
// change (issue 5, "Simulation sweep"):
//   1. the leader StatefulSet never asks for more than replicas + maxSurge (capped at replicas)
//      groups;
//   2. without faults, once the LWS was Available, ready groups never fall below
//      replicas - maxUnavailable while a rollout is in progress, where every surge group the
//      leader StatefulSet keeps counts as available. That is upstream's arithmetic (spec 11.1):
//      the partition step (maxUnavailable + stsR - replicas) and wantReplicas (which releases
//      surge groups as the desired groups become ready) both assume that the surge groups are
//      ready. When a surge group is still starting, the ready count dips below the floor by at
//      most the number of such groups; upstream does the same (RollingUpdate's
//      SurgeReleaseCountsUnreadySurgeGroupsAsAvailable pins it), and the sweep found it at 3
//      of 8,400 seeds, where the partition is lowered while surge groups start;
//   3. a ready group never mixes revisions (leader pod, worker StatefulSet and worker pods carry
//      one template-revision-hash);
//   4. the leader StatefulSet's partition never rises unless the spec changed since it was last
//      seen (a new template, or the user raising the partition);
//   5. no two ControllerRevisions of the LWS carry one template-revision-hash: a reconcile on a
//      stale cache (a write's answer lost, a slow watch, a restarted controller) must not
//      create a second revision of a template it already recorded (upstream's revision
//      utilities look an equal revision up before creating one);
// and the liveness property, once faults stop: Converged() (the leader StatefulSet on the
// revision of the LWS's current template, partition = spec partition, every group in the window
// updated and ready, Available=True, old revisions deleted when the
// partition is 0, and replicas = spec.replicas, except that with a partition and maxSurge the
// surge upstream sizes from the old groups below the partition stays: spec 11.7, Q18).
//
// A group is ready as upstream defines it (leader Running and Ready, worker StatefulSet with
// every replica available) and, stricter than upstream, its leader is not being deleted: a
// terminating leader serves no traffic.
//
// It reads JSON (not typed objects): it runs after every loop task that changed the store, and
// decoding every pod each time would dominate a sweep.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/codec.h"
#include "client/local/local_client.h"

namespace lws::scenario {

struct RolloutLimits {
  int replicas = 0;
  int max_surge = 0;        // scaled and capped
  int max_unavailable = 0;  // scaled
  // Groups the user allowed below replicas - maxUnavailable (the surge fallback's release).
  int floor_slack = 0;
};

// What the rollout checkers share (this one and hash_rollout_checker.h): the store version last
// looked at, the violations, the fault and rollout flags, and property 2, the floor.
class CheckerBase {
 public:
  // Faults on: property 2 is not checked (groups fail on purpose).
  void SetFaults(bool on) { faults_ = on; }
  // A rollout is in progress from a template change until Converged().
  void RolloutStarted() { rolling_ = true; }
  const std::vector<std::string>& violations() const { return violations_; }
  int min_ready_during_rollout() const { return min_ready_; }
  int most_groups() const { return most_groups_; }

 protected:
  CheckerBase(const client::LocalClient* client, std::string lws_name, RolloutLimits limits)
      : client_(client), name_(std::move(lws_name)), limits_(limits) {}
  // The store's resourceVersion, when it changed since the last call.
  std::optional<std::uint64_t> Changed();
  // `resource` `name` of namespace default as stored (null when absent), and the LWS's objects
  // of `resource` (those labelled with its name).
  api::Json Stored(const client::Resource& resource, const std::string& name) const;
  std::vector<store::ObjectPtr> OfLws(const client::Resource& resource) const;
  // The template-revision-hash of every ControllerRevision the LWS controls (its StatefulSets'
  // carry its name label too), sorted.
  std::vector<std::string> LwsRevisionKeys() const;
  // Property 5 for `keys` (LwsRevisionKeys) at `rv`.
  void CheckRevisionKeys(std::uint64_t rv, const std::vector<std::string>& keys);
  // "" when `leaders_key` (the revision what runs the leaders carries) is that of `lws`'s
  // current template, else why not: a run is not converged before the controller acted on the
  // last template change (with no group to roll, nothing else would show that it has not).
  static std::string CurrentTemplate(const api::Json& lws, const std::string& leaders_key);
  void Violation(const std::string& what);
  // Property 2 for `ready` groups at `rv`; `available`: the LWS's Available condition now;
  // `unready_surge`: surge groups the leader StatefulSet keeps that are not ready (counted as
  // available, as upstream's arithmetic counts them).
  void CheckFloor(std::uint64_t rv, int ready, bool available, int unready_surge = 0);

  const client::LocalClient* client_;
  std::string name_;
  RolloutLimits limits_;
  bool rolling_ = false;
  int most_groups_ = 0;

 private:
  std::uint64_t seen_rv_ = 0;
  bool faults_ = false;
  bool was_available_ = false;
  int min_ready_ = 1 << 30;
  std::vector<std::string> violations_;
};

class RolloutChecker : public CheckerBase {
 public:
  RolloutChecker(const client::LocalClient* client, std::string lws_name, RolloutLimits limits)
      : CheckerBase(client, std::move(lws_name), limits) {}

  // Looks at the store if it changed since the last call; records violations.
  void Check();
  // The test changed the LWS spec: the partition may rise once.
  void SpecChanged(const RolloutLimits& limits);
  bool Converged(std::string* why);

 private:
  struct Group {
    bool exists = false;
    bool ready = false;
    bool deleting = false;
    std::vector<std::string> revisions;  // of the leader, worker sts and live worker pods
  };
  struct View {
    api::Json lws;
    api::Json sts;                           // null when absent
    std::vector<Group> groups;               // by index, up to the highest seen
    std::vector<std::string> revision_keys;  // LwsRevisionKeys
    bool available = false;
    bool update_in_progress = false;
  };
  View Read() const;

  bool rise_allowed_ = true;
  std::int64_t last_partition_ = -1;
};

}  // namespace lws::scenario
