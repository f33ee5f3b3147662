// File: api/patch_type.h
//
// The four patch types of the Kubernetes API and the request Content-Type that names each: the
// contract between a client that sends a PATCH and the API server that applies it, so both
// layers take it from here (apiserver/patch.h applies them; client/client.h sends them).
#pragma once

#include <string_view>

namespace lws::api {

enum class PatchType { kJson, kMerge, kStrategic, kApply };

// "application/json-patch+json", "application/merge-patch+json",
// "application/strategic-merge-patch+json", "application/apply-patch+yaml".
std::string_view PatchContentType(PatchType type);

}  // namespace lws::api
