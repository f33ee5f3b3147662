// File: apiserver/jsonpath.h
//
// The JSONPath template language of k8s.io/client-go/util/jsonpath, as far as CustomResource
// printer columns use it: the API server wraps a column's jsonPath in braces ("{.status.replicas}")
// and evaluates it against each object with missing keys allowed. Supported:
//
//   text{action}text       templates; an action is a sequence of steps
//   .a.b  .a\.b/c  ['a']   fields (backslash escapes a terminator; ['k'] parses as .k)
//   [0] [-1] [1:3] [::2]   index and slice; [*] and .* wildcards; [a,b] unions
//   ..a                    recursive descent
//   [?(@.type=="Ready")]   filters with == != < > <= >= on strings, numbers, booleans,
//   [?(@.ready)]           and existence filters
//   "x" 'x' 3 1.5 true     literals (filter operands)
//
// Not supported: the range/end keywords of kubectl -o jsonpath (Parse rejects them; printer
// columns never use them). Evaluation follows client-go, quirks included: a field on a non-object
// yields nothing, an index out of bounds is an error, an action yields every match (the table
// code takes the first). Values are nlohmann Json; integers compare with integers and floats with
// floats, as Go templates do. One deliberate difference: an existence filter whose operand fails
// to evaluate selects nothing (client-go can select the element when an index is out of bounds).
// Parse and FindResults never throw and bound their recursion.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/result.h"

namespace lws::apiserver {

using Json = api::Json;

class JsonPath {
 public:
  // One bound of a slice [start:end:step]. `derived`: end computed as start+1 for a plain index.
  struct SliceParam {
    bool known = false;
    std::int64_t value = 0;
    bool derived = false;
  };

  // A parsed template element. kList is an action: its `children` are steps applied in order;
  // kUnion's children are kList branches; kFilter's are [left, right] kLists and `text` is the
  // operator ("exists" for [?(@.x)]).
  struct Node {
    enum class Kind {
      kText,
      kList,
      kField,
      kArray,
      kFilter,
      kInt,
      kFloat,
      kBool,
      kWildcard,
      kRecursive,
      kUnion,
      kIdentifier,
    };
    Kind kind = Kind::kText;
    std::string text;  // kText, kField, kIdentifier, kFilter operator
    std::int64_t int_value = 0;
    double float_value = 0;
    bool bool_value = false;
    std::array<SliceParam, 3> slice{};  // kArray
    std::vector<Node> children;
  };

  // Parses `text` as a template; a BadRequest Status with client-go's message on a syntax error
  // ("unclosed action", "invalid array index x", ...).
  static Result<JsonPath> Parse(std::string_view text);

  // Evaluates the template against `data`: one list of values per top-level element (a text run
  // yields itself). With `allow_missing_keys`, a missing field yields no value instead of the
  // error "<field> is not found".
  Result<std::vector<std::vector<Json>>> FindResults(const Json& data,
                                                     bool allow_missing_keys) const;

  const std::vector<Node>& root() const { return root_; }

 private:
  std::vector<Node> root_;
};

// `value` as jsonpath prints one result: strings verbatim, integers in decimal, floats as Go's
// %v ("1.5", "1e+06"), booleans "true"/"false", null "<nil>", arrays and objects as Go's JSON.
std::string JsonPathText(const Json& value);

// A float64 as Go's strconv.FormatFloat(f, 'g', -1, 64) (and fmt's %v) prints it.
std::string FormatGoFloatG(double f);

}  // namespace lws::apiserver
