// File: cluster/statefulset_controller.h
//
// The StatefulSet controller of the embedded cluster: the I/O half of statefulset_plan.h, as
// kube-controller-manager runs it (upstream pkg/controller/statefulset). Four informers keep the
// StatefulSets, pods, ControllerRevisions and PVCs in memory; any change to a set, or to an
// object whose controller ownerReference names a set, marks that set dirty and posts one sync
// task for it (a set already queued is not queued twice). A sync builds the set's snapshot from
// the caches, plans with PlanStatefulSet and applies the actions in order through the
// LocalClient, recording the Events the real controller records on the set.
//
// Stale caches. A write's watch event reaches the informer in a later loop task, so a sync run
// right after a write would see the world without it and, for example, create the same pod
// again. Like kube-controller-manager's expectations, every successful write records the
// resourceVersion it produced; a set is not synced again until the informer of that resource
// has delivered an event at or beyond it (watches deliver in resourceVersion order, so the write
// is then in the cache). That also keeps the status from regressing: it is always computed from
// caches that include this controller's own writes, and it is written with the set's cached
// resourceVersion, so a stale set answers Conflict instead of overwriting a newer status.
//
// Failures. A Conflict, AlreadyExists or NotFound answer means someone else wrote first: the
// sync stops applying and the set is planned again 100 ms later on fresh caches. Other errors
// (an invalid template, say) stop the sync too and retry with a per-set exponential backoff.
//
// Start-up. Syncs wait until every informer has delivered the objects that existed when it was
// started; then every set is synced once.
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

#include "base/event_loop.h"
#include "base/result.h"
#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local_client.h"
#include "cluster/owner_controller.h"
#include "cluster/statefulset_plan.h"

namespace lws::cluster {

inline constexpr std::string_view kStatefulSetControllerName = "statefulset-controller";

class StatefulSetController {
 public:
  // `client` should use the field manager "statefulset-controller".
  // REQUIRES: loop and client outlive the controller.
  StatefulSetController(EventLoop* loop, const client::LocalClient* client);
  ~StatefulSetController();
  StatefulSetController(const StatefulSetController&) = delete;
  StatefulSetController& operator=(const StatefulSetController&) = delete;

  // Starts the informers; every set is synced once their initial contents have arrived.
  Status Start();
  // Stops the informers and drops queued work; tasks already posted do nothing.
  void Stop();

  // The number of set syncs run (planned and applied), for benches and tests.
  std::uint64_t syncs() const { return syncs_; }

 private:
  using SetKey = store::ObjectName;

  // Expectations are dropped after this long: a watch restarted from a list may never deliver
  // the resourceVersion a write produced, and the set must not wait forever.
  static constexpr Duration kExpectationTimeout = std::chrono::seconds(30);
  // A set syncs at most this often: changes that arrive meanwhile share the next sync, as they
  // do in a real work queue while a sync is in flight. Without it a 1,000-pod set whose pods
  // become Ready one by one would re-plan over all its pods for each of them.
  static constexpr Duration kMinSyncInterval = std::chrono::milliseconds(200);

  // What a set waits for before its next sync, and its retry timer.
  struct SetState {
    std::uint64_t want_pods_rv = 0;  // our writes' resourceVersions, per informer
    std::uint64_t want_revisions_rv = 0;
    std::uint64_t want_sets_rv = 0;
    Time expect_deadline{};  // expectations older than this are dropped (watch relists)
    TaskId retry_task = 0;
    Time retry_at{};
    Duration backoff{0};
    std::optional<Time> last_sync;
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

  // Informer handlers.
  void OnSet(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void OnOwned(std::map<SetKey, std::set<std::string>>* index, const store::ObjectPtr& old,
               const store::ObjectPtr& now);
  void CheckSynced();

  void Enqueue(const SetKey& key);
  void EnqueueAfter(const SetKey& key, Duration delay);
  void Sync(const SetKey& key);
  bool ExpectationsMet(const SetKey& key, SetState& state);
  Result<StatefulSetSnapshot> Snapshot(const store::ObjectPtr& set_object) const;
  std::shared_ptr<const ProposedRevision> Proposed(const api::StatefulSet& set,
                                                   SetState& state) const;

  // statefulset_controller_apply.cc: the writes of one plan.
  std::optional<Duration> Apply(const store::ObjectPtr& set_object, const api::StatefulSet& set,
                                const StatefulSetPlan& plan, SetState& state);
  Outcome ApplyOne(const store::ObjectPtr& set_object, const api::StatefulSet& set,
                   const StatefulSetPlan& plan, std::size_t index, SetState& state);
  Outcome CreatePvc(const api::Json& set_json, const StatefulSetAction& action,
                    const std::string& pod_name);
  Outcome Failed(const Status& status, SetState& state) const;
  void Expect(std::uint64_t* want, const store::StoredObject& answer, SetState& state);

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  client::EventRecorder recorder_;
  client::Informer sets_;
  client::Informer pods_;
  client::Informer revisions_;
  client::Informer pvcs_;

  // Objects by the set their controller ownerReference names (the uid is checked on sync).
  std::map<SetKey, std::set<std::string>> pods_by_set_;
  std::map<SetKey, std::set<std::string>> revisions_by_set_;
  std::map<SetKey, SetState> states_;
  std::set<SetKey> queued_;

  // Start-up gate: each informer's object count and the store's resourceVersion at Start.
  struct Initial {
    const client::Informer* informer;
    std::size_t count;
    std::uint64_t rv;
  };
  std::vector<Initial> initial_;
  bool synced_ = false;
  bool started_ = false;

  // Posted tasks hold a weak pointer to this: they do nothing once the controller is stopped.
  std::shared_ptr<char> alive_;
  std::uint64_t syncs_ = 0;
};

// The (namespace, name) and uid of the StatefulSet that `object`'s controller ownerReference
// names, or nullopt when its controller is not a StatefulSet.
struct StatefulSetOwner {
  store::ObjectName set;
  std::string uid;
};
std::optional<StatefulSetOwner> ControllingStatefulSet(const api::Json& object);

}  // namespace lws::cluster
