// The opt-in failure policy (lws-cpp.dev/failure-policy, controllers/lws/failure_policy.h) on the
// simulated cluster: a broken build whose worker crashes 10 s after it is Ready is rolled out;
// Rollback restores the previous template (after the rollout reached every group, within the
// failure window), Pause stops replacing groups.
#include <gtest/gtest.h>

#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "cluster/cluster_spec.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

class FailurePolicy : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(world.Start().ok()); }

  void CreateAndBreak(const std::string& policy, int replicas = 3) {
    LwsShape shape;
    shape.replicas = replicas;
    Json lws = LwsObject(shape);
    lws["metadata"]["annotations"] = {{api::kFailurePolicyAnnotation, policy},
                                      {api::kFailureThresholdAnnotation, "2"}};
    ASSERT_TRUE(world.Create(client::kLeaderWorkerSets, lws).ok());
    ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 2min));
    good_revision_ = Revision("test-sample-0");
    Json broken = WorkerImagePatch("vllm/vllm-openai:v0.6.1-broken");
    broken["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["annotations"]
          [cluster::kCrashAfterSecondsAnnotation] = "10";
    ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", broken).ok());
  }
  api::Condition Condition(const std::string& type) {
    return world.LwsCondition("test-sample", type);
  }
  std::string Revision(const std::string& pod) {
    auto p = world.Pod(pod);
    return p ? p->metadata.Label(api::kRevisionLabel) : "";
  }
  std::string WorkerImage() {
    auto lws = world.Lws("test-sample");
    return lws ? lws->spec.leader_worker_template.worker_template.spec.containers.at(0).image : "";
  }
  int Partition() {
    auto sts = world.StatefulSet("test-sample");
    return sts && sts->spec.update_strategy.rolling_update
               ? sts->spec.update_strategy.rolling_update->partition.value_or(0)
               : -1;
  }

  LwsWorld world{WorldOptions{GpuCluster(8, 8), 1}};
  std::string good_revision_;
};

TEST_F(FailurePolicy, RollbackRestoresThePreviousTemplate) {
  CreateAndBreak("Rollback");
  ASSERT_TRUE(world.RunUntil([&] { return Condition("RolloutFailed").status == "True"; }, 10min));
  api::Condition failed = Condition("RolloutFailed");
  EXPECT_EQ(failed.reason, "RolledBack");
  EXPECT_NE(failed.message.find("failed: "), std::string::npos) << failed.message;
  EXPECT_NE(failed.message.find("; rolled back to revision " + good_revision_), std::string::npos)
      << failed.message;
  EXPECT_EQ(WorkerImage(), "vllm/vllm-openai:v0.6.0");
  auto lws = world.Lws("test-sample");
  auto recorded = api::ReadFailedRevision(lws->metadata);
  ASSERT_TRUE(recorded.has_value());
  EXPECT_EQ(recorded->rolled_back_to, good_revision_);
  EXPECT_EQ(lws->spec.leader_worker_template.worker_template.metadata.annotations.count(
                cluster::kCrashAfterSecondsAnnotation),
            0u);
  auto events = world.Events("RolloutFailed");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "Warning");
  EXPECT_EQ(events[0].message, failed.message);
  // Back on the good revision everywhere, and Available.
  ASSERT_TRUE(world.RunUntil(
      [&] {
        return Condition("Available").status == "True" &&
               Revision("test-sample-0") == good_revision_ &&
               Revision("test-sample-1") == good_revision_ &&
               Revision("test-sample-2") == good_revision_;
      },
      10min));

  // The failed revision is not rolled out again by itself: applying it again pauses at once.
  Json broken = WorkerImagePatch("vllm/vllm-openai:v0.6.1-broken");
  broken["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["annotations"]
        [cluster::kCrashAfterSecondsAnnotation] = "10";
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", broken).ok());
  ASSERT_TRUE(
      world.RunUntil([&] { return Condition("RolloutFailed").reason == "RolloutPaused"; }, 1min));
  world.RunFor(5min);
  EXPECT_EQ(Revision("test-sample-0"), good_revision_);
  EXPECT_EQ(Revision("test-sample-1"), good_revision_);
  EXPECT_EQ(WorkerImage(), "vllm/vllm-openai:v0.6.1-broken");
}

TEST_F(FailurePolicy, PauseReplacesNoFurtherGroup) {
  // Eight groups: the build fails before the rollout reaches them all.
  CreateAndBreak("Pause", 8);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("RolloutFailed").status == "True"; }, 10min));
  EXPECT_EQ(Condition("RolloutFailed").reason, "RolloutPaused");
  const int partition = Partition();
  EXPECT_GT(partition, 0);
  world.RunFor(10min);
  EXPECT_EQ(Partition(), partition);
  EXPECT_EQ(Revision("test-sample-0"), good_revision_);
  EXPECT_EQ(WorkerImage(), "vllm/vllm-openai:v0.6.1-broken");
  EXPECT_EQ(world.Events("RolloutFailed").size(), 1u);

  // A new template (a fixed build) is a new revision: the rollout goes on.
  Json fixed = WorkerImagePatch("vllm/vllm-openai:v0.6.2");
  fixed["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["annotations"]
       [cluster::kCrashAfterSecondsAnnotation] = nullptr;
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", fixed).ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        return Condition("Available").status == "True" &&
               Condition("RolloutFailed").status == "False";
      },
      10min));
  EXPECT_EQ(Partition(), 0);
}

TEST_F(FailurePolicy, WithoutThePolicyTheBrokenBuildRollsOnAsUpstreams) {
  LwsShape shape;
  shape.replicas = 3;
  ASSERT_TRUE(world.Create(client::kLeaderWorkerSets, LwsObject(shape)).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 2min));
  Json broken = WorkerImagePatch("vllm/vllm-openai:v0.6.1-broken");
  broken["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["annotations"]
        [cluster::kCrashAfterSecondsAnnotation] = "10";
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", broken).ok());
  world.RunFor(10min);
  EXPECT_EQ(WorkerImage(), "vllm/vllm-openai:v0.6.1-broken");
  EXPECT_EQ(Condition("RolloutFailed").status, "");
  EXPECT_TRUE(world.Events("RolloutFailed").empty());
}

}  // namespace
}  // namespace lws::scenario
