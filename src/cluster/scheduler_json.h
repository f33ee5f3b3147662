// File: cluster/scheduler_json.h
//
// Reads of the few pod and node fields the scheduler checks on every informer event, straight
// from the stored JSON: decoding a whole pod for each status update a kubelet writes would cost
// more than the scheduling itself. Missing or mistyped fields read as null or "".
#pragma once

#include <string>

#include "api/field.h"
#include "store/object.h"

namespace lws::cluster::scheduler_json {

// object[key], or a null value when `object` is not an object or has no such key.
inline const api::Json& Child(const api::Json& object, const char* key) {
  return api::ChildOrNull(object, key);
}

inline std::string NodeName(const api::Json& pod) {
  return api::StringMember(Child(pod, "spec"), "nodeName");
}

// Phase Succeeded or Failed: the pod's containers have stopped for good.
inline bool IsTerminal(const api::Json& pod) {
  const std::string phase = api::StringMember(Child(pod, "status"), "phase");
  return phase == "Succeeded" || phase == "Failed";
}

}  // namespace lws::cluster::scheduler_json
