// File: base/worker_pool.h
//
// A fixed set of threads running submitted tasks in submission order: the real-clock runtime's
// reconcile workers (runtime/work_queue.h with WorkQueueOptions::workers > 0). Simulations never
// create one (DESIGN.md 2.3: one thread in simulation); the operator does, so that reconciles of
// different keys overlap their API round trips.
//
// Stop() (or destruction) lets the tasks already running finish, drops those not started, and
// joins the threads.
//
// Threading: Submit from any thread; Stop from any thread but the pool's own (a task cannot
// wait for itself to finish).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"

namespace lws {

class WorkerPool {
 public:
  // REQUIRES: threads > 0. `name` is given to the threads (at most 15 characters show).
  WorkerPool(std::size_t threads, const std::string& name);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs `task` on a free thread; ignored after Stop.
  void Submit(std::function<void()> task);
  void Stop();

  std::size_t threads() const { return threads_.size(); }
  bool stopped() const;

 private:
  void Work();

  mutable Mutex mu_;
  CondVar wake_;
  std::deque<std::function<void()>> tasks_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace lws
