// File: client/informer.h
//
// The latest state of every object of one resource, kept by a client watch, with change
// handlers: what client-go calls a shared informer, reduced to what the simulated cluster's
// controllers need. The cache holds the store's immutable shared objects, so it costs one map
// entry per object and never copies JSON.
//
// Handlers run on the informer's loop after the cache has been updated: `old` is null for a new
// object, `now` is null for a deleted one (then `old` is its last state). A watch restarted from
// a fresh list replays ADDED for known objects; they reach handlers as updates.
//
// Threading: loop only (Start may be called from anywhere before the loop runs).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/client.h"

namespace lws::client {

class Informer {
 public:
  using Handler = std::function<void(const store::ObjectPtr& old, const store::ObjectPtr& now)>;

  Informer(EventLoop* loop, const Client* client, Resource resource, std::string ns = "");
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  // Handlers added before Start see the initial objects as additions.
  void AddHandler(Handler handler) { handlers_.push_back(std::move(handler)); }
  Status Start();
  void Stop();

  // null when absent. `ns` is ignored for cluster-scoped resources.
  store::ObjectPtr Get(const std::string& ns, const std::string& name) const;
  const std::map<store::ObjectName, store::ObjectPtr>& objects() const { return objects_; }
  // Objects of namespace `ns` whose labels include every pair of `labels`.
  std::vector<store::ObjectPtr> Select(const std::string& ns, const api::StringMap& labels) const;
  // The resourceVersion of the last event handled (0 before the first).
  std::uint64_t last_resource_version() const { return last_rv_; }
  // The resourceVersion of the last event every handler has returned from: what a reader off
  // the loop (a reconcile worker, runtime/expectations.h) may rely on finding in the caches
  // that handlers maintain. Equal to last_resource_version() between events.
  std::uint64_t handled_resource_version() const {
    return handled_rv_.load(std::memory_order_acquire);
  }

 private:
  void OnEvent(const store::WatchEvent& event);
  void Deliver(const store::WatchEvent& event);

  EventLoop* loop_;
  const Client* client_;
  Resource resource_;
  std::string ns_;
  std::vector<Handler> handlers_;
  std::map<store::ObjectName, store::ObjectPtr> objects_;
  std::unique_ptr<Subscription> subscription_;
  std::uint64_t last_rv_ = 0;
  std::atomic<std::uint64_t> handled_rv_{0};
};

}  // namespace lws::client
