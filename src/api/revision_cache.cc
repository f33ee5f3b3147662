#include "api/revision_cache.h"

#include "base/assert.h"

namespace lws::api {

RevisionMatchCache::RevisionMatchCache(std::size_t capacity) : capacity_(capacity) {
  LWS_ASSERT(capacity > 0, "RevisionMatchCache needs a positive capacity");
}

bool RevisionMatchCache::Lookup(const Key& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return false;
  order_.splice(order_.begin(), order_, it->second);
  return true;
}

void RevisionMatchCache::Add(const Key& key) {
  if (Lookup(key)) return;
  if (index_.size() == capacity_) {
    index_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(key);
  index_.emplace(key, order_.begin());
}

}  // namespace lws::api
