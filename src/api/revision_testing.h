// File: api/revision_testing.h
//
// Fixtures shared by the revision tests: the LWS of upstream wrappers.BuildLeaderWorkerSet
// ("default") as JSON, and the patches the Go controller stores for it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "api/lws_testing.h"
#include "api/revision.h"

namespace lws::api::revision_testing {

using testing::DefaultLwsJson;

// What the Go controller (k8s.io/api v0.36) stores for DefaultLwsJson(): structs such as
// template metadata and container resources are always written.
inline constexpr const char* kGoPatchOfDefault =
    R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace","leaderTemplate":{"metadata":{},)"
    R"("spec":{"containers":[{"image":"docker.io/nginxinc/nginx-unprivileged:1.27",)"
    R"("name":"leader","resources":{}}]}},"restartPolicy":"RecreateGroupOnPodRestart","size":2,)"
    R"("workerTemplate":)"
    R"({"metadata":{},"spec":{"containers":[{"image":"docker.io/nginxinc/nginx-unprivileged:1.27",)"
    R"("name":"worker","ports":[{"containerPort":8080,"protocol":"TCP"}],"resources":{}}]}}},)"
    R"("networkConfig":{"$patch":"replace","subdomainPolicy":"Shared"}}})";

// The same revision written by a Go controller built with apimachinery < v0.34, whose ObjectMeta
// wrote "creationTimestamp":null.
inline constexpr const char* kOldGoPatchOfDefault =
    R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace","leaderTemplate":{"metadata":)"
    R"({"creationTimestamp":null},"spec":{"containers":[{"image":)"
    R"("docker.io/nginxinc/nginx-unprivileged:1.27","name":"leader","resources":{}}]}},)"
    R"("restartPolicy":"RecreateGroupOnPodRestart","size":2,"workerTemplate":{"metadata":)"
    R"({"creationTimestamp":null},"spec":{"containers":[{"image":)"
    R"("docker.io/nginxinc/nginx-unprivileged:1.27","name":"worker","ports":)"
    R"([{"containerPort":8080,"protocol":"TCP"}],"resources":{}}]}}},"networkConfig":)"
    R"({"$patch":"replace",)"
    R"("subdomainPolicy":"Shared"}}})";

inline LeaderWorkerSet LwsFrom(const Json& json) {
  auto decoded = Decode<LeaderWorkerSet>(json);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? *decoded : LeaderWorkerSet{};
}

inline LeaderWorkerSet DefaultLws() { return LwsFrom(DefaultLwsJson()); }

// DefaultLws with `edit` applied to its JSON first.
template <class F>
LeaderWorkerSet EditedLws(F edit) {
  Json json = DefaultLwsJson();
  edit(json);
  return LwsFrom(json);
}

// The worker pod spec inside an LWS JSON.
inline Json& WorkerSpec(Json& lws) {
  return lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"];
}

// A revision of DefaultLws() holding `data` instead of our own patch.
inline ControllerRevision StoredRevision(const std::string& data,
                                         const std::string& resource_version = "100") {
  ControllerRevision revision = NewRevision(DefaultLws(), 1);
  revision.data = Json::parse(data);
  revision.metadata.resource_version = resource_version;
  return revision;
}

}  // namespace lws::api::revision_testing
