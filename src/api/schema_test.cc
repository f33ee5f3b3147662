// Pruning, defaulting and validation against the real LWS schema, with the API server's messages.
#include "api/schema.h"

#include <gtest/gtest.h>

#include "api/yaml.h"

namespace lws::api {
namespace {

Json Lws() {
  auto j = LoadYaml(R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: demo
  namespace: default
spec:
  leaderWorkerTemplate:
    workerTemplate:
      spec:
        containers:
        - name: worker
          image: nginx
)");
  EXPECT_TRUE(j.ok());
  return *j;
}

std::vector<std::string> Messages(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.Error());
  return out;
}

// Runs the server's pipeline and returns the validation messages.
std::vector<std::string> Admit(Json obj) {
  const StructuralSchema& s = LwsStructuralSchema();
  s.Prune(&obj);
  s.ApplyDefaults(&obj);
  return Messages(s.Validate(obj));
}

TEST(LwsSchemaTest, ValidObjectPassesAndGetsDefaults) {
  Json obj = Lws();
  const StructuralSchema& s = LwsStructuralSchema();
  EXPECT_TRUE(s.Prune(&obj).empty());
  s.ApplyDefaults(&obj);
  EXPECT_TRUE(s.Validate(obj).empty()) << AggregateMessage(s.Validate(obj));
  EXPECT_EQ(obj["spec"]["replicas"], 1);
  EXPECT_EQ(obj["spec"]["startupPolicy"], "LeaderCreated");
  EXPECT_EQ(obj["spec"]["leaderWorkerTemplate"]["size"], 1);
  EXPECT_EQ(obj["spec"]["leaderWorkerTemplate"]["restartPolicy"], "RecreateGroupOnPodRestart");
  EXPECT_FALSE(obj["spec"].contains("rolloutStrategy"));
  EXPECT_FALSE(obj["spec"].contains("networkConfig"));
}

TEST(LwsSchemaTest, UnknownFieldsArePrunedAndReported) {
  Json obj = Lws();
  obj["spec"]["foo"] = 1;
  obj["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["bogus"] = true;
  obj["metadata"]["bogus"] = "x";
  obj["metadata"]["labels"] = {{"app", "web"}};
  obj["extra"] = {{"a", 1}};
  std::vector<std::string> pruned = LwsStructuralSchema().Prune(&obj);
  EXPECT_EQ(pruned, (std::vector<std::string>{
                        "extra", "metadata.bogus", "spec.foo",
                        "spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].bogus"}));
  Json want = Lws();
  want["metadata"]["labels"] = {{"app", "web"}};
  EXPECT_EQ(obj, want);
}

TEST(LwsSchemaTest, RollingUpdateDefaultsOnlyWhenPresent) {
  Json obj = Lws();
  obj["spec"]["rolloutStrategy"] = Json::object();
  LwsStructuralSchema().ApplyDefaults(&obj);
  EXPECT_EQ(obj["spec"]["rolloutStrategy"], Json({{"type", "RollingUpdate"}}));

  obj["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"] = {{"maxSurge", "20%"}};
  LwsStructuralSchema().ApplyDefaults(&obj);
  EXPECT_EQ(obj["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"],
            Json({{"partition", 0}, {"maxUnavailable", 1}, {"maxSurge", "20%"}}));
}

TEST(LwsSchemaTest, NullIsReplacedByDefaultOrPruned) {
  Json obj = Lws();
  obj["spec"]["replicas"] = nullptr;
  obj["spec"]["networkConfig"] = nullptr;  // no default, not nullable: dropped
  const StructuralSchema& s = LwsStructuralSchema();
  s.Prune(&obj);
  s.ApplyDefaults(&obj);
  EXPECT_EQ(obj["spec"]["replicas"], 1);
  EXPECT_FALSE(obj["spec"].contains("networkConfig"));
}

struct MessageCase {
  std::string name;
  std::function<void(Json&)> change;
  std::vector<std::string> want;
};

TEST(LwsSchemaTest, ServerMessages) {
  const std::vector<MessageCase> cases = {
      {"negative replicas",
       [](Json& j) { j["spec"]["replicas"] = -1; },
       {"spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal "
        "to 0"}},
      {"too many replicas",
       [](Json& j) { j["spec"]["replicas"] = 1000001; },
       {"spec.replicas: Invalid value: 1000001: spec.replicas in body should be less than or equal "
        "to 1000000"}},
      {"string replicas",
       [](Json& j) { j["spec"]["replicas"] = "string"; },
       {"spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: "
        "\"string\""}},
      {"startupPolicy",
       [](Json& j) { j["spec"]["startupPolicy"] = "x"; },
       {"spec.startupPolicy: Unsupported value: \"x\": supported values: \"LeaderCreated\", "
        "\"LeaderReady\""}},
      {"restartPolicy",
       [](Json& j) { j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "Always"; },
       {"spec.leaderWorkerTemplate.restartPolicy: Unsupported value: \"Always\": supported values: "
        "\"Default\", \"RecreateGroupOnPodRestart\", \"RecreateGroupAfterStart\", \"None\""}},
      {"rollout type",
       [](Json& j) {
         j["spec"]["rolloutStrategy"] = {{"type", "Recreate"}};
       },
       {"spec.rolloutStrategy.type: Unsupported value: \"Recreate\": supported values: "
        "\"RollingUpdate\""}},
      {"subdomainPolicy",
       [](Json& j) {
         j["spec"]["networkConfig"] = {{"subdomainPolicy", "x"}};
       },
       {"spec.networkConfig.subdomainPolicy: Unsupported value: \"x\": supported values: "
        "\"Shared\", "
        "\"UniquePerReplica\""}},
      {"subdomainPolicy required",
       [](Json& j) { j["spec"]["networkConfig"] = Json::object(); },
       {"spec.networkConfig.subdomainPolicy: Required value"}},
      {"template required",
       [](Json& j) { j["spec"].erase("leaderWorkerTemplate"); },
       {"spec.leaderWorkerTemplate: Required value"}},
      {"maxSurge bool",
       [](Json& j) {
         j["spec"]["rolloutStrategy"] = {{"rollingUpdateConfiguration", {{"maxSurge", true}}}};
       },
       {"spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge: Invalid value: \"boolean\": "
        "spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge in body must be of type "
        "integer,string: \"boolean\"",
        "<nil>: Invalid value: \"\": \"spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge\" "
        "must validate at "
        "least one schema (anyOf)",
        "spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge: Invalid value: \"boolean\": "
        "spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge in body must be of type integer: "
        "\"boolean\""}},
      {"duplicate condition",
       [](Json& j) {
         Json c = {{"type", "Available"},
                   {"status", "True"},
                   {"reason", "Ok"},
                   {"message", ""},
                   {"lastTransitionTime", "2024-01-01T00:00:00Z"}};
         j["status"] = {{"conditions", {c, c}}};
       },
       {"status.conditions[1]: Duplicate value: {\"type\":\"Available\"}"}},
      {"condition fields",
       [](Json& j) {
         j["status"] = {{"conditions",
                         {{{"type", "Available"},
                           {"status", "Maybe"},
                           {"reason", "1bad"},
                           {"message", "m"},
                           {"lastTransitionTime", "yesterday"}}}}};
       },
       {"status.conditions[0].lastTransitionTime: Invalid value: \"yesterday\": "
        "status.conditions[0].lastTransitionTime in body must be of type date-time: \"yesterday\"",
        "status.conditions[0].reason: Invalid value: \"1bad\": status.conditions[0].reason in body "
        "should match "
        "'^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'",
        "status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"True\", "
        "\"False\", \"Unknown\""}},
      {"size string keeps int32 unchecked",
       [](Json& j) { j["spec"]["leaderWorkerTemplate"]["size"] = 3000000000LL; },
       {}},
  };
  for (const auto& c : cases) {
    Json obj = Lws();
    c.change(obj);
    EXPECT_EQ(Admit(obj), c.want) << c.name;
  }
}

// ---- Hand-written schemas, one keyword at a time ---------------------------------------------

StructuralSchema Compile(const char* schema_json) {
  auto s = StructuralSchema::Compile(Json::parse(schema_json));
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return *s;
}

std::vector<std::string> Check(const char* schema_json, const char* obj_json) {
  return Messages(Compile(schema_json).Validate(Json::parse(obj_json)));
}

TEST(SchemaKeywordTest, TypesAndNullable) {
  const char* kSchema = R"({"type":"object","properties":{"field":{"type":"object"},
                           "n":{"type":"object","nullable":true},"any":{"nullable":true},
                           "ios":{"x-kubernetes-int-or-string":true}}})";
  EXPECT_EQ(
      Check(kSchema, R"({"field": 42})"),
      (std::vector<std::string>{
          "field: Invalid value: \"integer\": field in body must be of type object: \"integer\""}));
  EXPECT_EQ(
      Check(kSchema, R"({"field": 1.2})"),
      (std::vector<std::string>{
          "field: Invalid value: \"number\": field in body must be of type object: \"number\""}));
  EXPECT_EQ(Check(kSchema, R"({"field": null})"),
            (std::vector<std::string>{
                "field: Invalid value: \"null\": field in body must be of type object: \"null\""}));
  EXPECT_TRUE(Check(kSchema, R"({"n": null, "any": 1, "ios": "10%"})").empty());
  EXPECT_TRUE(Check(kSchema, R"({"ios": 3})").empty());
  EXPECT_EQ(
      Check(kSchema, R"({"ios": []})"),
      (std::vector<std::string>{
          "ios: Invalid value: \"array\": ios in body must be of type integer,string: \"array\""}));
  EXPECT_EQ(Check(kSchema, R"({"n": []})"),
            (std::vector<std::string>{
                "n: Invalid value: \"array\": n in body must be of type object: \"array\""}));
}

