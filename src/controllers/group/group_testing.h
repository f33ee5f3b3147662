// File: controllers/group/group_testing.h
//
// Builders for the group tests: the default LWS of the upstream test wrappers, leader and worker
// pods of group g, the worker StatefulSet of a leader, nodes. Header-only, for *_test.cc files.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "api/lws_testing.h"
#include "api/revision.h"
#include "controllers/group/group_plan.h"

namespace lws::controllers::testing {

inline const std::string kNs = "default";

// The default LWS (api::testing::DefaultLws) with `edit` applied to its JSON first.
template <class F>
api::LeaderWorkerSet Lws(F edit) {
  api::Json json = api::testing::DefaultLwsJson();
  edit(json);
  auto decoded = api::Decode<api::LeaderWorkerSet>(json);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? *decoded : api::LeaderWorkerSet{};
}
inline api::LeaderWorkerSet Lws() {
  return Lws([](api::Json&) {});
}

// Pod `name` of LWS `lws_name`, worker index `worker`, group `group`, revision `revision`.
inline api::Pod MakePod(const std::string& name, const std::string& worker,
                        const std::string& group = "0", const std::string& revision = "rev-1",
                        const std::string& lws_name = "test-sample") {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = kNs;
  pod.metadata.uid = name + "-uid";
  pod.metadata.labels = {{api::kSetNameLabel, lws_name},
                         {api::kWorkerIndexLabel, worker},
                         {api::kGroupIndexLabel, group},
                         {api::kRevisionLabel, revision}};
  pod.status.phase = "Running";
  return pod;
}

inline api::Pod Leader(const std::string& group = "0", const std::string& revision = "rev-1") {
  api::Pod pod = MakePod("test-sample-" + group, "0", group, revision);
  pod.metadata.labels[api::kGroupUniqueHashLabel] = "key-" + group;
  pod.metadata.owner_references = {
      {"apps/v1", "StatefulSet", "test-sample", "leader-sts-uid", true, true, {}}};
  return pod;
}

inline api::OwnerReference RefTo(const std::string& api_version, const std::string& kind,
                                 const std::string& name, const std::string& uid) {
  return {api_version, kind, name, uid, true, true, {}};
}

// The worker StatefulSet of `leader` with uid `uid`, controlled by the leader pod.
inline api::StatefulSet WorkerSts(const api::Pod& leader, const std::string& uid = "sts-current") {
  api::StatefulSet sts;
  sts.metadata.name = leader.metadata.name;
  sts.metadata.namespace_ = kNs;
  sts.metadata.uid = uid;
  sts.metadata.owner_references = {RefTo("v1", "Pod", leader.metadata.name, leader.metadata.uid)};
  return sts;
}

// Worker `index` of `leader`, controlled by the StatefulSet with uid `sts_uid`.
inline api::Pod Worker(const api::Pod& leader, int index,
                       const std::string& sts_uid = "sts-current") {
  api::Pod pod = MakePod(leader.metadata.name + "-" + std::to_string(index), std::to_string(index),
                         leader.metadata.Label(api::kGroupIndexLabel),
                         leader.metadata.Label(api::kRevisionLabel));
  pod.metadata.owner_references = {RefTo("apps/v1", "StatefulSet", leader.metadata.name, sts_uid)};
  return pod;
}

// A pod reconcile of leader `leader` of `lws`, alone in its group, nothing else read yet.
inline GroupSnapshot LeaderSnapshot(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  GroupSnapshot s;
  s.lws = &lws;
  s.pod = &leader;
  s.restart.lws = &lws;
  s.restart.pod = &leader;
  s.restart.group_pods = {&leader};
  s.restart.leader = &leader;
  return s;
}

inline void MarkDeleting(api::Pod& pod) {
  pod.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
}

inline void SetReady(api::Pod& pod, bool ready) {
  api::PodCondition condition;
  condition.type = "Ready";
  condition.status = ready ? "True" : "False";
  pod.status.conditions = {condition};
}

inline api::ContainerStatus Restarts(int count) {
  api::ContainerStatus status;
  status.name = "c";
  status.restart_count = count;
  return status;
}

inline api::Node MakeNode(const std::string& name, api::StringMap labels) {
  api::Node node;
  node.metadata.name = name;
  node.metadata.labels = std::move(labels);
  return node;
}

}  // namespace lws::controllers::testing
