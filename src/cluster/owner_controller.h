// File: cluster/owner_controller.h
//
// The work queue every kube-controller-manager style controller of the simulated cluster shares
// (ReplicaSet, Deployment): informers for the owner kind and for the kinds it controls, an index
// of the controlled objects by the owner their controller ownerReference names, one queued sync
// per owner, expectations, a minimum interval between an owner's syncs, retries with backoff,
// and a start-up gate. The controller itself supplies only the sync: snapshot, plan, apply.
//
// Stale caches. A write's watch event reaches the informer in a later loop task, so a sync run
// right after a write would see the world without it (and, say, create the same pod twice).
// As kube-controller-manager's expectations do, Expect records the resourceVersion a write
// produced; the owner is not synced again until that informer has delivered an event at or
// beyond it (watches deliver in resourceVersion order), or kExpectationTimeout has passed (a
// watch restarted from a list may never deliver it).
//
// Start-up. Syncs wait until every informer has delivered the objects that existed when it was
// started; then every owner is synced once.
//
// Threading: everything runs on the loop given to the constructor; Start and Stop are called from
// the loop's thread (or before it runs).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/meta.h"
#include "base/event_loop.h"
#include "base/result.h"
#include "client/informer.h"
#include "client/local/local_client.h"

namespace lws::cluster {

class OwnerController {
 public:
  using Key = store::ObjectName;

  // A kind the owner controls: its objects are indexed by the object their controller reference
  // names when that reference's kind is `owner_kind` (in the apps group; batch for Jobs).
  // `sync_key` maps the referenced object to the owner to sync (a Deployment watches its
  // ReplicaSets' pods); null means the referenced object is the owner.
  struct Controlled {
    client::Resource resource;
    std::string owner_kind;
    std::function<std::optional<Key>(const Key& referenced)> sync_key;
  };

  struct Options {
    std::string name;  // "replicaset-controller": logs
    client::Resource owner;
    std::vector<Controlled> controlled;
    // An owner syncs at most this often: changes that arrive meanwhile share the next sync, as
    // they do in a real work queue while a sync is in flight.
    Duration min_sync_interval = std::chrono::milliseconds(200);
    // Called when an owner is deleted, for state the controller keeps per owner.
    std::function<void(const Key&)> on_owner_deleted;
  };

  // Plans and applies one owner's sync; returns when to sync it again (nullopt: only when an
  // informer event says so).
  using SyncFn = std::function<std::optional<Duration>(const store::ObjectPtr& owner)>;

  // Which informer an expectation is for.
  static constexpr std::size_t kOwnerInformer = static_cast<std::size_t>(-1);

  // REQUIRES: loop and client outlive the controller.
  OwnerController(EventLoop* loop, const client::Client* client, Options options, SyncFn sync);
  ~OwnerController();
  OwnerController(const OwnerController&) = delete;
  OwnerController& operator=(const OwnerController&) = delete;

  Status Start();
  void Stop();

  void Enqueue(const Key& key);
  // Keeps one timer per owner, the earliest asked for.
  void EnqueueAfter(const Key& key, Duration delay);

  const client::Informer& owners() const { return *owners_; }
  const client::Informer& controlled(std::size_t i) const { return *controlled_[i].informer; }
  // The objects of controlled kind `i` whose controller reference names `referenced` with `uid`
  // (a namesake's leftovers are skipped).
  std::vector<store::ObjectPtr> Owned(std::size_t i, const Key& referenced,
                                      const std::string& uid) const;

  // A write of `owner`'s sync produced `answer` through informer `i` (or kOwnerInformer).
  void Expect(const Key& owner, std::size_t i, const store::StoredObject& answer);
  // The delay before retrying `owner` after a failed write: 100 ms when someone else wrote first
  // (Conflict, AlreadyExists, NotFound), else a per-owner exponential backoff (1 s to 5 min).
  Duration Failed(const Key& owner, const Status& status);
  // A sync applied everything: the backoff starts over.
  void Succeeded(const Key& owner);

  std::uint64_t syncs() const { return syncs_; }

 private:
  static constexpr Duration kExpectationTimeout = std::chrono::seconds(30);

  struct Index {
    Controlled kind;
    std::unique_ptr<client::Informer> informer;
    std::map<Key, std::set<std::string>> by_owner;  // referenced object -> names
  };

  struct OwnerState {
    std::map<std::size_t, std::uint64_t> want_rv;  // informer -> resourceVersion awaited
    Time expect_deadline{};
    TaskId retry_task = 0;
    Time retry_at{};
    Duration backoff{0};
    std::optional<Time> last_sync;
  };

  void OnOwner(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void OnControlled(Index& index, const store::ObjectPtr& old, const store::ObjectPtr& now);
  void EnqueueReferenced(const Index& index, const Key& referenced);
  void CheckSynced();
  bool ExpectationsMet(const Key& key, OwnerState& state);
  void Sync(const Key& key);
  const client::Informer& InformerAt(std::size_t i) const;

  EventLoop* const loop_;
  const client::Client* const client_;
  Options options_;
  SyncFn sync_;
  std::unique_ptr<client::Informer> owners_;
  std::vector<Index> controlled_;
  std::map<Key, OwnerState> states_;
  std::set<Key> queued_;

  struct Initial {
    const client::Informer* informer;
    std::size_t count;
    std::uint64_t rv;
  };
  std::vector<Initial> initial_;
  bool synced_ = false;
  bool started_ = false;
  std::shared_ptr<char> alive_;  // posted tasks do nothing once the controller is stopped
  std::uint64_t syncs_ = 0;
};

// The (namespace, name) and uid of the object `object`'s controller reference (read from its
// typed metadata) names when its kind is `kind` in the apps group (the batch group for "Job"),
// else nullopt.
struct ControllerOf {
  store::ObjectName owner;
  std::string uid;
};
std::optional<ControllerOf> ControllingOwner(const store::StoredObject& object,
                                             std::string_view kind);

// The controller reference an apps/v1 controller puts on what it makes: controller and
// blockOwnerDeletion true (upstream metav1.NewControllerRef).
api::OwnerReference AppsControllerRef(std::string kind, const api::ObjectMeta& owner);
// The same for an owner of any group ("batch/v1" Jobs).
api::OwnerReference ControllerRefTo(std::string api_version, std::string kind,
                                    const api::ObjectMeta& owner);

}  // namespace lws::cluster
