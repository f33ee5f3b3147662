// File: api/quantity.h
//
// Quantity is Kubernetes' resource.Quantity: "100m", "1.5Gi", "8", "1e3". A value is an exact
// count of nano units (10^-9) held in 128 bits, and it follows upstream's rules:
//   1. Parsing rounds any finer value up, away from zero: "0.1n" is "1n", "-0.1n" is "-1n".
//   2. A BinarySI quantity ("Ki".."Ei") is capped at 2^63-1 while parsing ("9Ei" parses as
//      9223372036854775807); decimal quantities are not capped ("12E" keeps its value).
//   3. The format (DecimalSI, BinarySI, DecimalExponent) comes from the parsed suffix and picks
//      the canonical form, exactly as Quantity.String(): "1536Mi", "1500m", "12e3", "1e21".
//      A BinarySI value below 1024 in magnitude or not integral prints as DecimalSI.
//
// Range: upstream's decimal amounts are unbounded (inf.Dec); ours stop below 10^29 units. Parsing
// a larger decimal value fails with the numeric-part error, and sums saturate at the bound. Both
// are far beyond any resource amount a cluster carries.
//
// Value type; cheap to copy. Comparison is by value only: "1" == "1000m".
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace lws::api {

class Quantity {
 public:
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };

  Quantity() = default;
  // value, e.g. FromInt(2, Format::kBinarySI) prints "2" and FromInt(2048, kBinarySI) "2Ki".
  static Quantity FromInt(std::int64_t value, Format format = Format::kDecimalSI);
  // value / 1000, e.g. FromMilli(1500) prints "1500m" (resource.NewMilliQuantity).
  static Quantity FromMilli(std::int64_t milli, Format format = Format::kDecimalSI);

  // resource.ParseQuantity: the grammar, rounding, cap and error messages of upstream.
  static Result<Quantity> Parse(std::string_view text);

  // The canonical text, as Quantity.String().
  std::string String() const;

  // Value rounded up away from zero to an integer (Quantity.Value()); saturates at the int64
  // range where upstream overflows.
  std::int64_t Value() const;
  // Value in thousandths, rounded the same way (Quantity.MilliValue()).
  std::int64_t MilliValue() const;
  // The nearest double (Quantity.AsApproximateFloat64()).
  double AsDouble() const;

  bool IsZero() const { return nanos_ == 0; }
  int Sign() const { return nanos_ > 0 ? 1 : (nanos_ < 0 ? -1 : 0); }
  Format format() const { return format_; }
  // -1, 0 or 1 as Quantity.Cmp.
  int Cmp(const Quantity& other) const {
    return nanos_ < other.nanos_ ? -1 : (nanos_ > other.nanos_);
  }

  // Quantity.Add / Quantity.Sub: the result keeps this quantity's format, or takes the other's
  // when this one is zero.
  Quantity& operator+=(const Quantity& other);
  Quantity& operator-=(const Quantity& other);
  friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
  friend Quantity operator-(Quantity a, const Quantity& b) { return a -= b; }
  // Quantity.Neg: same format, opposite sign.
  Quantity operator-() const;

  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.nanos_ <=> b.nanos_;
  }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nanos_ == b.nanos_; }

 private:
  __int128 nanos_ = 0;
  Format format_ = Format::kDecimalSI;
};

std::string_view FormatName(Quantity::Format format);  // "DecimalSI", "BinarySI", ...

}  // namespace lws::api
