// File: api/protobuf/envelope.h
//
// Kubernetes' protobuf encoding of whole objects (`application/vnd.kubernetes.protobuf`): the four
// bytes "k8s\0", then a runtime.Unknown message whose typeMeta names apiVersion and kind and whose
// raw holds the object's message. Watch streams (`;stream=watch`) send each event as a 4-byte
// big-endian length followed by a meta/v1 WatchEvent whose object holds such an envelope.
// Custom resources have no protobuf form: kube-apiserver answers them in JSON, and so do we.
#pragma once

#include <string>
#include <string_view>

#include "api/field.h"
#include "base/result.h"

namespace lws::api::protobuf {

inline constexpr std::string_view kProtobufMediaType = "application/vnd.kubernetes.protobuf";

// Whether an object of this apiVersion and kind (a list kind too) has a protobuf form.
bool HasProtobuf(std::string_view api_version, std::string_view kind);

// The envelope of a Kubernetes JSON object that names its apiVersion and kind. BadRequest when
// the kind has no protobuf form or a value does not fit its field (json_proto.h).
Result<std::string> EncodeObject(const Json& object);

// The Kubernetes JSON of an envelope, apiVersion and kind included. BadRequest, with the reason,
// when the bytes are not an envelope of a known kind.
Result<Json> DecodeObject(std::string_view bytes);

// One frame of a protobuf watch stream: `type` is ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.
Result<std::string> EncodeWatchFrame(std::string_view type, const Json& object);

}  // namespace lws::api::protobuf
