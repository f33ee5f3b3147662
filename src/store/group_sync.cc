// Group commit (group_sync.h).
#include "store/group_sync.h"

#include <algorithm>

namespace lws::store {

GroupSync::GroupSync(std::function<Status()> flush)
    : flush_(std::move(flush)), flusher_([this] { RunFlusher(); }) {}

GroupSync::~GroupSync() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  wanted_.NotifyAll();
  flusher_.join();
}

void GroupSync::Written(std::uint64_t seq) {
  MutexLock lock(&mu_);
  if (seq > written_) written_ = seq;
}

bool GroupSync::Settled(std::uint64_t seq) const { return durable_ >= seq || !failed_.ok(); }

void GroupSync::Want(std::uint64_t seq) {
  if (seq <= wanted_seq_) return;
  wanted_seq_ = seq;
  wanted_.NotifyOne();
}

Status GroupSync::AwaitDurable(std::uint64_t seq) {
  MutexLock lock(&mu_);
  if (Settled(seq)) return failed_;
  Want(seq);
  while (!Settled(seq)) flushed_.Wait(&mu_);
  return failed_;
}

void GroupSync::OnDurable(std::uint64_t seq, std::function<void(Status)> done) {
  MutexLock lock(&mu_);
  if (Settled(seq)) {
    Status now = failed_;
    lock.Unlock();
    done(std::move(now));
    return;
  }
  callbacks_.emplace_back(seq, std::move(done));
  Want(seq);
}

// One flush at a time, each covering everything written before it began; waiters whose write
// came later stay for the next one. After a failure nothing is flushed again (it is sticky).
void GroupSync::RunFlusher() {
  while (true) {
    std::uint64_t covers = 0;
    {
      MutexLock lock(&mu_);
      while (!stopping_ && !(wanted_seq_ > durable_ && failed_.ok())) wanted_.Wait(&mu_);
      // With no flush to make, the wait ended for stopping_.
      if (wanted_seq_ <= durable_ || !failed_.ok()) {
        // Stopping with a failed flush: release the callbacks still held with its error.
        std::vector<Callback> released = TakeReleased();
        const Status result = failed_;
        lock.Unlock();
        for (auto& [seq, done] : released) done(result);
        return;
      }
      covers = written_;  // everything written before the flush begins
    }
    Status status = flush_();
    std::vector<Callback> released;
    Status result;
    {
      MutexLock lock(&mu_);
      ++flushes_;
      if (status.ok()) {
        durable_ = std::max(durable_, covers);
      } else {
        failed_ = std::move(status);
      }
      released = TakeReleased();
      result = failed_;
      flushed_.NotifyAll();
    }
    for (auto& [seq, done] : released) done(result);
  }
}

std::vector<GroupSync::Callback> GroupSync::TakeReleased() {
  std::vector<Callback> released;
  // Read here, not in the lambda: the analysis does not see the lock held there.
  const bool ok = failed_.ok();
  const std::uint64_t durable = durable_;
  auto kept = std::partition(callbacks_.begin(), callbacks_.end(),
                             [&](const Callback& c) { return ok && c.first > durable; });
  std::move(kept, callbacks_.end(), std::back_inserter(released));
  callbacks_.erase(kept, callbacks_.end());
  return released;
}

Status GroupSync::failed() const {
  MutexLock lock(&mu_);
  return failed_;
}

std::uint64_t GroupSync::flushes() const {
  MutexLock lock(&mu_);
  return flushes_;
}

}  // namespace lws::store
