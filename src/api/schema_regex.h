// File: api/schema_regex.h
//
// Regular expressions for the `pattern` keyword of CRD schemas. The API server matches patterns
// with Go's regexp package (RE2 syntax, unanchored search, guaranteed linear time); std::regex
// differs in syntax and backtracks, which would let a crafted value exhaust the stack. This is a
// small RE2-compatible matcher: the pattern compiles to a Thompson NFA and matching simulates all
// states at once, so time is O(pattern size x text length) and no recursion depends on the text.
//
// Supported: literals (UTF-8), ., [...] classes with ranges, negation, escapes and [:posix:]
// names, \d \D \w \W \s \S \b \B \A \z, escapes of punctuation and \t \n \r \f \v \a \x.. \x{..},
// ^ $ (whole-text anchors, as in Go without the m flag), groups (...) and (?:...), alternation,
// * + ? {n} {n,} {n,m} and their lazy forms. Flags such as (?i) are reported as unsupported.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

namespace lws::api {

class SchemaRegex {
 public:
  // Compiles `pattern`; the error message follows Go's regexp.Compile wording, e.g.
  // "error parsing regexp: missing argument to repetition operator: `+`".
  static Result<SchemaRegex> Compile(std::string_view pattern);

  // True when some substring of `text` matches (Go's Regexp.MatchString).
  bool Search(std::string_view text) const;

  struct Program;

 private:
  std::shared_ptr<const Program> prog_;
};

}  // namespace lws::api
