// File: cluster/statefulset_controller.h
//
// The StatefulSet controller of the embedded cluster: the I/O half of statefulset_plan.h, as
// kube-controller-manager runs it (upstream pkg/controller/statefulset). OwnerController keeps
// the StatefulSets, pods, ControllerRevisions and PVCs in memory, queues one sync per set on any
// change to it or to an object whose controller ownerReference names it, and holds its writes'
// expectations (owner_controller.h). A sync builds the set's snapshot from the caches, plans
// with PlanStatefulSet and applies the actions in order through its client, recording the
// Events the real controller records on the set. The status is computed from caches that
// include this controller's own writes, and written with the set's cached resourceVersion, so a
// stale set answers Conflict instead of overwriting a newer status.
//
// Failures. A Conflict, AlreadyExists or NotFound answer means someone else wrote first: the
// sync stops applying and the set is planned again 100 ms later on fresh caches. Other errors
// (an invalid template, say) stop the sync too and retry with a per-set exponential backoff.
//
// Left out (upstream has it): adopting orphan pods that match the selector and releasing owned
// pods that no longer match it; revision history truncation (see statefulset_plan.h for what the
// pure pass leaves out).
//
// Threading: everything runs on the loop given to the constructor. Start and Stop are called
// from the loop's thread (or before it runs).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "base/result.h"
#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "cluster/owner_controller.h"
#include "cluster/statefulset_plan.h"

namespace lws::cluster {

inline constexpr std::string_view kStatefulSetControllerName = "statefulset-controller";

class StatefulSetController {
 public:
  // `client` should use the field manager "statefulset-controller".
  // REQUIRES: loop and client outlive the controller.
  StatefulSetController(EventLoop* loop, const client::Client* client);

  // Starts the informers; every set is synced once their initial contents have arrived.
  Status Start() { return queue_.Start(); }
  // Stops the informers and drops queued work; tasks already posted do nothing.
  void Stop();

  // The number of set syncs run (planned and applied), for benches and tests.
  std::uint64_t syncs() const { return queue_.syncs(); }

 private:
  using SetKey = store::ObjectName;
  // The queue's controlled kinds, in the order their informers start.
  static constexpr std::size_t kRevisions = 0;
  static constexpr std::size_t kPvcs = 1;
  static constexpr std::size_t kPods = 2;

  // What a set keeps between syncs.
  struct SetState {
    // The last snapshot's views: held, so an object that did not change is not decoded again.
    std::vector<std::shared_ptr<const api::Pod>> pods_held;
    std::vector<std::shared_ptr<const api::ControllerRevision>> revisions_held;
    // The revision of the set's template, kept for the uid and generation it was made for.
    std::shared_ptr<const ProposedRevision> proposed;
    std::string proposed_uid;
    std::int64_t proposed_generation = 0;
  };

  // One action's outcome: go on, or stop the sync and plan again after `retry` (nullopt: only
  // when an informer event says so).
  struct Outcome {
    bool stop = false;
    std::optional<Duration> retry;
  };

  std::optional<Duration> Sync(const store::ObjectPtr& set_object);
  Result<StatefulSetSnapshot> Snapshot(const store::ObjectPtr& set_object) const;
  std::shared_ptr<const ProposedRevision> Proposed(const api::StatefulSet& set,
                                                   SetState& state) const;

  // statefulset_controller_apply.cc: the writes of one plan.
  std::optional<Duration> Apply(const store::ObjectPtr& set_object, const api::StatefulSet& set,
                                const StatefulSetPlan& plan);
  Outcome ApplyOne(const store::ObjectPtr& set_object, const api::StatefulSet& set,
                   const StatefulSetPlan& plan, std::size_t index);
  Outcome CreatePvc(const store::StoredObject& set, const StatefulSetAction& action,
                    const std::string& pod_name);
  Outcome Failed(const SetKey& key, const Status& status);

  EventLoop* const loop_;
  const client::Client* const client_;
  client::EventRecorder recorder_;
  std::map<SetKey, SetState> states_;
  OwnerController queue_;
};

}  // namespace lws::cluster
