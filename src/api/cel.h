// File: api/cel.h
//
// A subset of CEL, the Common Expression Language (github.com/google/cel-spec), enough for the
// x-kubernetes-validations rules of CRD schemas (schema_cel.h applies them as kube-apiserver's
// apiextensions-apiserver does). No CEL library is packaged for this machine, so this is a small
// interpreter: a rule is parsed once into an immutable CelProgram, which any number of threads may
// evaluate against JSON with `self` bound to the value at the rule's schema node.
//
//   auto p = CelProgram::Compile("self.replicas >= 0 && self.name.startsWith('a')");
//   CelResult r = p->Evaluate(spec, spec_schema, false, &steps);   // r.value == true
//
// Supported:
//   - literals: int (decimal, 0x hex), uint (1u), double (1.5, 1e3, .5), strings ('..', "..",
//     '''..''', """..""", raw r'..', escapes \n \t \\ \' \" \` \? \a \b \f \r \v \xHH \uHHHH
//     \UHHHHHHHH \ooo), true, false, null, lists [a, b] and maps {'k': v};
//   - operators with CEL's precedence: ?:, ||, &&, == != < <= > >= in, + -, * / %, unary ! and -,
//     a.f, a[i], f(x) and x.f(y);
//   - CEL's error semantics: || and && are commutative over errors (`error || true` is true,
//     `false && error` is false), every other operator propagates them; int and uint overflow,
//     division and modulus by zero are errors; selecting an absent field is `no such key: f`;
//   - macros has(x.f), e.all(x, p), e.exists(x, p), e.exists_one(x, p), e.filter(x, p),
//     e.map(x, t) and e.map(x, p, t) over lists and over maps (their keys);
//   - functions size (string/list/map, as size(x) and x.size()), contains, startsWith, endsWith,
//     matches (RE2 syntax and unanchored search through api/schema_regex.h, so linear time), int,
//     uint, double, string, type, dyn, and the type names int, uint, double, bool, string,
//     list, map, null_type, type;
//   - numbers: int, uint and double compare with each other and are equal when numerically equal,
//     as cel-go does; values of different types are otherwise unequal (false, not an error);
//   - typed by the schema as apiextensions does (schema/cel/values.go): JSON numbers are int
//     under `type: integer` and double under `type: number` (untyped: int when integral); objects
//     with properties select fields by their escaped names (`a-b` is a__dash__b), treat null
//     fields as absent and report `undefined field 'f'` for a field the schema does not declare;
//     additionalProperties objects are maps; x-kubernetes-list-type set and map lists compare
//     and concatenate as sets and keyed maps; int-or-string is int or string; the root of a
//     resource and embedded resources expose apiVersion, kind, metadata.name and
//     metadata.generateName.
//
// Not supported (the rule does not compile, see CelProgram::Compile): bytes literals, oldSelf
// (transition rules: our Validate has no old object), message construction Foo{...}, the
// optional syntax (?.), and any function not listed above (duration, timestamp, the Kubernetes
// list, regex, URL, IP and quantity libraries, string extensions). Strings with format
// duration, date, date-time and byte stay strings. There is no type checker: a rule cel-go
// would reject at CRD creation (`undefined field`, `no matching overload`) fails here only when
// evaluated, as an evaluation error.
//
// Every evaluation spends steps from a budget (one per expression node, more for work that
// grows with the size of strings and lists), so a hostile rule ends with kOutOfBudget instead of
// hanging the server; expressions nest at most kCelMaxDepth levels, so evaluation recursion is
// bounded too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "api/json_fwd.h"
#include "base/result.h"

namespace lws::api {

struct SchemaNode;
namespace cel {
struct Expr;
}

// Bounds (apiserver/pkg/apis/cel/config.go has PerCallLimit and RuntimeCELCostBudget in cel-go
// cost units; ours are steps of this interpreter, of the same order).
inline constexpr std::int64_t kCelStepsPerCall = 1'000'000;
inline constexpr std::int64_t kCelStepsPerObject = 10'000'000;
inline constexpr int kCelMaxDepth = 128;
inline constexpr std::size_t kCelMaxRuleBytes = 100'000;

struct CelResult {
  enum class Kind { kValue, kError, kOutOfBudget };
  Kind kind = Kind::kError;
  bool value = false;  // kValue
  std::string error;   // kError: CEL's message, e.g. "no such key: replicas"
};

class CelProgram {
 public:
  // Parses and checks `rule`. BadRequest saying why when it is not valid CEL ("syntax error at
  // 1:7: ...") or uses what the subset lacks ("function 'duration' is not supported",
  // "uses oldSelf: transition rules are not evaluated").
  static Result<CelProgram> Compile(std::string_view rule);

  // Evaluates the program with `self` bound to `self`, typed by `schema` (null: plain JSON);
  // `resource_root` exposes apiVersion, kind and metadata as at the root of a custom resource.
  // Spends at most *steps_left steps and subtracts what it spent. A result that is not a bool
  // is an error. `self` must outlive the call and not change during it. Comparing values
  // recurses once per level of nesting, so callers bound the depth of `self`
  // (StructuralSchema::Validate allows 1000 levels).
  CelResult Evaluate(const Json& self, const SchemaNode* schema, bool resource_root,
                     std::int64_t* steps_left) const;

 private:
  std::shared_ptr<const cel::Expr> root_;
};

}  // namespace lws::api
