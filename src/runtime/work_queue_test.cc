#include "runtime/work_queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "base/virtual_loop.h"

namespace lws::runtime {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

Key K(const std::string& name) { return {"default", name}; }

// A reconciler that records (key name, virtual time since start) of every run and answers from a
// script (Done once the script is exhausted).
struct Recorder {
  explicit Recorder(VirtualLoop* loop) : loop(loop), start(loop->Now()) {}
  WorkQueue::Reconciler Fn() {
    return [this](const Key& key) {
      runs.emplace_back(key.name, std::chrono::duration_cast<milliseconds>(loop->Now() - start));
      if (on_run) on_run(key);
      if (script.empty()) return ReconcileResult::Done();
      ReconcileResult next = script.front();
      script.pop_front();
      return next;
    };
  }
  std::vector<milliseconds> Times() const {
    std::vector<milliseconds> out;
    for (const auto& run : runs) out.push_back(run.second);
    return out;
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> out;
    for (const auto& run : runs) out.push_back(run.first);
    return out;
  }

  VirtualLoop* loop;
  Time start;
  std::vector<std::pair<std::string, milliseconds>> runs;
  std::deque<ReconcileResult> script;
  std::function<void(const Key&)> on_run;
};

TEST(WorkQueue, TenAddsOfOneKeyMakeOneRun) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.SetReady(true);
  for (int i = 0; i < 10; ++i) queue.Add(K("a"));
  EXPECT_EQ(queue.pending(), 1u);
  loop.RunUntilIdle();
  EXPECT_EQ(rec.runs.size(), 1u);
  EXPECT_EQ(queue.runs(), 1u);
  EXPECT_EQ(queue.pending(), 0u);
  // Once run, the key can be queued again.
  queue.Add(K("a"));
  loop.RunUntilIdle();
  EXPECT_EQ(queue.runs(), 2u);
}

TEST(WorkQueue, KeysRunInInsertionOrder) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.SetReady(true);
  for (const char* name : {"c", "a", "b", "a", "c"}) queue.Add(K(name));
  loop.RunUntilIdle();
  EXPECT_EQ(rec.Names(), (std::vector<std::string>{"c", "a", "b"}));
}

TEST(WorkQueue, KeyAddedWhileRunningRunsAgainAfterwards) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.SetReady(true);
  int adds = 0;
  rec.on_run = [&](const Key& key) {
    if (key.name == "a" && adds++ == 0) {
      queue.Add(key);  // twice: still one more run
      queue.Add(key);
      queue.Add(K("b"));
    }
  };
  queue.Add(K("a"));
  loop.RunUntilIdle();
  EXPECT_EQ(rec.Names(), (std::vector<std::string>{"a", "b", "a"}));
}

TEST(WorkQueue, BackoffDoublesCapsAndResetsOnSuccess) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueueOptions options;
  options.base_delay = milliseconds(5);
  options.max_delay = milliseconds(30);
  WorkQueue queue(&loop, "test", rec.Fn(), options);
  queue.SetReady(true);
  Status boom = Status::Internal("boom");
  rec.script = {ReconcileResult::Error(boom), ReconcileResult::Error(boom),
                ReconcileResult::Error(boom), ReconcileResult::Error(boom),
                ReconcileResult::Error(boom), ReconcileResult::After(milliseconds(100)),
                ReconcileResult::Error(boom), ReconcileResult::Done()};
  queue.Add(K("a"));
  loop.RunFor(seconds(10));
  // Gaps: 5, 10, 20, 30 (capped), 30, then the success's 100, then 5 again (reset).
  EXPECT_EQ(rec.Times(),
            (std::vector<milliseconds>{milliseconds(0), milliseconds(5), milliseconds(15),
                                       milliseconds(35), milliseconds(65), milliseconds(95),
                                       milliseconds(195), milliseconds(200)}));
  EXPECT_EQ(queue.failures(), 6u);
  EXPECT_EQ(queue.runs(), 8u);
  EXPECT_EQ(queue.pending(), 0u);
  EXPECT_EQ(queue.NextBackoff(K("a")), milliseconds(5));
}

TEST(WorkQueue, BackoffIsPerKey) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", [&](const Key& key) {
    rec.Fn()(key);
    return key.name == "bad" ? ReconcileResult::Error(Status::Internal("x"))
                             : ReconcileResult::Done();
  });
  queue.SetReady(true);
  queue.Add(K("bad"));
  queue.Add(K("good"));
  loop.RunFor(milliseconds(16));  // bad runs at 0, 5, 15
  EXPECT_EQ(rec.Names(), (std::vector<std::string>{"bad", "good", "bad", "bad"}));
  EXPECT_EQ(queue.NextBackoff(K("bad")), milliseconds(40));  // three failures: 5 * 2^3
  EXPECT_EQ(queue.NextBackoff(K("good")), milliseconds(5));
  queue.Stop();
}

TEST(WorkQueue, RequeueAfterAndEarliestPendingTimeWins) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.SetReady(true);
  rec.script = {ReconcileResult::After(seconds(3))};
  queue.Add(K("a"));
  queue.AddAfter(K("b"), seconds(5));
  queue.AddAfter(K("b"), seconds(2));  // earlier: replaces the 5 s timer
  queue.AddAfter(K("b"), seconds(4));  // later: ignored
  EXPECT_EQ(queue.pending(), 2u);
  loop.RunFor(seconds(10));
  EXPECT_EQ(rec.Names(), (std::vector<std::string>{"a", "b", "a"}));
  EXPECT_EQ(rec.Times(),
            (std::vector<milliseconds>{milliseconds(0), milliseconds(2000), milliseconds(3000)}));
}

