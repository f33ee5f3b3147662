// File: api/schema.h
//
// Structural schemas: what kube-apiserver does with a CustomResourceDefinition's
// openAPIV3Schema (k8s.io/apiextensions-apiserver/pkg/apiserver/schema and kube-openapi's
// validate package), generic over any CRD. A StructuralSchema is compiled once from the schema
// JSON and is immutable afterwards, so one instance may be shared by threads.
//
// The API server applies the three operations in this order on every create/update/patch body:
//
//   1. Prune: drop fields the schema does not declare (pruning/), then non-nullable nulls that
//      have no default (defaulting/prunenulls.go), then unknown fields of metadata (objectmeta/).
//      The dropped paths are what the server reports as `unknown field "spec.foo"` (a warning, or
//      an error under fieldValidation=Strict).
//   2. ApplyDefaults: fill `default` values (defaulting/algorithm.go).
//   3. Validate: kube-openapi schema validation converted to field errors (apiserver/validation/),
//      then embedded-resource checks (objectmeta/validation.go), then list-type uniqueness
//      (listtype/), then the x-kubernetes-validations rules (schema/cel/validation.go). The
//      messages are the server's, e.g.
//        spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to
//        0 spec.startupPolicy: Unsupported value: "x": supported values: "LeaderCreated",
//        "LeaderReady"
//
// Rules kept from upstream, in short:
//   - The root, and every x-kubernetes-embedded-resource object, keeps apiVersion, kind and
//     metadata whatever the schema says; metadata keeps only ObjectMeta's fields.
//   - x-kubernetes-preserve-unknown-fields keeps unknown fields but still prunes inside the
//     declared ones; additionalProperties applies its schema to every undeclared key.
//   - A default applies where its parent object exists (and replaces a null unless the field is
//     nullable), inside array items and additionalProperties too; defaults are themselves pruned
//     when the schema is compiled.
//   - Formats the server does not know (int32, int64, ...) are ignored, as the server strips them.
//   - x-kubernetes-validations (CEL) rules are evaluated for the subset of CEL api/cel.h lists,
//     on every instance of their node (properties, items, additionalProperties, allOf), parents
//     before children, with `self` bound to the instance; each is compiled once by Compile. As
//     in the server (registry/customresource/strategy.go), none runs when an earlier error is a
//     type, required, enum, maxLength, maxItems or maxProperties one: one error says so instead.
//     A failed rule reads `spec: Invalid value: "object": <message>` (reason and fieldPath
//     honoured; no message: "failed rule: <rule>"); a rule that fails to evaluate reads
//     `spec: Invalid value: "object": no such key: x evaluating rule: <rule>`. Rules that
//     reference oldSelf (transition rules: there is no old object here), use CEL the subset lacks
//     or sit under anyOf/oneOf/not are not evaluated: SkippedRules() lists them, and Compile
//     still succeeds, as a CRD the real server accepts must still install. messageExpression is
//     not evaluated (the default message is used). A rule may spend kCelStepsPerCall steps and
//     an object kCelStepsPerObject; past either, no further rule runs (upstream's cost-limit
//     messages).
//   - Error order follows the server's validator order; where the server iterates a Go map
//     (properties, map keys) we use sorted order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/field.h"
#include "base/result.h"

namespace lws::api {

struct SchemaNode;

class StructuralSchema {
 public:
  // Compiles a CRD's openAPIV3Schema. BadRequest when it is not a schema object or holds an
  // invalid pattern.
  static Result<StructuralSchema> Compile(const Json& open_api_v3_schema);

  // Step 1. Returns the pruned paths in sorted order ("spec.foo", "spec.list[0].bar").
  std::vector<std::string> Prune(Json* obj) const;

  // Step 2.
  void ApplyDefaults(Json* obj) const;

  // Step 3. Empty when `obj` is valid.
  ErrorList Validate(const Json& obj) const;
  // Step 3 after checks of the server's own (metadata): appends to `errors`, whose blocking
  // errors hold the CEL rules back too, as in the server's strategy.
  void Validate(const Json& obj, ErrorList* errors) const;

  // The x-kubernetes-validations rules that are not evaluated, one line each:
  // "spec.roles[*]: self.x == oldSelf.x: uses oldSelf: transition rules are not evaluated"
  // ("<root>" for the root's own).
  const std::vector<std::string>& SkippedRules() const { return skipped_rules_; }

 private:
  std::shared_ptr<const SchemaNode> root_;
  std::vector<std::string> skipped_rules_;
};

// The LeaderWorkerSet v1 schema (api/lws_crd.h), compiled once.
const StructuralSchema& LwsStructuralSchema();

}  // namespace lws::api
