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

// A JSON patch of the pod's status that puts `condition` in place of the condition of its type
// at `index`, or adds it (-1: none of that type yet), whether or not the pod has a status or
// conditions. A JSON patch rather than upstream's strategic merge patch, because a null in a
// merge patch deletes the key, and the stored condition must read `lastProbeTime: null` as a real
// API server's does. The test op makes a stale index fail instead of overwriting another
// condition.
inline api::Json ConditionPatch(const api::Json& pod, int index, const api::Json& condition) {
  using api::Json;
  if (index >= 0) {
    const std::string path = "/status/conditions/" + std::to_string(index);
    return Json::array({{{"op", "test"}, {"path", path + "/type"}, {"value", condition.at("type")}},
                        {{"op", "replace"}, {"path", path}, {"value", condition}}});
  }
  const Json& status = Child(pod, "status");
  if (!status.is_object()) {
    return Json::array(
        {{{"op", "add"}, {"path", "/status"}, {"value", {{"conditions", {condition}}}}}});
  }
  if (!Child(status, "conditions").is_array()) {
    return Json::array({{{"op", "add"}, {"path", "/status/conditions"}, {"value", {condition}}}});
  }
  return Json::array({{{"op", "add"}, {"path", "/status/conditions/-"}, {"value", condition}}});
}

}  // namespace lws::cluster::scheduler_json
