// File: api/revision_cache.h
//
// RevisionMatchCache remembers that a stored ControllerRevision was found semantically equal to
// the template of a LeaderWorkerSet, so the (comparatively costly) apply-and-reserialise check of
// spec section 7.5 runs once per (LWS UID, LWS generation, revision resourceVersion). A change to
// the LWS spec bumps its generation and a rewrite of the revision bumps its resourceVersion, so a
// cached "equal" never outlives the objects it was computed from. Only positive results are
// stored, as upstream does (k8s.io/utils/lru, 10 000 entries).
//
// Least recently used entries are evicted once `capacity` is reached. Not thread-safe: one cache
// belongs to one controller loop.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <string>

namespace lws::api {

class RevisionMatchCache {
 public:
  static constexpr std::size_t kDefaultCapacity = 10000;

  struct Key {
    std::string lws_uid;
    std::int64_t lws_generation = 0;
    std::string revision_resource_version;
    auto operator<=>(const Key&) const = default;
  };

  // REQUIRES: capacity > 0.
  explicit RevisionMatchCache(std::size_t capacity = kDefaultCapacity);

  // Returns true iff `key` is cached, and marks it most recently used.
  bool Lookup(const Key& key);
  // Caches `key` as most recently used, evicting the least recently used entry when full.
  void Add(const Key& key);

  std::size_t size() const { return index_.size(); }
  std::size_t capacity() const { return capacity_; }

 private:
  std::size_t capacity_;
  std::list<Key> order_;  // front = most recently used
  std::map<Key, std::list<Key>::iterator> index_;
};

}  // namespace lws::api
