// File: api/intstr.h
//
// IntOrString is Kubernetes' intstr.IntOrString: a JSON integer (int32) or a string such as "25%".
// Used by maxUnavailable, maxSurge and targetPort.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace lws::api {

class IntOrString {
 public:
  IntOrString() = default;
  static IntOrString FromInt(std::int32_t v) {
    IntOrString x;
    x.int_ = v;
    return x;
  }
  static IntOrString FromString(std::string s) {
    IntOrString x;
    x.is_string_ = true;
    x.str_ = std::move(s);
    return x;
  }

  bool is_string() const { return is_string_; }
  std::int32_t int_value() const { return int_; }
  const std::string& string_value() const { return str_; }
  // "3" or "25%", for messages.
  std::string ToString() const { return is_string_ ? str_ : std::to_string(int_); }

  bool operator==(const IntOrString&) const = default;

 private:
  bool is_string_ = false;
  std::int32_t int_ = 0;
  std::string str_;
};

// intstr.GetScaledValueFromIntOrPercent: an int is returned as is; "p%" becomes p * total / 100
// rounded up or down, computed in float64 exactly as Go does (a result outside int64 is
// INT64_MIN, as Go's conversion gives on amd64). A string that is not a percentage, or whose
// number does not parse, is a BadRequest with upstream's message.
Result<std::int64_t> GetScaledValueFromIntOrPercent(const IntOrString& value, std::int64_t total,
                                                    bool round_up);

// strconv.Atoi semantics on the text before "%": optional sign, decimal digits, 64-bit range.
// Returns the error text Go prints, e.g. `strconv.Atoi: parsing "x": invalid syntax`.
Result<std::int64_t> GoAtoi(std::string_view text);

}  // namespace lws::api
