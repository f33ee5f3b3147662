// Rules over objects typed by the schema, ported from kubernetes/kubernetes
// staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation_test.go,
// TestValidationExpressions (upstream's case names). Upstream rejects some rules at compile time
// (`undefined field`); the subset has no type checker, so they fail when evaluated, with the
// same words. Cases whose upstream error only a type checker gives are left out.
#include <gtest/gtest.h>

#include "api/cel_testing.h"

namespace lws::api {
namespace {

using namespace cel_testing;  // NOLINT: test-only builders

TEST(CelSchemaObjectsTest, ObjectAccess) {
  RunRuleCase(
      {"object access",
       Object({{"a", Object({{"b", Type("integer")},
                             {"c", Type("integer")},
                             {"d", Nullable(Type("integer"))}})},
               {"a1", Object({{"b1", Object({{"c1", Type("integer")}})},
                              {"d2", Object({{"e2", Type("integer")}})}})}}),
       Json::parse(R"({"a": {"b": 1, "d": null}, "a1": {"b1": {"c1": 4}}})"),
       {"has(self.a.b)", "!has(self.a.c)", "!has(self.a.d)", "has(self.a1.b1.c1)",
        "!(has(self.a1.d2) && has(self.a1.d2.e2))", "!has(self.a1.d2)"},
       {{"has(self.a.z)", "undefined field 'z'"},
        {"self.a['b'] == 1", "no such overload"},  // upstream: no matching overload for '_[_]'
        {"has(self.a1.d2.e2)", "no such key: d2"}}});
}

TEST(CelSchemaObjectsTest, TypeMetaAndObjectMeta) {
  Json obj = Json::parse(R"({"apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"},
      "spec": {"field1": "a"}})");
  std::vector<std::string> valid = {"self.kind == 'Pod'", "self.apiVersion == 'v1'",
                                    "self.metadata.name == 'foo'",
                                    "self.metadata.generateName == 'pickItForMe'"};
  std::vector<std::pair<std::string, std::string>> errors = {
      {"has(self.metadata.namespace)", "undefined field 'namespace'"}};
  RunRuleCase(
      {"typemeta and objectmeta access specified",
       Object({{"kind", Type("string")},
               {"apiVersion", Type("string")},
               {"metadata", Object({{"name", Type("string")}, {"generateName", Type("string")}})},
               {"spec", Object({{"field1", Type("string")}})}}),
       obj, valid, errors});
  valid.push_back("self.spec.field1 == 'a'");
  RunRuleCase({"typemeta and objectmeta access not specified",
               Object({{"spec", Object({{"field1", Type("string")}})}}), obj, valid, errors});
}

TEST(CelSchemaObjectsTest, EmbeddedObjects) {
  Json embedded = Json::parse(R"({"embedded": {"apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"},
      "spec": {"field1": "a"}}})");
  std::vector<std::string> valid = {"self.embedded.kind == 'Pod'",
                                    "self.embedded.apiVersion == 'v1'",
                                    "self.embedded.metadata.name == 'foo'",
                                    "self.embedded.metadata.generateName == 'pickItForMe'"};
  Json bare = With(Type("object"), "x-kubernetes-embedded-resource", true);
  RunRuleCase({"embedded object",
               Object({{"embedded", bare}}),
               embedded,
               valid,
               {{"has(self.embedded.metadata.namespace)", "undefined field 'namespace'"},
                {"has(self.embedded.spec)", "undefined field 'spec'"}}});
  Json with_properties = With(
      Object({{"kind", Type("string")},
              {"apiVersion", Type("string")},
              {"metadata", Object({{"name", Type("string")}, {"generateName", Type("string")}})},
              {"spec", Object({{"field1", Type("string")}})}}),
      "x-kubernetes-embedded-resource", true);
  std::vector<std::string> more = valid;
  more.push_back("self.embedded.spec.field1 == 'a'");
  RunRuleCase({"embedded object with properties",
               Object({{"embedded", with_properties}}),
               embedded,
               more,
               {{"has(self.embedded.metadata.namespace)", "undefined field 'namespace'"}}});
  more = valid;
  more.push_back("has(self.embedded)");
  RunRuleCase({"embedded object with preserve unknown",
               Object({{"embedded", Preserve(bare)}}),
               embedded,
               more,
               {{"has(self.embedded.spec)", "undefined field 'spec'"}}});
}

