// File: base/virtual_loop.h
//
// The simulator's event loop: virtual time that jumps from one scheduled task to the next, so a
// rollout that takes an hour of cluster time runs as fast as its events allow. One thread runs
// everything; tasks due at the same instant run in scheduling order (base/event_loop.h), which
// with seeded randomness makes a run a pure function of its seed (DESIGN.md 2.3).
//
// Posting from another thread is allowed (it is locked), but a deterministic simulation posts
// only from its own tasks.
#pragma once

#include <cstdint>

#include "base/event_loop.h"
#include "base/mutex.h"

namespace lws {

class VirtualLoop final : public EventLoop {
 public:
  explicit VirtualLoop(Time start = Time(std::chrono::seconds(1'700'000'000))) : clock_(start) {}

  const Clock& clock() const override { return clock_; }
  TaskId At(Time when, std::function<void()> task) override;
  bool Cancel(TaskId id) override;

  // Runs the earliest task, first moving the clock to its time. Returns false when none is left.
  bool Step();
  // Runs every task due at or before `until`, then leaves the clock at `until`.
  void RunUntil(Time until);
  void RunFor(Duration d) { RunUntil(Now() + d); }
  // Runs until no task is left or `max_tasks` ran; returns the number run.
  std::uint64_t RunUntilIdle(std::uint64_t max_tasks = UINT64_MAX);

  std::uint64_t tasks_run() const { return tasks_run_; }
  std::size_t pending() const;

  // Livelock guard: a component that writes in a loop keeps posting tasks due now (or a few
  // milliseconds on), and virtual time barely moves. Past `limit` tasks within one virtual
  // second, RunUntil stops early and livelocked() says so (the time and the count), so the
  // simulator reports an error instead of hanging. Off by default.
  void SetInstantTaskLimit(std::uint64_t limit) { instant_limit_ = limit; }
  bool livelocked() const { return livelocked_; }
  std::uint64_t tasks_at_instant() const { return tasks_at_instant_; }

 private:
  ManualClock clock_;
  mutable Mutex mu_;
  TaskQueue queue_ GUARDED_BY(mu_);
  std::uint64_t tasks_run_ = 0;
  std::uint64_t instant_limit_ = UINT64_MAX;  // off unless set
  std::uint64_t tasks_at_instant_ = 0;        // since window_start_
  Time window_start_ GUARDED_BY(mu_) = {};
  bool livelocked_ = false;
};

}  // namespace lws
