// File: api/schema_extensions.h
//
// The Kubernetes extensions a custom resource is checked against after the OpenAPI validation of
// its structural schema (schema_validate.cc), as apiextensions does:
//   - x-kubernetes-embedded-resource: an embedded object needs a well-formed apiVersion and kind
//     (schema/objectmeta/validation.go);
//   - x-kubernetes-list-type: "set" items and "map" keys must be unique
//     (schema/listtype/validation.go).
// Errors are appended to `out` with upstream's paths and messages.
#pragma once

#include "api/field.h"
#include "api/schema_node.h"

namespace lws::api {

void EmbeddedResources(const FieldPath& path, const Json& x, const SchemaNode* s, ErrorList* out);
void ListTypes(const FieldPath& path, const SchemaNode* s, const Json& x, ErrorList* out);

}  // namespace lws::api