TEST(SchemaKeywordTest, NumbersStringsAndCollections) {
  const char* kSchema = R"({"type":"object","properties":{
      "i":{"type":"integer","minimum":1,"maximum":10,"exclusiveMaximum":true,"multipleOf":3},
      "f":{"type":"number","maximum":1.5},
      "s":{"type":"string","minLength":2,"maxLength":3,"pattern":"^a"},
      "bad":{"type":"string","pattern":"+"},
      "l":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"string"}},
      "m":{"type":"object","maxProperties":2,"additionalProperties":{"type":"integer"}},
      "e":{"type":"integer","enum":[1,2]}}})";
  EXPECT_EQ(Check(kSchema, R"({"i": 10})"),
            (std::vector<std::string>{"i: Invalid value: 10: i in body should be a multiple of 3",
                                      "i: Invalid value: 10: i in body should be less than 10"}));
  EXPECT_EQ(Check(kSchema, R"({"i": 0})"),
            (std::vector<std::string>{
                "i: Invalid value: 0: i in body should be greater than or equal to 1"}));
  EXPECT_EQ(Check(kSchema, R"({"f": 2.5})"),
            (std::vector<std::string>{
                "f: Invalid value: 2.5: f in body should be less than or equal to 1.5"}));
  EXPECT_EQ(Check(kSchema, R"({"s": "abcd"})"),
            (std::vector<std::string>{"s: Too long: may not be more than 3 bytes"}));
  EXPECT_EQ(Check(kSchema, R"({"s": "a"})"),
            (std::vector<std::string>{
                "s: Invalid value: \"a\": s in body should be at least 2 chars long"}));
  EXPECT_EQ(Check(kSchema, R"({"s": "bb"})"),
            (std::vector<std::string>{"s: Invalid value: \"bb\": s in body should match '^a'"}));
  EXPECT_EQ(Check(kSchema, R"({"bad": "foo"})"),
            (std::vector<std::string>{
                "bad: Invalid value: \"foo\": bad in body should match '+, but pattern is "
                "invalid: error parsing regexp: missing argument to repetition operator: `+`'"}));
  EXPECT_EQ(Check(kSchema, R"({"l": ["a", "b", "c"]})"),
            (std::vector<std::string>{"l: Too many: 3: must have at most 2 items"}));
  EXPECT_EQ(
      Check(kSchema, R"({"l": [1]})"),
      (std::vector<std::string>{
          "l[0]: Invalid value: \"integer\": l[0] in body must be of type string: \"integer\"",
          "l: Invalid value: 1: l in body should have at least 2 items"}));
  EXPECT_EQ(Check(kSchema, R"({"m": {"a": 1, "b": 2, "c": 3}})"),
            (std::vector<std::string>{"m: Too many: 3: must have at most 2 items"}));
  EXPECT_EQ(
      Check(kSchema, R"({"m": {"a": "x"}})"),
      (std::vector<std::string>{
          "m.a: Invalid value: \"string\": m.a in body must be of type integer: \"string\""}));
  EXPECT_EQ(Check(kSchema, R"({"e": "x"})"),
            (std::vector<std::string>{
                "e: Invalid value: \"string\": e in body must be of type integer: \"string\"",
                "e: Unsupported value: \"x\": supported values: \"1\", \"2\""}));
  EXPECT_TRUE(Check(kSchema, R"({"i": 3, "f": 1.5, "s": "ab", "l": ["a", "b"], "e": 2})").empty());
}

