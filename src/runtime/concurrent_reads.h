// File: runtime/concurrent_reads.h
//
// What lets reconcile workers (runtime/work_queue.h, WorkQueueOptions::workers) read the informer
// caches while the loop keeps applying watch events to them, without a reconcile ever holding a
// lock across an API call:
//   - the containers (maps, indexes) are guarded by a reader-writer lock held only for one
//     lookup: the loop takes it exclusively while it changes them, a reader shares it;
//   - the objects are reclaimed by epochs: a version replaced or deleted by the loop is retired
//     instead of freed, and freed once every reconcile that started before its retirement has
//     ended. A reconcile may therefore keep the `const T*` it read until it returns, as on the
//     single-threaded loop, although a later read may already see a newer version (as a
//     controller-runtime reconcile does).
//
// Only the operator's real-clock runtime creates one; simulations and `lws up` run every
// reconcile on the loop and their informers free replaced objects at once.
//
// Threading: Retire and the exclusive lock on the loop; Reader and the shared lock anywhere.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <shared_mutex>

#include "base/mutex.h"

namespace lws::runtime {

class ConcurrentReads {
 public:
  ConcurrentReads() = default;
  ConcurrentReads(const ConcurrentReads&) = delete;
  ConcurrentReads& operator=(const ConcurrentReads&) = delete;

  // Held for the whole of a reconcile on a worker: objects read meanwhile stay alive.
  class Reader {
   public:
    explicit Reader(ConcurrentReads* reads);
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

   private:
    ConcurrentReads* reads_;
    std::uint64_t epoch_;
  };

  // Guards the caches' containers: shared for a lookup, exclusive for a change.
  std::shared_mutex& containers() { return containers_; }

  // Keeps `object` (already unreachable from the caches) alive while a reader that might hold it
  // is running; frees it now when none is.
  void Retire(std::shared_ptr<const void> object);

  // Objects waiting for readers to end, for tests and metrics.
  std::size_t retired() const;
  std::size_t readers() const;

 private:
  // Frees what no running reader can hold.
  void ReclaimLocked(std::deque<std::shared_ptr<const void>>* freed) REQUIRES(mu_);

  std::shared_mutex containers_;
  mutable Mutex mu_;
  std::uint64_t epoch_ GUARDED_BY(mu_) = 0;              // advanced by each retirement
  std::map<std::uint64_t, int> active_ GUARDED_BY(mu_);  // start epoch -> running readers
  // (epoch, object)
  std::deque<std::pair<std::uint64_t, std::shared_ptr<const void>>> retired_ GUARDED_BY(mu_);
};

}  // namespace lws::runtime