TEST(WorkQueue, RunsAreHeldUntilReady) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.Add(K("b"));
  queue.Add(K("a"));
  queue.Add(K("b"));
  queue.AddAfter(K("c"), seconds(1));
  loop.RunFor(seconds(2));
  EXPECT_TRUE(rec.runs.empty());
  EXPECT_EQ(queue.pending(), 3u);  // the timer fired into the held list
  queue.SetReady(true);
  loop.RunUntilIdle();
  EXPECT_EQ(rec.Names(), (std::vector<std::string>{"b", "a", "c"}));
  // Closing the gate again holds runs already posted.
  queue.Add(K("d"));
  queue.SetReady(false);
  loop.RunUntilIdle();
  EXPECT_EQ(rec.runs.size(), 3u);
  queue.SetReady(true);
  loop.RunUntilIdle();
  EXPECT_EQ(rec.Names().back(), "d");
}

TEST(WorkQueue, StopMakesPostedTasksNoOps) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.SetReady(true);
  queue.Add(K("a"));
  queue.AddAfter(K("b"), seconds(1));
  queue.Stop();
  queue.Add(K("c"));  // ignored after Stop
  loop.RunFor(seconds(5));
  EXPECT_TRUE(rec.runs.empty());
  EXPECT_EQ(queue.pending(), 0u);
}

TEST(WorkQueue, StopFromInsideAReconcile) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueue queue(&loop, "test", rec.Fn());
  queue.SetReady(true);
  rec.on_run = [&](const Key& key) {
    queue.Add(key);  // would run again, but the queue stops
    queue.Stop();
  };
  rec.script = {ReconcileResult::Error(Status::Internal("x"))};
  queue.Add(K("a"));
  queue.Add(K("b"));
  loop.RunFor(seconds(5));
  EXPECT_EQ(rec.Names(), (std::vector<std::string>{"a"}));
  EXPECT_EQ(queue.failures(), 0u);  // the stopped queue did not handle the result
}

TEST(WorkQueue, MinIntervalMakesChangesShareOneRun) {
  VirtualLoop loop;
  Recorder rec(&loop);
  WorkQueueOptions options;
  options.min_interval = milliseconds(200);
  WorkQueue queue(&loop, "test", rec.Fn(), options);
  queue.SetReady(true);
  queue.Add(K("a"));
  loop.RunFor(milliseconds(50));
  for (int i = 0; i < 5; ++i) {
    queue.Add(K("a"));
    loop.RunFor(milliseconds(20));
  }
  loop.RunFor(seconds(1));
  EXPECT_EQ(rec.Times(), (std::vector<milliseconds>{milliseconds(0), milliseconds(200)}));
  // Once the interval has passed, a change runs at once.
  queue.Add(K("a"));
  loop.RunUntilIdle();
  EXPECT_EQ(rec.Times().back(), milliseconds(1150));
}

// Writes every observer call as a line, with virtual milliseconds since the start.
struct ObserverLog final : WorkQueueObserver {
  explicit ObserverLog(Time start) : start(start) {}
  long long Ms(Time t) const { return std::chrono::duration_cast<milliseconds>(t - start).count(); }
  void Added(const Key& key, Time now) override {
    lines.push_back("add " + key.name + " " + std::to_string(Ms(now)));
  }
  void Started(const Key& key, Time now) override {
    lines.push_back("start " + key.name + " " + std::to_string(Ms(now)));
  }
  void Finished(const Key& key, const ReconcileResult& result, Time started, Time now) override {
    lines.push_back("finish " + key.name + " " + (result.status.ok() ? "ok" : "error") + " " +
                    std::to_string(Ms(now) - Ms(started)));
  }
  void Requeued(const Key& key, Duration delay) override {
    lines.push_back("requeue " + key.name + " " +
                    std::to_string(std::chrono::duration_cast<milliseconds>(delay).count()));
  }
  Time start;
  std::vector<std::string> lines;
};

TEST(WorkQueue, ObserverHearsAddsRunsAndRetries) {
  VirtualLoop loop;
  Recorder rec(&loop);
  ObserverLog log(loop.Now());
  WorkQueueOptions options;
  options.observer = &log;
  WorkQueue queue(&loop, "test", rec.Fn(), options);
  rec.script = {ReconcileResult::Error(Status::Internal("x")), ReconcileResult::After(seconds(1))};
  queue.Add(K("a"));
  queue.Add(K("a"));  // folded into the pending run: no second add
  loop.RunFor(milliseconds(10));
  queue.SetReady(true);  // held until now: the queue latency includes the wait at the gate
  loop.RunFor(seconds(2));
  EXPECT_EQ(log.lines,
            (std::vector<std::string>{"add a 0", "start a 10", "finish a error 0", "requeue a 5",
                                      "add a 15", "start a 15", "finish a ok 0", "requeue a 1000",
                                      "add a 1015", "start a 1015", "finish a ok 0"}));
}

TEST(WorkQueue, ObserverHearsTheOutcomeOfARunThatStopsTheQueue) {
  VirtualLoop loop;
  Recorder rec(&loop);
  ObserverLog log(loop.Now());
  WorkQueueOptions options;
  options.observer = &log;
  WorkQueue queue(&loop, "test", rec.Fn(), options);
  queue.SetReady(true);
  rec.on_run = [&](const Key&) { queue.Stop(); };
  queue.Add(K("a"));
  loop.RunUntilIdle();
  EXPECT_EQ(log.lines, (std::vector<std::string>{"add a 0", "start a 0", "finish a ok 0"}));
}

}  // namespace
}  // namespace lws::runtime
