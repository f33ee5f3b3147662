// x-kubernetes-validations through StructuralSchema (api/schema.h): where rules run, how their
// errors read (upstream pkg/apiserver/schema/cel/validation.go, validateExpressions and
// fieldErrorForReason), the blocking errors of pkg/registry/customresource/strategy.go, and
// rules that are skipped instead of failing Compile. Starts with the first real user, the
// DisaggregatedSet CRD's rule on spec.
#include <gtest/gtest.h>

#include "api/cel_testing.h"
#include "api/yaml.h"

namespace lws::api {
namespace {

using namespace cel_testing;  // NOLINT: test-only builders

const char kReplicasMessage[] =
    "replicas must be zero for all non-External roles or non-zero for all non-External roles";

// The part of the DisaggregatedSet schema the rule reads, with its rule and message verbatim.
StructuralSchema DisaggregatedSetSchema() {
  auto schema = LoadYaml(R"yaml(
type: object
properties:
  spec:
    type: object
    required: [roles]
    properties:
      roles:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string}
            scaling:
              type: object
              properties:
                mode: {type: string, enum: [Static, External]}
            spec:
              type: object
              properties:
                replicas: {type: integer, format: int32}
    x-kubernetes-validations:
    - message: replicas must be zero for all non-External roles or non-zero for all non-External roles
      rule: self.roles.filter(r, !has(r.scaling) || r.scaling.mode != 'External').all(r, !has(r.spec.replicas) || r.spec.replicas == 0) || self.roles.filter(r, !has(r.scaling) || r.scaling.mode != 'External').all(r, has(r.spec.replicas) && r.spec.replicas > 0)
)yaml");
  EXPECT_TRUE(schema.ok());
  auto compiled = StructuralSchema::Compile(*schema);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  EXPECT_TRUE(compiled->SkippedRules().empty());
  return *compiled;
}

// A DisaggregatedSet whose roles are "name[:mode][=replicas]": prefill:External=0, decode=2.
Json WithRoles(std::initializer_list<const char*> roles) {
  Json list = Json::array();
  for (std::string role : roles) {
    Json r{{"name", role.substr(0, role.find_first_of(":="))}, {"spec", Json::object()}};
    if (std::size_t eq = role.find('='); eq != std::string::npos) {
      r["spec"]["replicas"] = std::stoi(role.substr(eq + 1));
    }
    if (std::size_t colon = role.find(':'); colon != std::string::npos) {
      r["scaling"]["mode"] = role.substr(colon + 1, role.find('=') - colon - 1);
    }
    list.push_back(r);
  }
  return Json{{"apiVersion", "disaggregatedset.x-k8s.io/v1alpha1"},
              {"kind", "DisaggregatedSet"},
              {"metadata", {{"name", "ds"}}},
              {"spec", {{"roles", list}}}};
}

std::vector<std::string> Messages(const ErrorList& errors) {
  std::vector<std::string> out;
  for (const FieldError& e : errors) out.push_back(e.Error());
  return out;
}

TEST(SchemaCelTest, DisaggregatedSetReplicasRule) {
  StructuralSchema s = DisaggregatedSetSchema();
  std::string rejected = std::string("spec: Invalid value: \"object\": ") + kReplicasMessage;
  EXPECT_TRUE(s.Validate(WithRoles({"prefill=0", "decode=0"})).empty());
  EXPECT_TRUE(s.Validate(WithRoles({"prefill=1", "decode=3"})).empty());
  EXPECT_TRUE(s.Validate(WithRoles({"prefill:Static=2", "decode=4"})).empty());
  // A missing replicas counts as zero for the first branch.
  EXPECT_TRUE(s.Validate(WithRoles({"prefill", "decode=0"})).empty());
  EXPECT_TRUE(s.Validate(WithRoles({"prefill", "decode"})).empty());
  // External roles take no part: their replicas come from the scaler.
  EXPECT_TRUE(s.Validate(WithRoles({"prefill:External=0", "decode=2", "router=2"})).empty());
  EXPECT_TRUE(s.Validate(WithRoles({"prefill:External=5", "decode=0"})).empty());
  EXPECT_EQ(Messages(s.Validate(WithRoles({"prefill=0", "decode=2"}))),
            std::vector<std::string>{rejected});
  EXPECT_EQ(Messages(s.Validate(WithRoles({"prefill", "decode=2"}))),
            std::vector<std::string>{rejected});
  EXPECT_EQ(Messages(s.Validate(WithRoles({"prefill:Static=3", "decode=0", "x:External=1"}))),
            std::vector<std::string>{rejected});
}

// hasBlockingErr: a type, required, enum, maxLength, maxItems or maxProperties error keeps
// every rule from running, and one error says so.
TEST(SchemaCelTest, BlockingErrorsHoldRulesBack) {
  StructuralSchema s = DisaggregatedSetSchema();
  Json obj = WithRoles({"prefill=0", "decode=2"});
  obj["spec"]["roles"][0]["scaling"]["mode"] = "Sometimes";
  EXPECT_EQ(Messages(s.Validate(obj)),
            (std::vector<std::string>{
                "spec.roles[0].scaling.mode: Unsupported value: \"Sometimes\": supported values: "
                "\"Static\", \"External\"",
                "<nil>: Invalid value: \"null\": some validation rules were not checked because "
                "the object was invalid; correct the existing errors to complete validation"}));
  // The server's own checks of metadata come first and block the same way.
  ErrorList errors = {Required(FieldPath("metadata.name"), "name or generateName is required")};
  s.Validate(WithRoles({"a=0", "b=1"}), &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[1].field, "<nil>");
  // An Invalid error (a pattern, a minimum) does not block.
  errors = {Invalid(FieldPath("metadata.name"), "A", "bad name")};
  s.Validate(WithRoles({"a=0", "b=1"}), &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[1].Error(), std::string("spec: Invalid value: \"object\": ") + kReplicasMessage);
}

// One rule per node kind; each error names the instance it failed on.
TEST(SchemaCelTest, RulesRunOnEveryInstanceWithItsPath) {
  Json positive =
      With(Type("integer"), "x-kubernetes-validations", Json::parse(R"([{"rule": "self > 0"}])"));
  Json schema = Object({{"items", List(positive)},
                        {"counts", MapOf(positive)},
                        {"one", positive},
                        {"nested", List(Object({{"n", positive}}))}});
  schema["x-kubernetes-validations"] = Json::parse(R"([{"rule": "size(self) < 4"}])");
  auto s = StructuralSchema::Compile(schema);
  ASSERT_TRUE(s.ok());
  Json obj = Json::parse(R"({"items": [1, 0, 2, -1], "counts": {"a": 1, "b": 0}, "one": 0,
                             "nested": [{"n": 5}, {"n": -5}]})");
  EXPECT_EQ(
      Messages(s->Validate(obj)),
      (std::vector<std::string>{"<nil>: Invalid value: \"object\": failed rule: size(self) < 4",
                                "counts[b]: Invalid value: \"integer\": failed rule: self > 0",
                                "items[1]: Invalid value: \"integer\": failed rule: self > 0",
                                "items[3]: Invalid value: \"integer\": failed rule: self > 0",
                                "nested[1].n: Invalid value: \"integer\": failed rule: self > 0",
                                "one: Invalid value: \"integer\": failed rule: self > 0"}));
}

