// File: base/event_loop.cc
#include "base/event_loop.h"

namespace lws {

TaskId TaskQueue::Add(Time when, std::function<void()> task) {
  TaskId id = next_id_++;
  tasks_.emplace(Key{when, id}, std::move(task));
  when_.emplace(id, when);
  return id;
}

bool TaskQueue::Cancel(TaskId id) {
  auto it = when_.find(id);
  if (it == when_.end()) return false;
  tasks_.erase(Key{it->second, id});
  when_.erase(it);
  return true;
}

std::function<void()> TaskQueue::Pop() {
  auto first = tasks_.begin();
  std::function<void()> task = std::move(first->second);
  when_.erase(first->first.second);
  tasks_.erase(first);
  return task;
}

RealEventLoop::RealEventLoop() : worker_([this] { Run(); }) {}

RealEventLoop::~RealEventLoop() { Stop(); }

TaskId RealEventLoop::At(Time when, std::function<void()> task) {
  TaskId id;
  {
    MutexLock lock(&mu_);
    id = queue_.Add(when, std::move(task));
  }
  wake_.NotifyOne();
  return id;
}

bool RealEventLoop::Cancel(TaskId id) {
  MutexLock lock(&mu_);
  return queue_.Cancel(id);
}

void RealEventLoop::Stop() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  wake_.NotifyOne();
  if (worker_.joinable() && worker_.get_id() != std::this_thread::get_id()) worker_.join();
}

void RealEventLoop::Run() {
  for (;;) {
    std::function<void()> task;
    {
      MutexLock lock(&mu_);
      for (;;) {
        if (stopping_) return;
        if (queue_.empty()) {
          wake_.Wait(&mu_);
          continue;
        }
        Time next = queue_.NextTime();
        if (next > clock_.Now()) {
          // The condition variable waits on the system clock, the same clock RealClock reads.
          wake_.WaitUntil(&mu_,
                          std::chrono::time_point_cast<std::chrono::system_clock::duration>(next));
          continue;
        }
        task = queue_.Pop();
        break;
      }
    }
    task();  // unlocked: it may post more work
  }
}

}  // namespace lws
