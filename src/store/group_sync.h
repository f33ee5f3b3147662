// File: store/group_sync.h
//
// Group commit for the store's SQLite file (persistence.h). Each write is committed to the
// write-ahead log under the store's lock (SQLite synchronous=NORMAL: written to the file, not
// yet flushed), so a write that fails (a full disk) leaves memory and disk unchanged. The flush
// that makes it survive a power loss happens here, outside the lock, on the flusher thread: a
// writer is acknowledged only once an fsync of the log that began after its commit has returned.
// While one fsync runs, every writer that commits meanwhile waits for the next one, which covers
// them all: N concurrent writers share about one fsync, as etcd's batched WAL sync does. A writer
// either blocks for it (AwaitDurable) or leaves a callback (OnDurable) and frees its thread, so
// that the number of writes sharing a flush is not bounded by the number of threads.
//
// A failed fsync is sticky: Linux may drop the dirty pages it could not write, so nothing after
// it can be promised; every later wait fails (the store then refuses writes) until a restart
// reopens the file and SQLite recovers the log.
//
// Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "base/status.h"

namespace lws::store {

class GroupSync {
 public:
  // `flush` makes everything written so far durable (an fsync of the log).
  // Starts the flusher thread; the destructor flushes what is still awaited, runs its
  // callbacks and joins it.
  explicit GroupSync(std::function<Status()> flush);
  ~GroupSync();
  GroupSync(const GroupSync&) = delete;
  GroupSync& operator=(const GroupSync&) = delete;

  // Everything up to sequence number `seq` is written (called in sequence order).
  void Written(std::uint64_t seq);
  // Returns once everything written up to `seq` is durable, or the flush's error.
  Status AwaitDurable(std::uint64_t seq);
  // Calls `done` (on the flusher thread, or here when `seq` is already durable or a flush failed)
  // with what AwaitDurable would return. `done` must not call back into this GroupSync's waits.
  void OnDurable(std::uint64_t seq, std::function<void(Status)> done);
  // The sticky error of a failed flush (Ok while none failed).
  Status failed() const;
  std::uint64_t flushes() const;

 private:
  using Callback = std::pair<std::uint64_t, std::function<void(Status)>>;

  void RunFlusher();
  // `seq` is durable, or a flush failed (nothing more will be).
  bool Settled(std::uint64_t seq) const REQUIRES(mu_);
  // Asks the flusher for a flush covering `seq`.
  void Want(std::uint64_t seq) REQUIRES(mu_);
  // The callbacks that the last flush released (all of them once a flush failed).
  std::vector<Callback> TakeReleased() REQUIRES(mu_);

  std::function<Status()> flush_;
  mutable Mutex mu_;
  CondVar flushed_;  // durable_ or failed_ changed
  CondVar wanted_;   // wanted_ rose, or stopping_
  std::uint64_t written_ GUARDED_BY(mu_) = 0;
  std::uint64_t durable_ GUARDED_BY(mu_) = 0;
  std::uint64_t wanted_seq_ GUARDED_BY(mu_) = 0;  // the highest seq someone waits for
  std::vector<Callback> callbacks_ GUARDED_BY(mu_);
  std::uint64_t flushes_ GUARDED_BY(mu_) = 0;
  Status failed_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread flusher_;  // last: starts once the fields above are set
};

}  // namespace lws::store
