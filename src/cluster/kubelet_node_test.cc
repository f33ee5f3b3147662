// The simulated kubelets and node failure (SetNodeReady), determinism, and the pure status.
#include <gtest/gtest.h>

#include "cluster/kubelet.h"
#include "cluster/kubelet_testing.h"

namespace lws::cluster {
namespace {

using kubelet_testing::FixedPool;
using kubelet_testing::KubeletFixture;
using std::chrono::milliseconds;
using std::chrono::seconds;

class KubeletNodeTest : public KubeletFixture {
 protected:
  Json Node(const std::string& name) { return (*admin_.Get(client::kNodes, "", name))->document(); }
  Json NodeReady(const std::string& name) {
    const Json node = Node(name);
    for (const Json& c : node["status"]["conditions"]) {
      if (c["type"] == "Ready") return c;
    }
    return Json();
  }
  Json Taints(const std::string& name) { return Node(name)["spec"].value("taints", Json::array()); }
};

TEST_F(KubeletNodeTest, SetNodeReadyWritesConditionAndTaints) {
  StartKubelets();
  AddNode("n", "gpu");
  ASSERT_TRUE(SetNodeReady(admin_, "n", false, cp_.loop.Now()).ok());
  EXPECT_EQ(NodeReady("n")["status"], "Unknown");
  EXPECT_EQ(NodeReady("n")["reason"], "NodeStatusUnknown");
  EXPECT_EQ(NodeReady("n")["message"], "Kubelet stopped posting node status.");
  ASSERT_EQ(Taints("n").size(), 2u);
  EXPECT_EQ(Taints("n")[0]["key"], "node.kubernetes.io/unreachable");
  EXPECT_EQ(Taints("n")[0]["effect"], "NoSchedule");
  EXPECT_EQ(Taints("n")[1]["effect"], "NoExecute");
  EXPECT_TRUE(Taints("n")[1]["timeAdded"].is_string());
  EXPECT_EQ(NodeReadyCondition(Node("n")), false);
  // Twice is the same as once.
  ASSERT_TRUE(SetNodeReady(admin_, "n", false, cp_.loop.Now()).ok());
  EXPECT_EQ(Taints("n").size(), 2u);

  ASSERT_TRUE(SetNodeReady(admin_, "n", true, cp_.loop.Now()).ok());
  EXPECT_EQ(NodeReady("n")["status"], "True");
  EXPECT_EQ(NodeReady("n")["reason"], "KubeletReady");
  EXPECT_EQ(NodeReady("n")["message"], "kubelet is posting ready status");
  EXPECT_TRUE(Taints("n").empty());
  EXPECT_EQ(SetNodeReady(admin_, "missing", true, cp_.loop.Now()).code(), Code::kNotFound);
}

TEST_F(KubeletNodeTest, PodsOfAFailedNodeAreLostAndDeletedAtOnce) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddNode("gpu-1", "gpu");
  AddPod("a", "gpu-0");
  AddPod("b", "gpu-0");
  AddPod("other", "gpu-1");
  RunFor(seconds(6));
  ASSERT_TRUE(Ready("a") && Ready("b") && Ready("other"));
  ASSERT_TRUE(DeletePod("b").ok());  // terminating: would hold the node 30 s
  RunFor(seconds(1));
  ASSERT_TRUE(Pod("b").is_object());

  ASSERT_TRUE(SetNodeReady(admin_, "gpu-0", false, cp_.loop.Now()).ok());
  RunFor(milliseconds(10));
  EXPECT_EQ(Phase("a"), "Failed");
  EXPECT_EQ(Pod("a")["status"]["reason"], "NodeLost");
  EXPECT_EQ(Pod("a")["status"]["message"], "Node gpu-0 which was running pod a is unresponsive");
  EXPECT_FALSE(Ready("a"));
  EXPECT_TRUE(Pod("b").is_null());  // force-deleted, no grace period
  EXPECT_TRUE(Ready("other"));
  // A dead kubelet never brings its pods back, even once the node returns.
  ASSERT_TRUE(SetNodeReady(admin_, "gpu-0", true, cp_.loop.Now()).ok());
  RunFor(seconds(30));
  EXPECT_EQ(Phase("a"), "Failed");
  // New pods on the recovered node start normally.
  AddPod("c", "gpu-0");
  RunFor(seconds(6));
  EXPECT_TRUE(Ready("c"));
}

TEST_F(KubeletNodeTest, DeadKubeletStopsProgressingItsPods) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets(1, KubeletOptions{KubeletMode::kManual});
  AddNode("gpu-0", "gpu");
  AddPod("a", "gpu-0");
  RunFor(seconds(1));
  ASSERT_TRUE(SetNodeReady(admin_, "gpu-0", false, cp_.loop.Now()).ok());
  RunFor(seconds(10));
  // Manual mode too: the node lifecycle stand-in marks the pod lost.
  EXPECT_EQ(Phase("a"), "Failed");
  EXPECT_EQ(Pod("a")["status"]["reason"], "NodeLost");
}

