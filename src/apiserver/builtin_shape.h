// File: apiserver/builtin_shape.h
//
// kube-apiserver decodes a built-in kind's body into its Go type before anything else, so a value
// of the wrong JSON type is refused at once (a ConfigMap value that is an object, replicas "3"),
// with the Go decoder's words:
//   ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object
//   into Go struct field ConfigMap.data of type string
// Objects here stay JSON, so the shape is checked against the kind's protobuf message type, which
// has the Go type's fields (api/protobuf/json_proto.h). Custom resources are checked by their
// schema instead.
#pragma once

#include "api/field.h"
#include "api/resources.h"
#include "base/status.h"

namespace lws::apiserver {

// BadRequest, worded as above, when `object` does not fit the Go type of `resource`'s kind.
// OK for kinds without a Go type here (custom resources).
Status CheckBuiltinShape(const api::ResourceInfo& resource, const api::Json& object);

}  // namespace lws::apiserver