TEST(CelSchemaObjectsTest, IntOrString) {
  Json schema = Object({{"something", IntOrString()}});
  RunRuleCase({"string in intOrString",
               schema,
               {{"something", "25%"}},
               {"self.something == '25%'", "self.something != 1",
                "self.something == 1 || self.something == '25%'",
                "self.something == '25%' || self.something == 1",
                "type(self.something) == string && self.something == '25%'",
                "type(self.something) == int ? self.something == 1 : self.something == '25%'",
                "self.something != ['anything']"},
               {}});
  RunRuleCase({"int in intOrString",
               schema,
               {{"something", 1}},
               {"self.something == 1", "self.something != 'some string'",
                "self.something == 1 || self.something == '25%'",
                "self.something == '25%' || self.something == 1",
                "type(self.something) == int && self.something == 1",
                "type(self.something) == int ? self.something == 1 : self.something == '25%'",
                "self.something != ['anything']"},
               {}});
  RunRuleCase({"null in intOrString",
               Object({{"something", Nullable(IntOrString())}}),
               {{"something", nullptr}},
               {"!has(self.something)"},
               {{"type(self.something) == int", "no such key"}}});
  RunRuleCase(
      {"percent comparison using intOrString",
       Object(
           {{"min", IntOrString()}, {"current", Type("integer")}, {"available", Type("integer")}}),
       {{"min", "50%"}, {"current", 5}, {"available", 10}},
       {R"(type(self.min) == string && self.min.matches(r'(\d+(\.\d+)?%)'))"},
       {}});
}

TEST(CelSchemaObjectsTest, PreservedUnknownFields) {
  Json unknown_object = Preserve(Type("object"));
  Json field_of_unknown_type = Object({{"fieldOfUnknownType", Preserve(Json::object())}});
  RunRuleCase({"preserve unknown fields",
               Object({{"withUnknown", unknown_object},
                       {"withUnknownList", List(unknown_object)},
                       {"withUnknownFieldList", List(field_of_unknown_type)}}),
               Json::parse(R"({"withUnknown": {"field1": "a", "field2": "b"},
           "withUnknownList": [{"field1": "a", "field2": "b"}, {"field1": "x", "field2": "y"},
                               {"field1": "x", "field2": "y"}, {}, {}],
           "withUnknownFieldList": [{"fieldOfUnknownType": "a"}, {"fieldOfUnknownType": 1},
                                    {"fieldOfUnknownType": 1}]})"),
               {"has(self.withUnknown)", "self.withUnknownList.size() == 5",
                "self.withUnknownList[0] != self.withUnknownList[1]",
                "self.withUnknownList[1] == self.withUnknownList[2]",
                "self.withUnknownList[3] == self.withUnknownList[4]",
                "self.withUnknownFieldList[0] != self.withUnknownFieldList[1]",
                "self.withUnknownFieldList[1] == self.withUnknownFieldList[2]"},
               {{"has(self.withUnknown.field1)", "undefined field 'field1'"}}});
  Json known = Preserve(Object({{"known", Type("integer")}}));
  RunRuleCase({"known and unknown fields",
               Object({{"withUnknown", known}, {"withUnknownList", List(known)}}),
               Json::parse(R"({"withUnknown": {"known": 1, "unknown": "a"},
           "withUnknownList": [{"known": 1, "unknown": "a"}, {"known": 1, "unknown": "b"},
               {"known": 1, "unknown": "b"}, {"known": 1}, {"known": 1}, {"known": 2}]})"),
               {"self.withUnknown.known == 1", "self.withUnknownList[0] != self.withUnknownList[1]",
                "self.withUnknownList[1] == self.withUnknownList[2]",
                "self.withUnknownList[0] != self.withUnknownList[3]",
                "self.withUnknownList[0] != self.withUnknownList[5]",
                "self.withUnknownList[3] == self.withUnknownList[4]",
                "self.withUnknownList[4] != self.withUnknownList[5]"},
               {{"has(self.withUnknown.unknown)", "undefined field 'unknown'"}}});
}

