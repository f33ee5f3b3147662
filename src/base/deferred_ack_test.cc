// DeferredAck (deferred_ack.h): outside a scope nothing is deferred; inside one, waiters are
// collected, chained in order, and the first error releases at once.
#include "base/deferred_ack.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace lws {
namespace {

// A waiter that records its start and keeps its release for the test to call.
struct HeldWaiter {
  std::vector<std::string>* log;
  std::string name;
  DeferredAck::Release* held;
  void operator()(DeferredAck::Release release) const {
    log->push_back(name);
    *held = std::move(release);
  }
};

TEST(DeferredAck, OutsideAScopeTheCallerMustWait) {
  bool called = false;
  EXPECT_FALSE(DeferredAck::Defer([&](DeferredAck::Release) { called = true; }));
  EXPECT_FALSE(called);
}

TEST(DeferredAck, AScopeBelongsToItsThread) {
  DeferredAck scope;
  bool deferred_elsewhere = true;
  std::thread([&] { deferred_elsewhere = DeferredAck::Defer([](DeferredAck::Release) {}); }).join();
  EXPECT_FALSE(deferred_elsewhere);
  EXPECT_FALSE(scope.Take());
}

TEST(DeferredAck, TwoWaitersReleaseInOrderOnceBothAreDone) {
  std::vector<std::string> started;
  DeferredAck::Release first_release, second_release;
  DeferredAck scope;
  EXPECT_TRUE(DeferredAck::Defer(HeldWaiter{&started, "first", &first_release}));
  EXPECT_TRUE(DeferredAck::Defer(HeldWaiter{&started, "second", &second_release}));
  DeferredAck::Waiter waiter = scope.Take();
  ASSERT_TRUE(waiter);
  EXPECT_FALSE(scope.Take()) << "Take hands the waiters over once";

  std::optional<Status> result;
  waiter([&](Status s) { result = std::move(s); });
  EXPECT_EQ(started, std::vector<std::string>{"first"});
  first_release(Status::Ok());
  EXPECT_EQ(started, (std::vector<std::string>{"first", "second"}));
  EXPECT_FALSE(result.has_value());
  second_release(Status::Ok());
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(result->ok());
}

TEST(DeferredAck, TheFirstErrorReleasesWithoutStartingTheRest) {
  std::vector<std::string> started;
  DeferredAck::Release first_release, second_release;
  DeferredAck scope;
  DeferredAck::Defer(HeldWaiter{&started, "first", &first_release});
  DeferredAck::Defer(HeldWaiter{&started, "second", &second_release});
  std::optional<Status> result;
  scope.Take()([&](Status s) { result = std::move(s); });
  first_release(Status::Internal("fsync: Input/output error"));
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->message(), "fsync: Input/output error");
  EXPECT_EQ(started, std::vector<std::string>{"first"});
}

TEST(DeferredAck, TheInnermostScopeCollectsAndClosingRestoresTheOuter) {
  DeferredAck outer;
  {
    DeferredAck inner;
    DeferredAck::Defer([](DeferredAck::Release release) { release(Status::Ok()); });
    EXPECT_TRUE(inner.Take());
  }
  EXPECT_FALSE(outer.Take());
  EXPECT_TRUE(DeferredAck::Defer([](DeferredAck::Release release) { release(Status::Ok()); }));
  EXPECT_TRUE(outer.Take());
}

}  // namespace
}  // namespace lws
