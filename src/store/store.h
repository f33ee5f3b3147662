// File: store/store.h
//
// The versioned object store under the embedded API server, the in-process client and the
// simulator: objects of every resource (api::ResourceInfo) as JSON, keyed by (resource,
// namespace, name), with the API machinery a Kubernetes API server applies on top of etcd
// (kubectl-compat.md sections 5 and 9): one resourceVersion counter, uid/creationTimestamp/
// generation, optimistic concurrency, status isolation, finalizers and graceful deletion, label
// and field selectors, paginated LIST and WATCH with a bounded history. With a data directory
// every write is committed to SQLite before it is acknowledged (persistence.h).
//
// Invariants:
//   1. One counter: every successful write (create, update, status update, delete, and the
//      deletion-starting update of a DELETE) takes the next resourceVersion, across all
//      resources. A write whose result equals the stored object is a no-op: it keeps the
//      resourceVersion and emits no event. Dry-run writes never take one.
//   2. Each stored version is serialised exactly once; GET, LIST and every watcher share those
//      bytes (ObjectPtr). LIST and event filtering never serialise.
//   3. A write is visible (GET/LIST/WATCH) only after it is durable, and watchers receive
//      events in resourceVersion order with no gaps: a watch started at the LIST resourceVersion
//      sees every later change of the objects it selects.
//   4. Writers never block on watchers: events go into bounded per-watch queues (watcher.h) and
//      notifiers run after the store lock is released.
//   5. Time comes from the injected Clock and randomness (uids, generated names) from an Rng
//      stream derived from the seed and the resourceVersion at open, so a simulation replays
//      exactly and a restarted server never reuses the uids of a previous run.
//
// Threading: every method is thread-safe (one mutex); the simulator simply calls it from its
// single thread. The store owns no thread.
//
// Deviations from upstream, all deliberate:
//   - A deletion that completes at once is one DELETED event; upstream first writes the
//     deletionTimestamp (MODIFIED) when a graceful or finalizer path leads to it. Likewise an
//     update that removes the last finalizer of a deleting object yields one DELETED event whose
//     object is the updated state.
//   - GET and LIST always serve the latest state (a single in-memory writer is always
//     consistent); a watch from a resourceVersion newer than the current one waits for it
//     instead of answering 504 after a delay.
//   - A continue token whose snapshot fell out of the history is 410 Expired without the
//     upstream's "inconsistent continue" token.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/field_selector.h"
#include "api/resources.h"
#include "api/selector.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "base/rng.h"
#include "store/entry_pool.h"
#include "store/history.h"
#include "store/object.h"
#include "store/object_rules.h"
#include "store/watcher.h"

