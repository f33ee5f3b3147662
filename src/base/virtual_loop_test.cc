// File: base/virtual_loop_test.cc
#include "base/virtual_loop.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/rng.h"

namespace lws {
namespace {

using std::chrono::seconds;

TEST(VirtualLoopTest, RunsTasksInTimeThenSchedulingOrder) {
  VirtualLoop loop;
  Time start = loop.Now();
  std::vector<std::string> order;
  loop.After(seconds(5), [&] { order.push_back("b@5"); });
  loop.After(seconds(1), [&] { order.push_back("a@1"); });
  loop.After(seconds(5), [&] { order.push_back("c@5"); });
  loop.Post([&] { order.push_back("now"); });
  EXPECT_EQ(loop.RunUntilIdle(), 4u);
  EXPECT_EQ(order, (std::vector<std::string>{"now", "a@1", "b@5", "c@5"}));
  EXPECT_EQ(loop.Now(), start + seconds(5));
}

TEST(VirtualLoopTest, TasksScheduleMoreTasksAndTimeJumps) {
  VirtualLoop loop;
  Time start = loop.Now();
  int ticks = 0;
  std::function<void()> tick = [&] {
    if (++ticks < 100) loop.After(seconds(60), tick);
  };
  loop.Post(tick);
  loop.RunUntilIdle();
  EXPECT_EQ(ticks, 100);
  EXPECT_EQ(loop.Now(), start + seconds(60 * 99));  // 99 minutes of virtual time, no waiting
}

TEST(VirtualLoopTest, RunUntilStopsAtTheBoundaryAndCancelWorks) {
  VirtualLoop loop;
  Time start = loop.Now();
  int ran = 0;
  loop.After(seconds(10), [&] { ++ran; });
  TaskId cancelled = loop.After(seconds(20), [&] { ran += 100; });
  loop.After(seconds(30), [&] { ++ran; });
  loop.RunFor(seconds(15));
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(loop.Now(), start + seconds(15));
  EXPECT_TRUE(loop.Cancel(cancelled));
  EXPECT_FALSE(loop.Cancel(cancelled));
  loop.RunUntilIdle();
  EXPECT_EQ(ran, 2);
}

TEST(VirtualLoopTest, PastTimesRunNowWithoutMovingTimeBack) {
  VirtualLoop loop;
  loop.RunFor(seconds(100));
  Time now = loop.Now();
  bool ran = false;
  loop.At(now - seconds(50), [&] { ran = true; });
  loop.Step();
  EXPECT_TRUE(ran);
  EXPECT_EQ(loop.Now(), now);
}

// A toy simulation whose delays come from a seeded Rng: the trace is a function of the seed.
std::string Simulate(std::uint64_t seed) {
  VirtualLoop loop;
  Rng rng(seed);
  std::string trace;
  for (int pod = 0; pod < 20; ++pod) {
    auto delay = std::chrono::milliseconds(rng.UniformInt(0, 60'000));
    loop.After(delay, [&, pod] {
      trace +=
          std::to_string(pod) + "@" + std::to_string(loop.Now().time_since_epoch().count()) + ";";
    });
  }
  loop.RunUntilIdle();
  return trace;
}

TEST(VirtualLoopTest, SameSeedSameTraceDifferentSeedDifferentTrace) {
  EXPECT_EQ(Simulate(42), Simulate(42));
  EXPECT_NE(Simulate(42), Simulate(43));
}

}  // namespace
}  // namespace lws

namespace lws {
namespace {

// A task that posts itself for now again, forever: RunUntil stops at the limit and says so.
TEST(VirtualLoopTest, ALivelockStopsAtTheInstantTaskLimit) {
  VirtualLoop loop;
  loop.SetInstantTaskLimit(1000);
  std::function<void()> again = [&] { loop.Post(again); };
  loop.Post(again);
  const Time start = loop.Now();
  loop.RunFor(std::chrono::seconds(10));
  EXPECT_TRUE(loop.livelocked());
  EXPECT_EQ(loop.Now(), start);
  EXPECT_EQ(loop.tasks_at_instant(), 1001u);
}

TEST(VirtualLoopTest, ManyTasksOverTimeAreNoLivelock) {
  VirtualLoop loop;
  loop.SetInstantTaskLimit(10);
  for (int i = 0; i < 100; ++i) loop.At(loop.Now() + std::chrono::seconds(i), [] {});
  loop.RunFor(std::chrono::minutes(5));
  EXPECT_FALSE(loop.livelocked());
}

}  // namespace
}  // namespace lws