// fieldErrorForReason, the trimmed message, fieldPath, and evaluation errors.
TEST(SchemaCelTest, ReasonFieldPathAndEvaluationErrors) {
  auto s = StructuralSchema::Compile(LoadYaml(R"yaml(
type: object
properties:
  spec:
    type: object
    properties:
      a: {type: integer}
      m: {type: object, additionalProperties: {type: string}}
    x-kubernetes-validations:
    - {rule: "self.a > 1", message: "  a must exceed 1  ", reason: FieldValueForbidden}
    - {rule: "self.a > 2", reason: FieldValueRequired, fieldPath: .a}
    - {rule: "self.a > 3", reason: FieldValueDuplicate, fieldPath: "['m']['k.x']"}
    - {rule: "self.a > 4", messageExpression: "'not evaluated'", fieldPath: .nope}
    - {rule: "self.a / 0 > 1"}
    - {rule: "self.a + 'x' == 1", message: m}
    - {rule: "self.missing > 0"}
)yaml")
                                         .value());
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(
      Messages(s->Validate(Json::parse(R"({"spec": {"a": 1}})"))),
      (std::vector<std::string>{
          "spec: Forbidden: a must exceed 1", "spec.a: Required value: failed rule: self.a > 2",
          "spec.m[k.x]: Duplicate value: \"object\"",
          "spec: Invalid value: \"object\": failed rule: self.a > 4",
          "spec: Invalid value: \"object\": division by zero evaluating rule: self.a / 0 > 1",
          "spec: Invalid value: \"object\": 'no such overload': call arguments did not match "
          "a supported operator, function or macro signature for rule: m",
          "spec: Invalid value: \"object\": undefined field 'missing' evaluating rule: "
          "self.missing > 0"}));
}