TEST(SchemaKeywordTest, RequiredForbiddenAndJunctors) {
  EXPECT_EQ(Check(R"({"type":"object","required":["field"],"properties":{"field":{"type":"object",
                     "required":["nested"],"properties":{"nested":{}}}}})",
                  R"({"field": {}})"),
            (std::vector<std::string>{"field.nested: Required value"}));
  EXPECT_EQ(
      Check(R"({"type":"object","properties":{"o":{"type":"object","additionalProperties":false,
                     "properties":{"a":{}}}}})",
            R"({"o": {"a": 1, "b": 2}})"),
      (std::vector<std::string>{"o: Invalid value: \"b\": o.b in body is a forbidden property"}));
  EXPECT_EQ(
      Check(R"({"type":"object","properties":{"x":{"allOf":[{"type":"string"},{"minLength":3}]}}})",
            R"({"x": "ab"})"),
      (std::vector<std::string>{
          "x: Invalid value: \"ab\": x in body should be at least 3 chars long",
          "<nil>: Invalid value: \"\": \"x\" must validate all the schemas (allOf)"}));
  EXPECT_EQ(
      Check(R"({"type":"object","properties":{"x":{"not":{"type":"string"}}}})", R"({"x": "a"})"),
      (std::vector<std::string>{
          "<nil>: Invalid value: \"\": \"x\" must not validate the schema (not)"}));
}

