// Group commit (group_sync.h).
#include "store/group_sync.h"

namespace lws::store {

GroupSync::GroupSync(std::function<Status()> flush) : flush_(std::move(flush)) {}

void GroupSync::Written(std::uint64_t seq) {
  std::lock_guard lock(mu_);
  if (seq > written_) written_ = seq;
}

Status GroupSync::AwaitDurable(std::uint64_t seq) {
  std::unique_lock lock(mu_);
  while (durable_ < seq && failed_.ok()) {
    if (flushing_) {
      // The running flush may have begun before `seq` was written: wait, then look again.
      flushed_.wait(lock);
      continue;
    }
    flushing_ = true;
    const std::uint64_t covers = written_;  // everything written before the flush begins
    lock.unlock();
    Status status = flush_();
    lock.lock();
    flushing_ = false;
    ++flushes_;
    if (status.ok()) {
      if (covers > durable_) durable_ = covers;
    } else {
      failed_ = std::move(status);
    }
    flushed_.notify_all();
  }
  return failed_;
}

Status GroupSync::failed() const {
  std::lock_guard lock(mu_);
  return failed_;
}

std::uint64_t GroupSync::flushes() const {
  std::lock_guard lock(mu_);
  return flushes_;
}

}  // namespace lws::store
