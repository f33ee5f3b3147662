// File: api/go_json.h
//
// Serialises a JSON document byte for byte as Go's encoding/json does when it marshals the same
// document after decoding it into an interface{} (map[string]interface{}, []interface{}, float64,
// string, bool, nil). LWS hashes such bytes to name its ControllerRevisions (spec section 7.2),
// so the rules are Go's, not nlohmann's:
//
//   1. Object keys are sorted by byte order at every level; there is no whitespace.
//   2. Strings escape `"` and `\` as \" and \\, newline, carriage return, tab, backspace and form
//      feed as \n \r \t \b \f (Go >= 1.22), other bytes below 0x20 as \u00xx (lowercase hex),
//      `<` `>` `&` as \u003c \u003e \u0026, U+2028 and U+2029 as \u2028 \u2029, and every byte
//      that does not start a valid UTF-8 sequence as \ufffd. Other text is copied unchanged.
//   3. Every number is a float64 (integers above 2^53 lose precision, as in Go) printed in the
//      shortest form that reads back to the same float64: fixed notation when 1e-6 <= |x| < 1e21
//      ("8080", "0.5", "-3"), else exponent notation without exponent padding for negative
//      exponents ("1e+21", "1.5e-7").
//
// Go refuses to marshal NaN and infinities (Go cannot even read a number beyond float64); they are
// written as `null` here so that the function never fails. Binary values (not JSON) are written as
// `null` too. One input difference: nlohmann reads the text "-0" as the integer 0, so it prints as
// "0" where Go, reading a float64 -0, prints "-0" (a float -0.0 value does print as "-0").
#pragma once

#include <string>
#include <string_view>

#include "api/field.h"

namespace lws::api {

// Returns `value` serialised as Go's json.Marshal serialises it (rules 1-3 above).
std::string MarshalGoJson(const Json& value);

// Returns `f` as encoding/json prints a float64 (rule 3); "null" when `f` is not finite.
std::string FormatGoFloat(double f);

// The word Go's encoding/json uses for a JSON value's kind in "cannot unmarshal <kind> into ...":
// object, array, string, bool or number (null decodes into anything).
std::string_view GoJsonKind(const Json& value);

// Whether every byte of `s` belongs to a valid UTF-8 sequence, by Go's utf8.DecodeRune (no
// overlong forms, surrogates or code points above U+10FFFF).
bool IsValidUtf8(std::string_view s);

// Appends `s` to `out` as a quoted JSON string with Go's escaping (rule 2).
void AppendGoJsonString(std::string_view s, std::string* out);

}  // namespace lws::api