TEST_F(KubeletNodeTest, PodsOfANodeWithoutReadyConditionWait) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets();
  Json node = {{"apiVersion", "v1"},
               {"kind", "Node"},
               {"metadata", {{"name", "late"}, {"labels", {{kNodePoolLabel, "gpu"}}}}}};
  ASSERT_TRUE(admin_.Create(client::kNodes, node).ok());
  AddPod("p", "late");
  RunFor(seconds(30));
  EXPECT_EQ(Phase("p"), "Pending");
  EXPECT_FALSE(Pod("p")["status"].contains("containerStatuses"));
  ASSERT_TRUE(SetNodeReady(admin_, "late", true, cp_.loop.Now()).ok());
  RunFor(seconds(6));
  EXPECT_TRUE(Ready("p"));
}

// The virtual time at which each of `pods` pods became Ready, with a uniform startup pool.
std::vector<Duration> ReadyTimes(std::uint64_t seed) {
  struct Run : KubeletFixture {
    void TestBody() override {}
  } run;
  NodePoolSpec pool = FixedPool("gpu", 0);
  pool.startup = Distribution{Distribution::Kind::kUniform, 10, 60};
  run.spec_.pools = {pool};
  run.StartKubelets(seed);
  run.AddNode("gpu-0", "gpu");
  const int pods = 6;
  for (int i = 0; i < pods; ++i) run.AddPod("p" + std::to_string(i), "gpu-0");
  const Time start = run.cp_.loop.Now();
  std::vector<Duration> times(pods, Duration::zero());
  for (int step = 0; step < 700; ++step) {
    run.RunFor(milliseconds(100));
    for (int i = 0; i < pods; ++i) {
      if (times[i] == Duration::zero() && run.Ready("p" + std::to_string(i))) {
        times[i] = run.cp_.loop.Now() - start;
      }
    }
  }
  return times;
}

TEST(KubeletDeterminism, SameSeedSameStartupTimes) {
  const std::vector<Duration> first = ReadyTimes(42);
  for (Duration d : first) {
    EXPECT_GT(d, seconds(9));
    EXPECT_LT(d, seconds(61));
  }
  EXPECT_EQ(ReadyTimes(42), first);
  EXPECT_NE(ReadyTimes(43), first);
}

TEST(KubeletStatus, RestartingPodListsOnlyTheCrashedContainer) {
  Json pod = {{"metadata", {{"name", "p"}, {"uid", "u1"}}},
              {"spec",
               {{"containers",
                 {{{"name", "z-main"}, {"image", "img:1"}},
                  {{"name", "a-side"}, {"image", "registry.io/x/side"}}}}}},
              {"status", {{"qosClass", "BestEffort"}}}};
  PodRun run;
  run.stage = PodStage::kRestarting;
  run.restart_count = 2;
  run.host_ip = "172.16.0.1";
  run.pod_ip = "10.1.0.7";
  const Time now = Time(seconds(1'700'000'000));
  Json status = PodStatusFor(pod, run, now);
  EXPECT_EQ(status["phase"], "Running");
  EXPECT_EQ(status["qosClass"], "BestEffort");  // not the kubelet's: kept
  ASSERT_EQ(status["containerStatuses"].size(), 2u);
  EXPECT_EQ(status["containerStatuses"][0]["name"], "a-side");  // sorted by name
  EXPECT_EQ(status["containerStatuses"][0]["ready"], true);
  EXPECT_EQ(status["containerStatuses"][0]["imageID"].get<std::string>().rfind(
                "registry.io/x/side@sha256:", 0),
            0u);
  // Two images in turn: each keeps its own id (the last one is remembered per thread).
  EXPECT_EQ(status["containerStatuses"][1]["imageID"].get<std::string>().rfind("img@sha256:", 0),
            0u);
  EXPECT_EQ(PodStatusFor(pod, run, now), status);
  EXPECT_EQ(status["containerStatuses"][1]["restartCount"], 2);
  EXPECT_EQ(status["containerStatuses"][1]["containerID"], ContainerId("u1", "z-main", 2));
  EXPECT_NE(ContainerId("u1", "z-main", 2), ContainerId("u1", "z-main", 1));
  Json ready;
  for (const Json& c : status["conditions"]) {
    if (c["type"] == "Ready") ready = c;
  }
  EXPECT_EQ(ready["message"], "containers with unready status: [z-main]");
  EXPECT_EQ(status["podIPs"][0]["ip"], "10.1.0.7");

  // A later render keeps transition times of unchanged conditions and moves changed ones.
  pod["status"] = status;
  run.stage = PodStage::kRunning;
  Json later = PodStatusFor(pod, run, now + seconds(5));
  for (const Json& c : later["conditions"]) {
    const bool moved = c["type"] == "Ready" || c["type"] == "ContainersReady";
    EXPECT_EQ(c["lastTransitionTime"], FormatRfc3339(moved ? now + seconds(5) : now)) << c["type"];
  }
}

}  // namespace
}  // namespace lws::cluster
