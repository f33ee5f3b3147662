// File: api/field_selector.h
//
// Field selectors as k8s.io/apimachinery/pkg/fields: `?fieldSelector=metadata.name=web-0,
// status.phase!=Running`. A selector is an AND of terms `field=value`, `field==value` or
// `field!=value`, matched against a map of field values where a missing field reads as "".
//
// Escaping, as upstream: in a value, `\`, `,` and `=` are written `\\`, `\,` and `\=`; an
// unescaped `,` separates terms; the field name is never escaped and ends at the first operator.
// Parse keeps upstream's order (terms sorted by their raw text), so String() of a parsed selector
// may order terms differently from String() of that string parsed again; from then on it is
// stable. Matching never depends on the order.
//
// Immutable value type.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/meta.h"
#include "api/selector.h"
#include "base/result.h"

namespace lws::api {

class FieldSelector {
 public:
  struct Term {
    std::string field;
    SelectionOperator op = SelectionOperator::kEquals;  // kEquals or kNotEquals
    std::string value;                                  // unescaped
    bool operator==(const Term&) const = default;
  };

  // The selector that matches everything (fields.Everything()).
  FieldSelector() = default;

  // fields.ParseSelector. Errors are BadRequest with upstream's text, e.g.
  // "invalid selector: 'a'; can't understand 'a'".
  static Result<FieldSelector> Parse(std::string_view text);
  // fields.OneTermEqualSelector.
  static FieldSelector OneTermEqual(std::string field, std::string value);

  bool Matches(const StringMap& fields) const;
  bool Empty() const { return terms_.empty(); }
  // "f=v,g!=w" with values escaped; "" when empty.
  std::string String() const;
  const std::vector<Term>& terms() const { return terms_; }
  // The value an `=` term requires `field` to have, if any.
  std::optional<std::string> RequiresExactMatch(std::string_view field) const;

  bool operator==(const FieldSelector&) const = default;

 private:
  std::vector<Term> terms_;
};

// fields.EscapeValue: `\` to `\\`, `,` to `\,`, `=` to `\=`.
std::string EscapeFieldValue(std::string_view value);
// fields.UnescapeValue, with its errors ("invalid field selector: invalid escape sequence: \x").
Result<std::string> UnescapeFieldValue(std::string_view value);

}  // namespace lws::api