namespace lws::store {

class Database;
class GroupSync;
class SpaceReserve;

// A decoded LIST continue token: the snapshot's resourceVersion and the last key returned.
struct ContinueToken {
  std::uint64_t rv = 0;
  ObjectName after;
};

struct StoreOptions {
  const Clock* clock = nullptr;           // REQUIRED; must outlive the store.
  std::uint64_t seed = 0;                 // uid and generated-name stream (invariant 5)
  std::string data_dir;                   // "" keeps everything in memory
  std::size_t history_size = 10'000;      // changes kept for watch resumption and pagination
  std::size_t watch_queue_size = 10'000;  // live events a watcher may lag behind
  // With a data_dir: acknowledge a write only once its log is flushed (fsync, shared by
  // concurrent writers: group_sync.h), so it survives a power loss. Off, a write survives a
  // killed process but not a power loss: for throwaway clusters.
  bool sync_writes = true;
  // With a data_dir: room kept for deletions when the disk fills up (space_reserve.h).
  std::uint64_t space_reserve_bytes = 16ull << 20;
};

struct DeleteResult {
  // The object after the call: its last state carrying the deletion's resourceVersion when
  // deleted, the stored object when it is kept (finalizers, graceful deletion).
  ObjectPtr object;
  bool deleted = false;
};

struct ListOptions {
  std::string namespace_;  // "" lists every namespace
  api::Selector label_selector;
  api::FieldSelector field_selector;
  std::int64_t limit = 0;      // <= 0: no limit
  std::string continue_token;  // from a previous ListResult
};

struct ListResult {
  std::vector<ObjectPtr> items;        // sorted by namespace, then name
  std::uint64_t resource_version = 0;  // the snapshot's: the current one, or the first page's
  std::string continue_token;          // "" when nothing is left
  std::optional<std::int64_t> remaining_item_count;  // only without selectors, as upstream
};

struct WatchOptions {
  std::string namespace_;  // "" watches every namespace
  api::Selector label_selector;
  api::FieldSelector field_selector;
  // nullopt or 0: start with a synthetic ADDED for every selected object, then live events.
  // N: every change after N (410 Gone when N is older than the history).
  std::optional<std::uint64_t> resource_version;
  // ADDED for every selected object, then a BOOKMARK annotated k8s.io/initial-events-end with
  // the current resourceVersion, then live events (client-go's WatchList).
  bool send_initial_events = false;
  bool allow_bookmarks = false;  // receive SendBookmarks() events
  std::function<void()> notifier;
};

// One entry of Store::Changes: an object as a write left it.
struct StoreChange {
  EventType type = EventType::kAdded;  // kAdded, kModified or kDeleted
  std::string group_resource;
  ObjectPtr object;  // kDeleted: the last state
};

// Every change of every resource after some resourceVersion, read at one instant: applied in
// order to what the reader knew at that resourceVersion, it gives the store's content at
// `resource_version`.
struct ChangeLog {
  std::vector<StoreChange> changes;  // oldest first
  std::uint64_t resource_version = 0;
};

// Parses a resourceVersion query value: "" is 0; anything but a decimal uint64 is 400.
Result<std::uint64_t> ParseResourceVersion(std::string_view text);

// The body upstream answers a DELETE with: the object for pods, services, namespaces and custom
// resources or whenever it is kept; otherwise {"kind":"Status","status":"Success","details":
// {"name","group","kind":<resource>,"uid"}}.
Json DeleteResponseBody(const api::ResourceInfo& info, const DeleteResult& result);

class Store {
 public:
  // Opens a store; with options.data_dir, loads every object and the counter from
  // `<data_dir>/store.db`. A corrupt or locked database is an error Status, never a crash.
  static Result<std::unique_ptr<Store>> Open(StoreOptions options);
  // Ends every watch (notifying consumers) and closes the database.
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Creates `object`; a generateName without a name gets a generated one. 409 AlreadyExists
  // when the name is taken, 422 when name or namespace is missing (object_rules.h).
  Result<ObjectPtr> Create(const api::ResourceInfo& info, Json object,
                           const CreateOptions& options = {});
  // Replaces the object named by `object`'s metadata (PUT): 404 when missing, 409 on a stale
  // resourceVersion, 422 on a custom resource without one. Keeps the stored status when the
  // resource has a status subresource. May complete a pending deletion (DELETED).
  Result<ObjectPtr> Update(const api::ResourceInfo& info, Json object,
                           const UpdateOptions& options = {});
  // Replaces only `.status` (the /status subresource). 404 when the resource has none.
  Result<ObjectPtr> UpdateStatus(const api::ResourceInfo& info, Json object,
                                 const UpdateOptions& options = {});
  Result<DeleteResult> Delete(const api::ResourceInfo& info, const std::string& namespace_,
                              const std::string& name, const DeleteOptions& options = {});

  Result<ObjectPtr> Get(const api::ResourceInfo& info, const std::string& namespace_,
                        const std::string& name) const;
  // Whether an object is stored under that name: Get without building the NotFound error when,
  // as usual for the caller, there is none.
  bool Contains(const api::ResourceInfo& info, const std::string& namespace_,
                const std::string& name) const;
  // 400 for an unsupported field label or a malformed continue token, 410 when the token's
  // snapshot is older than the history.
  Result<ListResult> List(const api::ResourceInfo& info, const ListOptions& options) const;
  // 400 for an unsupported field label, 410 `too old resource version: N (M)`.
  Result<WatcherPtr> Watch(const api::ResourceInfo& info, WatchOptions options);

  // The changes of all resources after resourceVersion `after` (the garbage collector's feed).
  // `after` 0: every stored object as ADDED, so a reader can start from nothing. 410 Gone when
  // the history no longer reaches back to `after`: read everything again from 0.
  Result<ChangeLog> Changes(std::uint64_t after) const;
  // Sends a BOOKMARK with the current resourceVersion to every watcher that allows them.
  void SendBookmarks();
  std::uint64_t CurrentResourceVersion() const;
  // The resourceVersion of the last write to any object of `info`'s resource since the store
  // opened (0: none). Equal answers mean a LIST would return the same objects: what a reader
  // that keeps something derived from a whole resource (the API server's parsed webhook
  // configurations) checks instead of listing on every request.
  std::uint64_t LastWrite(const api::ResourceInfo& info) const;
  // A fresh uid from the store's seeded stream, for a strategy that must name the object's uid
  // before it is created (the Job's generated selector); pass it back in CreateOptions::uid.
  std::string ReserveUid();

