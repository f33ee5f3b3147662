// File: store/watcher.h
//
// The consumer end of a watch. The store pushes events into a Watcher from the writer's thread
// (under the store lock, never blocking) and then calls the watcher's notifier outside that lock;
// the consumer (an HTTP connection's strand, a simulator task, a test) drains them with Poll.
//
// Invariants:
//   1. Events come out in resourceVersion order; initial events (synthetic ADDED, then the
//      initial-events-end BOOKMARK) come before every live event.
//   2. At most `queue_capacity` live events wait in the queue. An event that finds it full ends
//      the watch instead: the consumer gets the queued events, then one ERROR event (429
//      TooManyRequests, "too slow"), and nothing after it, like the real server closing a slow
//      watcher. Initial events do not count against the capacity.
//   3. The notifier runs when the queue goes from empty to non-empty and when the watch ends
//      through the store (overflow, store destroyed). It must only schedule work (post to a
//      strand, enqueue a task): it may run on any writer's thread, concurrently with Poll, and
//      once more after Stop. A consumer that drains only part of the queue polls again on its own.
//   4. After Stop or the end of the watch nothing more is queued; Poll returns false once the
//      watch has ended and every queued event was taken.
//
// Thread-safe: Poll, SetNotifier and Stop may be called from any thread.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "api/field_selector.h"
#include "api/resources.h"
#include "api/selector.h"
#include "base/mutex.h"
#include "store/object.h"

namespace lws::store {

enum class EventType { kAdded, kModified, kDeleted, kBookmark, kError };

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR": the watch stream's type strings.
std::string_view EventTypeName(EventType type);

struct WatchEvent {
  EventType type = EventType::kAdded;
  // The object as the stream sends it (`object->bytes`): the object's state for ADDED/MODIFIED,
  // its last state with the deletion's resourceVersion for DELETED, {kind, apiVersion,
  // metadata.resourceVersion[, annotations]} for BOOKMARK and a metav1.Status for ERROR.
  ObjectPtr object;
};

class Watcher {
 public:
  // What a watch selects. Namespace "" means every namespace.
  struct Filter {
    api::ResourceInfo info;
    std::string namespace_;
    api::Selector labels;
    api::FieldSelector fields;
    bool allow_bookmarks = false;
    std::uint64_t after_rv = 0;  // live changes with rv <= after_rv are not delivered
  };

  Watcher(Filter filter, std::size_t queue_capacity, std::function<void()> notifier);
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // Appends up to `max_events` queued events to *out. Returns false iff the watch has ended and
  // no event is left (the stream should close), true otherwise (even when nothing was queued).
  bool Poll(std::vector<WatchEvent>* out, std::size_t max_events = SIZE_MAX);
  // Replaces the notifier (see invariant 3). Poll once after setting it: events queued before
  // it was set did not notify anybody.
  void SetNotifier(std::function<void()> notifier);
  // Ends the watch from the consumer side and drops queued events. Idempotent.
  void Stop();
  // True once the watch has ended (Stop, overflow or store shutdown).
  bool ended() const;

  const Filter& filter() const { return filter_; }
  // True iff `object` is selected by this watch's namespace, label and field selectors.
  bool Matches(const StoredObject& object) const;

  // Store side. Each returns true iff the consumer should be notified (call Notify after
  // releasing the store lock).
  bool PushInitial(WatchEvent event);
  bool Push(WatchEvent event);
  bool End(WatchEvent error_event);
  void Notify();

 private:
  const Filter filter_;
  const std::size_t capacity_;
  mutable Mutex mu_;
  std::vector<WatchEvent> initial_ GUARDED_BY(mu_);  // synthetic events, drained first
  std::size_t initial_next_ GUARDED_BY(mu_) = 0;
  std::deque<WatchEvent> queue_ GUARDED_BY(mu_);  // live events
  bool ended_ GUARDED_BY(mu_) = false;
  std::function<void()> notifier_ GUARDED_BY(mu_);
};

using WatcherPtr = std::shared_ptr<Watcher>;

}  // namespace lws::store
