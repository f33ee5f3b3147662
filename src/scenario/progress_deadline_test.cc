// The opt-in progress deadline (lws-cpp.dev/progress-deadline, controllers/lws/progress_deadline.h)
// step by step, as `lws up --kubelet manual` runs it: the test marks groups Ready through the pod
// status subresource, and after each step checks the conditions and the events.
#include <gtest/gtest.h>

#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

class ProgressDeadline : public ::testing::Test {
 protected:
  void Create(LwsShape shape, const std::string& deadline) {
    ASSERT_TRUE(world.Start().ok());
    Json lws = LwsObject(shape);
    if (!deadline.empty()) {
      lws["metadata"]["annotations"][api::kProgressDeadlineAnnotation] = deadline;
    }
    auto created = world.Create(client::kLeaderWorkerSets, lws);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  api::Condition Condition(const std::string& type) {
    auto lws = world.Lws("test-sample");
    if (lws) {
      for (const auto& c : lws->status.conditions) {
        if (c.type == type) return c;
      }
    }
    return api::Condition{};
  }
  std::string Progressing() {
    api::Condition c = Condition("Progressing");
    return c.status + "/" + c.reason;
  }
  // Marks group g Ready once its pods are bound.
  void ReadyGroup(int g) {
    ASSERT_TRUE(world.RunUntil(
        [&] {
          auto pods = world.Pods({{api::kSetNameLabel, "test-sample"},
                                  {api::kGroupIndexLabel, std::to_string(g)}});
          if (pods.size() != 2) return false;
          for (const auto& p : pods) {
            if (p.spec.node_name.empty()) return false;
          }
          return true;
        },
        60s));
    ASSERT_TRUE(world.MarkGroupReady("test-sample", g).ok());
  }

  LwsWorld world{WorldOptions{GpuCluster(4, 8), 1, cluster::KubeletMode::kManual}};
};

TEST_F(ProgressDeadline, NoProgressTurnsProgressingFalseAndProgressTurnsItBack) {
  Create(LwsShape{}, "2m");
  world.RunFor(30s);
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  // Pods bound, never started: no progress for 2 minutes.
  world.RunFor(80s);
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  ASSERT_TRUE(world.RunUntil([&] { return Progressing() == "False/ProgressDeadlineExceeded"; }, 30s));
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
  ASSERT_TRUE(world.RunUntil([&] { return Progressing() == "False/ProgressDeadlineExceeded"; }, 3min));
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

TEST_F(ProgressDeadline, ARolloutWaitingForCapacityNamesTheSchedulersReason) {
  LwsShape shape;
  shape.max_unavailable = 0;
  shape.max_surge = 1;
  shape.gpus = 8;  // a group fills two nodes: two groups fill the cluster, no room to surge
  Create(shape, "1m");
  ReadyGroup(0);
  ReadyGroup(1);
  ASSERT_TRUE(world.RunUntil([&] { return Condition("Available").status == "True"; }, 30s));
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Progressing() == "False/ProgressDeadlineExceeded"; }, 3min));
  const std::string message = Condition("Progressing").message;
  EXPECT_EQ(message.rfind("LeaderWorkerSet test-sample has made no progress for 1m0s "
                          "(lws-cpp.dev/progress-deadline): group 2 not ready; pod test-sample-2 "
                          "is unschedulable: 0/4 nodes are available",
                          0),
            0u)
      << message;
  EXPECT_EQ(Condition("UpdateInProgress").status, "True");
}

TEST_F(ProgressDeadline, WithoutTheAnnotationProgressingStaysAsUpstreams) {
  Create(LwsShape{}, "");
  world.RunFor(10min);
  EXPECT_EQ(Progressing(), "True/GroupsProgressing");
  EXPECT_TRUE(world.Events("ProgressDeadlineExceeded").empty());
}

}  // namespace
}  // namespace lws::scenario
