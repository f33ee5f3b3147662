// The opt-in restart budget and backoff (api/group_restarts.h) end to end on the simulated
// cluster: a worker that crashes 20 s after it becomes Ready puts its group in a recreation loop
// (upstream issue 1048: 30 recreations in 90 s); the annotations bound and space that loop.
#include <gtest/gtest.h>

#include "api/group_restarts.h"
#include "client/resource.h"
#include "cluster/cluster_spec.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

class RestartBudget : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(world.Start().ok()); }

  // One group of two whose worker crashes 20 s after Ready, with the LWS annotations given.
  void CreateCrashLoopingLws(const Json& annotations) {
    LwsShape shape;
    shape.replicas = 1;
    Json lws = LwsObject(shape);
    lws["metadata"]["annotations"] = annotations;
    lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["annotations"]
       [cluster::kCrashAfterSecondsAnnotation] = "20";
    auto created = world.Create(client::kLeaderWorkerSets, lws);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  std::string Counts() {
    auto lws = world.Lws("test-sample");
    return lws ? lws->metadata.Annotation(api::kGroupRestartsAnnotation) : "?";
  }
  // The Degraded condition; nullptr when the LWS has none.
  const api::Condition* Degraded() {
    degraded_ = world.LwsCondition("test-sample", "Degraded");
    return degraded_.type.empty() ? nullptr : &degraded_;
  }
  std::string LeaderUid() {
    auto leader = world.Pod("test-sample-0");
    return leader ? leader->metadata.uid : "";
  }
  std::int32_t EventCount(const std::string& reason) {
    std::int32_t n = 0;
    for (const auto& e : world.Events(reason)) n += std::max(e.count, 1);
    return n;
  }

  LwsWorld world{WorldOptions{GpuCluster(2, 8), 1}};
  api::Condition degraded_;
};

TEST_F(RestartBudget, ASpentBudgetKeepsTheGroupUntilRecoveryIsAsked) {
  CreateCrashLoopingLws({{api::kMaxGroupRestartsAnnotation, "2"}});
  ASSERT_TRUE(world.RunUntil(
      [&] { return Counts().find(R"(/0":{"exhausted":true,"restarts":2}})") != std::string::npos; },
      10min))
      << Counts();
  EXPECT_EQ(EventCount("RecreateGroup"), 2);
  ASSERT_EQ(world.Events("ReplicaRestartBudgetExceeded").size(), 1u);
  EXPECT_EQ(world.Events("ReplicaRestartBudgetExceeded")[0].type, "Warning");
  ASSERT_TRUE(world.RunUntil([&] { return Degraded() != nullptr; }, 10s));
  EXPECT_EQ(Degraded()->status, "True");
  EXPECT_EQ(Degraded()->reason, "ReplicaRestartBudgetExceeded");

  // Kept: the same pods for ten minutes, the worker restarted in place by kubelet.
  const std::string kept = LeaderUid();
  world.RunFor(10min);
  EXPECT_EQ(LeaderUid(), kept);
  EXPECT_EQ(EventCount("RecreateGroup"), 2);
  auto worker = world.Pod("test-sample-0-1");
  ASSERT_TRUE(worker.has_value());
  ASSERT_FALSE(worker->status.container_statuses.empty());
  EXPECT_GT(worker->status.container_statuses[0].restart_count, 1);

  // Recovery: the count is cleared, the group recreated, Degraded goes False.
  ASSERT_TRUE(
      world
          .MergePatch(client::kPods, "test-sample-0",
                      {{"metadata", {{"annotations", {{api::kRecoverAnnotation, "true"}}}}}})
          .ok());
  ASSERT_TRUE(world.RunUntil([&] { return LeaderUid() != kept && !LeaderUid().empty(); }, 1min));
  EXPECT_EQ(world.Events("RecoverGroup").size(), 1u);
  ASSERT_TRUE(world.RunUntil([&] { return Degraded() && Degraded()->status == "False"; }, 30s));
  // The recreated group starts a fresh budget: its next crash is counted from 1 again.
  ASSERT_TRUE(
      world.RunUntil([&] { return Counts().find("\"restarts\":1") != std::string::npos; }, 2min));
}

TEST_F(RestartBudget, BackoffSpacesTheRecreationsOfACrashLoop) {
  CreateCrashLoopingLws({{api::kGroupRestartBackoffAnnotation, "30s"}});
  // Each leader's creation time, in order: each one is a recreation of the group.
  std::vector<Time> created;
  std::string uid;
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto leader = world.Pod("test-sample-0");
        if (leader && leader->metadata.uid != uid) {
          uid = leader->metadata.uid;
          created.push_back(*ParseRfc3339(leader->metadata.creation_timestamp));
        }
        return created.size() == 5;
      },
      15min, 1s));
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < created.size(); ++i) {
    gaps.push_back(
        std::chrono::duration_cast<std::chrono::seconds>(created[i] - created[i - 1]).count());
  }
  // The first group crashes ~25 s after creation (Ready after 5 s, crash 20 s later) and is
  // recreated at once; then 30 s, 60 s and 120 s after each leader's creation.
  ASSERT_EQ(gaps.size(), 4u);
  EXPECT_LT(gaps[0], 30);
  EXPECT_GE(gaps[1], 30);
  EXPECT_LT(gaps[1], 35);
  EXPECT_GE(gaps[2], 60);
  EXPECT_LT(gaps[2], 65);
  EXPECT_GE(gaps[3], 120);
  EXPECT_LT(gaps[3], 125);
  EXPECT_GE(world.Events("GroupRestartBackoff").size(), 3u);
  EXPECT_EQ(EventCount("RecreateGroup"), 4);
}

TEST_F(RestartBudget, WithoutTheAnnotationsTheLoopIsUpstreams) {
  CreateCrashLoopingLws(Json::object());
  world.RunFor(5min);
  // Recreated every ~25 s, with nothing counted on the LWS.
  EXPECT_GE(EventCount("RecreateGroup"), 9);
  EXPECT_EQ(Counts(), "");
  EXPECT_EQ(Degraded(), nullptr);
}

}  // namespace
}  // namespace lws::scenario
