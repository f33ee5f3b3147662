// File: base/clock.h
//
// All time comes from a Clock (DESIGN.md 2.3). RealClock reads the wall clock and is the only
// place outside cmd/ that may; ManualClock moves only when told, which is what tests and the
// simulator's virtual time use. Times are nanoseconds since the Unix epoch.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/result.h"

namespace lws {

using Duration = std::chrono::nanoseconds;
using Time = std::chrono::time_point<std::chrono::system_clock, Duration>;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time Now() const = 0;
};

// Monotonic time, for intervals of real I/O only (how long a pooled connection sat idle, how long
// a watch stream lasted): it never jumps when the wall clock is set. Simulated components
// measure with their Clock instead.
using MonotonicTime = std::chrono::steady_clock::time_point;
MonotonicTime MonotonicNow();

// Wall clock. Single instance per process is enough; it has no state.
class RealClock final : public Clock {
 public:
  Time Now() const override;
};

// A clock that stands still until Advance or Set moves it. Not thread-safe: owned by one loop.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Time start = Time(std::chrono::seconds(1'700'000'000))) : now_(start) {}
  Time Now() const override { return now_; }
  // REQUIRES: d >= 0; time never goes backwards.
  void Advance(Duration d);
  // REQUIRES: t >= Now().
  void Set(Time t);

 private:
  Time now_;
};

// RFC 3339 with second precision, UTC, as metav1.Time serialises: "2024-01-02T03:04:05Z".
std::string FormatRfc3339(Time t);
// RFC 3339 with microseconds, as metav1.MicroTime serialises: "2024-01-02T03:04:05.123456Z".
std::string FormatRfc3339Micro(Time t);
// Parses RFC 3339 (any fraction, "Z" or a numeric offset).
Result<Time> ParseRfc3339(std::string_view text);

}  // namespace lws
