// File: api/protobuf/proto_json.h
//
// Kubernetes JSON of a protobuf message, as kube-apiserver would print the Go object the message
// decodes into: a field appears when it is set, with the Go rules for zero values (a non-pointer
// scalar that is zero is left out, as `omitempty` does; a pointer field set to zero stays), the
// special messages in their JSON forms (kube_types.h) and inline fields flattened into their
// parent. The object carries no apiVersion or kind: the envelope knows them (envelope.h).
#pragma once

#include <google/protobuf/message.h>

#include "api/field.h"
#include "base/result.h"

namespace lws::api::protobuf {

// Fails with BadRequest when a field holds what its JSON form cannot (raw JSON that does not
// parse, a negative duration beyond Go's range).
Result<Json> MessageToJson(const google::protobuf::Message& message);

}  // namespace lws::api::protobuf
