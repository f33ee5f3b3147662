#include "client/rest/rate_limiter.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace lws::rest {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const Time kStart = Time(seconds(1'700'000'000));

TEST(RateLimiterTest, StartsFullThenRefusesUntilATokenRefills) {
  RateLimiter limiter(/*qps=*/10, /*burst=*/3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.TryAccept(kStart)) << i;
  EXPECT_FALSE(limiter.TryAccept(kStart));
  EXPECT_FALSE(limiter.TryAccept(kStart + milliseconds(99)));
  EXPECT_TRUE(limiter.TryAccept(kStart + milliseconds(100)));
  EXPECT_FALSE(limiter.TryAccept(kStart + milliseconds(100)));
}

TEST(RateLimiterTest, RefillStopsAtBurst) {
  RateLimiter limiter(10, 2);
  EXPECT_TRUE(limiter.TryAccept(kStart));
  EXPECT_DOUBLE_EQ(limiter.TokensAt(kStart + seconds(60)), 2.0);
  EXPECT_TRUE(limiter.TryAccept(kStart + seconds(60)));
  EXPECT_TRUE(limiter.TryAccept(kStart + seconds(60)));
  EXPECT_FALSE(limiter.TryAccept(kStart + seconds(60)));
}

TEST(RateLimiterTest, ReserveQueuesRequestsAtQpsAfterTheBurst) {
  RateLimiter limiter(/*qps=*/4, /*burst=*/2);
  EXPECT_EQ(limiter.Reserve(kStart), Duration::zero());
  EXPECT_EQ(limiter.Reserve(kStart), Duration::zero());
  EXPECT_EQ(limiter.Reserve(kStart), milliseconds(250));
  EXPECT_EQ(limiter.Reserve(kStart), milliseconds(500));
  // 100ms later the debt of two tokens has shrunk by 0.4: the next waits 650ms from then.
  EXPECT_EQ(limiter.Reserve(kStart + milliseconds(100)), milliseconds(650));
  // A reservation in debt makes TryAccept refuse until the debt is repaid.
  EXPECT_FALSE(limiter.TryAccept(kStart + milliseconds(700)));
  EXPECT_TRUE(limiter.TryAccept(kStart + milliseconds(1100)));
}

TEST(RateLimiterTest, NonPositiveQpsIsUnlimited) {
  for (double qps : {0.0, -1.0}) {
    RateLimiter limiter(qps, 1);
    EXPECT_TRUE(limiter.unlimited());
    for (int i = 0; i < 1000; ++i) {
      ASSERT_TRUE(limiter.TryAccept(kStart));
      ASSERT_EQ(limiter.Reserve(kStart), Duration::zero());
    }
  }
}

TEST(RateLimiterTest, BurstBelowOneIsRaisedToOne) {
  RateLimiter limiter(1, 0);
  EXPECT_EQ(limiter.burst(), 1);
  EXPECT_TRUE(limiter.TryAccept(kStart));
  EXPECT_FALSE(limiter.TryAccept(kStart));
}

TEST(RateLimiterTest, ClockGoingBackwardsNeitherRefillsNorShortensWaits) {
  RateLimiter limiter(1, 1);
  EXPECT_TRUE(limiter.TryAccept(kStart + seconds(10)));
  EXPECT_FALSE(limiter.TryAccept(kStart));
  // Measured from the earlier `now`, the token exists 11s later (1s after the latest time seen).
  EXPECT_EQ(limiter.Reserve(kStart), seconds(11));
}

// Each wait is rounded up to a whole nanosecond from the same `now`, so two reserved sends can be
// 1 ns closer than 1/qps (the window property below allows for it).
TEST(RateLimiterTest, ReservedWaitsAreRoundedUpToWholeNanoseconds) {
  RateLimiter limiter(1512, 1);  // 1/qps = 661,375.66 ns
  EXPECT_TRUE(limiter.TryAccept(kStart));
  EXPECT_EQ(limiter.Reserve(kStart), std::chrono::nanoseconds(661'376));
  EXPECT_EQ(limiter.Reserve(kStart), std::chrono::nanoseconds(1'322'752));
  EXPECT_EQ(limiter.Reserve(kStart), std::chrono::nanoseconds(1'984'127));  // 661,375 ns later
}

struct Step {
  Duration gap;  // time since the previous request
  bool reserve;  // Reserve (wait if needed) rather than TryAccept
};

// Times at which requests were actually sent: TryAccept's accepted calls, Reserve's now + wait.
std::vector<Time> SendTimes(RateLimiter& limiter, const std::vector<Step>& steps) {
  std::vector<Time> sent;
  Time now = kStart;
  for (const Step& step : steps) {
    now += step.gap;
    if (step.reserve) {
      Duration wait = limiter.Reserve(now);
      RC_ASSERT(wait >= Duration::zero());
      sent.push_back(now + wait);
    } else if (limiter.TryAccept(now)) {
      sent.push_back(now);
    }
  }
  std::sort(sent.begin(), sent.end());
  return sent;
}

// The token bucket's contract: over any closed window [a, b], at most burst + qps * (b - a)
// requests are sent. Checking every window that starts and ends on a send is enough, since a
// window's count only changes at sends.
RC_GTEST_PROP(RateLimiterProperty, NoWindowExceedsBurstPlusRate, ()) {
  const double qps = *rc::gen::inRange(1, 20000) / 10.0;
  const int burst = *rc::gen::inRange(1, 40);
  const auto gaps_ns = *rc::gen::container<std::vector<std::int64_t>>(rc::gen::oneOf(
      rc::gen::just<std::int64_t>(0), rc::gen::inRange<std::int64_t>(0, 2'000'000'000)));
  const auto kinds =
      *rc::gen::container<std::vector<bool>>(gaps_ns.size(), rc::gen::arbitrary<bool>());
  std::vector<Step> steps;
  for (std::size_t i = 0; i < gaps_ns.size(); ++i)
    steps.push_back({Duration(gaps_ns[i]), kinds[i]});

  RateLimiter limiter(qps, burst);
  std::vector<Time> sent = SendTimes(limiter, steps);
  // Send times are whole nanoseconds, each rounded up from the exact time by under 1 ns, so a
  // window between two of them can be up to 1 ns shorter than the exact one (at 1,512 qps, two
  // reserved sends 661,375 ns apart where 1/qps is 661,375.66 ns).
  const double rounding = qps * 1e-9;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    for (std::size_t j = i; j < sent.size(); ++j) {
      double window_s = std::chrono::duration<double>(sent[j] - sent[i]).count();
      double count = static_cast<double>(j - i + 1);
      RC_ASSERT(count <= burst + qps * window_s + rounding + 1e-6);
    }
  }
}

// Every Reserve is granted and the limiter does not starve: a request reserved after a pause of
// burst/qps seconds or more is sent at once.
RC_GTEST_PROP(RateLimiterProperty, APauseRefillsTheWholeBurst, ()) {
  const double qps = *rc::gen::inRange(1, 1000) * 1.0;
  const int burst = *rc::gen::inRange(1, 20);
  const int before = *rc::gen::inRange(0, 100);
  RateLimiter limiter(qps, burst);
  Duration last_wait{};
  for (int i = 0; i < before; ++i) last_wait = limiter.Reserve(kStart);
  Time later = kStart + last_wait +
               std::chrono::duration_cast<Duration>(std::chrono::duration<double>(burst / qps)) +
               seconds(1);
  for (int i = 0; i < burst; ++i) RC_ASSERT(limiter.Reserve(later) == Duration::zero());
}

}  // namespace
}  // namespace lws::rest
