#include "base/clock.h"

#include <cstdio>
#include <ctime>

namespace lws {

MonotonicTime MonotonicNow() { return std::chrono::steady_clock::now(); }

Time RealClock::Now() const {
  return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
}

void ManualClock::Advance(Duration d) {
  LWS_ASSERT(d.count() >= 0, "time never goes backwards");
  now_ += d;
}

void ManualClock::Set(Time t) {
  LWS_ASSERT(t >= now_, "time never goes backwards");
  now_ = t;
}

namespace {

// "2006-01-02T15:04:05" for the second `tt`. A write stamps its time several times (managedFields
// entries, events, conditions) and simulated writes crowd into few seconds, so each thread keeps
// the last second it formatted instead of calling strftime again.
const std::string& SecondsText(std::time_t tt) {
  thread_local std::time_t last = 0;
  thread_local std::string text;
  if (text.empty() || tt != last) {
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[64];
    text.assign(buf, std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm));
    last = tt;
  }
  return text;
}

std::string FormatWith(Time t, int fraction_digits) {
  auto secs = std::chrono::floor<std::chrono::seconds>(t);
  auto nanos = (t - secs).count();
  std::string out = SecondsText(secs.time_since_epoch().count());
  char buf[64];
  if (fraction_digits == 6) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(nanos / 1000));
    out += buf;
  }
  out += 'Z';
  return out;
}

bool ReadDigits(std::string_view s, std::size_t pos, std::size_t count, int* out) {
  if (pos + count > s.size()) return false;
  int v = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::string FormatRfc3339(Time t) { return FormatWith(t, 0); }
std::string FormatRfc3339Micro(Time t) { return FormatWith(t, 6); }

Result<Time> ParseRfc3339(std::string_view s) {
  auto bad = [&] { return Status::BadRequest("invalid RFC 3339 time \"" + std::string(s) + "\""); };
  int year, month, day, hour, minute, second;
  if (!ReadDigits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' || !ReadDigits(s, 5, 2, &month) ||
      s[7] != '-' || !ReadDigits(s, 8, 2, &day) || (s[10] != 'T' && s[10] != 't') ||
      !ReadDigits(s, 11, 2, &hour) || s[13] != ':' || !ReadDigits(s, 14, 2, &minute) ||
      s[16] != ':' || !ReadDigits(s, 17, 2, &second)) {
    return bad();
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return bad();
  }
  // Time counts nanoseconds in 64 bits, from late 1677 to early 2262. Go reads years up to 9999;
  // a time this server cannot hold is refused rather than overflowed.
  if (year < 1678 || year > 2261) {
    return Status::BadRequest("RFC 3339 time \"" + std::string(s) +
                              "\" is outside the years 1678 to 2261 this server can hold");
  }
  std::size_t pos = 19;
  std::int64_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::int64_t scale = 100'000'000;
    std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      nanos += (s[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) return bad();
  }
  int offset_minutes = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!ReadDigits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !ReadDigits(s, pos + 4, 2, &om)) {
      return bad();
    }
    offset_minutes = (oh * 60 + om) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != s.size()) return bad();
  using namespace std::chrono;
  year_month_day ymd{std::chrono::year(year), std::chrono::month(month), std::chrono::day(day)};
  if (!ymd.ok()) return bad();
  sys_days days(ymd);
  Time t = time_point_cast<Duration>(days) + hours(hour) + minutes(minute) + seconds(second) +
           nanoseconds(nanos) - minutes(offset_minutes);
  return t;
}

}  // namespace lws
