// File: api/schema_cel.h
//
// x-kubernetes-validations on a structural schema (api/schema.h), internal to api/: each node's
// rules are compiled with the schema (api/cel.h) and evaluated after the schema checks, as
// apiextensions-apiserver does (pkg/apiserver/schema/cel/validation.go, Validator; called from
// pkg/registry/customresource/strategy.go, customResourceStrategy.Validate).
//
// A rule the CEL subset cannot compile is skipped rather than failing the schema, so that a real
// cluster's CRD still installs; the compiled schema lists it with the reason.
#pragma once

#include <string>
#include <vector>

#include "api/cel.h"
#include "api/field.h"

namespace lws::api {

struct SchemaNode;

// One x-kubernetes-validations entry that compiled.
struct CelRule {
  std::string rule;
  std::string message;  // "" when the entry has none (messageExpression is not evaluated)
  FieldErrorType reason = FieldErrorType::kInvalid;
  std::string field_path;  // the entry's fieldPath normalised ("spec.x"), "" when none or invalid
  CelProgram program;
};

// Compiles the x-kubernetes-validations of schema JSON `j` into `n`: n->rules, and
// n->rules_skipped for the entries it cannot run. REQUIRES: n's properties and
// additionalProperties are compiled (a fieldPath is resolved against them).
void CompileCelRules(const Json& j, SchemaNode* n);

// Every skipped rule of the tree under `root`, "spec.roles[*]: <rule>: <why>" ("<root>" for
// the root), including rules under anyOf, oneOf and not, which are never evaluated.
std::vector<std::string> CollectSkippedRules(const SchemaNode& root);

// Appends the rules' errors for `obj` to `errors`, unless `errors` already holds an error that
// blocks them (strategy.go, hasBlockingErr), in which case it appends the error saying so.
// Nothing when the schema has no rule.
void ValidateCelRules(const SchemaNode& root, const Json& obj, ErrorList* errors);

}  // namespace lws::api