TEST(SchemaCelTest, RulesTheSubsetCannotRunAreSkippedNotFatal) {
  auto s = StructuralSchema::Compile(LoadYaml(R"yaml(
type: object
properties:
  spec:
    type: object
    properties:
      d: {type: string, x-kubernetes-validations: [{rule: "duration(self) > duration('1s')"}]}
      list:
        type: array
        items: {type: integer, x-kubernetes-validations: [{rule: "self == oldSelf"}]}
      e:
        type: integer
        anyOf: [{x-kubernetes-validations: [{rule: "self > 0"}]}]
    x-kubernetes-validations:
    - {rule: "self.d.matches('(')"}
    - {rule: "self.e >= 0"}
    - {rule: "  "}
)yaml")
                                         .value());
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(
      s->SkippedRules(),
      (std::vector<std::string>{
          "spec: self.d.matches('('): compile error: error parsing regexp: missing "
          "closing ): `(`",
          "spec.d: duration(self) > duration('1s'): function 'duration' is not supported",
          "spec.e: self > 0: not evaluated under anyOf, oneOf or not",
          "spec.list[*]: self == oldSelf: uses oldSelf: transition rules are not evaluated"}));
  // The rule that compiled still runs.
  EXPECT_EQ(Messages(s->Validate(Json::parse(R"({"spec": {"e": -1, "list": [1]}})"))),
            std::vector<std::string>{"spec: Invalid value: \"object\": failed rule: self.e >= 0"});
}

// Rules under allOf apply to the value as the node's own schema types it.
TEST(SchemaCelTest, AllOfRulesRun) {
  auto s = StructuralSchema::Compile(LoadYaml(R"yaml(
type: object
properties:
  count: {type: integer}
allOf:
- x-kubernetes-validations: [{rule: "self.count != 7", message: no sevens}]
)yaml")
                                         .value());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Messages(s->Validate(Json{{"count", 7}})),
            std::vector<std::string>{"<nil>: Invalid value: \"object\": no sevens"});
  EXPECT_TRUE(s->Validate(Json{{"count", 8}}).empty());
}

TEST(SchemaCelTest, CostBudgetStopsHostileRules) {
  std::string rule = "true";
  for (int i = 0; i < 6; ++i) {
    rule = "self.l.all(x" + std::to_string(i) + ", " + rule + ")";
  }
  Json schema = Object({{"l", List(Type("integer"))}});
  Json obj{{"l", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}};
  EXPECT_EQ(RuleErrors(schema, rule, obj),
            std::vector<std::string>{
                "<nil>: Invalid value: \"object\": 'operation cancelled: actual cost limit "
                "exceeded': no further validation rules will be run due to call cost exceeds "
                "limit for rule: " +
                rule});
}

TEST(SchemaCelTest, LwsSchemaHasNoRules) {
  EXPECT_TRUE(LwsStructuralSchema().SkippedRules().empty());
}

}  // namespace
}  // namespace lws::api
