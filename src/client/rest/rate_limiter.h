// File: client/rest/rate_limiter.h
//
// Client-side rate limiting of requests to the API server, as client-go's
// flowcontrol.NewTokenBucketRateLimiter(qps, burst) does it (a golang.org/x/time/rate Limiter
// underneath): a bucket holds at most `burst` tokens, starts full, and refills continuously at
// `qps` tokens per second. A request either takes a token now (TryAccept) or reserves the next
// one and learns how long to wait before sending (Reserve), which is what client-go's blocking
// Accept/Wait amounts to. Reservations may drive the bucket below zero: each later request then
// waits behind the earlier ones, so requests leave in reservation order at most `qps` per second.
//
// The limiter reads no clock: every call takes `now`, so the transport passes loop->Now() and
// tests pass virtual time. A `now` earlier than a previous call's is treated as that earlier
// time (the bucket never refills backwards), as x/time/rate does.
//
//   RateLimiter limiter(/*qps=*/500, /*burst=*/500);
//   Duration wait = limiter.Reserve(loop->Now());   // 0: send now; else send after `wait`.
#pragma once

#include "base/clock.h"

namespace lws::rest {

class RateLimiter {
 public:
  // qps <= 0 (or NaN) means unlimited: every request is accepted at once. This follows the brief
  // and client-go's rest.Config for a negative QPS; client-go turns a QPS of exactly 0 into its
  // default of 5 before building the limiter, which is the caller's business (config defaults).
  // A burst below 1 is raised to 1: x/time/rate with burst 0 would refuse every request forever.
  RateLimiter(double qps, int burst);

  // Takes a token if one is available at `now`; never waits, never goes into debt.
  bool TryAccept(Time now);

  // Takes a token, possibly one not yet refilled, and returns how long after `now` the request
  // may be sent (0 when a token was free). Every call is granted; waits grow with the debt.
  Duration Reserve(Time now);

  // Tokens available at `now` (negative while reservations are outstanding). For tests and
  // diagnostics; does not change the state.
  double TokensAt(Time now) const;

  double qps() const { return qps_; }
  int burst() const { return burst_; }
  bool unlimited() const { return unlimited_; }

 private:
  // Refills the bucket up to `now` and moves last_ forward (never backward).
  void Advance(Time now);

  double qps_;
  int burst_;
  bool unlimited_;
  double tokens_;
  Time last_{};
  bool started_ = false;
};

}  // namespace lws::rest
