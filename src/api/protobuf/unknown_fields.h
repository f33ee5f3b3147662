// File: api/protobuf/unknown_fields.h
//
// Fields a built-in kind's Go type does not have. kube-apiserver decodes a body into the Go
// type, so such fields are dropped; with `fieldValidation=Strict` (kubectl's default) the request
// is refused, with `Warn` each gets a warning:
//   ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown
//   field "bogus"
// Paths are written as the strict decoder writes them: "spec.containers[0].foo".
#pragma once

#include <google/protobuf/descriptor.h>

#include <string>
#include <vector>

#include "api/field.h"

namespace lws::api::protobuf {

// Removes from `object` (a JSON object of message `type`) every field the type does not have,
// at any depth, and returns their paths (keys in sorted order). apiVersion and kind are kept.
std::vector<std::string> PruneUnknownFields(Json* object, const google::protobuf::Descriptor* type);

}  // namespace lws::api::protobuf
