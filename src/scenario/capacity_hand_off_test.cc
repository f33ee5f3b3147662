// The capacity hand-off (controllers/lws/capacity_hand_off.h) end to end on the simulated
// cluster: two nodes of 8 GPUs, full with an LWS of two 8-GPU groups, and another team's 8-GPU
// pods waiting in the queue for whatever comes free. The LWS's pods run at a PriorityClass above
// them that never preempts. A rolling update with maxUnavailable 1 then replaces each group: the
// old pod terminates for 20 s and leaves its node.
//   - Without the hand-off the waiting pod, queued first, takes the node; the replacement waits.
//   - With it, a placeholder queued while the old pod terminates takes the node first, and hands
//     it to the replacement: the rollout completes on the same nodes, the other team's pods still
//     wait, and no placeholder is left.
#include <gtest/gtest.h>

#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "cluster/tenant_pods.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

const client::Resource kPriorityClasses{"scheduling.k8s.io", "v1", "priorityclasses", false};

WorldOptions Cluster() {
  WorldOptions o;
  o.cluster = GpuCluster(2, 8);
  o.cluster.pools[0].termination = 20s;
  cluster::OtherTenants::Arrival waiting;
  waiting.at = 1min;
  waiting.pods = 2;
  waiting.requests = {{"nvidia.com/gpu", "8"}};
  o.cluster.other_tenants.arrivals.push_back(waiting);
  return o;
}

class CapacityHandOff : public ::testing::Test {
 protected:
  // Creates the class and the LWS (with the hand-off when `hand_off`), waits until both groups
  // are Ready and the other team's pods wait, then changes the image.
  void RollOut(bool hand_off) {
    ASSERT_TRUE(world.Start().ok());
    Json serving = {{"apiVersion", "scheduling.k8s.io/v1"},
                    {"kind", "PriorityClass"},
                    {"metadata", {{"name", "serving"}}},
                    {"value", 1000},
                    {"preemptionPolicy", "Never"}};
    ASSERT_TRUE(world.Create(kPriorityClasses, serving).ok());
    Json lws = LwsObject(LwsShape{.size = 1, .gpus = 8});
    Json& group = lws["spec"]["leaderWorkerTemplate"];
    group["workerTemplate"]["spec"]["priorityClassName"] = "serving";
    if (group.contains("leaderTemplate"))
      group["leaderTemplate"]["spec"]["priorityClassName"] = "serving";
    if (hand_off) lws["metadata"]["annotations"][api::kCapacityHandOffAnnotation] = "5m";
    auto created = world.Create(client::kLeaderWorkerSets, lws);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    ASSERT_TRUE(world.RunUntil([&] { return Available() && TenantsWaiting() == 2; }, 5min));
    nodes = {Node("test-sample-0"), Node("test-sample-1")};
    ASSERT_TRUE(
        world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  }

  bool Available() { return world.LwsCondition("test-sample", "Available").status == "True"; }
  std::string Node(const std::string& pod) {
    auto p = world.Pod(pod);
    return p ? p->spec.node_name : "";
  }
  int TenantsWaiting() {
    int waiting = 0;
    for (const api::Pod& p : world.Pods({{cluster::kTenantLabel, "true"}})) {
      waiting += p.spec.node_name.empty();
    }
    return waiting;
  }
  std::size_t Placeholders() { return world.Pods({{api::kHandOffOfLabel, "test-sample"}}).size(); }
  bool Updated() {
    auto lws = world.Lws("test-sample");
    return lws && lws->status.updated_replicas == 2 && lws->status.ready_replicas == 2 &&
           Available();
  }

  // Every pod with its node and phase, and the events' reasons: what a failure shows.
  std::string Describe() {
    std::string out;
    for (const api::Pod& p : world.Pods({})) {
      out += p.metadata.name + " on " + p.spec.node_name +
             (p.metadata.IsDeleting() ? " deleting" : "") + " " + p.status.phase + "\n";
    }
    for (const api::Event& e : world.Events("")) {
      if (e.involved_object.kind != "Node")
        out += e.involved_object.name + " " + e.reason + ": " + e.message + "\n";
    }
    return out;
  }

  LwsWorld world{Cluster()};
  std::vector<std::string> nodes;
};

TEST_F(CapacityHandOff, WithoutItTheWaitingPodTakesTheNode) {
  RollOut(false);
  world.loop().RunFor(10min);
  EXPECT_FALSE(Updated());
  EXPECT_EQ(TenantsWaiting(), 1);  // one took the node group 1 let go of
  EXPECT_EQ(Node("test-sample-1"), "");
  EXPECT_TRUE(world.Events("CapacityHeld").empty());
}

TEST_F(CapacityHandOff, WithItTheReplacementGetsTheNodeBack) {
  RollOut(true);
  ASSERT_TRUE(world.RunUntil([&] { return Placeholders() == 1; }, 1min));
  auto placeholder = world.Pod("test-sample-1-hand-off");
  ASSERT_TRUE(placeholder.has_value());
  EXPECT_EQ(placeholder->metadata.Annotation(api::kHandOffForAnnotation), "test-sample-1");
  auto old = world.Pod("test-sample-1");
  ASSERT_TRUE(old.has_value());
  EXPECT_TRUE(old->metadata.IsDeleting());  // queued while it terminates
  ASSERT_TRUE(world.RunUntil([&] { return Updated(); }, 10min)) << Describe();
  EXPECT_EQ(Node("test-sample-0"), nodes[0]);
  EXPECT_EQ(Node("test-sample-1"), nodes[1]);
  EXPECT_EQ(TenantsWaiting(), 2);
  EXPECT_EQ(Placeholders(), 0u);
  auto held = world.Events("CapacityHeld");
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0].message.rfind(
                "Holding node " + nodes[1] + " for the replacement of pod test-sample-1 until ", 0),
            0u)
      << held[0].message;
  auto released = world.Events("CapacityReleased");
  ASSERT_EQ(released.size(), 2u);
  EXPECT_NE(released[0].message.find(nodes[1] + " handed to pod test-sample-1"), std::string::npos)
      << released[0].message;
}

}  // namespace
}  // namespace lws::scenario
