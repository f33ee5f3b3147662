// File: store/group_sync.h
//
// Group commit for the store's SQLite file (persistence.h). Each write is committed to the
// write-ahead log under the store's lock (SQLite synchronous=NORMAL: written to the file, not
// yet flushed), so a write that fails (a full disk) leaves memory and disk unchanged. The flush
// that makes it survive a power loss happens here, outside the lock: the writer waits until an
// fsync of the log that began after its commit has returned, and acknowledges only then. While
// one fsync runs, every writer that commits meanwhile waits for the next one, which covers them
// all: N concurrent writers share about one fsync, as etcd's batched WAL sync does.
//
// A failed fsync is sticky: Linux may drop the dirty pages it could not write, so nothing after
// it can be promised; every later wait fails (the store then refuses writes) until a restart
// reopens the file and SQLite recovers the log.
//
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

#include "base/status.h"

namespace lws::store {

class GroupSync {
 public:
  // `flush` makes everything written so far durable (an fsync of the log).
  explicit GroupSync(std::function<Status()> flush);

  // Everything up to sequence number `seq` is written (called in sequence order).
  void Written(std::uint64_t seq);
  // Returns once everything written up to `seq` is durable, or the flush's error.
  Status AwaitDurable(std::uint64_t seq);
  // The sticky error of a failed flush (Ok while none failed).
  Status failed() const;
  std::uint64_t flushes() const;

 private:
  std::function<Status()> flush_;
  mutable std::mutex mu_;
  std::condition_variable flushed_;
  std::uint64_t written_ = 0;
  std::uint64_t durable_ = 0;
  bool flushing_ = false;
  std::uint64_t flushes_ = 0;
  Status failed_;
};

}  // namespace lws::store
