// Tests of the ReplicaSet controller's pure sync (replicaset_plan.h). The deletion ranking cases
// follow upstream pkg/controller/controller_utils_test.go TestSortingActivePodsWithRanks.
#include "cluster/replicaset_plan.h"

#include <gtest/gtest.h>

#include "api/codec.h"

namespace lws::cluster {
namespace {

using api::Json;
using Kind = ReplicaSetActionKind;

const Time kNow = *ParseRfc3339("2026-12-05T12:00:00Z");

api::ReplicaSet WebSet(int replicas) {
  Result<api::ReplicaSet> set = api::Decode<api::ReplicaSet>(Json::parse(R"({
    "metadata": {"name": "web-abc", "namespace": "default", "uid": "u-rs", "generation": 2},
    "spec": {
      "selector": {"matchLabels": {"app": "web"}},
      "template": {"metadata": {"labels": {"app": "web", "tier": "front"},
                                "annotations": {"a": "b"}},
                   "spec": {"containers": [{"name": "nginx", "image": "nginx:1"}]}}
    }})"));
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  set->spec.replicas = replicas;
  return *set;
}

// A pod of the set: `node` "" is unscheduled; `ready_since` empty means not Ready.
std::shared_ptr<const api::Pod> PodOf(const std::string& name, const std::string& phase,
                                      const std::string& node, const std::string& ready_since,
                                      const std::string& created = "2026-12-05T10:00:00Z") {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.uid = "u-" + name;
  pod.metadata.namespace_ = "default";
  pod.metadata.creation_timestamp = created;
  pod.metadata.labels = {{"app", "web"}, {"tier", "front"}};
  pod.spec.node_name = node;
  pod.status.phase = phase;
  if (!ready_since.empty()) {
    api::PodCondition ready;
    ready.type = "Ready";
    ready.status = "True";
    ready.last_transition_time = ready_since;
    pod.status.conditions.push_back(ready);
  }
  return std::make_shared<const api::Pod>(std::move(pod));
}

std::vector<std::string> Deleted(const ReplicaSetPlan& plan) {
  std::vector<std::string> names;
  for (const ReplicaSetAction& a : plan.actions) {
    if (a.kind == Kind::kDeletePod) names.push_back(a.name);
  }
  return names;
}

TEST(ReplicaSetPlanTest, CreatesTheMissingPodsFromTheTemplate) {
  ReplicaSetSnapshot snap{
      WebSet(3), {PodOf("web-abc-1", "Running", "n1", "2026-12-05T11:00:00Z")}, {}, kNow};
  ReplicaSetPlan plan = PlanReplicaSet(snap);
  int creates = 0;
  for (const ReplicaSetAction& a : plan.actions) {
    if (a.kind != Kind::kCreatePod) continue;
    ++creates;
    EXPECT_EQ(a.pod->metadata.generate_name, "web-abc-");
    EXPECT_EQ(a.pod->metadata.labels.at("tier"), "front");
    EXPECT_EQ(a.pod->metadata.annotations.at("a"), "b");
    ASSERT_EQ(a.pod->metadata.owner_references.size(), 1u);
    const api::OwnerReference& ref = a.pod->metadata.owner_references[0];
    EXPECT_EQ(ref.kind, "ReplicaSet");
    EXPECT_EQ(ref.uid, "u-rs");
    EXPECT_TRUE(ref.controller.value_or(false));
    EXPECT_EQ(a.pod->spec.containers.at(0).image, "nginx:1");
  }
  EXPECT_EQ(creates, 2);
  EXPECT_EQ(plan.status.replicas, 1);
  EXPECT_EQ(plan.status.ready_replicas, 1);
  EXPECT_EQ(plan.status.available_replicas, 1);
  EXPECT_EQ(plan.status.fully_labeled_replicas, 1);
  EXPECT_EQ(plan.status.observed_generation, 2);
  EXPECT_EQ(plan.actions.back().kind, Kind::kUpdateStatus);
}

TEST(ReplicaSetPlanTest, TerminatingAndFinishedPodsAreNotCountedAndAreReplaced) {
  auto terminating =
      std::make_shared<api::Pod>(*PodOf("web-abc-2", "Running", "n1", "2026-12-05T11:00:00Z"));
  terminating->metadata.deletion_timestamp = "2026-12-05T11:59:00Z";
  ReplicaSetSnapshot snap{WebSet(2),
                          {PodOf("web-abc-1", "Running", "n1", "2026-12-05T11:00:00Z"), terminating,
                           PodOf("web-abc-3", "Failed", "n1", "")},
                          {},
                          kNow};
  ReplicaSetPlan plan = PlanReplicaSet(snap);
  EXPECT_EQ(plan.actions.front().kind, Kind::kCreatePod);
  EXPECT_EQ(plan.status.replicas, 1);
  EXPECT_TRUE(Deleted(plan).empty());
}

// Upstream TestSortingActivePodsWithRanks: unassigned, then Pending, then Unknown, then not
// Ready, then Ready; among Ready pods the more recently Ready first.
TEST(ReplicaSetPlanTest, ScaleDownDeletesInUpstreamsRankOrder) {
  ReplicaSetSnapshot snap{
      WebSet(1),
      {PodOf("ready-old", "Running", "n1", "2026-12-01T00:00:00Z"),
       PodOf("ready-new", "Running", "n2", "2026-12-05T11:59:00Z"),
       PodOf("running", "Running", "n3", ""), PodOf("unknown", "Unknown", "n4", ""),
       PodOf("pending", "Pending", "n5", ""), PodOf("unassigned", "Pending", "", "")},
      {},
      kNow};
  EXPECT_EQ(Deleted(PlanReplicaSet(snap)),
            (std::vector<std::string>{"unassigned", "pending", "unknown", "running", "ready-new"}));
}

TEST(ReplicaSetPlanTest, DeletionCostAndCrowdedNodesGoFirst) {
  auto cheap = std::make_shared<api::Pod>(*PodOf("cheap", "Running", "n1", "2026-12-05T11:00:00Z"));
  cheap->metadata.annotations[std::string(kPodDeletionCostAnnotation)] = "-10";
  auto a = PodOf("alone", "Running", "n2", "2026-12-05T11:00:00Z");
  auto b = PodOf("crowded", "Running", "n3", "2026-12-05T11:00:00Z");
  // A sibling set's pod shares n3, so "crowded" is doubled up there.
  auto sibling = PodOf("sibling", "Running", "n3", "2026-12-05T11:00:00Z");
  ReplicaSetSnapshot snap{WebSet(1), {a, b, cheap}, {a, b, cheap, sibling}, kNow};
  EXPECT_EQ(Deleted(PlanReplicaSet(snap)), (std::vector<std::string>{"cheap", "crowded"}));
}

// The reconciler gathers sibling sets' pods only when a sync ranks pods to delete.
TEST(ReplicaSetPlanTest, RanksOnlyAPartialScaleDown) {
  auto a = PodOf("a", "Running", "n1", "2026-12-05T11:00:00Z");
  auto b = PodOf("b", "Running", "n2", "2026-12-05T11:00:00Z");
  EXPECT_TRUE(RanksPodsToDelete({WebSet(1), {a, b}, {}, kNow}));
  EXPECT_FALSE(RanksPodsToDelete({WebSet(0), {a, b}, {}, kNow}));  // all go: no choice
  EXPECT_FALSE(RanksPodsToDelete({WebSet(2), {a, b}, {}, kNow}));
  EXPECT_FALSE(RanksPodsToDelete({WebSet(3), {a, b}, {}, kNow}));
}

TEST(ReplicaSetPlanTest, ReadyTimesInOneLog2BucketFallBackToRestartsThenAge) {
  // Both Ready about an hour ago: the same log2 bucket of nanoseconds, so the tie breaks by uid.
  auto first = PodOf("a", "Running", "n1", "2026-12-05T11:00:00Z");
  auto second = PodOf("b", "Running", "n2", "2026-12-05T11:00:01Z");
  EXPECT_TRUE(ComparePodsToDelete(*first, 0, *second, 0, kNow));
  EXPECT_FALSE(ComparePodsToDelete(*second, 0, *first, 0, kNow));
  // Ready a day apart: the more recently Ready goes first.
  auto old = PodOf("c", "Running", "n3", "2026-12-04T11:00:00Z");
  EXPECT_TRUE(ComparePodsToDelete(*first, 0, *old, 0, kNow));
  // Not Ready: more restarts first.
  auto restarted = std::make_shared<api::Pod>(*PodOf("d", "Running", "n4", ""));
  restarted->status.container_statuses.push_back({.name = "nginx", .restart_count = 3});
  auto steady = PodOf("e", "Running", "n5", "");
  EXPECT_TRUE(ComparePodsToDelete(*restarted, 0, *steady, 0, kNow));
  EXPECT_FALSE(ComparePodsToDelete(*steady, 0, *restarted, 0, kNow));
}

TEST(ReplicaSetPlanTest, MinReadySecondsAsksToLookAgain) {
  api::ReplicaSet set = WebSet(1);
  set.spec.min_ready_seconds = 30;
  ReplicaSetSnapshot snap{
      set, {PodOf("web-abc-1", "Running", "n1", "2026-12-05T11:59:50Z")}, {}, kNow};
  ReplicaSetPlan plan = PlanReplicaSet(snap);
  EXPECT_EQ(plan.status.ready_replicas, 1);
  EXPECT_EQ(plan.status.available_replicas, 0);
  ASSERT_EQ(plan.actions.back().kind, Kind::kRequeueAfter);
  EXPECT_EQ(plan.actions.back().requeue_after, std::chrono::seconds(21));
}

TEST(ReplicaSetPlanTest, NoWritesWhenNothingChangedAndFailureIsCleared) {
  api::ReplicaSet set = WebSet(1);
  ReplicaSetSnapshot snap{
      set, {PodOf("web-abc-1", "Running", "n1", "2026-12-05T11:00:00Z")}, {}, kNow};
  set.status = PlanReplicaSet(snap).status;
  snap.set = set;
  EXPECT_TRUE(PlanReplicaSet(snap).actions.empty());
  // A ReplicaFailure from an earlier failed create goes once a sync needs no write.
  snap.set.status = WithReplicaFailure(set.status, "FailedCreate", "quota", kNow);
  ASSERT_EQ(snap.set.status.conditions.size(), 1u);
  ReplicaSetPlan plan = PlanReplicaSet(snap);
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions[0].kind, Kind::kUpdateStatus);
  EXPECT_TRUE(plan.status.conditions.empty());
}

}  // namespace
}  // namespace lws::cluster
