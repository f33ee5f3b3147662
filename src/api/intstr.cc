#include "api/intstr.h"

#include <cmath>

#include "api/field.h"

namespace lws::api {

Result<std::int64_t> GoAtoi(std::string_view text) {
  auto fail = [&](std::string_view why) {
    return Status::BadRequest("strconv.Atoi: parsing " + GoQuote(text) + ": " + std::string(why));
  };
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return fail("invalid syntax");
  unsigned __int128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return fail("invalid syntax");
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > static_cast<unsigned __int128>(INT64_MAX) + 1) return fail("value out of range");
  }
  if (!negative && v > static_cast<unsigned __int128>(INT64_MAX)) return fail("value out of range");
  return negative ? static_cast<std::int64_t>(-static_cast<__int128>(v)) : static_cast<std::int64_t>(v);
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
