// File: api/cel_testing.h
//
// Test helpers for x-kubernetes-validations: schema builders shaped like those of upstream's
// pkg/apiserver/schema/cel/validation_test.go (objectType, listType, mapType, schemas, objs),
// and RuleErrors, which runs one rule at the root of a schema through StructuralSchema.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "api/schema.h"

namespace lws::api::cel_testing {

inline Json Type(const char* type) { return Json{{"type", type}}; }
inline Json Format(const char* type, const char* format) {
  return Json{{"type", type}, {"format", format}};
}
inline Json Object(std::initializer_list<std::pair<const char*, Json>> properties) {
  Json props = Json::object();
  for (const auto& [name, schema] : properties) props[name] = schema;
  return Json{{"type", "object"}, {"properties", props}};
}
inline Json List(Json items, const char* list_type = "atomic", std::vector<std::string> keys = {}) {
  Json s{{"type", "array"}, {"items", std::move(items)}, {"x-kubernetes-list-type", list_type}};
  if (!keys.empty()) s["x-kubernetes-list-map-keys"] = keys;
  return s;
}
inline Json MapOf(Json values) {
  return Json{{"type", "object"}, {"additionalProperties", std::move(values)}};
}
inline Json IntOrString() { return Json{{"x-kubernetes-int-or-string", true}}; }
inline Json With(Json s, const char* key, Json value) {
  s[key] = std::move(value);
  return s;
}
inline Json Nullable(Json s) { return With(std::move(s), "nullable", true); }
inline Json Preserve(Json s) {
  return With(std::move(s), "x-kubernetes-preserve-unknown-fields", true);
}

// An object schema with properties val1..valN, and an object with values val1..valN.
inline Json Schemas(std::initializer_list<Json> values) {
  Json s = Object({});
  int i = 0;
  for (const Json& v : values) s["properties"]["val" + std::to_string(++i)] = v;
  return s;
}
inline Json Objs(std::initializer_list<Json> values) {
  Json o = Json::object();
  int i = 0;
  for (const Json& v : values) o["val" + std::to_string(++i)] = v;
  return o;
}

// ValsEqualThemselvesAndDataLiteral of validation_test.go.
inline std::string ValsEqual(const std::string& a, const std::string& b, const std::string& lit) {
  return a + " == " + lit + " && " + lit + " == " + a + " && " + a + " == " + b;
}

// The messages of validating `obj` against `schema` with `rule` added at the root. A rule that
// is skipped instead of compiled fails the test.
inline std::vector<std::string> RuleErrors(Json schema, const std::string& rule, const Json& obj) {
  schema["x-kubernetes-validations"] = Json::array({Json{{"rule", rule}}});
  auto compiled = StructuralSchema::Compile(schema);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return {"schema does not compile"};
  for (const std::string& skipped : compiled->SkippedRules()) ADD_FAILURE() << skipped;
  std::vector<std::string> out;
  for (const FieldError& e : compiled->Validate(obj)) out.push_back(e.Error());
  return out;
}

// A case of TestValidationExpressions: rules that must hold, and rules whose one error must
// contain a text.
struct RuleCase {
  const char* name;
  Json schema;
  Json obj;
  std::vector<std::string> valid;
  std::vector<std::pair<std::string, std::string>> errors;
};

inline void RunRuleCase(const RuleCase& c) {
  for (const std::string& rule : c.valid) {
    std::vector<std::string> errs = RuleErrors(c.schema, rule, c.obj);
    EXPECT_TRUE(errs.empty()) << c.name << ": " << rule << ": " << errs.front();
  }
  for (const auto& [rule, want] : c.errors) {
    std::vector<std::string> errs = RuleErrors(c.schema, rule, c.obj);
    ASSERT_EQ(errs.size(), 1u) << c.name << ": " << rule;
    EXPECT_NE(errs[0].find(want), std::string::npos) << c.name << ": " << rule << ": " << errs[0];
  }
}

}  // namespace lws::api::cel_testing