TEST(CelSchemaObjectsTest, Nullability) {
  Json str = Type("string");
  RunRuleCase({"field nullability",
               Object({{"unsetPlainStr", str},
                       {"unsetDefaultedStr", With(str, "default", "default value")},
                       {"unsetNullableStr", Nullable(str)},
                       {"setPlainStr", str},
                       {"setDefaultedStr", With(str, "default", "default value")},
                       {"setNullableStr", Nullable(str)},
                       {"setToNullNullableStr", Nullable(str)}}),
               {{"setPlainStr", "v1"},
                {"setDefaultedStr", "v2"},
                {"setNullableStr", "v3"},
                {"setToNullNullableStr", nullptr},
                {"unsetDefaultedStr", "default value"}},
               {"!has(self.unsetPlainStr)",
                "has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'",
                "!has(self.unsetNullableStr)", "has(self.setPlainStr) && self.setPlainStr == 'v1'",
                "has(self.setDefaultedStr) && self.setDefaultedStr == 'v2'",
                "has(self.setNullableStr) && self.setNullableStr == 'v3'",
                "type(self.setNullableStr) != null_type", "!has(self.setToNullNullableStr)"},
               {}});
  Json nullable = Nullable(str);
  RunRuleCase(
      {"null values in container types",
       Object({{"m", MapOf(nullable)}, {"l", List(nullable)}, {"s", List(nullable, "set")}}),
       Json::parse(R"({"m": {"a": null, "b": "not-nil"}, "l": [null, "not-nil"],
                               "s": [null, "not-nil"]})"),
       {"self.m.size() == 2", "'a' in self.m", "type(self.m['a']) == null_type",
        "self.l.size() == 2", "type(self.l[0]) == null_type", "self.s.size() == 2",
        "type(self.s[0]) == null_type"},
       {}});
}

TEST(CelSchemaObjectsTest, Escaping) {
  Json schema = Object({});
  Json obj = Json::object();
  int i = 0;
  for (const char* name :
       {"true",     "false",   "null",      "in",       "as",  "break",  "const",
        "continue", "else",    "for",       "function", "if",  "import", "let",
        "loop",     "package", "namespace", "return",   "var", "void",   "while"}) {
    schema["properties"][name] = Type("integer");
    obj[name] = ++i;
  }
  i = 100;
  for (const char* name :
       {"int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type"}) {
    schema["properties"][name] = Type("integer");
    obj[name] = ++i;
  }
  Json extra = Json::parse(R"({"self": 201, "getDate": 202, "all": 203, "_true": 301,
      "dot.dot": 401, "dash-dash": 402, "slash/slash": 403, "underscore_underscore": 404,
      "doubleunderscore__doubleunderscore": 405})");
  for (auto it = extra.begin(); it != extra.end(); ++it) {
    schema["properties"][it.key()] = Type("integer");
    obj[it.key()] = it.value();
  }
  schema["properties"]["size"] = Type("string");
  obj["size"] = "204";
  RunRuleCase({"escaping",
               schema,
               obj,
               {"self.__true__ == 1",
                "self.__false__ == 2",
                "self.__null__ == 3",
                "self.__in__ == 4",
                "self.__as__ == 5",
                "self.__break__ == 6",
                "self.__const__ == 7",
                "self.__continue__ == 8",
                "self.__else__ == 9",
                "self.__for__ == 10",
                "self.__function__ == 11",
                "self.__if__ == 12",
                "self.__import__ == 13",
                "self.__let__ == 14",
                "self.__loop__ == 15",
                "self.__package__ == 16",
                "self.__namespace__ == 17",
                "self.__return__ == 18",
                "self.__var__ == 19",
                "self.__void__ == 20",
                "self.__while__ == 21",
                "self.int == 101",
                "self.uint == 102",
                "self.double == 103",
                "self.bool == 104",
                "self.string == 105",
                "self.bytes == 106",
                "self.list == 107",
                "self.map == 108",
                "self.null_type == 109",
                "self.type == 110",
                "self.self == 201",
                "self.getDate == 202",
                "self.all == 203",
                "self.size == '204'",
                "self._true == 301",
                "self.__true__ != 301",
                "self.dot__dot__dot == 401",
                "self.dash__dash__dash == 402",
                "self.slash__slash__slash == 403",
                "self.underscore_underscore == 404",
                "self.doubleunderscore__underscores__doubleunderscore == 405"},
               {{"self.__illegal__ == 301", "undefined field '__illegal__'"}}});
  RunRuleCase({"map keys are not escaped",
               Object({{"m", MapOf(Type("integer"))}}),
               Json::parse(R"({"m": {"@": 1, "9": 2, "int": 3, "./-": 4, "👑": 5}})"),
               {"self.m['@'] == 1", "self.m['9'] == 2", "self.m['int'] == 3", "self.m['./-'] == 4",
                "self.m['👑'] == 5"},
               {}});
}

