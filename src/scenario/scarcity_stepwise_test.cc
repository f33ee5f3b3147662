// The opt-in scarcity behaviours (docs/scarcity.md) step by step, as `lws up --kubelet manual`
// runs them: the test marks groups Ready through the pod status subresource, and after each step
// checks the conditions, the events, and the leader StatefulSet's partition and replicas. The
// progress deadline (controllers/lws/progress_deadline.h), the surge fallback
// (controllers/lws/surge_fallback.h), rollout before scale-up (controllers/lws/scale_up_hold.h) and
// a pause by the user (lws-cpp.dev/paused, `kubectl lws rollout pause`).
#include <gtest/gtest.h>

#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

class Scarcity : public ::testing::Test {
 protected:
  void Create(LwsShape shape, const std::string& deadline,
              const Json& annotations = Json::object()) {
    ASSERT_TRUE(world.Start().ok());
    Json lws = LwsObject(shape);
    lws["metadata"]["annotations"] = annotations;
    if (!deadline.empty()) {
      lws["metadata"]["annotations"][api::kProgressDeadlineAnnotation] = deadline;
    }
    auto created = world.Create(client::kLeaderWorkerSets, lws);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  api::Condition Condition(const std::string& type) {
    return world.LwsCondition("test-sample", type);
  }
  std::string Progressing() {
    api::Condition c = Condition("Progressing");
    return c.status + "/" + c.reason;
  }
  // Marks group g Ready once its pods are bound.
  void ReadyGroup(int g) {
    ASSERT_TRUE(world.RunUntil(
        [&] {
          auto pods = world.Pods(
              {{api::kSetNameLabel, "test-sample"}, {api::kGroupIndexLabel, std::to_string(g)}});
          if (pods.size() != 2) return false;
          for (const auto& p : pods) {
            if (p.spec.node_name.empty() || p.metadata.IsDeleting()) return false;
          }
          return true;
        },
        60s));
    ASSERT_TRUE(world.MarkGroupReady("test-sample", g).ok());
  }

  // The revision label of pod `name` ("" when absent or deleting).
  std::string Revision(const std::string& name) {
    auto pod = world.Pod(name);
    return pod && !pod->metadata.IsDeleting() ? pod->metadata.Label(api::kRevisionLabel) : "";
  }
  // The leader StatefulSet's "partition/replicas".
  std::string LeaderSet() {
    auto sts = world.StatefulSet("test-sample");
    if (!sts || !sts->spec.update_strategy.rolling_update) return "?";
    return std::to_string(sts->spec.update_strategy.rolling_update->partition.value_or(0)) + "/" +
           std::to_string(sts->spec.replicas.value_or(1));
  }
  // Two groups of two 8-GPU pods fill the four nodes: a surge group has no room.
  void CreateFullSurgeRollout(const Json& annotations) {
    LwsShape shape;
    shape.max_unavailable = 0;
    shape.max_surge = 1;
    shape.gpus = 8;
    Create(shape, "", annotations);
    ReadyGroup(0);
    ReadyGroup(1);
    ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
    ASSERT_TRUE(
        world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
    ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "2/3"; }, 10s)) << LeaderSet();
  }
  // Upstream issue 717's shape: two groups of two 8-GPU pods fill the four nodes, then one apply
  // asks for four groups of 4-GPU pods, which fit only once the two existing groups are replaced.
  void CreateFullThenScaleWithSmallerPods(const Json& annotations) {
    Create(LwsShape{.gpus = 8}, "", annotations);
    ReadyGroup(0);
    ReadyGroup(1);
    ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
    const Json smaller = LwsObject(LwsShape{.replicas = 4, .gpus = 4});
    Json patch = {{"spec", {{"replicas", 4}, {"leaderWorkerTemplate", Json::object()}}}};
    for (const char* role : {"leaderTemplate", "workerTemplate"}) {
      patch["spec"]["leaderWorkerTemplate"][role] = smaller["spec"]["leaderWorkerTemplate"][role];
    }
    ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", patch).ok());
  }
  // The pods of group g, bound to a node, not deleting.
  int BoundPods(int g) {
    int bound = 0;
    for (const auto& p : world.Pods(
             {{api::kSetNameLabel, "test-sample"}, {api::kGroupIndexLabel, std::to_string(g)}})) {
      bound += !p.spec.node_name.empty() && !p.metadata.IsDeleting();
    }
    return bound;
  }

  LwsWorld world{WorldOptions{GpuCluster(4, 8), 1, cluster::KubeletMode::kManual}};
};

