// Group commit (group_sync.h).
#include "store/group_sync.h"

#include <algorithm>

namespace lws::store {

GroupSync::GroupSync(std::function<Status()> flush)
    : flush_(std::move(flush)), flusher_([this] { RunFlusher(); }) {}

GroupSync::~GroupSync() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wanted_.notify_all();
  flusher_.join();
}

void GroupSync::Written(std::uint64_t seq) {
  std::lock_guard lock(mu_);
  if (seq > written_) written_ = seq;
}

bool GroupSync::Settled(std::uint64_t seq) const { return durable_ >= seq || !failed_.ok(); }

void GroupSync::Want(std::uint64_t seq) {
  if (seq <= wanted_seq_) return;
  wanted_seq_ = seq;
  wanted_.notify_one();
}

Status GroupSync::AwaitDurable(std::uint64_t seq) {
  std::unique_lock lock(mu_);
  if (Settled(seq)) return failed_;
  Want(seq);
  flushed_.wait(lock, [&] { return Settled(seq); });
  return failed_;
}

void GroupSync::OnDurable(std::uint64_t seq, std::function<void(Status)> done) {
  std::unique_lock lock(mu_);
  if (Settled(seq)) {
    Status now = failed_;
    lock.unlock();
    done(std::move(now));
    return;
  }
  callbacks_.emplace_back(seq, std::move(done));
  Want(seq);
}

// One flush at a time, each covering everything written before it began; waiters whose write
// came later stay for the next one. After a failure nothing is flushed again (it is sticky).
void GroupSync::RunFlusher() {
  std::unique_lock lock(mu_);
  while (true) {
    wanted_.wait(lock, [&] { return stopping_ || (wanted_seq_ > durable_ && failed_.ok()); });
    if (wanted_seq_ <= durable_ || !failed_.ok()) {
      if (stopping_) break;
      continue;
    }
    const std::uint64_t covers = written_;  // everything written before the flush begins
    lock.unlock();
    Status status = flush_();
    lock.lock();
    ++flushes_;
    if (status.ok()) {
      durable_ = std::max(durable_, covers);
    } else {
      failed_ = std::move(status);
    }
    std::vector<Callback> released = TakeReleased();
    const Status result = failed_;
    flushed_.notify_all();
    lock.unlock();
    for (auto& [seq, done] : released) done(result);
    lock.lock();
  }
  // Stopping with a failed flush: release the callbacks still held with its error.
  std::vector<Callback> released = TakeReleased();
  const Status result = failed_;
  lock.unlock();
  for (auto& [seq, done] : released) done(result);
}

std::vector<GroupSync::Callback> GroupSync::TakeReleased() {
  std::vector<Callback> released;
  auto kept = std::partition(callbacks_.begin(), callbacks_.end(),
                             [&](const Callback& c) { return failed_.ok() && c.first > durable_; });
  std::move(kept, callbacks_.end(), std::back_inserter(released));
  callbacks_.erase(kept, callbacks_.end());
  return released;
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
