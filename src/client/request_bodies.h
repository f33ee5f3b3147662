// File: client/request_bodies.h
//
// The JSON bodies of the requests whose shape the API fixes rather than the caller's object: a
// DELETE's DeleteOptions, a pod's Binding and Eviction, and a /status write. Both clients send the
// same bodies (the local one hands them to the API server in-process, the REST one over HTTP), so
// they are built here once.
#pragma once

#include <string>

#include "api/codec.h"
#include "client/client.h"

namespace lws::client {

// meta.k8s.io DeleteOptions (apiVersion v1): only the options that are set.
api::Json DeleteOptionsBody(const DeleteOptions& options);

// The v1 Binding of pod `ns/pod` to `node`; `pod_uid` (when not empty) makes the binding fail
// if the pod was replaced by another of the same name.
api::Json BindingBody(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                      const std::string& node);

// The policy/v1 Eviction of pod `ns/pod`.
api::Json EvictionBody(const std::string& ns, const std::string& pod);

// A /status write of `object` (its apiVersion, kind and metadata but managedFields; the
// resourceVersion guards the write) carrying `status`. The API server keeps the spec of the
// stored object, so a copy of it would only be defaulted, walked and thrown away. The metadata
// goes along: a built-in kind's status write takes the body's labels and annotations
// (api::StatusWriteOf), and a body without them would remove them.
api::Json StatusWriteBody(const api::Json& object, api::Json status);
// The same over a stored version (its document()).
inline api::Json StatusWriteBody(const store::StoredObject& live, api::Json status) {
  return StatusWriteBody(live.document(), std::move(status));
}

}  // namespace lws::client
