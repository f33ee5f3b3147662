// File: api/quantity.h
//
// Quantity is Kubernetes' resource.Quantity: "100m", "1.5Gi", "8", "1e3". Values are exact to
// the nano (10^-9), as in Kubernetes: parsing rounds any finer value up (away from zero), and
// magnitudes above 2^63-1 are capped, so the whole range fits a 128-bit count of nano units.
//
// The format (DecimalSI, BinarySI, DecimalExponent) comes from the suffix that was parsed and
// decides the canonical form, exactly as Quantity.String() does: "1536Mi", "1500m", "12e3".
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
  // An integer amount in the given format (BinarySI for bytes, DecimalSI for counts).
  static Quantity FromInt(std::int64_t value, Format format = Format::kDecimalSI);
  // value / 1000, e.g. FromMilli(1500) == "1500m".
  static Quantity FromMilli(std::int64_t milli);

  // Parses the Kubernetes quantity grammar; errors carry upstream's messages.
  static Result<Quantity> Parse(std::string_view text);

  // The canonical text, as Quantity.String() in Go.
  std::string String() const;

  // Value rounded up to an integer (Quantity.Value()).
  std::int64_t Value() const;
  // Value in thousandths rounded up (Quantity.MilliValue()).
  std::int64_t MilliValue() const;
  double AsDouble() const;
  bool IsZero() const { return nanos_ == 0; }
  int Sign() const { return nanos_ > 0 ? 1 : (nanos_ < 0 ? -1 : 0); }
  Format format() const { return format_; }

  // Arithmetic keeps this quantity's format (Go: the receiver's), or takes the other's when this
  // one is zero. Results are capped to the representable range like parsing.
  Quantity& operator+=(const Quantity& other);
  Quantity& operator-=(const Quantity& other);
  friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
  friend Quantity operator-(Quantity a, const Quantity& b) { return a -= b; }
  Quantity operator-() const;

  // Comparison is by value only: "1" == "1000m".
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.nanos_ <=> b.nanos_;
  }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nanos_ == b.nanos_; }

 private:
  __int128 nanos_ = 0;
  Format format_ = Format::kDecimalSI;
};

}  // namespace lws::api
