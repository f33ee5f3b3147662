// File: api/protobuf/json_proto.h
//
// A protobuf message of a built-in kind filled from its Kubernetes JSON: the reverse of
// proto_json.h, used to answer clients that asked for protobuf, and to check that a JSON object
// has the shape of its Go type (a string where Go has a string, a list where Go has a slice).
//
// A value of the wrong type is an error worded as Go's encoding/json words it, with the innermost
// Go struct and the field's path from the root:
//   json: cannot unmarshal object into Go struct field ConfigMap.data of type string
// JSON null leaves a field unset, as Go does; fields the type does not have are skipped (the
// server reports unknown fields separately, as kube-apiserver's field validation does).
#pragma once

#include <google/protobuf/message.h>

#include "api/field.h"
#include "base/status.h"

namespace lws::api::protobuf {

// Fills `message` (empty, of the object's type) from `object`; BadRequest with Go's wording when a
// value does not fit its field. apiVersion and kind are not message fields and are skipped.
Status JsonToMessage(const Json& object, google::protobuf::Message* message);

}  // namespace lws::api::protobuf
