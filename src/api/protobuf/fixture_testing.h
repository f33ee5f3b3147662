// File: api/protobuf/fixture_testing.h
//
// For tests of this folder only. The fixtures of testdata/k8s-api are Kubernetes' round-trip test
// data of a development tree; a few of their fields are alpha fields newer than the .proto files
// in proto/. The codecs drop them, as an older server would, so a test compares against the
// fixture without them. Every other field must come back unchanged.
#pragma once

namespace lws::api::protobuf {

// Removes those fields from `v` at every depth. J is any nlohmann JSON type (api::Json, or
// ordered_json to keep a fixture's member order).
template <class J>
void DropNewerFields(J* v) {
  if (v->is_object()) {
    for (const char* key : {"defaultUser", "healthStatus", "volumeHealth", "schedulingGroup",
                            "nodeAllocatableResourceClaimStatuses", "bindMountOptions",
                            "evictionResponders", "podPreemptionPolicy"}) {
      v->erase(key);
    }
    if (v->contains("user") && (*v)["user"].is_number()) v->erase("user");
    if (v->contains("path") && v->contains("port")) v->erase("protocol");   // httpGet
    if (v->contains("service") || v->contains("medium")) v->erase("mode");  // grpc, emptyDir
  }
  if (v->is_structured()) {
    for (J& child : *v) DropNewerFields(&child);
  }
}

}  // namespace lws::api::protobuf
