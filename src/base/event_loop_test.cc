// File: base/event_loop_test.cc
#include "base/event_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <vector>

namespace lws {
namespace {

TEST(TaskQueueTest, OrdersByTimeThenSequenceAndCancels) {
  TaskQueue queue;
  Time t0(std::chrono::seconds(100));
  std::string order;
  queue.Add(t0 + std::chrono::seconds(2), [&] { order += "c"; });
  TaskId b = queue.Add(t0 + std::chrono::seconds(1), [&] { order += "b"; });
  queue.Add(t0, [&] { order += "a"; });
  queue.Add(t0 + std::chrono::seconds(1), [&] { order += "d"; });
  EXPECT_TRUE(queue.Cancel(b));
  EXPECT_FALSE(queue.Cancel(b));
  EXPECT_EQ(queue.NextTime(), t0);
  while (!queue.empty()) queue.Pop()();
  EXPECT_EQ(order, "adc");
}

TEST(RealEventLoopTest, RunsPostedAndDelayedTasksInOrderOnOneThread) {
  RealEventLoop loop;
  std::promise<std::vector<int>> done;
  auto order = std::make_shared<std::vector<int>>();
  loop.After(std::chrono::milliseconds(30), [&, order] {
    order->push_back(3);
    done.set_value(*order);
  });
  loop.After(std::chrono::milliseconds(10), [order] { order->push_back(2); });
  loop.Post([order] { order->push_back(1); });
  auto future = done.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_EQ(future.get(), (std::vector<int>{1, 2, 3}));
}

TEST(RealEventLoopTest, StopDropsPendingTasks) {
  std::atomic<bool> ran{false};
  {
    RealEventLoop loop;
    loop.After(std::chrono::hours(1), [&] { ran = true; });
    loop.Stop();
  }
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace lws
