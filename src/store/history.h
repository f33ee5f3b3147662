// File: store/history.h
//
// The bounded ring of recent changes, shared by all resources (one resourceVersion counter, so
// one ordered log). It serves watches that resume from a resourceVersion, turns each change into
// what one watcher sees (selector transitions), and lets LIST continue a paginated snapshot by
// undoing the changes made since the first page.
//
// Invariants:
//   1. Events are in strictly increasing resourceVersion order.
//   2. floor() is the resourceVersion after which nothing is missing: every change with
//      rv > floor() is in the ring. A reader that needs changes after N < floor() gets 410.
//   3. HistoryEvent::object for DELETED is the object's last state carrying the deletion's
//      resourceVersion; `prev` is the version it replaced (null for ADDED).
//
// Not thread-safe: the Store guards it with its lock.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "store/object.h"
#include "store/watcher.h"

namespace lws::store {

struct HistoryEvent {
  EventType type = EventType::kAdded;  // kAdded, kModified or kDeleted
  std::string group_resource;
  ObjectName name;
  std::uint64_t resource_version = 0;
  ObjectPtr object;
  ObjectPtr prev;
  // `prev`'s content carrying this event's resourceVersion: the DELETED a watcher receives when
  // the object stops matching its selectors. Built on first use, then shared by all watchers.
  mutable ObjectPtr prev_at_event;
};

class History {
 public:
  // An empty ring whose floor is `current_rv` (nothing before it can be replayed).
  History(std::size_t capacity, std::uint64_t current_rv);

  void Append(HistoryEvent event);
  std::uint64_t floor() const { return floor_; }
  const std::deque<HistoryEvent>& events() const { return events_; }

  // Index of the first event with rv > `rv` (events().size() when none).
  std::size_t FirstAfter(std::uint64_t rv) const;

 private:
  std::size_t capacity_;
  std::uint64_t floor_;
  std::deque<HistoryEvent> events_;
};

// What `watcher` receives for `event`, if anything: ADDED when the object starts matching,
// MODIFIED while it keeps matching, DELETED (prior content, event's resourceVersion) when it stops
// matching or is deleted. REQUIRES: event.group_resource is the watcher's resource.
std::optional<WatchEvent> EventFor(const HistoryEvent& event, const Watcher& watcher);

}  // namespace lws::store
