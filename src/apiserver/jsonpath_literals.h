// File: apiserver/jsonpath_literals.h
//
// Internal to the JSONPath parser (jsonpath.cc): how client-go reads the literals inside a
// template. Numbers and indices follow Go's strconv.Atoi (optional sign, decimal digits, must fit
// in 64 bits); quoted strings follow strconv.UnquoteChar with either quote character.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lws::apiserver::jsonpath_literals {

// Returns true and sets `out` iff `s` is an optionally signed decimal integer fitting int64.
bool ParseInt64(std::string_view s, std::int64_t* out);

// Unquotes a '...' or "..." literal (quotes included in `quoted`, size >= 2) with Go's escapes:
// \a \b \f \n \r \t \v \\ \' \" \xHH \ooo \uHHHH \UHHHHHHHH. Returns false on a
// malformed escape or an unescaped quote character inside.
bool Unquote(std::string_view quoted, std::string* out);

// A character as Go's %#U prints it: "U+0023 '#'", or "U+0001" when not printable.
std::string DescribeRune(char c);

}  // namespace lws::apiserver::jsonpath_literals