 private:
  using ObjectMap = std::map<ObjectName, ObjectPtr>;
  // Watchers to notify once the store lock is released (invariant 4).
  struct Notifications {
    std::vector<WatcherPtr> watchers;
    std::uint64_t wrote = 0;  // the resourceVersion the call wrote, 0 for none
    void Add(const WatcherPtr& w) { watchers.push_back(w); }
    void Run() {
      for (const auto& w : watchers) w->Notify();
    }
  };

  explicit Store(StoreOptions options);
  Status Load();
  std::string NewUid() REQUIRES(mu_);
  std::string NewName(std::string_view generate_name) REQUIRES(mu_);

  Result<ObjectPtr> CreateLocked(const api::ResourceInfo& info, Json object,
                                 const CreateOptions& options, Notifications* notes) REQUIRES(mu_);
  Result<ObjectPtr> UpdateLocked(const api::ResourceInfo& info, Json object, bool status_only,
                                 const UpdateOptions& options, Notifications* notes) REQUIRES(mu_);
  Result<DeleteResult> DeleteLocked(const api::ResourceInfo& info, const ObjectName& name,
                                    const DeleteOptions& options, Notifications* notes)
      REQUIRES(mu_);
  // Stores `json` as the next version of `name` (durably), records the event and fans it out.
  // `status_only`: the write changed only the status (StoredObject::body_rv).
  Result<ObjectPtr> CommitPut(const std::string& group_resource, const ObjectName& name, Json json,
                              NewEntries entries, ObjectPtr prev, Notifications* notes,
                              bool status_only = false) REQUIRES(mu_);
  // Removes `name` (durably); `last` is its final state, stored with the next resourceVersion.
  Result<ObjectPtr> CommitDelete(const std::string& group_resource, const ObjectName& name,
                                 Json last, NewEntries entries, ObjectPtr prev,
                                 Notifications* notes) REQUIRES(mu_);
  void Publish(HistoryEvent event, Notifications* notes) REQUIRES(mu_);
  // The store wrote `rv` (in order).
  void Written(std::uint64_t rv, Notifications* notes) REQUIRES(mu_);
  // Waits for the write's flush, then wakes its watchers.
  template <class T>
  Result<T> Acknowledge(Result<T> result, Notifications* notes);
  // An error once a flush failed: no write can be promised after it.
  Status Writable() const;
  // Before a create or update (not a deletion): the NOSPACE alarm's refusal, if on.
  Status AdmitWrite() REQUIRES(mu_);
  // A database write failed: the NOSPACE error when the disk is full, else `failed`.
  Status WriteFailed(Status failed) REQUIRES(mu_);
  Result<ListResult> ListLocked(const api::ResourceInfo& info, const std::string& ns,
                                const ListOptions& options,
                                const std::optional<ContinueToken>& token) const REQUIRES(mu_);
  Result<WatcherPtr> WatchLocked(const api::ResourceInfo& info, WatchOptions options) REQUIRES(mu_);
  const ObjectPtr* Find(const std::string& group_resource, const ObjectName& name) const
      REQUIRES(mu_);
  // The same by a request's names: a cluster-scoped resource ignores the namespace.
  const ObjectPtr* Find(const api::ResourceInfo& info, const std::string& namespace_,
                        const std::string& name) const REQUIRES(mu_);

  const StoreOptions options_;
  mutable Mutex mu_;
  // The database is used under mu_, but for the flusher's FlushLog (thread-safe, persistence.h).
  std::unique_ptr<Database> db_ PT_GUARDED_BY(mu_);
  std::unique_ptr<GroupSync> sync_;                         // with db_ and sync_writes
  std::unique_ptr<SpaceReserve> space_ PT_GUARDED_BY(mu_);  // with db_
  std::uint64_t rv_ GUARDED_BY(mu_) = 0;
  std::map<std::string, ObjectMap> objects_ GUARDED_BY(mu_);  // by group resource
  // By group resource (LastWrite).
  std::map<std::string, std::uint64_t, std::less<>> last_write_ GUARDED_BY(mu_);
  History history_ GUARDED_BY(mu_);
  // Shared with the makers of deferred entries, which may outlive the store.
  std::shared_ptr<ManagedEntryPool> entry_pool_ = std::make_shared<ManagedEntryPool>();
  std::map<std::string, std::vector<WatcherPtr>> watchers_ GUARDED_BY(mu_);  // by group resource
  Rng rng_ GUARDED_BY(mu_);
};

}  // namespace lws::store
