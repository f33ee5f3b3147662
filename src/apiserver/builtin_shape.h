// File: apiserver/builtin_shape.h
//
// kube-apiserver decodes a built-in kind's body into its Go type before anything else, so a value
// of the wrong JSON type is refused at once (a ConfigMap value that is an object, replicas "3"),
// with the Go decoder's words:
//   ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object
//   into Go struct field ConfigMap.data of type string
// Objects here stay JSON, so the shape is checked against the kind's protobuf message type, which
// has the Go type's fields (api/protobuf/json_proto.h, unknown_fields.h). Custom resources are
// checked by their schema instead.
#pragma once

#include <string>
#include <vector>

#include "api/field.h"
#include "api/resources.h"
#include "base/result.h"

namespace lws::apiserver {

// BadRequest, worded as above, when `object` does not fit the Go type of `resource`'s kind;
// else removes the fields the type does not have and returns their paths ("spec.foo"), which
// the caller reports by the request's fieldValidation. Nothing to do for kinds without a Go
// type here (custom resources).
Result<std::vector<std::string>> DecodeBuiltin(const api::ResourceInfo& resource,
                                               api::Json* object);

}  // namespace lws::apiserver
