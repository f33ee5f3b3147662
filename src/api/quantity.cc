#include "api/quantity.h"

#include <algorithm>
#include <string>

#include "api/intstr.h"

namespace lws::api {

namespace {

using Nanos = __int128;

constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";
constexpr std::string_view kErrNumeric = "unable to parse numeric part of quantity";

constexpr Nanos kNanosPerUnit = 1'000'000'000;
constexpr Nanos kNanosPerMilli = 1'000'000;
// Upstream caps BinarySI quantities at the largest int64 (resource.maxAllowed).
constexpr Nanos kBinaryCapNanos = static_cast<Nanos>(INT64_MAX) * kNanosPerUnit;
// Our own bound: 38 decimal digits of nanos, so that every value and every sum of two fits.
constexpr int kMaxNanoDigits = 38;
constexpr Nanos kMaxNanos = [] {
  Nanos v = 1;
  for (int i = 0; i < kMaxNanoDigits; ++i) v *= 10;
  return v - 1;
}();

Status FormatWrong() { return Status::BadRequest(std::string(kErrFormatWrong)); }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string ToDecimal(unsigned __int128 u) {
  if (u == 0) return "0";
  std::string out;
  for (; u > 0; u /= 10) out.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
  std::reverse(out.begin(), out.end());
  return out;
}

// The pieces parseQuantityString finds. `num` has its leading zeros stripped ("0" when no
// integer digit is left), `has_digit` says whether upstream's `value` text holds any digit.
struct Scanned {
  bool negative = false;
  std::string_view num;
  std::string_view denom;
  std::string_view suffix;
  bool has_digit = false;
};

// Mirrors parseQuantityString step by step, including what it lets through: "." and "-" scan
// as zero, a bare suffix ("k") scans with no digits at all.
Result<Scanned> Scan(std::string_view s) {
  Scanned out;
  std::size_t pos = 0;
  const std::size_t end = s.size();
  if (pos < end && (s[0] == '-' || s[0] == '+')) {
    out.negative = s[0] == '-';
    ++pos;
  }
  const std::size_t zeros_start = pos;
  while (pos < end && s[pos] == '0') ++pos;
  if (pos >= end) {  // Only zeros (or nothing) after the sign.
    out.num = "0";
    out.has_digit = true;
    return out;
  }
  out.has_digit = pos > zeros_start;
  std::size_t i = pos;
  while (i < end && IsDigit(s[i])) ++i;
  out.num = s.substr(pos, i - pos);
  out.has_digit |= !out.num.empty();
  if (out.num.empty()) out.num = "0";
  pos = i;
  if (pos < end && s[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(s[i])) ++i;
    out.denom = s.substr(pos, i - pos);
    out.has_digit |= !out.denom.empty();
    pos = i;
  }
  const std::size_t suffix_start = pos;
  while (pos < end && std::string_view("eEinumkKMGTP").find(s[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < end && (s[pos] == '-' || s[pos] == '+')) ++pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  if (pos < end) return FormatWrong();
  out.suffix = s.substr(suffix_start);
  return out;
}

struct Suffix {
  int base = 10;          // 10 or 2
  std::int64_t exponent;  // power of the base
  Quantity::Format format;
};

// quantitySuffixer.interpret. Upstream parses the exponent as int64 and then narrows it to int32
// with wraparound ("1e4294967296" is 1); we do the same, so that such text means what it means
// to a real API server.
Result<Suffix> ParseSuffix(std::string_view s) {
  using F = Quantity::Format;
  static constexpr std::string_view kDecimal[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  for (int i = 0; i < 10; ++i) {
    if (s == kDecimal[i]) return Suffix{10, 3 * i - 9, F::kDecimalSI};
  }
  static constexpr std::string_view kBinary[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  for (int i = 0; i < 6; ++i) {
    if (s == kBinary[i]) return Suffix{2, 10 * (i + 1), F::kBinarySI};
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    auto exponent = GoAtoi(s.substr(1));
    if (exponent.ok()) {
      return Suffix{10, static_cast<std::int32_t>(static_cast<std::uint64_t>(*exponent)),
                    F::kDecimalExponent};
    }
  }
  return Status::BadRequest(std::string(kErrSuffix));
}

// Whether ParseQuantity leaves its int64 fast path for the inf.Dec one. The slow path re-parses
// the text's digits, which fails when there are none: "Ei" and "e-10" are numeric errors while
// "Ki" and "e5" parse as zero.
bool TakesSlowPath(const Scanned& s, const Suffix& suffix) {
  const std::int64_t digits = static_cast<std::int64_t>(s.num.size() + s.denom.size());
  std::int64_t precision = 0;
  __int128 scale = 0;  // The exponent minus the fraction digits; may leave the int64 range.
  if (suffix.base == 10) {
    precision = 18 - digits;
    scale = static_cast<__int128>(suffix.exponent) - static_cast<__int128>(s.denom.size());
  } else if (s.denom.empty()) {
    precision = 15 - static_cast<std::int64_t>(s.num.size()) - suffix.exponent * 3 / 10 - 1;
  } else {
    precision = -1;
  }
  return precision < 0 || scale < -9;
}

// Decimal digit string times a small factor.
std::string MultiplySmall(const std::string& digits, int factor) {
  std::string out(digits.size(), '0');
  int carry = 0;
  for (std::size_t i = digits.size(); i-- > 0;) {
    int v = (digits[i] - '0') * factor + carry;
    out[i] = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  return carry == 0 ? out : std::to_string(carry) + out;
}

// ceil(digits * 2^exp2 * 10^(exp10 + 9)) as a nano count, or false when it has more than
// kMaxNanoDigits digits. `digits` has no leading zeros and is not empty.
bool ToNanos(std::string digits, __int128 exp10, std::int64_t exp2, Nanos& out) {
  for (std::int64_t i = 0; i < exp2 / 10; ++i) digits = MultiplySmall(digits, 1024);
  const __int128 shift = exp10 + 9;
  bool round_up = false;
  if (shift < 0) {
    const __int128 drop = -shift;
    if (drop >= static_cast<__int128>(digits.size())) {
      out = 1;  // All of it lies below a nano, and some of it is never zero of it.
      return true;
    }
    const std::size_t keep = digits.size() - static_cast<std::size_t>(drop);
    round_up = digits.find_first_not_of('0', keep) != std::string::npos;
    digits.resize(keep);
  } else {
    if (shift + static_cast<__int128>(digits.size()) > kMaxNanoDigits) return false;
    digits.append(static_cast<std::size_t>(shift), '0');
  }
  if (static_cast<int>(digits.size()) > kMaxNanoDigits) return false;
  Nanos v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  if (round_up) ++v;
  if (v > kMaxNanos) return false;
  out = v;
  return true;
}

Nanos Saturate(Nanos a, Nanos b, bool subtract) {
  Nanos v = 0;
  // Two in-range values can overflow 128 bits (2 * 10^38 > 2^127) only away from zero, in the
  // direction of b (or of -b when subtracting).
  if (subtract ? __builtin_sub_overflow(a, b, &v) : __builtin_add_overflow(a, b, &v)) {
    return (b > 0) != subtract ? kMaxNanos : -kMaxNanos;
  }
  return std::clamp(v, -kMaxNanos, kMaxNanos);
}

// n / divisor rounded away from zero, clamped to int64 (Quantity.ScaledValue).
std::int64_t ScaledAwayFromZero(Nanos n, Nanos divisor) {
  Nanos v = n / divisor;
  if (n % divisor != 0) v += n > 0 ? 1 : -1;
  return static_cast<std::int64_t>(std::clamp<Nanos>(v, INT64_MIN, INT64_MAX));
}

std::string DecimalString(Nanos magnitude, Quantity::Format format) {
  // AsCanonicalBytes: move every factor of ten into the exponent, then lower the exponent to a
  // multiple of three.
  std::int64_t exponent = -9;
  while (magnitude % 10 == 0) {
    magnitude /= 10;
    ++exponent;
  }
  while (exponent % 3 != 0) {
    magnitude *= 10;
    --exponent;
  }
  std::string out = ToDecimal(static_cast<unsigned __int128>(magnitude));
  static constexpr std::string_view kDecimal[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  if (format == Quantity::Format::kDecimalSI && exponent <= 18) {
    out += kDecimal[(exponent + 9) / 3];
  } else if (exponent != 0) {
    // DecimalExponent, or DecimalSI past "E", which upstream also writes as "e<n>".
    out += "e" + std::to_string(exponent);
  }
  return out;
}

std::string BinaryString(Nanos magnitude) {
  Nanos units = magnitude / kNanosPerUnit;
  int exponent = 0;
  // Upstream keeps dividing past Ei and then finds no suffix; we stop at Ei to keep the value.
  while (exponent < 6 && units % 1024 == 0) {
    units /= 1024;
    ++exponent;
  }
  static constexpr std::string_view kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return ToDecimal(static_cast<unsigned __int128>(units)) + std::string(kBinary[exponent]);
}

}  // namespace

std::string_view FormatName(Quantity::Format format) {
  switch (format) {
    case Quantity::Format::kDecimalSI:
      return "DecimalSI";
    case Quantity::Format::kBinarySI:
      return "BinarySI";
    case Quantity::Format::kDecimalExponent:
      return "DecimalExponent";
  }
  return "DecimalSI";
}

Quantity Quantity::FromInt(std::int64_t value, Format format) {
  Quantity q;
  q.nanos_ = static_cast<Nanos>(value) * kNanosPerUnit;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromMilli(std::int64_t milli, Format format) {
  Quantity q;
  q.nanos_ = static_cast<Nanos>(milli) * kNanosPerMilli;
  q.format_ = format;
  return q;
}

Result<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return FormatWrong();
  ASSIGN_OR_RETURN(Scanned scanned, Scan(text));
  ASSIGN_OR_RETURN(Suffix suffix, ParseSuffix(scanned.suffix));
  if (!scanned.has_digit && TakesSlowPath(scanned, suffix)) {
    return Status::BadRequest(std::string(kErrNumeric));
  }
  Quantity q;
  q.format_ = suffix.format;
  std::string digits = std::string(scanned.num) + std::string(scanned.denom);
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty()) return q;

  const __int128 exp10 = static_cast<__int128>(suffix.base == 10 ? suffix.exponent : 0) -
                         static_cast<__int128>(scanned.denom.size());
  const std::int64_t exp2 = suffix.base == 2 ? suffix.exponent : 0;
  Nanos magnitude = 0;
  if (!ToNanos(std::move(digits), exp10, exp2, magnitude)) {
    if (suffix.base == 10) return Status::BadRequest(std::string(kErrNumeric));
    magnitude = kBinaryCapNanos;
  }
  if (q.format_ == Format::kBinarySI) {
    magnitude = std::min(magnitude, kBinaryCapNanos);
    // Upstream shows a binary amount between 0 and 1 in decimal "to avoid rounding".
    if (magnitude < kNanosPerUnit) q.format_ = Format::kDecimalSI;
  }
  q.nanos_ = scanned.negative ? -magnitude : magnitude;
  return q;
}

std::string Quantity::String() const {
  if (nanos_ == 0) return "0";
  const Nanos magnitude = nanos_ < 0 ? -nanos_ : nanos_;
  const std::string sign = nanos_ < 0 ? "-" : "";
  Format format = format_;
  if (format == Format::kBinarySI &&
      (magnitude < 1024 * kNanosPerUnit || magnitude % kNanosPerUnit != 0)) {
    format = Format::kDecimalSI;  // Below 1024 or fractional: binary would round.
  }
  if (format == Format::kBinarySI) return sign + BinaryString(magnitude);
  return sign + DecimalString(magnitude, format);
}

std::int64_t Quantity::Value() const { return ScaledAwayFromZero(nanos_, kNanosPerUnit); }

std::int64_t Quantity::MilliValue() const { return ScaledAwayFromZero(nanos_, kNanosPerMilli); }

double Quantity::AsDouble() const { return static_cast<double>(nanos_) / 1e9; }

Quantity& Quantity::operator+=(const Quantity& other) {
  if (nanos_ == 0) format_ = other.format_;
  nanos_ = Saturate(nanos_, other.nanos_, /*subtract=*/false);
  return *this;
}

Quantity& Quantity::operator-=(const Quantity& other) {
  if (nanos_ == 0) format_ = other.format_;
  nanos_ = Saturate(nanos_, other.nanos_, /*subtract=*/true);
  return *this;
}

Quantity Quantity::operator-() const {
  Quantity q = *this;
  q.nanos_ = -q.nanos_;
  return q;
}

}  // namespace lws::api
