// File: base/virtual_loop.cc
#include "base/virtual_loop.h"

namespace lws {

TaskId VirtualLoop::At(Time when, std::function<void()> task) {
  MutexLock lock(&mu_);
  // A task scheduled in the past runs now: virtual time never goes backwards.
  return queue_.Add(std::max(when, clock_.Now()), std::move(task));
}

bool VirtualLoop::Cancel(TaskId id) {
  MutexLock lock(&mu_);
  return queue_.Cancel(id);
}

std::size_t VirtualLoop::pending() const {
  MutexLock lock(&mu_);
  return queue_.size();
}

bool VirtualLoop::Step() {
  std::function<void()> task;
  {
    MutexLock lock(&mu_);
    if (queue_.empty()) return false;
    Time when = queue_.NextTime();
    if (when > clock_.Now()) clock_.Set(when);
    if (clock_.Now() - window_start_ >= std::chrono::seconds(1)) {
      window_start_ = clock_.Now();
      tasks_at_instant_ = 0;
    }
    task = queue_.Pop();
  }
  if (++tasks_at_instant_ > instant_limit_) livelocked_ = true;
  ++tasks_run_;
  task();
  return true;
}

void VirtualLoop::RunUntil(Time until) {
  for (;;) {
    if (livelocked_) return;  // the clock stays at the instant that never ended
    {
      MutexLock lock(&mu_);
      if (queue_.empty() || queue_.NextTime() > until) break;
    }
    Step();
  }
  MutexLock lock(&mu_);
  if (until > clock_.Now()) clock_.Set(until);
}

std::uint64_t VirtualLoop::RunUntilIdle(std::uint64_t max_tasks) {
  std::uint64_t run = 0;
  while (run < max_tasks && Step()) ++run;
  return run;
}

}  // namespace lws
