#include "store/watcher.h"

namespace lws::store {

std::string_view EventTypeName(EventType type) {
  switch (type) {
    case EventType::kAdded:
      return "ADDED";
    case EventType::kModified:
      return "MODIFIED";
    case EventType::kDeleted:
      return "DELETED";
    case EventType::kBookmark:
      return "BOOKMARK";
    case EventType::kError:
      return "ERROR";
  }
  return "ERROR";
}

Watcher::Watcher(Filter filter, std::size_t queue_capacity, std::function<void()> notifier)
    : filter_(std::move(filter)),
      capacity_(queue_capacity == 0 ? 1 : queue_capacity),
      notifier_(std::move(notifier)) {}

bool Watcher::Matches(const StoredObject& object) const {
  if (!filter_.namespace_.empty() && object.name().namespace_ != filter_.namespace_) {
    return false;
  }
  if (!filter_.labels.Empty() && !filter_.labels.Matches(object.labels())) return false;
  return MatchesFields(filter_.info, object.document(), filter_.fields);
}

bool Watcher::Poll(std::vector<WatchEvent>* out, std::size_t max_events) {
  MutexLock lock(&mu_);
  std::size_t taken = 0;
  while (taken < max_events && initial_next_ < initial_.size()) {
    out->push_back(std::move(initial_[initial_next_++]));
    ++taken;
  }
  if (initial_next_ == initial_.size() && !initial_.empty()) {
    initial_.clear();
    initial_next_ = 0;
  }
  while (taken < max_events && !queue_.empty()) {
    out->push_back(std::move(queue_.front()));
    queue_.pop_front();
    ++taken;
  }
  return !(ended_ && initial_.empty() && queue_.empty());
}

void Watcher::SetNotifier(std::function<void()> notifier) {
  MutexLock lock(&mu_);
  notifier_ = std::move(notifier);
}

void Watcher::Stop() {
  MutexLock lock(&mu_);
  ended_ = true;
  initial_.clear();
  initial_next_ = 0;
  queue_.clear();
}

bool Watcher::ended() const {
  MutexLock lock(&mu_);
  return ended_;
}

bool Watcher::PushInitial(WatchEvent event) {
  MutexLock lock(&mu_);
  if (ended_) return false;
  const bool was_empty = initial_next_ == initial_.size() && queue_.empty();
  initial_.push_back(std::move(event));
  return was_empty;
}

bool Watcher::Push(WatchEvent event) {
  MutexLock lock(&mu_);
  if (ended_) return false;
  if (queue_.size() >= capacity_) {
    lock.Unlock();
    return End(WatchEvent{
        EventType::kError,
        MakeStoredObject(StatusJson(Status(Code::kTooManyRequests, "watch ended: the client fell " +
                                                                       std::to_string(capacity_) +
                                                                       " events behind")),
                         0)});
  }
  const bool was_empty = initial_next_ == initial_.size() && queue_.empty();
  queue_.push_back(std::move(event));
  return was_empty;
}

bool Watcher::End(WatchEvent error_event) {
  MutexLock lock(&mu_);
  if (ended_) return false;
  ended_ = true;
  if (error_event.object) queue_.push_back(std::move(error_event));
  return true;
}

void Watcher::Notify() {
  std::function<void()> notifier;
  {
    MutexLock lock(&mu_);
    notifier = notifier_;
  }
  if (notifier) notifier();
}

}  // namespace lws::store
