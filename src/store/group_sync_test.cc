// Group commit (group_sync.h): writers that commit while a flush runs share the next one; a
// writer is never released by a flush that began before its write; a failed flush is sticky.
#include "store/group_sync.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <optional>
#include <thread>
#include <vector>

namespace lws::store {
namespace {

// A flush that blocks until the test lets it go, counting how many began.
class GatedFlush {
 public:
  Status operator()() {
    std::unique_lock lock(mu_);
    ++began_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_ > 0; });
    --open_;
    return result_;
  }
  void Release(int n = 1) {
    std::lock_guard lock(mu_);
    open_ += n;
    changed_.notify_all();
  }
  void WaitBegan(int n) {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return began_ >= n; });
  }
  void Fail(Status s) {
    std::lock_guard lock(mu_);
    result_ = std::move(s);
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int began_ = 0;
  int open_ = 0;
  Status result_;
};

TEST(GroupSync, WritersDuringAFlushShareTheNextOne) {
  GatedFlush gate;
  GroupSync sync([&] { return gate(); });
  sync.Written(1);
  auto first = std::async(std::launch::async, [&] { return sync.AwaitDurable(1); });
  gate.WaitBegan(1);  // the first flush covers write 1 only
  std::vector<std::future<Status>> later;
  for (std::uint64_t seq = 2; seq <= 9; ++seq) {
    sync.Written(seq);
    later.push_back(
        std::async(std::launch::async, [&sync, seq] { return sync.AwaitDurable(seq); }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let them all wait
  for (auto& f : later) {
    EXPECT_EQ(f.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
        << "a write was acknowledged by a flush that began before it";
  }
  gate.Release();
  EXPECT_TRUE(first.get().ok());
  gate.WaitBegan(2);  // one flush for the eight that waited
  gate.Release();
  for (auto& f : later) EXPECT_TRUE(f.get().ok());
  EXPECT_EQ(sync.flushes(), 2u);
}

TEST(GroupSync, ADurableWriteDoesNotFlushAgain) {
  std::atomic<int> flushes = 0;
  GroupSync sync([&] {
    ++flushes;
    return Status::Ok();
  });
  sync.Written(3);
  EXPECT_TRUE(sync.AwaitDurable(2).ok());
  EXPECT_TRUE(sync.AwaitDurable(3).ok());  // covered by the flush that 2 asked for
  EXPECT_EQ(flushes.load(), 1);
}

TEST(GroupSync, AFailedFlushIsSticky) {
  GatedFlush gate;
  GroupSync sync([&] { return gate(); });
  gate.Fail(Status::Internal("fsync: Input/output error"));
  gate.Release(5);
  sync.Written(1);
  EXPECT_EQ(sync.AwaitDurable(1).message(), "fsync: Input/output error");
  sync.Written(2);
  EXPECT_FALSE(sync.AwaitDurable(2).ok());  // nothing after a failed fsync can be promised
  EXPECT_FALSE(sync.failed().ok());
  EXPECT_EQ(sync.flushes(), 1u);
}

// A writer that leaves a callback is released by the same shared flush as one that blocks, and
// only by a flush that began after its write; the callback does not hold the writer's thread.
TEST(GroupSync, ACallbackIsReleasedByTheNextFlushWithoutAThread) {
  GatedFlush gate;
  GroupSync sync([&] { return gate(); });
  sync.Written(1);
  auto first = std::async(std::launch::async, [&] { return sync.AwaitDurable(1); });
  gate.WaitBegan(1);  // covers write 1 only
  std::atomic<int> released = 0;
  for (std::uint64_t seq = 2; seq <= 9; ++seq) {
    sync.Written(seq);
    sync.OnDurable(seq, [&](Status s) {
      EXPECT_TRUE(s.ok());
      ++released;
    });  // returns at once: the loop runs on while the flush is held
  }
  gate.Release();
  EXPECT_TRUE(first.get().ok());
  EXPECT_EQ(released.load(), 0) << "a callback was released by a flush that began before its write";
  gate.WaitBegan(2);
  gate.Release();
  for (int i = 0; i < 1000 && released.load() < 8; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(released.load(), 8);
  EXPECT_EQ(sync.flushes(), 2u);
}

TEST(GroupSync, ACallbackForADurableWriteRunsAtOnceAndAFailedFlushReleasesWithItsError) {
  GatedFlush gate;
  GroupSync sync([&] { return gate(); });
  sync.Written(1);
  gate.Release();
  ASSERT_TRUE(sync.AwaitDurable(1).ok());
  bool ran_here = false;
  sync.OnDurable(1, [&](Status s) { ran_here = s.ok(); });
  EXPECT_TRUE(ran_here);

  gate.Fail(Status::Internal("fsync: Input/output error"));
  sync.Written(2);
  std::promise<Status> second;
  sync.OnDurable(2, [&](Status s) { second.set_value(std::move(s)); });
  gate.Release();
  EXPECT_EQ(second.get_future().get().message(), "fsync: Input/output error");
  std::optional<Status> third;
  sync.OnDurable(3, [&](Status s) { third = std::move(s); });  // sticky: answered here
  ASSERT_TRUE(third.has_value());
  EXPECT_FALSE(third->ok());
}

// Destroying the store's GroupSync flushes what callbacks still wait for and runs them.
TEST(GroupSync, DestructionFlushesAndReleasesWaitingCallbacks) {
  std::atomic<int> flushes = 0;
  bool released = false;
  {
    GatedFlush gate;
    gate.Release(2);
    GroupSync sync([&] {
      ++flushes;
      return gate();
    });
    sync.Written(1);
    sync.OnDurable(1, [&](Status s) { released = s.ok(); });
  }
  EXPECT_TRUE(released);
  EXPECT_GE(flushes.load(), 1);
}

}  // namespace
}  // namespace lws::store
