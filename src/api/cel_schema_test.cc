// Rules over values typed by the schema, ported from kubernetes/kubernetes
// staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation_test.go,
// TestValidationExpressions (each case keeps upstream's name; rules of functions the subset
// lacks, such as duration, timestamp, bytes and the string extensions, are left out). Here:
// scalars, numbers, strings, lists, sets and maps. Objects are in cel_schema_objects_test.cc.
#include <gtest/gtest.h>

#include <cfloat>
#include <cstdint>

#include "api/cel_testing.h"

namespace lws::api {
namespace {

using namespace cel_testing;  // NOLINT: test-only builders

const char kMaxInt64[] = "9223372036854775807";
const char kMaxInt32[] = "2147483647";

TEST(CelSchemaTest, Integers) {
  RunRuleCase({"integers",
               Schemas({Type("integer"), Type("integer"), Format("integer", "int32"),
                        Format("integer", "int32"), Format("integer", "int64"),
                        Format("integer", "int64")}),
               Objs({INT64_MAX, INT64_MAX, INT32_MAX, INT32_MAX, INT64_MAX, INT64_MAX}),
               {ValsEqual("self.val1", "self.val2", kMaxInt64),
                ValsEqual("self.val3", "self.val4", kMaxInt32),
                ValsEqual("self.val5", "self.val6", kMaxInt64), "self.val1 == self.val6",
                "type(self.val1) == int", std::string("self.val3 + 1 == ") + kMaxInt32 + " + 1",
                "type(self.val3) == int", "type(self.val5) == int"},
               {{"self.val1 + 1 == 0", "integer overflow"},
                {"self.val5 + 1 == 0", "integer overflow"},
                {"1 / 0 == 1 / 0", "division by zero"}}});
}

TEST(CelSchemaTest, Numbers) {
  char max64[400], max32[100];
  std::snprintf(max64, sizeof max64, "%f", DBL_MAX);  // Go's %f of math.MaxFloat64
  std::snprintf(max32, sizeof max32, "%f", static_cast<double>(FLT_MAX));
  RunRuleCase(
      {"numbers",
       Schemas({Type("number"), Type("number"), Format("number", "float"),
                Format("number", "float"), Format("number", "double"), Format("number", "double"),
                Format("number", "double")}),
       Objs({DBL_MAX, DBL_MAX, static_cast<double>(FLT_MAX), static_cast<double>(FLT_MAX), DBL_MAX,
             DBL_MAX, 1}),
       {ValsEqual("self.val1", "self.val2", max64), ValsEqual("self.val3", "self.val4", max32),
        ValsEqual("self.val5", "self.val6", max64), "self.val1 == self.val6",
        "type(self.val1) == double", "type(self.val3) == double", "type(self.val5) == double",
        // An integral JSON number under type: number is a double.
        "type(self.val7) == double", "self.val7 == 1.0"},
       {}});
}

TEST(CelSchemaTest, NumericComparisons) {
  std::vector<std::string> valid;
  // val1..3 integers 5, 10, 15; val4..6 numbers 10.0; val7..9 numbers written as integer 10.
  for (int v = 4; v <= 9; ++v) {
    std::string n = "self.val" + std::to_string(v);
    valid.push_back("double(self.val1) < " + n);
    valid.push_back("double(self.val2) == " + n);
    valid.push_back("double(self.val3) > " + n);
    valid.push_back("self.val1 < int(" + n + ")");
    valid.push_back("self.val2 == int(" + n + ")");
    valid.push_back("self.val3 > int(" + n + ")");
  }
  for (const char* rule :
       {"double(self.val1) <= self.val4", "double(self.val2) <= self.val4",
        "double(self.val2) >= self.val4", "double(self.val3) >= self.val4", "double(5) < 10.0",
        "double(10) == 10.0", "double(15) > 10.0", "5 < int(10.0)", "10 == int(10.0)",
        "15 > int(10.0)", "double(self.val1) < 10.0", "double(self.val2) == 10.0",
        "double(self.val3) > 10.0"}) {
    valid.push_back(rule);
  }
  RunRuleCase({"numeric comparisons",
               Schemas({Type("integer"), Type("integer"), Type("integer"), Type("number"),
                        Format("number", "float"), Format("number", "double"), Type("number"),
                        Format("number", "float"), Format("number", "double")}),
               Objs({5, 10, 15, 10.0, 10.0, 10.0, 10, 10, 10}),
               valid,
               {}});
}

TEST(CelSchemaTest, Strings) {
  RunRuleCase(
      {"unicode strings",
       Schemas({Type("string"), Type("string")}),
       Objs({"Rook takes 👑", "Rook takes 👑"}),
       {ValsEqual("self.val1", "self.val2", "'Rook takes 👑'"), "self.val1.startsWith('Rook')",
        "!self.val1.startsWith('knight')", "self.val1.contains('takes')",
        "!self.val1.contains('gives')", "self.val1.endsWith('👑')", "!self.val1.endsWith('pawn')",
        "self.val1.matches('^[^0-9]*$')", "!self.val1.matches('^[0-9]*$')",
        "type(self.val1) == string", "size(self.val1) == 12"},
       {}});
  RunRuleCase({"escaped strings",
               Schemas({Type("string"), Type("string")}),
               Objs({"l1\nl2", "l1\nl2"}),
               {ValsEqual("self.val1", "self.val2", "'l1\\nl2'"), "self.val1 == '''l1\nl2'''"},
               {}});
  RunRuleCase(
      {"booleans",
       Schemas({Type("boolean"), Type("boolean"), Type("boolean"), Type("boolean")}),
       Objs({true, true, false, false}),
       {ValsEqual("self.val1", "self.val2", "true"), ValsEqual("self.val3", "self.val4", "false"),
        "self.val1 != self.val4", "type(self.val1) == bool"},
       {}});
  RunRuleCase({"enums",
               Object({{"enumStr", With(Type("string"), "enum",
                                        {"Pending", "Available", "Bound", "Released", "Failed"})}}),
               {{"enumStr", "Pending"}},
               {"self.enumStr == 'Pending'", "self.enumStr in ['Pending', 'Available']"},
               {}});
}

TEST(CelSchemaTest, Conversions) {
  RunRuleCase(
      {"conversions",
       Schemas({Type("integer"), Type("number"), Type("number"), Type("number"), Type("boolean"),
                Type("string")}),
       Objs({10, 10.0, 10.49, 10.5, true, "10"}),
       {"int(self.val2) == self.val1", "int(self.val3) == self.val1", "int(self.val4) == self.val1",
        "int(self.val6) == self.val1", "double(self.val1) == self.val2",
        "double(self.val6) == self.val2", "string(self.val1) == self.val6",
        "string(self.val2) == '10'", "string(self.val3) == '10.49'", "string(self.val4) == '10.5'",
        "string(self.val5) == 'true'"},
       {}});
}

TEST(CelSchemaTest, ListsSetsAndMaps) {
  Json ints = List(Type("integer"));
  RunRuleCase(
      {"lists",
       Schemas({ints, ints}),
       Objs({{1, 2, 3}, {1, 2, 3}}),
       {ValsEqual("self.val1", "self.val2", "[1, 2, 3]"), "1 in self.val1",
        "self.val2[0] in self.val1", "!(0 in self.val1)",
        "self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]", "self.val1 + [4, 5] == [1, 2, 3, 4, 5]"},
       {}});
  Json strings = List(Type("string"), "set");
  RunRuleCase({"listSets",
               Schemas({strings, strings}),
               Objs({{"a", "b", "c"}, {"a", "c", "b"}}),
               {"self.val1 == ['c', 'b', 'a']", "self.val1 == self.val2", "'a' in self.val1",
                "self.val2[0] in self.val1", "!('x' in self.val1)",
                "self.val1 + self.val2 == ['a', 'b', 'c']",
                "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']"},
               {}});
  Json kv = Object({{"k", Type("string")}, {"v", Type("string")}});
  Json pairs = Json::parse(R"([
      [{"k": "a", "v": "1"}, {"k": "b", "v": "2"}], [{"k": "b", "v": "2"}, {"k": "a", "v": "1"}],
      [{"k": "b", "v": "3"}, {"k": "a", "v": "1"}], [{"k": "c", "v": "4"}]])");
  RunRuleCase({"listMaps",
               Object({{"objs", List(List(kv, "map", {"k"}))}}),
               {{"objs", pairs}},
               {"self.objs[0] == self.objs[1]", "self.objs[0] + self.objs[2] == self.objs[2]",
                "self.objs[2] + self.objs[0] == self.objs[0]",
                "self.objs[0] == [self.objs[0][0], self.objs[0][1]]",
                "self.objs[0] == [self.objs[0][1], self.objs[0][0]]",
                "self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]",
                "size(self.objs[0] + [self.objs[3][0]]) == 3"},
               {}});
  Json string_map = MapOf(Type("string"));
  RunRuleCase({"maps",
               Schemas({string_map, string_map}),
               Objs({{{"k1", "a"}, {"k2", "b"}}, {{"k2", "b"}, {"k1", "a"}}}),
               {"self.val1 == self.val2", "'k1' in self.val1", "!('k3' in self.val1)",
                "self.val1 == {'k1': 'a', 'k2': 'b'}"},
               {}});
}

TEST(CelSchemaTest, ListAndMapAccess) {
  RunRuleCase({"map access",
               Object({{"val", MapOf(Type("integer"))}}),
               {{"val", {{"b", 1}, {"d", 2}}}},
               {"!('a' in self.val)", "'b' in self.val", "!('c' in self.val)", "'d' in self.val",
                "!has(self.val.a)", "has(self.val.b)", "!has(self.val.c)", "has(self.val.d)",
                "self.val.all(k, self.val[k] > 0)", "self.val.exists(k, self.val[k] > 1)",
                "self.val.exists_one(k, self.val[k] == 2)", "!self.val.exists(k, self.val[k] > 2)",
                "!self.val.exists_one(k, self.val[k] > 0)", "size(self.val) == 2",
                "self.val.map(k, self.val[k]).exists(v, v == 1)",
                "size(self.val.filter(k, self.val[k] > 1)) == 1"},
               {{"self.val['c'] == 1", "no such key: c"}}});
  Json kv = Object({{"k", Type("string")}, {"v", Type("string")}, {"v2", Type("string")}});
  RunRuleCase(
      {"listMap access",
       Object({{"listMap", List(kv, "map", {"k"})}}),
       {{"listMap", Json::parse(R"([{"k": "a1", "v": "b1"}, {"k": "a2", "v": "b2"},
                                    {"k": "a3", "v": "b3", "v2": "z"}])")}},
       {"has(self.listMap[0].v)", "self.listMap.all(m, m.k.startsWith('a'))",
        "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
        "self.listMap.exists(m, m.k.endsWith('1'))", "self.listMap.exists_one(m, m.k == 'a3')",
        "!self.listMap.all(m, m.k.endsWith('1'))", "!self.listMap.exists(m, m.v == 'x')",
        "!self.listMap.exists_one(m, m.k.startsWith('a'))",
        "size(self.listMap.filter(m, m.k == 'a1')) == 1",
        "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')",
        "self.listMap.map(m, m.v).exists(v, v == 'b1')",
        "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')",
        "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')",
        "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')",
        "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1",
        "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
        "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1",
        "self.listMap.exists(m, m.v2 == 'z')", "!self.listMap.all(m, m.v2 != 'z')"},
       {{"self.listMap.all(m, m.v2 == 'z')", "no such key: v2"},
        {"self.listMap.exists_one(m, m.v2 == 'z')", "no such key: v2"},
        {"self.listMap.filter(m, m.v2 == 'z').size() == 1", "no such key: v2"},
        {"self.listMap.map(m, m.v2).size() == 1", "no such key: v2"},
        {"self.listMap.map(m, m.v2 == 'z', m.v2).size() == 1", "no such key: v2"}}});
  RunRuleCase(
      {"list access",
       Object({{"array", List(Type("integer"))}}),
       {{"array", {1, 1, 2, 2, 3, 3, 4, 5}}},
       {"2 in self.array", "self.array.all(e, e > 0)", "self.array.exists(e, e > 2)",
        "self.array.exists_one(e, e > 4)", "!self.array.all(e, e < 2)",
        "!self.array.exists(e, e < 0)", "!self.array.exists_one(e, e == 2)",
        "self.array.all(e, e < 100)", "size(self.array.filter(e, e%2 == 0)) == 3",
        "self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)", "size(self.array) == 8"},
       {{"self.array[100] == 0", "index out of bounds: 100"}}});
  RunRuleCase(
      {"listSet access",
       Object({{"set", List(Type("integer"))}}),
       {{"set", {1, 2, 3, 4, 5}}},
       {"3 in self.set", "self.set.all(e, e > 0)", "self.set.exists(e, e > 3)",
        "self.set.exists_one(e, e == 3)", "!self.set.all(e, e < 3)", "!self.set.exists(e, e < 0)",
        "!self.set.exists_one(e, e > 3)", "self.set.all(e, e < 10)",
        "size(self.set.filter(e, e%2 == 0)) == 2",
        "self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)", "size(self.set) == 5"},
       {}});
}

}  // namespace
}  // namespace lws::api
