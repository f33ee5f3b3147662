// Issue 31 items 3 and 4: gang scheduling with Volcano's PodGroups, step by step, on the whole
// simulated cluster. The controller's PodGroups follow upstream's volcano_provider.go (spec
// section 19); the "volcano" scheduler of a cluster with gangScheduler: volcano places a group
// all or nothing (cluster/scheduler_gang.h).
#include <gtest/gtest.h>

#include "client/resource.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

// 3 nodes of 2 GPUs; groups of 2 pods of 2 GPUs each: one group fits, a second only in part.
cluster::ClusterSpec ScarceCluster(bool gang) {
  cluster::ClusterSpec spec = GpuCluster(3, 2);
  if (gang) spec.gang_scheduler = std::string(cluster::kVolcanoScheduler);
  return spec;
}

Json GangLws(int replicas, bool volcano) {
  LwsShape shape;
  shape.replicas = replicas;
  shape.size = 2;
  shape.gpus = 2;
  Json lws = LwsObject(shape);
  lws["metadata"]["annotations"] = {{"scheduling.volcano.sh/queue-name", "inference"},
                                    {"volcano.sh/preemptable", "false"},
                                    {"other/annotation", "x"}};
  if (volcano) {
    for (const char* role : {"leaderTemplate", "workerTemplate"}) {
      lws["spec"]["leaderWorkerTemplate"][role]["spec"]["schedulerName"] = "volcano";
    }
  }
  return lws;
}

int BoundPods(LwsWorld& world, const std::string& group_index) {
  int bound = 0;
  for (const auto& pod : world.Pods({{api::kGroupIndexLabel, group_index}})) {
    if (!pod.spec.node_name.empty()) ++bound;
  }
  return bound;
}

TEST(GangScheduling, PodGroupsFollowTheGroupsAndTheirRevisions) {
  LwsWorld world{WorldOptions{ScarceCluster(true), 1}};
  ASSERT_TRUE(world.Start().ok());
  ASSERT_TRUE(world.Create(client::kLeaderWorkerSets, GangLws(1, true)).ok());
  ASSERT_TRUE(world.RunUntil([&] { return world.List(client::kPodGroups).size() == 1; }, 30s));
  const Json group = world.List(client::kPodGroups)[0];
  auto leader = world.Pod("test-sample-0");
  ASSERT_TRUE(leader.has_value());
  const std::string revision = leader->metadata.Label(api::kRevisionLabel);
  EXPECT_EQ(group["metadata"]["name"], "test-sample-0-" + revision);
  EXPECT_EQ(leader->metadata.annotations[api::kGangGroupNameAnnotation],
            "test-sample-0-" + revision);
  EXPECT_EQ(group["metadata"]["labels"][api::kSetNameLabel], "test-sample");
  EXPECT_EQ(group["metadata"]["labels"][api::kGroupIndexLabel], "0");
  EXPECT_EQ(group["metadata"]["labels"][api::kRevisionLabel], revision);
  EXPECT_EQ(group["metadata"]["annotations"], Json({{"volcano.sh/preemptable", "false"}}));
  EXPECT_EQ(group["metadata"]["ownerReferences"][0]["kind"], "Pod");
  EXPECT_EQ(group["metadata"]["ownerReferences"][0]["uid"], leader->metadata.uid);
  EXPECT_EQ(group["spec"]["minMember"], 2);
  EXPECT_EQ(group["spec"]["queue"], "inference");
  // LwsObject asks for GPUs as limits only: the templates' requests are empty, as upstream
  // counts them (resourcehelper.PodRequests over the templates as written).
  EXPECT_FALSE(group["spec"].contains("minResources"));
  ASSERT_TRUE(world.RunUntil([&] { return BoundPods(world, "0") == 2; }, 60s));
  auto worker = world.Pod("test-sample-0-1");
  ASSERT_TRUE(worker.has_value());
  EXPECT_EQ(worker->metadata.annotations[api::kGangGroupNameAnnotation],
            "test-sample-0-" + revision);
  ASSERT_TRUE(world.RunUntil(
      [&] {
        Json pg = world.List(client::kPodGroups)[0];
        return pg["status"]["phase"] == "Running";
      },
      30s));

  // A new revision: the replaced group gets its own PodGroup, the old one goes with its leader.
  ASSERT_TRUE(world
                  .MergePatch(client::kLeaderWorkerSets, "test-sample",
                              WorkerImagePatch("vllm/vllm-openai:v0.6.1"))
                  .ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto groups = world.List(client::kPodGroups);
        auto now = world.Pod("test-sample-0");
        return groups.size() == 1 && now && now->metadata.Label(api::kRevisionLabel) != revision &&
               groups[0]["metadata"]["name"] ==
                   "test-sample-0-" + now->metadata.Label(api::kRevisionLabel);
      },
      300s));
}

// All or nothing: with room for one and a half groups, the second group holds no node under
// the gang scheduler, where the default scheduler lets it take one and wait for the other.
TEST(GangScheduling, AGroupThatFitsOnlyInPartHoldsNothing) {
  for (bool gang : {false, true}) {
    SCOPED_TRACE(gang ? "volcano" : "default-scheduler");
    LwsWorld world{WorldOptions{ScarceCluster(gang), 1}};
    ASSERT_TRUE(world.Start().ok());
    ASSERT_TRUE(world.Create(client::kLeaderWorkerSets, GangLws(2, gang)).ok());
    world.RunFor(120s);
    const int first = BoundPods(world, "0");
    const int second = BoundPods(world, "1");
    EXPECT_EQ(first + second, gang ? 2 : 3) << first << " " << second;
    if (gang) {
      EXPECT_TRUE((first == 2 && second == 0) || (first == 0 && second == 2));
      const std::string waiting = first == 2 ? "test-sample-1" : "test-sample-0";
      auto pod = world.Pod(waiting);
      ASSERT_TRUE(pod.has_value());
      const api::PodCondition* scheduled = pod->status.FindCondition("PodScheduled");
      ASSERT_NE(scheduled, nullptr);
      EXPECT_EQ(scheduled->reason, "Unschedulable");
      EXPECT_NE(scheduled->message.find("tasks in gang unschedulable: pod group is not ready"),
                std::string::npos)
          << scheduled->message;
      bool unschedulable_event = false;
      for (const auto& e : world.Events("Unschedulable")) {
        unschedulable_event |= e.involved_object.kind == "PodGroup";
      }
      EXPECT_TRUE(unschedulable_event);
    } else {
      EXPECT_TRUE(first == 1 || second == 1) << "one group holds a node it cannot use";
    }
  }
}

}  // namespace
}  // namespace lws::scenario
