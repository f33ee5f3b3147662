// File: base/event_loop.h
//
// Where the simulated cluster and the controllers run their work (DESIGN.md 2.2, 2.3): every
// component is written once against EventLoop and runs either on the simulator's virtual-time
// loop (sim/virtual_loop.h: one thread, events ordered by (time, sequence), time jumps to the
// next event) or on the real clock (RealEventLoop below: one worker thread, timers on the wall
// clock). A component never sleeps and never starts a thread: it posts work, or schedules work
// at a time, and reads the time from the loop's clock.
//
// Ordering contract, both loops: tasks run one at a time, never concurrently; tasks due at the
// same time run in the order they were scheduled. Post and At may be called from any thread
// (API-server watch notifiers call them) and from inside a task.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <thread>
#include <utility>

#include "base/clock.h"
#include "base/mutex.h"

namespace lws {

using TaskId = std::uint64_t;

class EventLoop {
 public:
  virtual ~EventLoop() = default;
  virtual const Clock& clock() const = 0;
  Time Now() const { return clock().Now(); }
  // Runs `task` as soon as possible, after the tasks already due.
  TaskId Post(std::function<void()> task) { return At(Now(), std::move(task)); }
  // Runs `task` once the clock reaches `when` (at once when `when` is past).
  virtual TaskId At(Time when, std::function<void()> task) = 0;
  TaskId After(Duration delay, std::function<void()> task) {
    return At(Now() + delay, std::move(task));
  }
  // Cancels a task that has not started; returns false when it already ran or was cancelled.
  virtual bool Cancel(TaskId id) = 0;
};

// The queue both loops share: tasks keyed by (time, sequence).
class TaskQueue {
 public:
  TaskId Add(Time when, std::function<void()> task);
  bool Cancel(TaskId id);
  bool empty() const { return tasks_.empty(); }
  std::size_t size() const { return tasks_.size(); }
  Time NextTime() const { return tasks_.begin()->first.first; }  // REQUIRES: !empty()
  // Removes and returns the earliest task. REQUIRES: !empty().
  std::function<void()> Pop();

 private:
  using Key = std::pair<Time, TaskId>;
  std::map<Key, std::function<void()>> tasks_;
  std::map<TaskId, Time> when_;  // for Cancel
  TaskId next_id_ = 1;
};

// The real-clock loop: one worker thread runs due tasks in order. Stop() (or destruction)
// finishes the running task, drops the rest and joins the thread.
class RealEventLoop final : public EventLoop {
 public:
  RealEventLoop();
  ~RealEventLoop() override;
  RealEventLoop(const RealEventLoop&) = delete;
  RealEventLoop& operator=(const RealEventLoop&) = delete;

  const Clock& clock() const override { return clock_; }
  TaskId At(Time when, std::function<void()> task) override;
  bool Cancel(TaskId id) override;
  void Stop();

 private:
  void Run();

  RealClock clock_;
  Mutex mu_;
  CondVar wake_;
  TaskQueue queue_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread worker_;
};

}  // namespace lws
