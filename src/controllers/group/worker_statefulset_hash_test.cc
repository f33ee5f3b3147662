// Hash mode's worker StatefulSet and group-ready condition. Ported from upstream
// pkg/controllers/pod_controller_hash_worker_test.go TestReconcilePodNamesHashWorkersAfterHostname,
// the pod controller tests TestConstructWorkerStatefulSetServiceNameHashUniquePerReplica and
// TestPodCtrlReconcilePodSyncsGroupReadyConditionInHashMode (its ordinal case: no group-identity
// annotation on the workers).
#include <gtest/gtest.h>

#include "api/group_identity.h"
#include "controllers/group/group_testing.h"
#include "controllers/group/worker_statefulset.h"

namespace lws::controllers {
namespace {

api::LeaderWorkerSet HashLws() {
  api::LeaderWorkerSet lws = testing::Lws();
  lws.spec.group_identity = api::kGroupIdentityHash;
  return lws;
}

api::Pod HashLeader() {
  api::Pod pod = testing::MakePod("test-sample-7d9f8b6c4-x2kkp", "0", "9f2ac71b0000", "rev-key");
  pod.metadata.labels[api::kGroupUniqueHashLabel] = "9f2ac71b0000";
  pod.spec.hostname = "test-sample-9f2ac71b";
  pod.spec.subdomain = "test-sample";
  return pod;
}

TEST(WorkerStatefulSetHashTest, NamedAfterTheLeadersHostnameWithItsAddress) {
  const api::LeaderWorkerSet lws = HashLws();
  const api::Pod leader = HashLeader();
  const api::StatefulSet sts = BuildWorkerStatefulSet(lws, lws, leader);
  EXPECT_EQ(sts.metadata.name, "test-sample-9f2ac71b");
  EXPECT_EQ(sts.metadata.owner_references.at(0).name, leader.metadata.name);
  EXPECT_EQ(sts.spec.service_name, "test-sample");
  const auto& annotations = sts.spec.template_.metadata.annotations;
  EXPECT_EQ(annotations.at(api::kGroupIdentityAnnotation), "Hash");
  EXPECT_EQ(annotations.at(api::kLeaderAddressAnnotation),
            "test-sample-9f2ac71b.test-sample." + leader.metadata.namespace_);
  EXPECT_EQ(annotations.at(api::kLeaderPodNameAnnotation), leader.metadata.name);
  EXPECT_EQ(sts.spec.selector->match_labels.at(api::kGroupIndexLabel), "9f2ac71b0000");
}

TEST(WorkerStatefulSetHashTest, UniquePerReplicaServiceIsTheLeadersSubdomain) {
  const api::LeaderWorkerSet lws = HashLws();
  api::Pod leader = HashLeader();
  leader.spec.subdomain = leader.spec.hostname;  // the webhook's doing under UniquePerReplica
  EXPECT_EQ(BuildWorkerStatefulSet(lws, lws, leader).spec.service_name, "test-sample-9f2ac71b");
}

TEST(WorkerStatefulSetHashTest, OrdinalGroupsKeepTheirNames) {
  const api::LeaderWorkerSet lws = testing::Lws();
  const api::Pod leader = testing::MakePod("test-sample-1", "0", "1", "rev-key");
  const api::StatefulSet sts = BuildWorkerStatefulSet(lws, lws, leader);
  EXPECT_EQ(sts.metadata.name, "test-sample-1");
  EXPECT_FALSE(sts.spec.template_.metadata.annotations.contains(api::kGroupIdentityAnnotation));
}

TEST(WorkerStatefulSetHashTest, GroupReadyConditionFollowsTheWorkers) {
  api::Pod leader = HashLeader();
  EXPECT_TRUE(GroupReadyConditionChanged(leader, false));  // absent: written
  const api::PodCondition not_ready = GroupReadyCondition(false, "2026-12-05T12:00:00Z");
  EXPECT_EQ(not_ready.type, "leaderworkerset.sigs.k8s.io/group-ready");
  EXPECT_EQ(not_ready.status, "False");
  EXPECT_EQ(not_ready.reason, "WorkerStatefulSetNotReady");
  leader.status.conditions.push_back(not_ready);
  EXPECT_FALSE(GroupReadyConditionChanged(leader, false));
  EXPECT_TRUE(GroupReadyConditionChanged(leader, true));
  EXPECT_EQ(GroupReadyCondition(true, "2026-12-05T12:00:10Z").reason, "WorkerStatefulSetReady");
}

}  // namespace
}  // namespace lws::controllers
