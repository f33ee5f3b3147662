#include "api/quantity.h"

#include <algorithm>
#include <cmath>

namespace lws::api {

namespace {

constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";
constexpr std::string_view kErrNumeric = "unable to parse numeric part of quantity";

constexpr __int128 kNanosPerUnit = 1'000'000'000;
// Kubernetes caps every parsed magnitude at the largest int64 (resource.maxAllowed).
constexpr __int128 kMaxNanos = static_cast<__int128>(INT64_MAX) * kNanosPerUnit;

__int128 Cap(__int128 v) { return std::clamp(v, -kMaxNanos, kMaxNanos); }

__int128 Pow10(int n) {
  __int128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

std::string ToString128(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string out;
  while (u > 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

struct Suffix {
  int base;      // 10 or 2
  int exponent;  // power of the base
  Quantity::Format format;
};

// Decimal SI suffixes n u m "" k M G T P E and binary Ki..Ei; "e<int>"/"E<int>" exponents.
Result<Suffix> ParseSuffix(std::string_view s) {
  using F = Quantity::Format;
  if (s.empty()) return Suffix{10, 0, F::kDecimalSI};
  if (s.size() == 1) {
    switch (s[0]) {
      case 'n': return Suffix{10, -9, F::kDecimalSI};
      case 'u': return Suffix{10, -6, F::kDecimalSI};
      case 'm': return Suffix{10, -3, F::kDecimalSI};
      case 'k': return Suffix{10, 3, F::kDecimalSI};
      case 'M': return Suffix{10, 6, F::kDecimalSI};
      case 'G': return Suffix{10, 9, F::kDecimalSI};
      case 'T': return Suffix{10, 12, F::kDecimalSI};
      case 'P': return Suffix{10, 15, F::kDecimalSI};
      case 'E': return Suffix{10, 18, F::kDecimalSI};
    }
  }
  if (s.size() == 2 && s[1] == 'i') {
    const std::string_view binary = "KMGTPE";
    auto pos = binary.find(s[0]);
    if (pos != std::string_view::npos) return Suffix{2, static_cast<int>(pos + 1) * 10, F::kBinarySI};
  }
  if (s.size() >= 2 && (s[0] == 'e' || s[0] == 'E')) {
    std::string_view digits = s.substr(1);
    bool negative = false;
    if (digits[0] == '+' || digits[0] == '-') {
      negative = digits[0] == '-';
      digits = digits.substr(1);
    }
    if (digits.empty() || digits.size() > 9) return Status::BadRequest(std::string(kErrSuffix));
    int value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return Status::BadRequest(std::string(kErrSuffix));
      value = value * 10 + (c - '0');
    }
    return Suffix{10, negative ? -value : value, F::kDecimalExponent};
  }
  return Status::BadRequest(std::string(kErrSuffix));
}

// Parses "12.50" into mantissa 1250 and fraction digit count 2. Digits past what an int128 can
// hold only matter through the nano rounding, so they collapse into a sticky "more" flag.
struct Number {
  __int128 mantissa = 0;
  int fraction_digits = 0;
  int dropped_integer_digits = 0;  // integer digits not kept (value is huge; it will be capped)
  bool inexact = false;            // non-zero fraction digits were dropped
};

Result<Number> ParseNumber(std::string_view s) {
  Number n;
  bool seen_dot = false, seen_digit = false;
  for (char c : s) {
    if (c == '.') {
      if (seen_dot) return Status::BadRequest(std::string(kErrNumeric));
      seen_dot = true;
      continue;
    }
    seen_digit = true;
    int d = c - '0';
    if (n.mantissa > (static_cast<__int128>(1) << 100)) {
      if (seen_dot) {
        n.inexact |= d != 0;
      } else {
        ++n.dropped_integer_digits;
      }
      continue;
    }
    n.mantissa = n.mantissa * 10 + d;
    if (seen_dot) ++n.fraction_digits;
  }
  if (!seen_digit) return Status::BadRequest(std::string(kErrNumeric));
  return n;
}

// Scales mantissa * 10^exp10 * 2^exp2 (a non-negative magnitude) to nanos, rounding up.
__int128 ToNanos(const Number& n, int exp10, int exp2) {
  if (n.mantissa == 0) return 0;
  // Work out mantissa * 2^exp2 * 10^(exp10 + 9 - fraction_digits).
  int scale10 = exp10 + 9 - n.fraction_digits + n.dropped_integer_digits;
  __int128 v = n.mantissa;
  bool inexact = n.inexact;
  for (int i = 0; i < exp2; ++i) {
    if (v > kMaxNanos) return kMaxNanos;
    v *= 2;
  }
  if (scale10 >= 0) {
    for (int i = 0; i < scale10; ++i) {
      if (v > kMaxNanos) return kMaxNanos;
      v *= 10;
    }
  } else {
    for (int i = 0; i < -scale10 && v > 0; ++i) {
      inexact |= v % 10 != 0;
      v /= 10;
    }
    if (-scale10 > 40) v = 0;
  }
  if (inexact) v += 1;  // Round up: some of a resource is never zero of it.
  return std::min(v, kMaxNanos);
}

}  // namespace

Quantity Quantity::FromInt(std::int64_t value, Format format) {
  Quantity q;
  q.nanos_ = static_cast<__int128>(value) * kNanosPerUnit;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromMilli(std::int64_t milli) {
  Quantity q;
  q.nanos_ = static_cast<__int128>(milli) * 1'000'000;
  return q;
}

Result<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return Status::BadRequest("quantities must match the regular expression"
                                              " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  std::string_view s = text;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::size_t number_end = 0;
  while (number_end < s.size() && ((s[number_end] >= '0' && s[number_end] <= '9') || s[number_end] == '.')) {
    ++number_end;
  }
  if (number_end == 0) return Status::BadRequest(std::string(kErrFormatWrong));
  std::string_view suffix_text = s.substr(number_end);
  // The suffix may only use the characters of upstream's regular expression.
  for (std::size_t i = 0; i < suffix_text.size(); ++i) {
    char c = suffix_text[i];
    bool letter = std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos;
    bool tail = (c >= '0' && c <= '9') || c == '+' || c == '-';
    if (!letter && !tail) return Status::BadRequest(std::string(kErrFormatWrong));
  }
  ASSIGN_OR_RETURN(Number number, ParseNumber(s.substr(0, number_end)));
  ASSIGN_OR_RETURN(Suffix suffix, ParseSuffix(suffix_text));
  int exp10 = suffix.base == 10 ? suffix.exponent : 0;
  int exp2 = suffix.base == 2 ? suffix.exponent : 0;
  if (exp10 > 60) exp10 = 60;  // Beyond the cap anyway; keeps the loops bounded.
  Quantity q;
  q.format_ = suffix.format;
  q.nanos_ = ToNanos(number, exp10, exp2);
  // A binary quantity below one is shown in decimal, as upstream does while parsing.
  if (q.format_ == Format::kBinarySI && q.nanos_ > 0 && q.nanos_ < kNanosPerUnit) {
    q.format_ = Format::kDecimalSI;
  }
  if (negative) q.nanos_ = -q.nanos_;
  return q;
}

std::string Quantity::String() const {
  if (nanos_ == 0) return "0";
  Format format = format_;
  const __int128 magnitude = nanos_ < 0 ? -nanos_ : nanos_;
  if (format == Format::kBinarySI) {
    // Small or fractional binary values are shown in decimal to avoid rounding.
    if (magnitude < 1024 * kNanosPerUnit || magnitude % kNanosPerUnit != 0) format = Format::kDecimalSI;
  }
  const std::string sign = nanos_ < 0 ? "-" : "";
  if (format == Format::kBinarySI) {
    __int128 units = magnitude / kNanosPerUnit;
    int exponent = 0;
    while (exponent < 6 && units % 1024 == 0) {
      units /= 1024;
      ++exponent;
    }
    static const char* kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    return sign + ToString128(units) + kBinary[exponent];
  }
  // Decimal: the mantissa is an integer and the exponent a multiple of three.
  __int128 mantissa = magnitude;
  int exponent = -9;
  while (mantissa % 1000 == 0) {
    mantissa /= 1000;
    exponent += 3;
  }
  if (format == Format::kDecimalExponent) {
    return sign + ToString128(mantissa) + (exponent == 0 ? "" : "e" + std::to_string(exponent));
  }
  static const char* kDecimal[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  int index = (exponent + 9) / 3;
  if (index > 9) {  // Only reachable past the cap; print the remaining factor out.
    mantissa *= Pow10(exponent - 18);
    index = 9;
  }
  return sign + ToString128(mantissa) + kDecimal[index];
}

std::int64_t Quantity::Value() const {
  __int128 v = nanos_ / kNanosPerUnit;
  if (nanos_ % kNanosPerUnit != 0 && nanos_ > 0) v += 1;
  return static_cast<std::int64_t>(v);
}

std::int64_t Quantity::MilliValue() const {
  constexpr __int128 kPerMilli = 1'000'000;
  __int128 v = nanos_ / kPerMilli;
  if (nanos_ % kPerMilli != 0 && nanos_ > 0) v += 1;
  return static_cast<std::int64_t>(std::clamp<__int128>(v, INT64_MIN, INT64_MAX));
}

double Quantity::AsDouble() const { return static_cast<double>(nanos_) / 1e9; }

Quantity& Quantity::operator+=(const Quantity& other) {
  if (nanos_ == 0) format_ = other.format_;
  nanos_ = Cap(nanos_ + other.nanos_);
  return *this;
}

Quantity& Quantity::operator-=(const Quantity& other) {
  if (nanos_ == 0) format_ = other.format_;
  nanos_ = Cap(nanos_ - other.nanos_);
  return *this;
}

Quantity Quantity::operator-() const {
  Quantity q = *this;
  q.nanos_ = -q.nanos_;
  return q;
}

}  // namespace lws::api
