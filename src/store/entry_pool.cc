#include "store/entry_pool.h"

#include <algorithm>
#include <functional>

#include "api/identical_json.h"

namespace lws::store {

namespace {

// Expired entries are dropped after this many additions (amortised over the writes).
constexpr std::size_t kSweepEvery = 8192;

}  // namespace

ManagedEntries ManagedEntryPool::Share(ManagedEntries entries, const ManagedEntries& kept) {
  MutexLock lock(&mu_);
  for (ManagedEntry& entry : entries) {
    if (std::find(kept.begin(), kept.end(), entry) != kept.end()) continue;
    const std::size_t hash = std::hash<Json>{}(*entry);
    if (ManagedEntry same = Find(hash, *entry)) {
      entry = std::move(same);
      continue;
    }
    pooled_[hash].push_back(entry);
    if (++added_since_sweep_ >= kSweepEvery) Sweep();
  }
  return entries;
}

ManagedEntry ManagedEntryPool::Find(std::size_t hash, const Json& entry) const {
  auto bucket = pooled_.find(hash);
  if (bucket == pooled_.end()) return nullptr;
  for (const std::weak_ptr<const Json>& weak : bucket->second) {
    ManagedEntry pooled = weak.lock();
    // Spelled the same, not just equal: sharing 1.0 for 1 would change what a version serialises
    // to.
    if (pooled != nullptr && api::IdenticalJson(*pooled, entry)) return pooled;
  }
  return nullptr;
}

void ManagedEntryPool::Sweep() {
  added_since_sweep_ = 0;
  for (auto it = pooled_.begin(); it != pooled_.end();) {
    std::erase_if(it->second, [](const std::weak_ptr<const Json>& weak) { return weak.expired(); });
    it = it->second.empty() ? pooled_.erase(it) : std::next(it);
  }
}

}  // namespace lws::store
