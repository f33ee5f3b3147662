#include "api/go_duration.h"

#include <cstdint>
#include <optional>

#include "api/field.h"

namespace lws::api {
namespace {

constexpr std::uint64_t kMaxNanos = std::uint64_t{1} << 63;  // |int64 min|

Status Invalid(std::string_view orig) {
  return Status::BadRequest("time: invalid duration " + api::GoQuote(orig));
}

std::optional<std::uint64_t> UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1'000;  // us, µs, μs
  if (unit == "ms") return 1'000'000;
  if (unit == "s") return 1'000'000'000;
  if (unit == "m") return 60'000'000'000;
  if (unit == "h") return 3'600'000'000'000;
  return std::nullopt;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Leading decimal digits of `s` into *value (saturating at overflow, reported by *overflow).
std::size_t LeadingInt(std::string_view s, std::uint64_t* value, bool* overflow) {
  std::size_t i = 0;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    if (*overflow) continue;
    if (*value > kMaxNanos / 10) {
      *overflow = true;
      continue;
    }
    *value = *value * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (*value > kMaxNanos) *overflow = true;
  }
  return i;
}

// Fraction digits of `s`: *frac / *scale, digits beyond uint64 precision dropped as Go does.
std::size_t LeadingFraction(std::string_view s, std::uint64_t* frac, double* scale) {
  std::size_t i = 0;
  bool overflow = false;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    if (overflow) continue;
    if (*frac > (kMaxNanos - 1) / 10) {
      overflow = true;
      continue;
    }
    *frac = *frac * 10 + static_cast<std::uint64_t>(s[i] - '0');
    *scale *= 10;
  }
  return i;
}

// One "<number><unit>" term at the front of *rest, added to *total.
Status ParseTerm(std::string_view orig, std::string_view* rest, std::uint64_t* total) {
  std::string_view s = *rest;
  if (s.empty() || !(s[0] == '.' || IsDigit(s[0]))) return Invalid(orig);
  std::uint64_t whole = 0;
  bool overflow = false;
  std::size_t n = LeadingInt(s, &whole, &overflow);
  if (overflow) return Invalid(orig);
  bool has_whole = n > 0;
  s.remove_prefix(n);
  std::uint64_t frac = 0;
  double scale = 1;
  bool has_frac = false;
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    std::size_t f = LeadingFraction(s, &frac, &scale);
    has_frac = f > 0;
    s.remove_prefix(f);
  }
  if (!has_whole && !has_frac) return Invalid(orig);  // "." or ".s"
  std::size_t u = 0;
  while (u < s.size() && s[u] != '.' && !IsDigit(s[u])) ++u;
  if (u == 0) return Status::BadRequest("time: missing unit in duration " + api::GoQuote(orig));
  std::string_view unit = s.substr(0, u);
  auto unit_ns = UnitNanos(unit);
  if (!unit_ns) {
    return Status::BadRequest("time: unknown unit " + api::GoQuote(unit) + " in duration " +
                              api::GoQuote(orig));
  }
  if (whole > kMaxNanos / *unit_ns) return Invalid(orig);
  std::uint64_t value = whole * *unit_ns;
  if (frac > 0) {
    value += static_cast<std::uint64_t>(static_cast<double>(frac) *
                                        (static_cast<double>(*unit_ns) / scale));
    if (value > kMaxNanos) return Invalid(orig);
  }
  *total += value;
  if (*total > kMaxNanos) return Invalid(orig);
  *rest = s.substr(u);
  return Status::Ok();
}

// `whole` with `frac` as `digits` fraction digits, trailing zeros dropped (Go's fmtFrac).
std::string WithFraction(std::uint64_t whole, std::uint64_t frac, int digits) {
  std::string text = std::to_string(whole);
  if (frac == 0) return text;
  std::string f = std::to_string(frac);
  f.insert(0, static_cast<std::size_t>(digits) - f.size(), '0');
  while (f.back() == '0') f.pop_back();
  return text + "." + f;
}

std::string FormatNanos(std::uint64_t ns) {
  if (ns < 1'000) return std::to_string(ns) + "ns";
  if (ns < 1'000'000) return WithFraction(ns / 1'000, ns % 1'000, 3) + "\xC2\xB5s";
  if (ns < 1'000'000'000) return WithFraction(ns / 1'000'000, ns % 1'000'000, 6) + "ms";
  std::uint64_t seconds = ns / 1'000'000'000;
  std::string text = WithFraction(seconds % 60, ns % 1'000'000'000, 9) + "s";
  std::uint64_t minutes = seconds / 60;
  if (minutes == 0) return text;
  text = std::to_string(minutes % 60) + "m" + text;
  std::uint64_t hours = minutes / 60;
  return hours == 0 ? text : std::to_string(hours) + "h" + text;
}

}  // namespace

std::string FormatGoDuration(Duration d) {
  if (d == Duration::zero()) return "0s";
  std::int64_t n = d.count();
  // Negating int64 min overflows; its magnitude still fits in uint64.
  if (n < 0) return "-" + FormatNanos(static_cast<std::uint64_t>(-(n + 1)) + 1);
  return FormatNanos(static_cast<std::uint64_t>(n));
}

Result<Duration> ParseGoDuration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return Duration::zero();
  if (s.empty()) return Invalid(text);
  std::uint64_t total = 0;
  while (!s.empty()) RETURN_IF_ERROR(ParseTerm(text, &s, &total));
  if (negative) return Duration(static_cast<std::int64_t>(-static_cast<__int128>(total)));
  if (total > kMaxNanos - 1) return Invalid(text);
  return Duration(static_cast<std::int64_t>(total));
}

}  // namespace lws::api