TEST(SchemaKeywordTest, ListTypes) {
  const char* kSchema = R"({"type":"object","properties":{
      "set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
      "map":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k1","k2"],
             "items":{"type":"object","properties":{"k1":{"type":"string"},"k2":{"type":"integer"}}}}}})";
  EXPECT_EQ(Check(kSchema, R"({"set": ["a", "b", "a", "a"]})"),
            (std::vector<std::string>{"set[2]: Duplicate value: \"a\""}));
  EXPECT_EQ(Check(kSchema,
                  R"({"map": [{"k1": "a", "k2": 1}, {"k1": "a", "k2": 2}, {"k1": "a", "k2": 1}]})"),
            (std::vector<std::string>{"map[2]: Duplicate value: {\"k1\":\"a\",\"k2\":1}"}));
  EXPECT_EQ(
      Check(kSchema, R"({"map": [1]})"),
      (std::vector<std::string>{
          "map[0]: Invalid value: \"integer\": map[0] in body must be of type object: \"integer\"",
          "map[0]: Invalid value: 1: must be an object for an array of list-type map"}));
}

TEST(SchemaKeywordTest, Formats) {
  const char* kSchema =
      R"({"type":"object","properties":{"t":{"type":"string","format":"date-time"},
      "i":{"type":"integer","format":"int32"},"u":{"type":"string","format":"uuid"},
      "b":{"type":"string","format":"byte"}}})";
  EXPECT_TRUE(Check(kSchema, R"({"t": "2024-02-29T10:00:00.5+01:00", "i": 99999999999,
                                 "u": "123e4567-e89b-12d3-a456-426614174000", "b": "aGk="})")
                  .empty());
  EXPECT_EQ(Check(kSchema, R"({"t": "2023-02-29T10:00:00Z", "b": "a"})"),
            (std::vector<std::string>{
                "b: Invalid value: \"a\": b in body must be of type byte: \"a\"",
                "t: Invalid value: \"2023-02-29T10:00:00Z\": t in body must be of type "
                "date-time: \"2023-02-29T10:00:00Z\""}));
}