TEST_F(Scarcity, NoProgressTurnsProgressingFalseAndProgressTurnsItBack) {
  Create(LwsShape{}, "2m");
  world.RunFor(30s);
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  // Pods bound, never started: no progress for 2 minutes.
  world.RunFor(80s);
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  ASSERT_TRUE(
      world.RunUntil([&] { return Progressing() == "False/ProgressDeadlineExceeded"; }, 30s));
  EXPECT_EQ(Condition("Progressing").message,
            "LeaderWorkerSet test-sample has made no progress for 2m0s "
            "(lws-cpp.dev/progress-deadline): groups 0, 1 not ready");
  auto events = world.Events("ProgressDeadlineExceeded");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "Warning");
  EXPECT_EQ(events[0].message, Condition("Progressing").message);
  EXPECT_EQ(Condition("Available").status, "");  // never asserted yet

  // Group 0 Ready: progress; Progressing is True again.
  ReadyGroup(0);
  ASSERT_TRUE(world.RunUntil([&] { return Progressing() == "True/GroupsProgressing"; }, 10s));
  // Then another stall names group 1 only, with a second event.
  ASSERT_TRUE(
      world.RunUntil([&] { return Progressing() == "False/ProgressDeadlineExceeded"; }, 3min));
  EXPECT_EQ(Condition("Progressing").message,
            "LeaderWorkerSet test-sample has made no progress for 2m0s "
            "(lws-cpp.dev/progress-deadline): group 1 not ready");
  EXPECT_EQ(world.Events("ProgressDeadlineExceeded").size(), 2u);

  // Complete: Available; Progressing False with upstream's words, the stall forgotten.
  ReadyGroup(1);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 10s));
  EXPECT_EQ(Progressing(), "False/GroupsProgressing");
  world.RunFor(5min);
  EXPECT_EQ(Progressing(), "False/GroupsProgressing");
  EXPECT_EQ(world.Events("ProgressDeadlineExceeded").size(), 2u);
}

TEST_F(Scarcity, ARolloutWaitingForCapacityNamesTheSchedulersReason) {
  LwsShape shape;
  shape.max_unavailable = 0;
  shape.max_surge = 1;
  shape.gpus = 8;  // a group fills two nodes: two groups fill the cluster, no room to surge
  Create(shape, "1m");
  ReadyGroup(0);
  ReadyGroup(1);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  ASSERT_TRUE(
      world.RunUntil([&] { return Progressing() == "False/ProgressDeadlineExceeded"; }, 3min));
  const std::string message = Condition("Progressing").message;
  EXPECT_EQ(message.rfind("LeaderWorkerSet test-sample has made no progress for 1m0s "
                          "(lws-cpp.dev/progress-deadline): group 2 not ready; pod test-sample-2 "
                          "is unschedulable: 0/4 nodes are available",
                          0),
            0u)
      << message;
  EXPECT_EQ(Condition("UpdateInProgress").status, "True");
}

TEST_F(Scarcity, WithoutTheAnnotationProgressingStaysAsUpstreams) {
  Create(LwsShape{}, "");
  world.RunFor(10min);
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  EXPECT_TRUE(world.Events("ProgressDeadlineExceeded").empty());
}

