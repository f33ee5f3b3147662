// File: api/lws_testing.h
//
// Builders for tests: the "default LWS" of the upstream test utilities (scenario catalogue,
// section 0) and small helpers to print error lists. Header-only, for *_test.cc files.
#pragma once

#include <string>

#include "api/lws_types.h"

namespace lws::api::testing {

// The LWS of upstream wrappers.BuildLeaderWorkerSet("default") (scenario catalogue, section 0),
// as the API server holds it: name test-sample/default, replicas 2, size 2,
// RecreateGroupOnPodRestart, leader container "leader", worker container "worker" with port
// 8080/TCP, RollingUpdate {partition 0, maxUnavailable 1, maxSurge 0}, LeaderCreated,
// subdomainPolicy Shared.
inline Json DefaultLwsJson() {
  return Json::parse(R"({
    "apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
    "metadata": {"name": "test-sample", "namespace": "default", "uid": "lws-uid", "generation": 1},
    "spec": {
      "replicas": 2,
      "leaderWorkerTemplate": {
        "size": 2, "restartPolicy": "RecreateGroupOnPodRestart",
        "leaderTemplate": {"spec": {"containers": [
          {"name": "leader", "image": "docker.io/nginxinc/nginx-unprivileged:1.27"}]}},
        "workerTemplate": {"spec": {"containers": [
          {"name": "worker", "image": "docker.io/nginxinc/nginx-unprivileged:1.27",
           "ports": [{"containerPort": 8080, "protocol": "TCP"}]}]}}
      },
      "rolloutStrategy": {"type": "RollingUpdate",
        "rollingUpdateConfiguration": {"partition": 0, "maxUnavailable": 1, "maxSurge": 0}},
      "startupPolicy": "LeaderCreated",
      "networkConfig": {"subdomainPolicy": "Shared"},
      "groupIdentity": "Ordinal",
      "groupReplacementPolicy": "PostTermination"
    }})");
}

inline LeaderWorkerSet DefaultLws() { return Decode<LeaderWorkerSet>(DefaultLwsJson()).value(); }

inline std::string Describe(const ErrorList& errs) {
  std::string out;
  for (const auto& e : errs) out += e.Error() + "\n";
  return out;
}

}  // namespace lws::api::testing