TEST(SchemaPruneTest, PreserveUnknownFieldsEmbeddedAndAdditional) {
  StructuralSchema s = Compile(R"({"type":"object","properties":{
      "keep":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
              "properties":{"inner":{"type":"object","properties":{"a":{"type":"string"}}}}},
      "res":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
      "map":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"integer","default":7}}}},
      "list":{"type":"array","items":{"type":"object","properties":{"n":{"type":"string","default":"x"}}}},
      "obj":{"type":"object","default":{"a":1,"junk":2},"properties":{"a":{"type":"integer"}}}}})");
  Json obj = Json::parse(R"({
      "keep": {"free": 1, "inner": {"a": "x", "b": "y"}},
      "res": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "x": 1}, "spec": {}, "other": 1},
      "map": {"one": {"v": 1, "w": 2}, "two": {}},
      "list": [{"n": "a", "m": 1}, {}]})");
  std::vector<std::string> pruned = s.Prune(&obj);
  EXPECT_EQ(pruned, (std::vector<std::string>{"keep.inner.b", "list[0].m", "map.one.w",
                                              "res.metadata.x", "res.other"}));
  s.ApplyDefaults(&obj);
  EXPECT_EQ(obj, Json::parse(R"({
      "keep": {"free": 1, "inner": {"a": "x"}},
      "res": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}},
      "map": {"one": {"v": 1}, "two": {"v": 7}},
      "list": [{"n": "a"}, {"n": "x"}],
      "obj": {"a": 1}})"));
  EXPECT_TRUE(s.Validate(obj).empty()) << AggregateMessage(s.Validate(obj));
  obj["res"] = {{"kind", "Not A Kind"}};
  EXPECT_EQ(Messages(s.Validate(obj)),
            (std::vector<std::string>{"res.apiVersion: Required value",
                                      "res.kind: Invalid value: \"Not A Kind\": may have mixed "
                                      "case, but should otherwise match: a DNS-1035 "
                                      "label must consist of lower case alphanumeric characters or "
                                      "'-', start with an alphabetic character, "
                                      "and end with an alphanumeric character (e.g. 'my-name' or "
                                      "'abc-123', regex used for validation is "
                                      "'[a-z]([-a-z0-9]*[a-z0-9])?')"}));
  obj["res"] = {{"apiVersion", "a/b/c"}, {"kind", ""}};
  EXPECT_EQ(Messages(s.Validate(obj)),
            (std::vector<std::string>{
                "res.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
                "res.kind: Invalid value: \"\": must not be empty"}));
  obj["res"] = {{"apiVersion", 5}, {"kind", "Pod"}};
  EXPECT_EQ(Messages(s.Validate(obj)),
            (std::vector<std::string>{"res.apiVersion: Invalid value: 5: must be a string"}));
}

TEST(SchemaPruneTest, RejectsNonSchemas) {
  EXPECT_FALSE(StructuralSchema::Compile(Json::array()).ok());
  EXPECT_FALSE(StructuralSchema::Compile(Json::parse(R"({"properties":{"a":5}})")).ok());
}

}  // namespace
}  // namespace lws::api