TEST_F(Scarcity, SurgeFallbackReleasesOneGroupAtATimeWhenNoSurgeCanRun) {
  CreateFullSurgeRollout(
      {{api::kSurgeFallbackAfterAnnotation, "1m"}, {api::kSurgeFallbackReleaseAnnotation, "true"}});
  const std::string old_revision = Revision("test-sample-0");
  // The surge group waits: before the minute, upstream's behaviour.
  world.RunFor(50s);
  EXPECT_EQ(LeaderSet(), "2/3");
  EXPECT_EQ(Condition("SurgeFallback").status, "");
  // After it: the surge group goes, group 1 is released and replaced.
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "1/2"; }, 30s)) << LeaderSet();
  ASSERT_TRUE(world.RunUntil([&] { return Condition("SurgeFallback").status == "True"; }, 5s));
  api::Condition fallback = Condition("SurgeFallback");
  EXPECT_EQ(fallback.status, "True");
  EXPECT_EQ(fallback.reason, "SurgeUnschedulable");
  EXPECT_EQ(fallback.message.rfind("surge group 2 unschedulable for 1m0s (pod test-sample-2: 0/4 "
                                   "nodes are available",
                                   0),
            0u)
      << fallback.message;
  EXPECT_NE(fallback.message.find("rolling out with maxSurge 0 and maxUnavailable 1 instead of "
                                  "maxSurge 1 and maxUnavailable 0"),
            std::string::npos);
  auto events = world.Events("SurgeUnschedulable");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "Warning");
  EXPECT_EQ(events[0].message, fallback.message);
  ASSERT_TRUE(world.RunUntil([&] { return !world.Pod("test-sample-2").has_value(); }, 30s));

  // Step by step to the end: group 1 on the new revision, then group 0.
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-1") != old_revision; }, 30s));
  ReadyGroup(1);
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "0/2"; }, 30s)) << LeaderSet();
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-0") != old_revision; }, 30s));
  ReadyGroup(0);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
  ASSERT_TRUE(world.RunUntil([&] { return Condition("SurgeFallback").status == "False"; }, 30s));
  EXPECT_EQ(world.Lws("test-sample")->metadata.Annotation(api::kSurgeFallbackAnnotation), "");
  EXPECT_EQ(LeaderSet(), "0/2");

  // The next rollout starts with the user's settings again: a surge group.
  ASSERT_TRUE(world
                  .MergePatch(client::kLeaderWorkerSets, "test-sample",
                              WorkerImagePatch("vllm/vllm-openai:v0.6.2"))
                  .ok());
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "2/3"; }, 10s)) << LeaderSet();
}

TEST_F(Scarcity, SurgeFallbackWithoutReleaseWaitsAndSaysWhy) {
  CreateFullSurgeRollout({{api::kSurgeFallbackAfterAnnotation, "1m"}});
  world.RunFor(3min);
  EXPECT_EQ(LeaderSet(), "2/3");
  EXPECT_EQ(Condition("SurgeFallback").status, "");
  auto events = world.Events("SurgeUnschedulable");
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events[0].message.find("no surge group runs and maxUnavailable is 0, so the rollout "
                                   "waits; set lws-cpp.dev/surge-fallback-release: \"true\" to "
                                   "release one group at a time"),
            std::string::npos)
      << events[0].message;
}

TEST_F(Scarcity, WithoutTheSurgeFallbackTheRolloutWaitsAsUpstreams) {
  CreateFullSurgeRollout(Json::object());
  world.RunFor(10min);
  EXPECT_EQ(LeaderSet(), "2/3");
  EXPECT_TRUE(world.Events("SurgeUnschedulable").empty());
}

