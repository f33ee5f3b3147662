// The scheduler reconciler applies the pure core's rules end to end (through the API, informers
// and bindings): nodeSelector, taints and tolerations, LWS exclusive placement by topologyKey,
// and no overcommitment within one batch.
#include <gtest/gtest.h>

#include "api/exclusive_placement.h"
#include "cluster/scheduler.h"
#include "cluster/scheduler_e2e_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;  // NOLINT: test builders and fixture

constexpr char kGroupKey[] = "leaderworkerset.sigs.k8s.io/group-key";
constexpr char kRack[] = "example.com/rack";

TEST_F(SchedulerE2eTest, NodeSelectorPicksTheMatchingNode) {
  AddNode("gpu-a", {{"pool", "a"}});
  AddNode("gpu-b", {{"pool", "b"}});
  api::Pod to_b = GpuPodSpec("to-b", 1);
  to_b.spec.node_selector = {{"pool", "b"}};
  CreatePod(to_b);
  api::Pod nowhere = GpuPodSpec("nowhere", 1);
  nowhere.spec.node_selector = {{"pool", "c"}};
  CreatePod(nowhere);
  StartScheduler();
  Run();
  EXPECT_EQ(NodeOf("to-b"), "gpu-b");  // gpu-a sorts first and is as empty
  EXPECT_EQ(NodeOf("nowhere"), "");
  EXPECT_EQ(PodScheduled("nowhere")["message"],
            "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. "
            "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..");
}

TEST_F(SchedulerE2eTest, TaintsKeepOutPodsWithoutTolerations) {
  AddNode("gpu-a", {}, {Taint("dedicated", "infer", "NoSchedule")});
  CreateGpuPod("plain", 1);
  api::Pod tolerant = GpuPodSpec("tolerant", 1);
  tolerant.spec.tolerations = {Tol("dedicated", "Equal", "infer", "NoSchedule")};
  CreatePod(tolerant);
  StartScheduler();
  Run();
  EXPECT_EQ(NodeOf("tolerant"), "gpu-a");
  EXPECT_EQ(NodeOf("plain"), "");
  Json condition = PodScheduled("plain");
  EXPECT_EQ(condition["reason"], "Unschedulable");
  EXPECT_EQ(condition["message"],
            "0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: infer}. "
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..");
}

TEST_F(SchedulerE2eTest, CordonedNodeTakesNothingUntilUncordoned) {
  AddNode("gpu-a");
  ASSERT_TRUE(admin_
                  .Patch(client::kNodes, "", "gpu-a", client::PatchType::kMerge,
                         {{"spec", {{"unschedulable", true}}}})
                  .ok());
  CreateGpuPod("p", 1);
  StartScheduler(SchedulerOptions{.unschedulable_retry = std::chrono::hours(1)});
  Run();
  EXPECT_EQ(NodeOf("p"), "");
  EXPECT_EQ(PodScheduled("p")["message"],
            "0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are "
            "available: 1 Preemption is not helpful for scheduling..");
  ASSERT_TRUE(admin_
                  .Patch(client::kNodes, "", "gpu-a", client::PatchType::kMerge,
                         {{"spec", {{"unschedulable", nullptr}}}})
                  .ok());
  Run();
  EXPECT_EQ(NodeOf("p"), "gpu-a");
}

// Whole-node pods of LWS groups with exclusive placement on rack: one group per rack.
api::Pod GroupPod(const std::string& group, int index) {
  api::Pod pod = GpuPodSpec(group + "-" + std::to_string(index), 8, {{kGroupKey, group}});
  api::SetExclusiveAffinities(&pod, group, kRack, kGroupKey);
  return pod;
}

TEST_F(SchedulerE2eTest, ExclusivePlacementGivesEachGroupItsOwnRack) {
  AddNode("n1", {{kRack, "r1"}});
  AddNode("n2", {{kRack, "r1"}});
  AddNode("n3", {{kRack, "r2"}});
  AddNode("n4", {{kRack, "r2"}});
  StartScheduler(SchedulerOptions{.unschedulable_retry = std::chrono::hours(1)});
  Run();
  // All in one batch, tried in creation order: each placement must see the ones before it
  // (assumed pods), and c-0 comes while a rack is still half free.
  for (const char* group : {"a", "b", "c"}) {
    CreatePod(GroupPod(group, 0));
  }
  CreatePod(GroupPod("a", 1));
  CreatePod(GroupPod("b", 1));
  Run();
  EXPECT_EQ(scheduler_->attempts(), 5u);

  auto rack = [&](const std::string& pod) {
    std::string node = NodeOf(pod);
    return node == "n1" || node == "n2" ? "r1" : node == "n3" || node == "n4" ? "r2" : "";
  };
  ASSERT_NE(rack("a-0"), "");
  ASSERT_NE(rack("b-0"), "");
  EXPECT_EQ(rack("a-1"), rack("a-0"));
  EXPECT_EQ(rack("b-1"), rack("b-0"));
  EXPECT_NE(rack("a-0"), rack("b-0"));
  EXPECT_EQ(NodeOf("c-0"), "");
  EXPECT_EQ(PodScheduled("c-0")["message"],
            "0/4 nodes are available: 2 Insufficient nvidia.com/gpu, 2 node(s) didn't match pod "
            "anti-affinity rules. preemption: 0/4 nodes are available: 4 No preemption victims "
            "found for incoming pod..");

  // Group a goes away: group c gets its rack.
  const std::string freed = rack("a-0");
  DeletePod("a-0", 0);
  DeletePod("a-1", 0);
  Run();
  EXPECT_EQ(rack("c-0"), freed);
}

TEST_F(SchedulerE2eTest, OneBatchNeverOvercommitsANode) {
  AddNode("gpu-a");
  AddNode("gpu-b");
  AddNode("gpu-c");
  int demand = 0;
  for (int i = 0; i < 20; ++i) {
    CreateGpuPod("p-" + std::to_string(i), i % 3 + 1);
    demand += i % 3 + 1;
  }
  ASSERT_GT(demand, 24);
  StartScheduler();
  Run();  // one batch: the informer has not seen any of the bindings while it runs
  int bound_gpus = 0;
  for (const char* node : {"gpu-a", "gpu-b", "gpu-c"}) {
    EXPECT_LE(GpusOn(node), 8) << node;
    bound_gpus += GpusOn(node);
  }
  EXPECT_GE(bound_gpus, 22);  // packed nearly full: the core is not just refusing
  int unbound = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string name = "p-" + std::to_string(i);
    if (!NodeOf(name).empty()) continue;
    ++unbound;
    EXPECT_EQ(PodScheduled(name)["reason"], "Unschedulable") << name;
  }
  EXPECT_GT(unbound, 0);
  EXPECT_EQ(scheduler_->bindings() + static_cast<std::uint64_t>(unbound), 20u);
}

}  // namespace
}  // namespace lws::cluster
