#include "base/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>

namespace lws {
namespace {

TEST(WorkerPoolTest, RunsTasksOnSeveralThreadsAtOnce) {
  WorkerPool pool(3, "test");
  EXPECT_EQ(pool.threads(), 3u);
  // Three tasks that each wait until all three have started: only concurrent threads finish.
  std::atomic<int> started{0};
  std::vector<std::future<void>> done;
  for (int i = 0; i < 3; ++i) {
    auto finished = std::make_shared<std::promise<void>>();
    done.push_back(finished->get_future());
    pool.Submit([&, finished] {
      ++started;
      while (started.load() < 3) std::this_thread::yield();
      finished->set_value();
    });
  }
  for (auto& f : done) {
    ASSERT_EQ(f.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  }
}

TEST(WorkerPoolTest, StopFinishesRunningTasksAndDropsTheRest) {
  std::atomic<int> ran{0};
  std::promise<void> running;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  WorkerPool pool(1, "test");
  pool.Submit([&] {
    running.set_value();
    released.wait();
    ++ran;
  });
  pool.Submit([&] { ++ran; });  // queued behind the blocked task
  running.get_future().wait();
  std::thread stopper([&] { pool.Stop(); });
  while (!pool.stopped()) std::this_thread::yield();  // the queue is cleared before this flips
  release.set_value();
  stopper.join();
  EXPECT_EQ(ran.load(), 1);     // the running task finished; the queued one was dropped
  pool.Submit([&] { ++ran; });  // ignored after Stop
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace lws