TEST_F(Scarcity, RolloutBeforeScaleUpReplacesTheExistingGroupsFirst) {
  CreateFullThenScaleWithSmallerPods({{api::kRolloutBeforeScaleUpAnnotation, "true"}});
  const std::string old_revision = Revision("test-sample-0");
  // The rollout works on the two groups there are; the scale-up waits and says so.
  ASSERT_TRUE(world.RunUntil([&] { return Condition("ScaleUpHeld").status == "True"; }, 10s));
  api::Condition held = Condition("ScaleUpHeld");
  EXPECT_EQ(held.reason, "RolloutBeforeScaleUp");
  EXPECT_EQ(held.message,
            "Scaling up from 2 to 4 groups waits until the existing groups run the current "
            "revision and are Ready (lws-cpp.dev/rollout-before-scale-up)");
  auto events = world.Events("RolloutBeforeScaleUp");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "Normal");
  EXPECT_EQ(events[0].message, held.message);
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "1/2"; }, 10s)) << LeaderSet();
  EXPECT_EQ(world.StatefulSet("test-sample")->metadata.Annotation(api::kReplicasAnnotation), "2");

  // Group 1, then group 0, on the smaller pods; only then groups 2 and 3.
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-1") != old_revision; }, 30s));
  ReadyGroup(1);
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "0/2"; }, 30s)) << LeaderSet();
  EXPECT_EQ(Condition("ScaleUpHeld").status, "True");
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-0") != old_revision; }, 30s));
  ReadyGroup(0);
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "0/4"; }, 30s)) << LeaderSet();
  ASSERT_TRUE(world.RunUntil([&] { return Condition("ScaleUpHeld").status == "False"; }, 10s));
  EXPECT_EQ(Condition("ScaleUpHeld").reason, "ScaleUpReleased");
  events = world.Events("ScaleUpReleased");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].message, "Scaling to 4 groups no longer waits for the rollout");
  ReadyGroup(2);
  ReadyGroup(3);
  EXPECT_EQ(Revision("test-sample-3"), Revision("test-sample-0"));
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
  EXPECT_EQ(world.StatefulSet("test-sample")->metadata.Annotation(api::kReplicasAnnotation), "4");
  EXPECT_EQ(world.Events("RolloutBeforeScaleUp").size(), 1u);
}

TEST_F(Scarcity, WithoutRolloutBeforeScaleUpTheNewGroupsWaitForCapacityAsUpstreams) {
  CreateFullThenScaleWithSmallerPods(Json::object());
  const std::string old_revision = Revision("test-sample-0");
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "2/4"; }, 10s)) << LeaderSet();
  world.RunFor(10min);
  // Groups 2 and 3 never fit; groups 0 and 1 wait for them and keep the GPUs they need.
  EXPECT_EQ(LeaderSet(), "2/4");
  EXPECT_EQ(BoundPods(2) + BoundPods(3), 0);
  EXPECT_EQ(Revision("test-sample-0"), old_revision);
  EXPECT_EQ(Revision("test-sample-1"), old_revision);
  EXPECT_EQ(Condition("ScaleUpHeld").status, "");
}

TEST_F(Scarcity, APausedRolloutReplacesNoFurtherGroupAndItsDeadlineWaits) {
  Create(LwsShape{.replicas = 3}, "1m", {{api::kPausedAnnotation, "true"}});
  for (int g = 0; g < 3; ++g) ReadyGroup(g);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
  api::Condition paused = Condition("Paused");
  EXPECT_EQ(paused.status, "True");
  EXPECT_EQ(paused.reason, "RolloutPaused");
  EXPECT_EQ(paused.message,
            "The rollout is paused (lws-cpp.dev/paused): no further group is replaced; resume it "
            "with kubectl lws rollout resume test-sample");
  // A template change while paused: no group is replaced, and the deadline does not run.
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Condition("UpdateInProgress").status == "True"; }, 10s));
  world.RunFor(3min);
  EXPECT_EQ(LeaderSet(), "3/3");
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");

  // Resumed: the rollout moves; paused again mid-way, it stops where it is.
  const Json resume = {{"metadata", {{"annotations", {{api::kPausedAnnotation, nullptr}}}}}};
  const Json pause = {{"metadata", {{"annotations", {{api::kPausedAnnotation, "true"}}}}}};
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", resume).ok());
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "2/3"; }, 10s)) << LeaderSet();
  EXPECT_EQ(Condition("Paused").status, "False");
  EXPECT_EQ(Condition("Paused").reason, "RolloutResumed");
  const std::string old_revision = Revision("test-sample-0");
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-2") != old_revision; }, 30s));
  ReadyGroup(2);
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "1/3"; }, 30s)) << LeaderSet();
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", pause).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Paused").status == "True"; }, 10s));
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-1") != old_revision; }, 30s));
  ReadyGroup(1);
  world.RunFor(3min);
  EXPECT_EQ(LeaderSet(), "1/3");
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", resume).ok());
  ASSERT_TRUE(world.RunUntil([&] { return LeaderSet() == "0/3"; }, 10s)) << LeaderSet();
  ASSERT_TRUE(world.RunUntil([&] { return Revision("test-sample-0") != old_revision; }, 30s));
  ReadyGroup(0);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
}

}  // namespace
}  // namespace lws::scenario
