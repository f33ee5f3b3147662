// File: api/yaml_scalar.h
//
// Scalar rules shared by the YAML loader and emitter (and Go-style number printing reused by the
// schema validator's messages). Internal to api/: the loader resolves a plain scalar exactly as
// goyaml.v2's resolve() does, and the emitter quotes a string whenever that resolution would not
// give the string back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/field.h"

namespace lws::api::yaml_internal {

// The value goyaml.v2 gives a plain (unquoted, untagged) scalar: null, bool, int64, uint64,
// double (possibly inf/nan) or, failing all of those, the string itself. The string "<<" (a merge
// key) comes back as a string; callers that care check for it.
Json ResolvePlain(std::string_view s);

// Go's strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64): sign (int only), 0x/0o/0b/0 prefixes.
bool ParseGoInt(std::string_view s, std::int64_t* out);
bool ParseGoUint(std::string_view s, std::uint64_t* out);

// Go's strconv.FormatFloat(v, 'g', -1, bits) for bits 32 or 64: the shortest digits that
// round-trip, in exponent form ("1e+06", "1.5e-05") when the decimal exponent is < -4 or >= 6, else
// plain
// ("123456", "0.001"). Inf and NaN print as "+Inf", "-Inf", "NaN".
std::string FormatGoFloat(double v, int bits = 64);

// Go's fmt "%v" of a float64 (same as FormatGoFloat with 64 bits).
inline std::string GoFloatV(double v) { return FormatGoFloat(v, 64); }

// True when the code point may appear unescaped in YAML text (YAML 1.1 c-printable, minus the
// line breaks U+0085/U+2028/U+2029 and the BOM, which parsers treat specially).
bool IsPlainPrintable(char32_t c);

// Decodes one UTF-8 code point at s[*i], advancing *i. Returns false on malformed UTF-8.
bool NextCodePoint(std::string_view s, std::size_t* i, char32_t* out);

}  // namespace lws::api::yaml_internal
