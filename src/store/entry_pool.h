// File: store/entry_pool.h
//
// Shares equal managedFields entries between stored versions of different objects. A version's
// entries are already shared with the version before it when a write leaves them as they were
// (object.h); the pool goes further: the pods a StatefulSet creates in the same second get the
// same creator entry (the fields, not the values, are recorded), as do most events of one kind.
// Storing each once keeps the store's memory close to the objects' own size.
//
// Holds its entries weakly: an entry lives while some version holds it. Thread-safe: the store
// calls it under its lock, and deferred entries call it when they are made, on any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/mutex.h"
#include "store/object.h"

namespace lws::store {

class ManagedEntryPool {
 public:
  // `entries` with each one equal to a pooled entry replaced by that entry, and the others
  // pooled. Entries that are in `kept` (the previous version's) are pooled already.
  ManagedEntries Share(ManagedEntries entries, const ManagedEntries& kept);

 private:
  ManagedEntry Find(std::size_t hash, const Json& entry) const REQUIRES(mu_);
  void Sweep() REQUIRES(mu_);

  Mutex mu_;
  std::unordered_map<std::size_t, std::vector<std::weak_ptr<const Json>>> pooled_ GUARDED_BY(mu_);
  std::size_t added_since_sweep_ GUARDED_BY(mu_) = 0;
};

}  // namespace lws::store
