// The CEL subset as a language (api/cel.h): literals, precedence, error semantics, macros,
// functions, limits. Evaluated over untyped JSON; schema typing is in cel_schema_test.cc.
#include "api/cel.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "api/cel_value.h"

namespace lws::api {
namespace {

CelResult Run(std::string_view rule, const Json& self = Json::object()) {
  auto program = CelProgram::Compile(rule);
  EXPECT_TRUE(program.ok()) << rule << ": " << program.status().ToString();
  if (!program.ok()) return {};
  std::int64_t steps = kCelStepsPerCall;
  return program->Evaluate(self, nullptr, false, &steps);
}

// "true", "false", "error: <message>" or "out of budget", for readable expectations.
std::string Eval(std::string_view rule, const Json& self = Json::object()) {
  CelResult r = Run(rule, self);
  if (r.kind == CelResult::Kind::kOutOfBudget) return "out of budget";
  if (r.kind == CelResult::Kind::kError) return "error: " + r.error;
  return r.value ? "true" : "false";
}

std::string CompileError(std::string_view rule) {
  auto program = CelProgram::Compile(rule);
  return program.ok() ? "" : program.status().message();
}

TEST(CelTest, Literals) {
  for (const char* rule : {"1 == 1",
                           "0x1F == 31",
                           "-0x10 == -16",
                           "7u == 7u",
                           "0x10u == 16u",
                           "1.5 == 1.5",
                           "1e3 == 1000.0",
                           ".5 == 0.5",
                           "2.5e-1 == 0.25",
                           "-9223372036854775808 < 0",
                           "9223372036854775807 > 0",
                           "18446744073709551615u > 0u",
                           "'a' == \"a\"",
                           "'\\n\\t\\\\\\'' == \"\\n\\t\\\\'\"",
                           "'\\x41\\u00e9\\U0001F451\\101' == 'Aé👑A'",
                           "r'\\n' == '\\\\n'",
                           "'''a\nb''' == 'a\\nb'",
                           "\"\"\"x\"y\"\"\" == 'x\"y'",
                           "true",
                           "!false",
                           "null == null",
                           "[1, 2, 3,] == [1, 2, 3]",
                           "{'a': 1,} == {'a': 1}",
                           "[] == []",
                           "{} == {}",
                           "size('👑') == 1",
                           "// a comment\n true"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
}

TEST(CelTest, PrecedenceAndAssociativity) {
  for (const char* rule : {"1 + 2 * 3 == 7",
                           "(1 + 2) * 3 == 9",
                           "10 - 4 - 3 == 3",
                           "100 / 10 / 5 == 2",
                           "7 % 4 * 2 == 6",
                           "true || false && false",
                           "!(true && false)",
                           "!!true",
                           "-(-3) == 3",
                           "--3 == 3",
                           "(false ? 1 : true ? 2 : 3) == 2",
                           "1 < 2 == true",
                           "2 in [1, 2] == true",
                           "'ab' + 'c' == 'abc'",
                           "[1] + [2] == [1, 2]",
                           "-2 * -3 == 6",
                           "3 - -2 == 5",
                           "{'a': {'b': [10, 20]}}['a']['b'][1] == 20",
                           "{'a': {'b': 1}}.a.b == 1",
                           "size([1, 2]) == [1, 2].size()"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
}

// cel-spec langdef.md "Logical Operators": && and || are commutative over errors.
TEST(CelTest, LogicalOperatorsAbsorbErrors) {
  EXPECT_EQ(Eval("1 / 0 == 1 || true"), "true");
  EXPECT_EQ(Eval("true || 1 / 0 == 1"), "true");
  EXPECT_EQ(Eval("1 / 0 == 1 && false"), "false");
  EXPECT_EQ(Eval("false && 1 / 0 == 1"), "false");
  EXPECT_EQ(Eval("1 / 0 == 1 || false"), "error: division by zero");
  EXPECT_EQ(Eval("true && 1 / 0 == 1"), "error: division by zero");
  EXPECT_EQ(Eval("1 / 0 == 1 || 2 % 0 == 1"), "error: division by zero");
  EXPECT_EQ(Eval("1 || true"), "true");
  EXPECT_EQ(Eval("1 || false"), "error: no such overload");
  EXPECT_EQ(Eval("(1 / 0 == 1 ? true : true)"), "error: division by zero");
  EXPECT_EQ(Eval("!(1 / 0 == 1)"), "error: division by zero");
}

TEST(CelTest, ArithmeticErrors) {
  EXPECT_EQ(Eval("9223372036854775807 + 1 == 0"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 - 1 == 0"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 / -1 == 0"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 % -1 == 0"), "error: integer overflow");
  EXPECT_EQ(Eval("4611686018427387904 * 2 == 0"), "error: integer overflow");
  EXPECT_EQ(Eval("0u - 1u == 0u"), "error: unsigned integer overflow");
  EXPECT_EQ(Eval("18446744073709551615u + 1u == 0u"), "error: unsigned integer overflow");
  EXPECT_EQ(Eval("1 / 0 == 0"), "error: division by zero");
  EXPECT_EQ(Eval("1 % 0 == 0"), "error: modulus by zero");
  EXPECT_EQ(Eval("1u / 0u == 0u"), "error: division by zero");
  EXPECT_EQ(Eval("1.0 / 0.0 > 1e308"), "true");  // IEEE, as cel-go
  EXPECT_EQ(Eval("1 + 1.0 == 2.0"), "error: no such overload");
  EXPECT_EQ(Eval("5.5 % 2.0 == 1.5"), "error: no such overload");
  EXPECT_EQ(Eval("-7 / 2 == -3 && -7 % 2 == -1"), "true");  // truncation, as Go
}

// Numbers compare across int, uint and double; other types are unequal, not errors.
TEST(CelTest, HeterogeneousEqualityAndOrdering) {
  for (const char* rule : {"1 == 1.0",
                           "1u == 1",
                           "1 != 2u",
                           "1 < 1.5",
                           "2u > 1",
                           "-1 < 0u",
                           "1.5 >= 1u",
                           "9223372036854775807 < 9223372036854775808.0",
                           "'a' != 1",
                           "1 != '1'",
                           "[1, 2] == [1.0, 2u]",
                           "[1] != ['1']",
                           "{'a': 1} == {'a': 1.0}",
                           "{'a': 1} != {'b': 1}",
                           "null != 0",
                           "'a' != null",
                           "[null] == [null]",
                           "'a' < 'b'",
                           "'B' < 'a'",
                           "false < true",
                           "!(0.0 / 0.0 == 0.0 / 0.0)",
                           "!(0.0 / 0.0 < 1.0)",
                           "type(1) != type(1u)"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
  EXPECT_EQ(Eval("'a' < 1"), "error: no such overload");
  EXPECT_EQ(Eval("[1] < [2]"), "error: no such overload");
}

TEST(CelTest, StringFunctions) {
  for (const char* rule :
       {"size('héllo') == 5", "'héllo'.size() == 5", "'abc'.contains('b')", "!'abc'.contains('d')",
        "'abc'.startsWith('ab')", "'abc'.endsWith('bc')", "!'abc'.endsWith('abcd')",
        "'abc'.startsWith('')", "'k8s-1'.matches('^[a-z0-9-]+$')", "'xx42yy'.matches('[0-9]+')",
        "!'abc'.matches('^b')", "matches('abc', 'b')", "'Rook takes 👑'.matches('^[^0-9]*$')"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
}

TEST(CelTest, Conversions) {
  for (const char* rule :
       {"int('42') == 42",        "int('-7') == -7",      "int('+7') == 7",
        "int(3.9) == 3",          "int(-3.9) == -3",      "int(7u) == 7",
        "uint(7) == 7u",          "uint('8') == 8u",      "uint(2.5) == 2u",
        "double(1) == 1.0",       "double('2.5') == 2.5", "double(3u) == 3.0",
        "string(10) == '10'",     "string(10.0) == '10'", "string(10.49) == '10.49'",
        "string(1e6) == '1e+06'", "string(7u) == '7'",    "string(true) == 'true'",
        "string('s') == 's'",     "type(1) == int",       "type(1u) == uint",
        "type(1.0) == double",    "type('a') == string",  "type(true) == bool",
        "type([]) == list",       "type({}) == map",      "type(null) == null_type",
        "type(int) == type",      "dyn(1) == 1"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
  EXPECT_EQ(Eval("int('x') == 0"), "error: strconv.ParseInt: parsing \"x\": invalid syntax");
  EXPECT_EQ(Eval("int('99999999999999999999') == 0"),
            "error: strconv.ParseInt: parsing \"99999999999999999999\": value out of range");
  EXPECT_EQ(Eval("uint(-1) == 0u"), "error: unsigned integer overflow");
  EXPECT_EQ(Eval("int(1e19) == 0"), "error: integer overflow");
  EXPECT_EQ(Eval("int(true) == 1"), "error: type conversion error from 'bool' to 'int'");
}

TEST(CelTest, ContainersAndMembership) {
  for (const char* rule :
       {"2 in [1, 2, 3]", "!(4 in [1, 2, 3])", "'a' in {'a': 1}", "!('b' in {'a': 1})",
        "2.0 in [1, 2]", "size({'a': 1, 'b': 2}) == 2", "{1: 'x', true: 'y'}[1] == 'x'",
        "{1: 'x'}[1u] == 'x'", "[[1], [2]][1][0] == 2", "{'namespace': 1}.namespace == 1"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
  EXPECT_EQ(Eval("[1, 2][5] == 0"), "error: index out of bounds: 5");
  EXPECT_EQ(Eval("[1, 2][-1] == 0"), "error: index out of bounds: -1");
  EXPECT_EQ(Eval("{'a': 1}['b'] == 0"), "error: no such key: b");
  EXPECT_EQ(Eval("{'a': 1}.b == 0"), "error: no such key: b");
  EXPECT_EQ(Eval("{'a': 1, 'a': 2}.a == 1"), "error: Failed with repeated key");
  EXPECT_EQ(Eval("[1, 2]['x'] == 1"), "error: unsupported index type 'string' in list");
}

TEST(CelTest, MacrosOverListsAndMaps) {
  for (const char* rule :
       {"[1, 2, 3].all(x, x > 0)", "![1, 2, 3].all(x, x > 1)", "[1, 2, 3].exists(x, x == 2)",
        "![1, 2, 3].exists(x, x > 3)", "[1, 2, 3].exists_one(x, x == 2)",
        "![1, 2, 2].exists_one(x, x == 2)", "[1, 2, 3, 4].filter(x, x % 2 == 0) == [2, 4]",
        "[1, 2].map(x, x * 10) == [10, 20]", "[1, 2, 3].map(x, x > 1, x * 10) == [20, 30]",
        "[].all(x, false)", "![].exists(x, true)", "{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])",
        "{'a': 1, 'b': 2}.map(k, k) == ['a', 'b']", "{'a': 1}.exists(k, k == 'a')",
        "[[1, 2], [3]].all(l, l.all(x, x > 0))", "[1, 2].all(x, [3, 4].exists(y, y > x))",
        "[1].map(x, [x, x]) == [[1, 1]]", "[1, 2].exists(self, self == 2)"}) {
    EXPECT_EQ(Eval(rule), "true") << rule;
  }
}

// all() and exists() ignore an error when another element decides (validation_test.go,
// "listMap access"); exists_one, filter and map raise it.
TEST(CelTest, MacroErrorSemantics) {
  EXPECT_EQ(Eval("[0, -1].all(x, 1 / x > 0)"), "false");
  EXPECT_EQ(Eval("[0, 1].all(x, 1 / x > 0)"), "error: division by zero");
  EXPECT_EQ(Eval("[0, 1].exists(x, 1 / x > 0)"), "true");
  EXPECT_EQ(Eval("[0, -1].exists(x, 1 / x > 0)"), "error: division by zero");
  EXPECT_EQ(Eval("[0, 1].exists_one(x, 1 / x > 0)"), "error: division by zero");
  EXPECT_EQ(Eval("size([0, 1].filter(x, 1 / x > 0)) == 1"), "error: division by zero");
  EXPECT_EQ(Eval("size([0, 1].map(x, 1 / x)) == 2"), "error: division by zero");
  EXPECT_EQ(Eval("[1, 2].all(x, x)"), "error: no such overload");
  EXPECT_EQ(Eval("1.all(x, true)"), "error: no such overload");
}

TEST(CelTest, SelfIsUntypedJson) {
  Json self = Json::parse(R"({"n": 3, "f": 1.5, "s": "x", "l": [1, "a"], "m": {"k": null},
                              "big": 18446744073709551615})");
  for (const char* rule :
       {"self.n == 3 && type(self.n) == int", "type(self.f) == double", "self.s == 'x'",
        "self.l[1] == 'a'", "has(self.m.k)", "!has(self.m.z)", "self.m.k == null",
        "type(self.big) == uint", "self.l.exists(x, x == 'a')", "'n' in self",
        "self.all(k, k.size() > 0)"}) {
    EXPECT_EQ(Eval(rule, self), "true") << rule;
  }
  EXPECT_EQ(Eval("self.missing == 1", self), "error: no such key: missing");
  EXPECT_EQ(Eval("self.s.x == 1", self), "error: type 'string' does not support field selection");
}

TEST(CelTest, RulesTheSubsetCannotRunDoNotCompile) {
  EXPECT_EQ(CompileError("self.x =="), "syntax error at 1:10: unexpected end of expression");
  EXPECT_EQ(CompileError("self.x = 1"), "syntax error at 1:8: token recognition error at: '='");
  EXPECT_EQ(CompileError("'abc"), "syntax error at 1:1: unterminated string literal");
  EXPECT_EQ(CompileError("self.true == 1"),
            "syntax error at 1:6: expected a field name, found 'true'");
  EXPECT_EQ(CompileError("b'ab' == self"), "syntax error at 1:1: bytes literals are not supported");
  EXPECT_EQ(CompileError("self.x == oldSelf.x"),
            "uses oldSelf: transition rules are not evaluated");
  EXPECT_EQ(CompileError("self.d < duration('1h')"), "function 'duration' is not supported");
  EXPECT_EQ(CompileError("self.l.sum() == 1"), "function 'sum' is not supported");
  EXPECT_EQ(CompileError("x == 1"), "undeclared reference to 'x'");
  EXPECT_EQ(CompileError("'a'.contains()"),
            "found no matching overload for 'contains' with 1 argument(s)");
  EXPECT_EQ(CompileError("1 + 1"), "cel expression must evaluate to a bool");
  EXPECT_EQ(CompileError("self.s.matches(')')"),
            "compile error: error parsing regexp: unexpected ): `)`");
  EXPECT_EQ(CompileError("Foo{a: 1}"),
            "syntax error at 1:1: message construction is not supported");
  EXPECT_EQ(CompileError("has(self)"), "syntax error at 1:1: invalid argument to has() macro");
  EXPECT_EQ(CompileError("[1].all(1, true)"),
            "syntax error at 1:4: argument must be a simple name");
  EXPECT_EQ(CompileError("self.x in [1] || let"),
            "syntax error at 1:18: reserved identifier 'let'");
  EXPECT_EQ(CompileError("namespace == 1"), "syntax error at 1:1: reserved identifier 'namespace'");
  EXPECT_EQ(CompileError("9223372036854775808 > 0"),
            "syntax error at 1:1: invalid number literal 9223372036854775808");
}

TEST(CelTest, NestingIsBounded) {
  std::string deep = std::string(200, '(') + "true" + std::string(200, ')');
  EXPECT_NE(CompileError(deep).find("nests more than 128 levels"), std::string::npos);
  std::string lists = std::string(200, '[') + std::string(200, ']') + " == []";
  EXPECT_NE(CompileError(lists).find("nests more than 128 levels"), std::string::npos);
  // Long && and || chains are balanced trees, as cel-go builds them, so they do not nest deep.
  std::string chain = "true";
  for (int i = 0; i < 1000; ++i) chain += " && true";
  EXPECT_EQ(Eval(chain), "true");
  std::string nots = std::string(1001, '!') + "false";  // pairs of ! cancel, as in cel-go
  EXPECT_EQ(Eval(nots), "true");
}

// Ten nested ranges of ten elements take 10^6 iterations: more than a call's budget.
std::string Hostile() {
  std::string rule = "true";
  for (int i = 0; i < 6; ++i) {
    rule = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].all(x" + std::to_string(i) + ", " + rule + ")";
  }
  return rule;
}

TEST(CelTest, BudgetStopsHostileRules) {
  EXPECT_EQ(Eval(Hostile()), "out of budget");
  EXPECT_EQ(Eval(Hostile() + " || true"), "out of budget");  // an || may not swallow it
  EXPECT_EQ(Eval("true || " + Hostile()), "true");           // short circuit: never ran
  auto program = CelProgram::Compile("[1, 2, 3].all(x, x > 0)");
  ASSERT_TRUE(program.ok());
  std::int64_t steps = 5;
  EXPECT_EQ(program->Evaluate(Json::object(), nullptr, false, &steps).kind,
            CelResult::Kind::kOutOfBudget);
  steps = 1000;
  EXPECT_TRUE(program->Evaluate(Json::object(), nullptr, false, &steps).value);
  EXPECT_GT(steps, 900);
  EXPECT_LT(steps, 1000);
}

TEST(CelTest, PropertyNamesEscapeAsUpstream) {
  std::string out;
  const std::pair<const char*, const char*> kCases[] = {
      {"dot.dot", "dot__dot__dot"},
      {"dash-dash", "dash__dash__dash"},
      {"slash/slash", "slash__slash__slash"},
      {"doubleunderscore__doubleunderscore", "doubleunderscore__underscores__doubleunderscore"},
      {"true", "__true__"},
      {"_true", "_true"},
      {"int", "int"}};
  for (const auto& [name, escaped] : kCases) {
    ASSERT_TRUE(cel::EscapeName(name, &out)) << name;
    EXPECT_EQ(out, escaped);
    ASSERT_TRUE(cel::UnescapeName(escaped, &out)) << escaped;
    EXPECT_EQ(out, name);
  }
  EXPECT_FALSE(cel::EscapeName("9lives", &out));
  EXPECT_FALSE(cel::EscapeName("k!", &out));
  EXPECT_FALSE(cel::UnescapeName("a__b", &out));  // "a__b" escapes to a__underscores__b
}

RC_GTEST_PROP(CelProperty, DoubleNegationIsIdentity, (bool b)) {
  std::string lit = b ? "true" : "false";
  RC_ASSERT(Eval("!!" + lit + " == " + lit) == "true");
  RC_ASSERT(Eval("!" + lit + " != " + lit) == "true");
}

// Int addition is exact or the error "integer overflow", never a wrapped value.
RC_GTEST_PROP(CelProperty, IntAdditionIsCheckedArithmetic, (std::int64_t a, std::int64_t b)) {
  __int128 sum = static_cast<__int128>(a) + b;
  bool fits = sum >= INT64_MIN && sum <= INT64_MAX;
  std::string rule = std::to_string(a) + " + " + std::to_string(b) +
                     " == " + (fits ? std::to_string(static_cast<std::int64_t>(sum)) : "0");
  RC_ASSERT(Eval(rule) == (fits ? "true" : "error: integer overflow"));
}

// Compiles `text` and, when it compiles, evaluates it twice: never a crash, the same result
// both times, and never more steps than the budget.
void CompileAndRunTwice(const std::string& text) {
  auto program = CelProgram::Compile(text);
  if (!program.ok()) {
    RC_ASSERT(!program.status().message().empty());
    return;
  }
  Json self = Json::parse(R"({"a": [1, {"b": "c"}], "s": "str", "n": -3, "m": {"k": 2.5}})");
  std::int64_t first_steps = 10'000, second_steps = 10'000;
  CelResult first = program->Evaluate(self, nullptr, false, &first_steps);
  CelResult second = program->Evaluate(self, nullptr, false, &second_steps);
  RC_ASSERT(first.kind == second.kind && first.value == second.value &&
            first.error == second.error);
  RC_ASSERT(first_steps == second_steps && first_steps >= -1);
  RC_ASSERT(first.kind == CelResult::Kind::kValue || !first.error.empty());
}

RC_GTEST_PROP(CelProperty, ArbitraryTextNeverCrashes, (const std::string& text)) {
  CompileAndRunTwice(text);
}

// Random token soup reaches far more of the parser and evaluator than random bytes do.
RC_GTEST_PROP(CelProperty, ArbitraryTokensNeverCrash, ()) {
  static const std::vector<std::string> kTokens = {
      "self", ".",      "a",          "b",       "s",      "m",       "k",   "n",    "(",
      ")",    "[",      "]",          "{",       "}",      ",",       ":",   "0",    "1",
      "2u",   "1.5",    "'s'",        "+",       "-",      "*",       "/",   "%",    "!",
      "==",   "!=",     "<",          ">=",      "&&",     "||",      "?",   "in",   "size",
      "all",  "exists", "exists_one", "filter",  "map",    "x",       "has", "true", "null",
      "int",  "string", "type",       "matches", "'^a+$'", "contains"};
  auto tokens = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(kTokens));
  std::string text;
  for (const std::string& t : tokens) text += t + " ";
  CompileAndRunTwice(text);
}

}  // namespace
}  // namespace lws::api
