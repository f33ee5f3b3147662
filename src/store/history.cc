#include "store/history.h"

#include <algorithm>

#include "base/assert.h"

namespace lws::store {

History::History(std::size_t capacity, std::uint64_t current_rv)
    : capacity_(capacity == 0 ? 1 : capacity), floor_(current_rv) {}

void History::Append(HistoryEvent event) {
  LWS_ASSERT(events_.empty() || events_.back().resource_version < event.resource_version,
             "history events must arrive in resourceVersion order");
  events_.push_back(std::move(event));
  while (events_.size() > capacity_) {
    floor_ = events_.front().resource_version;
    events_.pop_front();
  }
}

std::size_t History::FirstAfter(std::uint64_t rv) const {
  auto it = std::upper_bound(
      events_.begin(), events_.end(), rv,
      [](std::uint64_t v, const HistoryEvent& e) { return v < e.resource_version; });
  return static_cast<std::size_t>(it - events_.begin());
}

std::optional<WatchEvent> EventFor(const HistoryEvent& event, const Watcher& watcher) {
  if (event.resource_version <= watcher.filter().after_rv) return std::nullopt;
  if (event.type == EventType::kDeleted) {
    // The last state may differ from the stored one when an update completed the deletion, so
    // either of them matching makes the deletion visible.
    bool seen = watcher.Matches(*event.object) || (event.prev && watcher.Matches(*event.prev));
    if (!seen) return std::nullopt;
    return WatchEvent{EventType::kDeleted, event.object};
  }
  const bool now_matches = watcher.Matches(*event.object);
  const bool matched = event.prev && watcher.Matches(*event.prev);
  if (now_matches) {
    return WatchEvent{matched ? EventType::kModified : EventType::kAdded, event.object};
  }
  if (!matched) return std::nullopt;
  if (!event.prev_at_event) {
    event.prev_at_event =
        MakeStoredObject(event.prev->document(), event.resource_version, KeptEntries(event.prev));
  }
  return WatchEvent{EventType::kDeleted, event.prev_at_event};
}

}  // namespace lws::store
