#include "store/entry_pool.h"

#include <algorithm>
#include <functional>

namespace lws::store {

namespace {

// Expired entries are dropped after this many additions (amortised over the writes).
constexpr std::size_t kSweepEvery = 8192;

// Equal and spelled the same: nlohmann's == takes 1 and 1.0 for equal, and sharing one for the
// other would change what the version serialises to.
bool Identical(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    const auto& ma = a.get_ref<const Json::object_t&>();
    const auto& mb = b.get_ref<const Json::object_t&>();
    return std::equal(ma.begin(), ma.end(), mb.begin(), mb.end(), [](const auto& x, const auto& y) {
      return x.first == y.first && Identical(x.second, y.second);
    });
  }
  if (a.is_array()) {
    const auto& la = a.get_ref<const Json::array_t&>();
    const auto& lb = b.get_ref<const Json::array_t&>();
    return std::equal(la.begin(), la.end(), lb.begin(), lb.end(),
                      [](const Json& x, const Json& y) { return Identical(x, y); });
  }
  return a == b;
}

}  // namespace

ManagedEntries ManagedEntryPool::Share(ManagedEntries entries, const ManagedEntries& kept) {
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
    if (pooled != nullptr && Identical(*pooled, entry)) return pooled;
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
