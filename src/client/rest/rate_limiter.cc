#include "client/rest/rate_limiter.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace lws::rest {
namespace {

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

// Rounds up so that a request never leaves before its token exists: with round-to-nearest a
// request could be sent a fraction of a nanosecond early and the bound burst + qps * window
// would be exceeded by rounding alone.
Duration CeilDuration(double seconds) {
  return Duration(static_cast<Duration::rep>(std::ceil(seconds * 1e9)));
}

}  // namespace

RateLimiter::RateLimiter(double qps, int burst)
    : qps_(qps), burst_(std::max(burst, 1)), unlimited_(!(qps > 0)), tokens_(burst_) {}

void RateLimiter::Advance(Time now) {
  if (!started_) {
    // The bucket starts full at the first request, as a freshly built x/time/rate Limiter does.
    started_ = true;
    last_ = now;
    return;
  }
  if (now <= last_) return;
  tokens_ = std::min<double>(burst_, tokens_ + Seconds(now - last_) * qps_);
  last_ = now;
}

double RateLimiter::TokensAt(Time now) const {
  if (!started_ || now <= last_) return tokens_;
  return std::min<double>(burst_, tokens_ + Seconds(now - last_) * qps_);
}

bool RateLimiter::TryAccept(Time now) {
  if (unlimited_) return true;
  Advance(now);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

Duration RateLimiter::Reserve(Time now) {
  if (unlimited_) return Duration::zero();
  Advance(now);
  tokens_ -= 1;
  if (tokens_ >= 0) return Duration::zero();
  // The debt of -tokens_ is repaid at qps tokens per second; the wait is measured from last_,
  // which is `now` unless the caller's clock went backwards.
  return (last_ - now) + CeilDuration(-tokens_ / qps_);
}

}  // namespace lws::rest