TEST(CelSchemaObjectsTest, CompositionAndTypes) {
  RunRuleCase(
      {"object types are not accessible",
       Object({{"nestedInMap", MapOf(Object({{"inMapField", Type("integer")}}))},
               {"nestedInList", List(Object({{"inListField", Type("integer")}}))}}),
       Json::parse(R"({"nestedInMap": {"k1": {"inMapField": 1}, "k2": {"inMapField": 2}},
                       "nestedInList": [{"inListField": 1}, {"inListField": 2}]})"),
       {"type(self) == type(self)", "type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])",
        "type(self.nestedInList[0]) == type(self.nestedInList[1])"},
       {{"string(type(self.nestedInList[0])).endsWith('.nestedInList.@idx')",
         "type conversion error from 'type' to 'string'"}}});
  Json odd_keys = Object({{"k!", Type("string")}, {"k.", Type("string")}});
  RunRuleCase({"listMaps with unsupported identity characters in property names",
               Object({{"objs", List(List(odd_keys, "map", {"k!", "k."}))}}),
               Json::parse(R"({"objs": [
                   [{"k!": "a", "k.": "1"}, {"k!": "b", "k.": "2"}],
                   [{"k!": "b", "k.": "2"}, {"k!": "a", "k.": "1"}],
                   [{"k!": "b", "k.": "2"}, {"k!": "c", "k.": "1"}],
                   [{"k!": "b", "k.": "2"}, {"k!": "a", "k.": "3"}]]})"),
               {"self.objs[0] == self.objs[1]", "self.objs[0][0].k__dot__ == '1'",
                "self.objs[0] != self.objs[2]", "self.objs[0] != self.objs[3]"},
               {}});
  Json str = Type("string");
  Json kv = Object({{"k", str}, {"v", str}});
  RunRuleCase(
      {"container type composition",
       Object({{"obj", Object({{"field", str}})},
               {"mapOfMap", MapOf(MapOf(str))},
               {"mapOfObj", MapOf(Object({{"field2", str}}))},
               {"mapOfListMap", MapOf(List(kv, "map", {"k"}))},
               {"mapOfList", MapOf(List(str))},
               {"listMapOfObj", List(Object({{"k2", str}, {"v2", str}}), "map", {"k2"})},
               {"listOfMap", List(MapOf(str))},
               {"listOfObj", List(Object({{"field3", str}}))},
               {"listOfListMap", List(List(Object({{"k3", str}, {"v3", str}}), "map", {"k3"}))}}),
       Json::parse(R"({"obj": {"field": "a"}, "mapOfMap": {"x": {"y": "b"}},
           "mapOfObj": {"k": {"field2": "c"}}, "mapOfListMap": {"o": [{"k": "1", "v": "d"}]},
           "mapOfList": {"l": ["e"]}, "listMapOfObj": [{"k2": "2", "v2": "f"}],
           "listOfMap": [{"z": "g"}], "listOfObj": [{"field3": "h"}],
           "listOfListMap": [[{"k3": "3", "v3": "i"}]]})"),
       {"self.obj.field == 'a'", "self.mapOfMap['x']['y'] == 'b'",
        "self.mapOfObj['k'].field2 == 'c'",
        "self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')",
        "self.mapOfList['l'][0] == 'e'", "self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')",
        "self.listOfMap[0]['z'] == 'g'", "self.listOfObj[0].field3 == 'h'",
        "self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')"},
       {}});
}

}  // namespace
}  // namespace lws::api
