// File: scenario/json_reads.h
//
// The few reads of stored JSON the rollout checkers make after every change (decoding every pod
// each time would dominate a sweep).
#pragma once

#include <string>

#include "api/codec.h"

namespace lws::scenario::json_reads {

inline std::string Label(const api::Json& object, const std::string& key) {
  const api::Json& labels = object["metadata"].value("labels", api::Json::object());
  auto it = labels.find(key);
  return it != labels.end() && it->is_string() ? it->get<std::string>() : std::string();
}

inline bool Deleting(const api::Json& object) {
  return object["metadata"].contains("deletionTimestamp");
}

// Phase Running and condition Ready=True.
inline bool PodReady(const api::Json& pod) {
  const api::Json& status = pod.value("status", api::Json::object());
  if (status.value("phase", "") != "Running") return false;
  for (const api::Json& c : status.value("conditions", api::Json::array())) {
    if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

// Upstream StatefulsetReady: every replica available, not mid-rollout.
inline bool WorkersReady(const api::Json& sts) {
  const api::Json& spec = sts.value("spec", api::Json::object());
  const api::Json& status = sts.value("status", api::Json::object());
  return spec.value("replicas", 1) == status.value("availableReplicas", 0) &&
         status.value("currentRevision", "") == status.value("updateRevision", "");
}

inline std::string ConditionStatus(const api::Json& lws, const std::string& type) {
  for (const api::Json& c :
       lws.value("status", api::Json::object()).value("conditions", api::Json::array())) {
    if (c.value("type", "") == type) return c.value("status", "");
  }
  return "";
}

}  // namespace lws::scenario::json_reads
