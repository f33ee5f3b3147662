#include "api/intstr.h"

#include <cmath>
#include <limits>

#include "api/field.h"

namespace lws::api {

Result<std::int64_t> GoAtoi(std::string_view text) {
  auto fail = [&](std::string_view why) {
    return Status::BadRequest("strconv.Atoi: parsing " + GoQuote(text) + ": " + std::string(why));
  };
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return fail("invalid syntax");
  // As strconv.ParseUint: characters are checked in order, so the first problem wins ("9x" is a
  // syntax error, a uint64 overflow before a bad character is a range error).
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t magnitude = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return fail("invalid syntax");
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (kMax - digit) / 10) return fail("value out of range");
    magnitude = magnitude * 10 + digit;
  }
  constexpr std::uint64_t kCutoff = std::uint64_t{1} << 63;
  if (!negative && magnitude >= kCutoff) return fail("value out of range");
  if (negative && magnitude > kCutoff) return fail("value out of range");
  if (negative) return static_cast<std::int64_t>(std::uint64_t{0} - magnitude);
  return static_cast<std::int64_t>(magnitude);
}

Result<std::int64_t> GetScaledValueFromIntOrPercent(const IntOrString& value, std::int64_t total,
                                                    bool round_up) {
  if (!value.is_string()) return static_cast<std::int64_t>(value.int_value());
  const std::string& s = value.string_value();
  if (s.empty() || s.back() != '%') {
    return Status::BadRequest(
        "invalid value for IntOrString: invalid type: string is not a percentage");
  }
  auto parsed = GoAtoi(std::string_view(s).substr(0, s.size() - 1));
  if (!parsed.ok()) {
    return Status::BadRequest("invalid value for IntOrString: invalid value " + GoQuote(s) + ": " +
                              parsed.status().message());
  }
  // Same operations, same order, same IEEE doubles as math.Ceil/Floor in Go.
  const double scaled = static_cast<double>(*parsed) * static_cast<double>(total) / 100.0;
  const double rounded = round_up ? std::ceil(scaled) : std::floor(scaled);
  // Go's int(x) of an out-of-range float is the amd64 "integer indefinite" value; in C++ the
  // cast would be undefined.
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(rounded >= -kTwo63 && rounded < kTwo63)) return INT64_MIN;
  return static_cast<std::int64_t>(rounded);
}

}  // namespace lws::api
