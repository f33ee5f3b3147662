#include "client/rest/retry_policy.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <chrono>

namespace lws::rest {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(RetryPolicyTest, WhichOutcomesAreRetried) {
  struct Case {
    const char* method;
    AttemptOutcome outcome;
    bool want;
  };
  const Case cases[] = {
      {"POST", AttemptOutcome::Http(429), true},
      {"PATCH", AttemptOutcome::Http(429, "3"), true},
      {"GET", AttemptOutcome::Http(500), true},
      {"GET", AttemptOutcome::Http(503), true},
      {"PUT", AttemptOutcome::Http(504), true},
      {"DELETE", AttemptOutcome::Http(502), true},
      {"GET", AttemptOutcome::Http(501), false},
      {"GET", AttemptOutcome::Http(505), false},
      {"POST", AttemptOutcome::Http(503), false},
      {"PATCH", AttemptOutcome::Http(500), false},
      {"GET", AttemptOutcome::Http(404), false},
      {"GET", AttemptOutcome::Http(409), false},
      {"GET", AttemptOutcome::Http(410), false},  // a watch re-lists after 410; not a retry
      {"GET", AttemptOutcome::ConnectionError("connection reset by peer"), true},
      {"HEAD", AttemptOutcome::ConnectionError("EOF"), true},
      {"PUT", AttemptOutcome::ConnectionError("EOF"), false},
      {"POST", AttemptOutcome::ConnectionError("EOF"), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RetryPolicy::IsRetryable(c.method, c.outcome), c.want)
        << c.method << " " << c.outcome.http_code << " " << c.outcome.connection_error;
  }
}

TEST(RetryPolicyTest, HonoursRetryAfterAndSaysWhy) {
  RetryPolicy policy(RetryPolicy::Options{}, Rng(1));
  RetryDecision d = policy.Decide({"GET", "/api/v1/pods"}, AttemptOutcome::Http(429, "2"), 1);
  EXPECT_TRUE(d.retry);
  EXPECT_EQ(d.delay, seconds(2));
  EXPECT_EQ(d.message,
            "retrying GET /api/v1/pods after 429 TooManyRequests in 2s (attempt 2 of 10)");
}

TEST(RetryPolicyTest, RetryAfterIsBoundedAndNeverNegative) {
  RetryPolicy::Options options;
  options.max_retry_after = seconds(60);
  RetryPolicy policy(options, Rng(1));
  EXPECT_EQ(policy.Decide({"GET", "/x"}, AttemptOutcome::Http(503, "3600"), 1).delay, seconds(60));
  EXPECT_EQ(policy.Decide({"GET", "/x"}, AttemptOutcome::Http(503, "-5"), 1).delay,
            Duration::zero());
}

TEST(RetryPolicyTest, ConnectionErrorsBackOffExponentially) {
  RetryPolicy::Options options;
  options.jitter = 0;
  RetryPolicy policy(options, Rng(1));
  RetryRequest watch{"GET", "/apis/leaderworkerset.x-k8s.io/v1/leaderworkersets?watch=true"};
  auto eof = AttemptOutcome::ConnectionError("EOF");
  EXPECT_EQ(policy.Decide(watch, eof, 1).delay, milliseconds(500));
  EXPECT_EQ(policy.Decide(watch, eof, 2).delay, seconds(1));
  EXPECT_EQ(policy.Decide(watch, eof, 4).delay, seconds(4));
  EXPECT_EQ(policy.Decide(watch, eof, 9).delay, seconds(30));  // 128s capped
  EXPECT_EQ(policy.Decide(watch, eof, 3).message,
            "retrying GET /apis/leaderworkerset.x-k8s.io/v1/leaderworkersets?watch=true after "
            "connection error (EOF) in 2s (attempt 4 of 10)");
}

TEST(RetryPolicyTest, GivesUpAfterMaxAttempts) {
  RetryPolicy::Options options;
  options.max_attempts = 3;
  RetryPolicy policy(options, Rng(1));
  EXPECT_TRUE(policy.Decide({"GET", "/x"}, AttemptOutcome::Http(503), 2).retry);
  RetryDecision d = policy.Decide({"GET", "/x"}, AttemptOutcome::Http(503), 3);
  EXPECT_FALSE(d.retry);
  EXPECT_EQ(d.message, "giving up on GET /x after 503 ServiceUnavailable (attempt 3 of 3)");
  RetryDecision post = policy.Decide({"POST", "/x"}, AttemptOutcome::Http(500), 1);
  EXPECT_FALSE(post.retry);
  EXPECT_EQ(post.message, "not retrying POST /x after 500 InternalError");
}

TEST(RetryPolicyTest, JitterIsDeterministicPerSeed) {
  RetryPolicy a(RetryPolicy::Options{}, Rng(42).Derive("rest-retry"));
  RetryPolicy b(RetryPolicy::Options{}, Rng(42).Derive("rest-retry"));
  RetryPolicy c(RetryPolicy::Options{}, Rng(43).Derive("rest-retry"));
  bool any_differs = false;
  for (int attempt = 1; attempt <= 5; ++attempt) {
    Duration da = a.Backoff(attempt);
    EXPECT_EQ(da, b.Backoff(attempt));
    any_differs |= da != c.Backoff(attempt);
  }
  EXPECT_TRUE(any_differs);
}

TEST(RetryAfterTest, ParsesAsAtoi) {
  EXPECT_EQ(ParseRetryAfterSeconds("2"), 2);
  EXPECT_EQ(ParseRetryAfterSeconds("+7"), 7);
  EXPECT_EQ(ParseRetryAfterSeconds("-1"), -1);
  for (const char* bad :
       {"", " 2", "2s", "1.5", "Wed, 21 Oct 2015 07:28:00 GMT", "-", "9999999999999999999"}) {
    EXPECT_EQ(ParseRetryAfterSeconds(bad), std::nullopt) << bad;
  }
}

// Without Retry-After the delay of attempt n lies in [d, min(cap, d * (1 + jitter))] where
// d = min(cap, base * 2^(n-1)).
RC_GTEST_PROP(RetryPolicyProperty, BackoffStaysWithinItsBounds, (std::uint64_t seed)) {
  RetryPolicy::Options options;
  options.base = milliseconds(*rc::gen::inRange(1, 2000));
  options.cap = seconds(*rc::gen::inRange(1, 120));
  options.jitter = *rc::gen::inRange(0, 100) / 100.0;
  const int attempt = *rc::gen::inRange(1, 80);
  RetryPolicy policy(options, Rng(seed));
  Duration d = options.base;
  for (int i = 1; i < attempt && d < options.cap; ++i) d *= 2;
  d = std::min(d, options.cap);
  Duration got = policy.Backoff(attempt);
  RC_ASSERT(got >= d);
  RC_ASSERT(got <= options.cap);
  RC_ASSERT(got.count() <= static_cast<double>(d.count()) * (1 + options.jitter) + 1);
}

}  // namespace
}  // namespace lws::rest
