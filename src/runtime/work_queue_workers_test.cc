// The work queue with reconcile workers (WorkQueueOptions::workers) on a real-clock loop: keys
// run in parallel, one key never twice at once, and an Add during a run makes one more run.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <string>

#include "base/event_loop.h"
#include "runtime/work_queue.h"

namespace lws::runtime {
namespace {

constexpr auto kWait = std::chrono::seconds(30);

Key K(const std::string& name) { return {"default", name}; }

// Runs `fn` on the loop's thread and waits for it: the queue is loop-only.
void OnLoop(RealEventLoop* loop, std::function<void()> fn) {
  std::promise<void> done;
  loop->Post([&] {
    fn();
    done.set_value();
  });
  ASSERT_EQ(done.get_future().wait_for(kWait), std::future_status::ready);
}

// Counts runs per key and the most reconciles seen at once, per key and overall.
struct Concurrency {
  void Enter(const Key& key) {
    std::lock_guard<std::mutex> lock(mu);
    max_total = std::max(max_total, ++running_total);
    max_per_key[key.name] = std::max(max_per_key[key.name], ++running[key.name]);
    ++runs[key.name];
  }
  void Leave(const Key& key) {
    std::lock_guard<std::mutex> lock(mu);
    --running_total;
    --running[key.name];
  }
  std::mutex mu;
  int running_total = 0, max_total = 0;
  std::map<std::string, int> running, max_per_key, runs;
};

TEST(WorkQueueWorkers, KeysOverlapButOneKeyNeverRunsTwiceAtOnce) {
  RealEventLoop loop;
  Concurrency seen;
  std::promise<void> a_started, b_done, a_again;
  std::promise<void> release_a;
  std::shared_future<void> released = release_a.get_future().share();
  WorkQueueOptions options;
  options.workers = 3;
  ConcurrentReads reads;
  options.reads = &reads;
  WorkQueue queue(
      &loop, "test",
      [&](const Key& key) {
        seen.Enter(key);
        int run = 0;
        {
          std::lock_guard<std::mutex> lock(seen.mu);
          run = seen.runs[key.name];
        }
        // Each run holds a Reader: a's first alone, b next to the blocked a. a's second run may
        // start before b's worker has let go of its Reader (b signals from inside its run).
        if (key.name == "a" && run == 2) {
          EXPECT_GE(reads.readers(), 1u);
        } else {
          EXPECT_EQ(reads.readers(), key.name == "a" ? 1u : 2u);
        }
        if (key.name == "a" && run == 1) {
          a_started.set_value();
          released.wait();  // a blocks until b has run next to it
        }
        seen.Leave(key);
        if (key.name == "b") b_done.set_value();
        if (key.name == "a" && run == 2) a_again.set_value();
        return ReconcileResult::Done();
      },
      options);
  OnLoop(&loop, [&] {
    queue.SetReady(true);
    queue.Add(K("a"));
  });
  ASSERT_EQ(a_started.get_future().wait_for(kWait), std::future_status::ready);
  OnLoop(&loop, [&] {
    queue.Add(K("a"));  // a is running: marked dirty, not handed to a second worker
    queue.Add(K("a"));
    queue.Add(K("b"));
  });
  ASSERT_EQ(b_done.get_future().wait_for(kWait), std::future_status::ready);  // while a blocks
  release_a.set_value();
  ASSERT_EQ(a_again.get_future().wait_for(kWait), std::future_status::ready);
  OnLoop(&loop, [&] { queue.Stop(); });
  loop.Stop();
  std::lock_guard<std::mutex> lock(seen.mu);
  EXPECT_EQ(seen.runs["a"], 2);  // two Adds while running made exactly one more run
  EXPECT_EQ(seen.runs["b"], 1);
  EXPECT_EQ(seen.max_per_key["a"], 1);
  EXPECT_EQ(seen.max_total, 2);
  EXPECT_EQ(reads.readers(), 0u);
}

// Hears outcomes: they must arrive on the loop's thread.
struct FinishLog : WorkQueueObserver {
  void Added(const Key&, Time) override {}
  void Started(const Key&, Time) override {}
  void Requeued(const Key&, Duration) override {}
  void Finished(const Key&, const ReconcileResult& result, Time, Time) override {
    on_loop = on_loop && std::this_thread::get_id() == loop_thread;
    outcomes += result.status.ok() ? "ok " : "error ";
    if (++finished == 2) second.set_value();
  }
  std::thread::id loop_thread;
  bool on_loop = true;
  std::string outcomes;
  int finished = 0;
  std::promise<void> second;
};

TEST(WorkQueueWorkers, FailuresBackOffAndResultsReturnToTheLoop) {
  RealEventLoop loop;
  std::atomic<int> runs{0};
  FinishLog log;
  OnLoop(&loop, [&] { log.loop_thread = std::this_thread::get_id(); });
  WorkQueueOptions options;
  options.workers = 2;
  options.base_delay = std::chrono::milliseconds(1);
  options.observer = &log;
  std::atomic<bool> on_worker{true};
  WorkQueue queue(
      &loop, "test",
      [&](const Key&) {
        if (std::this_thread::get_id() == log.loop_thread) on_worker = false;
        if (++runs == 1) return ReconcileResult::Error(Status::Internal("first try fails"));
        return ReconcileResult::Done();
      },
      options);
  OnLoop(&loop, [&] {
    queue.SetReady(true);
    queue.Add(K("a"));
  });
  ASSERT_EQ(log.second.get_future().wait_for(kWait), std::future_status::ready);
  OnLoop(&loop, [&] {
    EXPECT_EQ(queue.failures(), 1u);
    EXPECT_EQ(queue.pending(), 0u);
    // The success was booked too: the backoff starts from the base again.
    EXPECT_EQ(queue.NextBackoff(K("a")), std::chrono::milliseconds(1));
    queue.Stop();
  });
  EXPECT_EQ(runs.load(), 2);
  EXPECT_TRUE(on_worker);
  EXPECT_TRUE(log.on_loop);
  EXPECT_EQ(log.outcomes, "error ok ");
}

}  // namespace
}  // namespace lws::runtime
