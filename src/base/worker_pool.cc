#include "base/worker_pool.h"

#include <pthread.h>

#include "base/assert.h"

namespace lws {

WorkerPool::WorkerPool(std::size_t threads, const std::string& name) {
  LWS_ASSERT(threads > 0, "a worker pool needs a thread");
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([this] { Work(); });
    // Names show in top -H and gdb; Linux keeps 15 characters.
    pthread_setname_np(threads_.back().native_handle(), name.substr(0, 15).c_str());
  }
}

WorkerPool::~WorkerPool() { Stop(); }

void WorkerPool::Submit(std::function<void()> task) {
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  wake_.NotifyOne();
}

void WorkerPool::Stop() {
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    stopping_ = true;
    tasks_.clear();
  }
  wake_.NotifyAll();
  for (std::thread& thread : threads_) {
    LWS_ASSERT(thread.get_id() != std::this_thread::get_id(), "a pool stopped by its own task");
    if (thread.joinable()) thread.join();
  }
}

bool WorkerPool::stopped() const {
  MutexLock lock(&mu_);
  return stopping_;
}

void WorkerPool::Work() {
  for (;;) {
    std::function<void()> task;
    {
      MutexLock lock(&mu_);
      while (!stopping_ && tasks_.empty()) wake_.Wait(&mu_);
      if (stopping_) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

}  // namespace lws
