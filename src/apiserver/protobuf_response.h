// File: apiserver/protobuf_response.h
//
// Answers in Kubernetes protobuf for the clients that prefer it. client-go's typed clients (kubectl
// drain, create, auth can-i; Helm's release storage; controller-runtime operators) send
// `Accept: application/vnd.kubernetes.protobuf, */*`; kubectl get and the dynamic clients ask for
// JSON. Handlers always build JSON; this is the one place that re-encodes an answer, so every
// handler serves both. Answers that have no protobuf form (custom resources, Tables, discovery)
// stay JSON, as kube-apiserver's do, and the client reads them by their Content-Type.
#pragma once

#include <string_view>

#include "transport/http.h"

namespace lws::apiserver {

// Content-Type of a protobuf watch stream (each event length-prefixed, api/protobuf/envelope.h).
inline constexpr std::string_view kProtobufWatchType =
    "application/vnd.kubernetes.protobuf;stream=watch";

// Whether the Accept header ranks Kubernetes protobuf above JSON (a wildcard counts as JSON).
bool PrefersProtobuf(std::string_view accept);

// Re-encodes a whole-body JSON answer of a built-in kind (an object, a list or a Status) in
// protobuf. Streams and answers of other types are left alone.
void EncodeAsProtobuf(transport::HttpResponse* response);

}  // namespace lws::apiserver
