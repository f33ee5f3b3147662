// File: base/lru_map.h
//
// A map bounded to `capacity` entries that forgets the least recently used one when full, as
// the golang-lru caches behind client-go's event correlator do: Get and Put make an entry the
// most recent. Iteration is not offered: a decision must never depend on what is left in it.
//
// Not thread-safe; its owner locks.
#pragma once

#include <cstddef>
#include <iterator>
#include <list>
#include <map>
#include <utility>

#include "base/assert.h"

namespace lws {

template <typename K, typename V>
class LruMap {
 public:
  explicit LruMap(std::size_t capacity) : capacity_(capacity) {
    LWS_ASSERT(capacity > 0, "an LruMap holds at least one entry");
  }

  // The entry of `key`, made the most recent; null when absent.
  V* Get(const K& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.end(), order_, it->second);
    return &it->second->second;
  }

  // Sets `key` to `value`, the most recent entry; forgets the least recent beyond capacity.
  V& Put(const K& key, V value) {
    if (V* existing = Get(key)) {
      *existing = std::move(value);
      return *existing;
    }
    if (index_.size() == capacity_) {
      index_.erase(order_.front().first);
      order_.pop_front();
    }
    order_.emplace_back(key, std::move(value));
    index_.emplace(key, std::prev(order_.end()));
    return order_.back().second;
  }

  void Erase(const K& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    order_.erase(it->second);
    index_.erase(it);
  }

  std::size_t size() const { return index_.size(); }

 private:
  std::size_t capacity_;
  std::list<std::pair<K, V>> order_;  // least recent first
  std::map<K, typename std::list<std::pair<K, V>>::iterator> index_;
};

}  // namespace lws
