// File: api/cel_value.h
//
// Values of the CEL interpreter (api/cel.h), internal to api/. A list or map is either a view of
// part of the validated JSON object, typed by its schema node as apiextensions'
// UnstructuredToVal does (schema/cel/values.go), or what the expression built; views make
// selecting into a large object cost nothing, and every Value copies in O(1).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/field.h"

namespace lws::api {
struct SchemaNode;
}

namespace lws::api::cel {

enum class Kind { kNull, kBool, kInt, kUint, kDouble, kString, kList, kMap, kType };

struct Value;
using ValueList = std::vector<Value>;
using ValueEntries = std::vector<std::pair<Value, Value>>;

struct Value {
  Kind kind = Kind::kNull;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  std::string_view str;                          // kString; kType: the type's name
  std::shared_ptr<const std::string> str_owner;  // str's storage when not in the object
  // kList / kMap views: the JSON and its schema (null: untyped JSON). A built list keeps the
  // schema of the list it came from, so a set or map list stays one after concatenation.
  const Json* json = nullptr;
  const SchemaNode* schema = nullptr;
  bool resource_root = false;  // kMap: apiVersion, kind and metadata are always selectable
  std::shared_ptr<const ValueList> list;        // a built kList
  std::shared_ptr<const ValueEntries> entries;  // a built kMap

  static Value Bool(bool v);
  static Value Int(std::int64_t v);
  static Value Uint(std::uint64_t v);
  static Value Double(double v);
  static Value String(std::string v);
  static Value StringIn(std::string_view in_object);  // a string of the validated object
  static Value Type(std::string_view static_name);
  static Value List(ValueList items, const SchemaNode* list_schema = nullptr);
  static Value Map(ValueEntries entries);
};

// A value, or CEL's error for it.
struct Outcome {
  Value value;
  std::string error;  // non-empty on failure: "no such key: x", "division by zero"
  bool ok() const { return error.empty(); }
};
inline Outcome Ok(Value v) { return {std::move(v), {}}; }
inline Outcome Fail(std::string message) { return {{}, std::move(message)}; }
inline constexpr std::string_view kNoOverload = "no such overload";
// cel-go's interrupt message, which apiextensions recognises.
inline constexpr std::string_view kCostExceeded = "operation cancelled: actual cost limit exceeded";

// Steps an evaluation may still spend; once spent, every step fails.
class Budget {
 public:
  explicit Budget(std::int64_t steps) : steps_(steps) {}
  // Spends n (>= 0) steps; false once the budget is spent.
  bool Charge(std::int64_t n) {
    steps_ -= n;
    return steps_ >= 0;
  }
  bool spent() const { return steps_ < 0; }
  std::int64_t left() const { return steps_; }

 private:
  std::int64_t steps_;
};

// Steps for work over `bytes` bytes of string data (cel-go charges 0.1 per byte traversed).
inline std::int64_t ByteSteps(std::size_t bytes) { return static_cast<std::int64_t>(bytes / 16); }

// ---- The validated object (cel_value.cc) ------------------------------------------------------

// UnstructuredToVal: `v` typed by `s` (null: untyped JSON).
Outcome FromJson(const Json& v, const SchemaNode* s);
// The type name of a value for messages and type(): "int", "list", ...
std::string_view TypeName(const Value& v);
// True for a map that is an object of the schema (fields select by escaped name, null is absent).
bool IsObject(const Value& v);

// x.f, and has(x.f) (value.b) when `test_only`.
Outcome Select(const Value& x, std::string_view field, bool test_only);
// x[k].
Outcome Index(const Value& x, const Value& key);
// Elements (lists) or keys (maps) as macros iterate them; an error when `x` is neither, or an
// element does not convert.
Outcome Range(const Value& x, ValueList* out);
std::int64_t Size(const Value& x);  // REQUIRES: kString, kList or kMap.

// ---- Operators (cel_operators.cc) -------------------------------------------------------------

// CEL's heterogeneous equality; never an error. Charges one step per element compared.
bool Equal(const Value& a, const Value& b, Budget* budget);
// Ordering of comparable values: -1, 0, 1; 2 when unordered (NaN); error when not comparable.
Outcome Compare(const Value& a, const Value& b);
Outcome Add(const Value& a, const Value& b, Budget* budget);
Outcome Arith(char op, const Value& a, const Value& b);  // op is one of - * / %
Outcome Negate(const Value& a);
Outcome Contains(const Value& container, const Value& x, Budget* budget);  // x in container

// Escaping of property names (apiserver/pkg/cel/escaping.go): "a-b" <-> "a__dash__b".
bool EscapeName(std::string_view name, std::string* out);
bool UnescapeName(std::string_view ident, std::string* out);

}  // namespace lws::api::cel
