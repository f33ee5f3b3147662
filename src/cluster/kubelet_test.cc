#include "cluster/kubelet.h"

#include <gtest/gtest.h>

#include "cluster/kubelet_testing.h"

namespace lws::cluster {
namespace {

using kubelet_testing::FixedPool;
using kubelet_testing::KubeletFixture;
using std::chrono::milliseconds;
using std::chrono::seconds;

class KubeletTest : public KubeletFixture {
 protected:
  // Kubelets for `pool` (5 s startup unless given) with one node, gpu-0, and pod "p" bound to it.
  void StartPodOnOneNode(NodePoolSpec pool = FixedPool("gpu", 5)) {
    spec_.pools = {std::move(pool)};
    StartKubelets();
    AddNode("gpu-0", "gpu");
    AddPod("p", "gpu-0");
  }
};

TEST_F(KubeletTest, StartsAfterThePoolsStartupTime) {
  spec_.pools = {FixedPool("gpu", 20)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0");
  RunFor(seconds(1));
  // At once: ContainerCreating, as the real kubelet reports it.
  EXPECT_EQ(Phase("p"), "Pending");
  EXPECT_EQ(FirstContainer("p")["state"]["waiting"]["reason"], "ContainerCreating");
  EXPECT_EQ(FirstContainer("p")["ready"], false);
  EXPECT_EQ(Condition("p", "Ready")["reason"], "ContainersNotReady");
  EXPECT_EQ(Condition("p", "Ready")["message"], "containers with unready status: [main]");
  EXPECT_EQ(Condition("p", "PodScheduled")["status"], "True");
  EXPECT_EQ(Condition("p", "Initialized")["status"], "True");
  EXPECT_TRUE(Pod("p")["status"].contains("hostIP"));
  EXPECT_TRUE(Pod("p")["status"].contains("startTime"));
  EXPECT_FALSE(Pod("p")["status"].contains("podIP"));
  EXPECT_EQ(kubelets_->pods_started(), 0u);

  RunFor(seconds(18));  // 19 s after binding
  EXPECT_FALSE(Ready("p"));
  EXPECT_EQ(Phase("p"), "Pending");
  RunFor(seconds(2));  // 21 s
  EXPECT_TRUE(Ready("p"));
  EXPECT_EQ(Phase("p"), "Running");
  const Json c = FirstContainer("p");
  EXPECT_EQ(c["ready"], true);
  EXPECT_EQ(c["started"], true);
  EXPECT_TRUE(c["state"]["running"]["startedAt"].is_string());
  EXPECT_EQ(c["restartCount"], 0);
  for (const char* type :
       {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
    EXPECT_EQ(Condition("p", type)["status"], "True") << type;
    EXPECT_TRUE(Condition("p", type)["lastTransitionTime"].is_string()) << type;
  }
  EXPECT_EQ(Pod("p")["status"]["podIP"], "10.1.0.1");
  EXPECT_EQ(kubelets_->pods_started(), 1u);
}

TEST_F(KubeletTest, AnnotationOverridesThePool) {
  spec_.pools = {FixedPool("gpu", 20)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0", {{kStartupSecondsAnnotation, "3"}});
  RunFor(milliseconds(2900));
  EXPECT_FALSE(Ready("p"));
  RunFor(milliseconds(200));
  EXPECT_TRUE(Ready("p"));
}

TEST_F(KubeletTest, UnknownPoolStartsInFiveSeconds) {
  StartKubelets();
  AddNode("n", "no-such-pool");
  AddPod("p", "n");
  RunFor(milliseconds(4900));
  EXPECT_FALSE(Ready("p"));
  RunFor(milliseconds(200));
  EXPECT_TRUE(Ready("p"));
}

TEST_F(KubeletTest, StatusSettlesOnceReady) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0", {}, "", 2);
  RunFor(seconds(6));
  ASSERT_TRUE(Ready("p"));
  const std::string rv = Pod("p")["metadata"]["resourceVersion"];
  RunFor(std::chrono::hours(1));
  EXPECT_EQ(Pod("p")["metadata"]["resourceVersion"], rv);  // no write loop
  EXPECT_EQ(Pod("p")["status"]["containerStatuses"].size(), 2u);
}

TEST_F(KubeletTest, CrashRestartsTheContainerAndItIsReadyAgain) {
  spec_.pools = {FixedPool("gpu", 10)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0", {}, "", 2);
  RunFor(seconds(1));
  EXPECT_EQ(kubelets_->CrashContainer("default", "p").code(), Code::kConflict);  // not started
  EXPECT_EQ(kubelets_->CrashContainer("default", "nope").code(), Code::kNotFound);
  RunFor(seconds(10));
  ASSERT_TRUE(Ready("p"));
  ASSERT_TRUE(kubelets_->CrashContainer("default", "p").ok());
  RunFor(seconds(1));
  EXPECT_FALSE(Ready("p"));
  EXPECT_EQ(Phase("p"), "Running");
  EXPECT_EQ(Condition("p", "Ready")["message"], "containers with unready status: [main]");
  Json c = FirstContainer("p");
  EXPECT_EQ(c["name"], "main");
  EXPECT_EQ(c["restartCount"], 1);
  EXPECT_EQ(c["ready"], false);
  EXPECT_EQ(c["lastState"]["terminated"]["exitCode"], 1);
  EXPECT_EQ(c["lastState"]["terminated"]["reason"], "Error");
  EXPECT_EQ(Pod("p")["status"]["containerStatuses"][1]["ready"], true);  // the sidecar lives on
  RunFor(seconds(10));
  EXPECT_TRUE(Ready("p"));
  EXPECT_EQ(FirstContainer("p")["restartCount"], 1);
  EXPECT_EQ(kubelets_->pods_started(), 1u);
}

TEST_F(KubeletTest, CrashAfterAnnotationCrashesOncePerStart) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0", {{kCrashAfterSecondsAnnotation, "10"}});
  RunFor(seconds(14));  // Ready at 5 s
  EXPECT_TRUE(Ready("p"));
  EXPECT_EQ(FirstContainer("p")["restartCount"], 0);
  RunFor(seconds(2));  // crashed at 15 s
  EXPECT_FALSE(Ready("p"));
  EXPECT_EQ(FirstContainer("p")["restartCount"], 1);
  RunFor(seconds(5));  // Ready again at 20 s
  EXPECT_TRUE(Ready("p"));
  RunFor(seconds(10));  // and crashed again at 30 s
  EXPECT_EQ(FirstContainer("p")["restartCount"], 2);
}

TEST_F(KubeletTest, PoolCrashProbabilityInjectsCrashes) {
  NodePoolSpec pool = FixedPool("gpu", 5);
  pool.crash_probability = 1;
  StartPodOnOneNode(pool);
  RunFor(seconds(6));
  EXPECT_TRUE(Ready("p"));
  RunFor(seconds(605));  // the crash window ends 600 s after Ready
  EXPECT_GE(FirstContainer("p")["restartCount"].get<int>(), 1);
}

TEST_F(KubeletTest, RestartPolicyNeverEndsFailed) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0", {{kCrashAfterSecondsAnnotation, "2"}}, "Never");
  RunFor(seconds(8));
  EXPECT_EQ(Phase("p"), "Failed");
  EXPECT_EQ(Condition("p", "Ready")["reason"], "PodFailed");
  Json c = FirstContainer("p");
  EXPECT_EQ(c["state"]["terminated"]["exitCode"], 1);
  EXPECT_EQ(c["restartCount"], 0);
  RunFor(seconds(60));
  EXPECT_EQ(Phase("p"), "Failed");
  EXPECT_EQ(FirstContainer("p")["restartCount"], 0);
}

TEST_F(KubeletTest, GracefulDeletionHoldsThePodForItsGracePeriod) {
  StartPodOnOneNode();
  RunFor(seconds(6));
  ASSERT_TRUE(Ready("p"));
  ASSERT_TRUE(DeletePod("p").ok());  // the default 30 s grace period
  RunFor(seconds(29));
  ASSERT_TRUE(Pod("p").is_object());
  EXPECT_EQ(Pod("p")["spec"]["nodeName"], "gpu-0");
  EXPECT_TRUE(Pod("p")["metadata"].contains("deletionTimestamp"));
  RunFor(seconds(2));
  EXPECT_TRUE(Pod("p").is_null());
}

TEST_F(KubeletTest, PoolTerminationTimeCapsTheGracePeriod) {
  NodePoolSpec pool = FixedPool("gpu", 5);
  pool.termination = seconds(4);
  StartPodOnOneNode(pool);
  RunFor(seconds(6));
  ASSERT_TRUE(DeletePod("p").ok());
  RunFor(milliseconds(3900));
  EXPECT_TRUE(Pod("p").is_object());
  RunFor(milliseconds(200));
  EXPECT_TRUE(Pod("p").is_null());
}

TEST_F(KubeletTest, PodThatNeverRanTerminatesAtOnce) {
  spec_.pools = {FixedPool("gpu", 50)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  AddPod("p", "gpu-0");
  RunFor(seconds(1));
  ASSERT_EQ(Phase("p"), "Pending");
  ASSERT_TRUE(DeletePod("p").ok());
  ASSERT_TRUE(Pod("p").is_object());  // the API server set a deletionTimestamp (bound pod)
  RunFor(milliseconds(1));
  EXPECT_TRUE(Pod("p").is_null());
}

// The kubelet skips rendering a status it already reported, but only while the pod still shows
// it: a status another writer changed is reported again at once, and other fields' changes
// leave the status alone.
TEST_F(KubeletTest, StatusChangedByAnotherWriterIsReportedAgain) {
  StartPodOnOneNode();
  RunFor(seconds(6));
  ASSERT_TRUE(Ready("p"));
  const Json reported = Pod("p")["status"];

  ASSERT_TRUE(admin_
                  .Patch(client::kPods, "default", "p", client::PatchType::kMerge,
                         {{"metadata", {{"labels", {{"extra", "1"}}}}}})
                  .ok());
  RunFor(seconds(1));
  EXPECT_EQ(Pod("p")["status"], reported);

  ASSERT_TRUE(admin_
                  .Patch(client::kPods, "default", "p", client::PatchType::kMerge,
                         {{"status", {{"phase", "Pending"}, {"conditions", nullptr}}}}, "status")
                  .ok());
  RunFor(seconds(1));
  EXPECT_EQ(Pod("p")["status"]["phase"], "Running");
  EXPECT_TRUE(Ready("p"));
  EXPECT_EQ(Condition("p", "Initialized")["status"], "True");
}

TEST_F(KubeletTest, ManualModeNeverWritesPhaseButCompletesDeletions) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets(1, KubeletOptions{KubeletMode::kManual});
  AddNode("gpu-0", "gpu");
  AddPod("a", "gpu-0");
  AddPod("b", "gpu-0");
  RunFor(seconds(100));
  EXPECT_EQ(Phase("a"), "Pending");
  EXPECT_FALSE(Pod("a")["status"].contains("containerStatuses"));
  EXPECT_EQ(kubelets_->CrashContainer("default", "a").code(), Code::kConflict);
  // An API client runs "a"; its deletion then takes the grace period. "b" never ran.
  ASSERT_TRUE(admin_
                  .Patch(client::kPods, "default", "a", client::PatchType::kMerge,
                         {{"status", {{"phase", "Running"}}}}, "status")
                  .ok());
  RunFor(seconds(1));
  ASSERT_TRUE(DeletePod("a").ok());
  ASSERT_TRUE(DeletePod("b").ok());
  RunFor(seconds(1));
  EXPECT_TRUE(Pod("b").is_null());
  EXPECT_EQ(Phase("a"), "Running");
  RunFor(seconds(30));
  EXPECT_TRUE(Pod("a").is_null());
}

// Upstream pkg/kubelet/status/generate.go GeneratePodReadyCondition: with its containers ready,
// a pod is Ready only once every readiness gate's condition is True; the kubelet looks again
// when another component writes the condition.
TEST_F(KubeletTest, ReadinessGatesHoldReadyUntilTheirConditionsAreTrue) {
  spec_.pools = {FixedPool("gpu", 5)};
  StartKubelets();
  AddNode("gpu-0", "gpu");
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "gated"}, {"namespace", "default"}}},
              {"spec",
               {{"nodeName", "gpu-0"},
                {"readinessGates", {{{"conditionType", "example.com/group-ready"}}}},
                {"containers", {{{"name", "main"}, {"image", "busybox:1.36"}}}}}}};
  ASSERT_TRUE(admin_.Create(client::kPods, pod).ok());
  RunFor(seconds(10));
  EXPECT_EQ(Phase("gated"), "Running");
  EXPECT_EQ(Condition("gated", "ContainersReady")["status"], "True");
  EXPECT_FALSE(Ready("gated"));
  EXPECT_EQ(Condition("gated", "Ready")["reason"], "ReadinessGatesNotReady");
  EXPECT_EQ(
      Condition("gated", "Ready")["message"],
      "corresponding condition of pod readiness gate \"example.com/group-ready\" does not exist.");

  auto set_gate = [&](const char* status) {
    Json patch = {
        {"status", {{"conditions", {{{"type", "example.com/group-ready"}, {"status", status}}}}}}};
    ASSERT_TRUE(admin_
                    .Patch(client::kPods, "default", "gated", client::PatchType::kStrategic, patch,
                           "status")
                    .ok());
    RunFor(seconds(1));
  };
  set_gate("False");
  EXPECT_FALSE(Ready("gated"));
  EXPECT_EQ(
      Condition("gated", "Ready")["message"],
      "the status of pod readiness gate \"example.com/group-ready\" is not \"True\", but False");
  set_gate("True");
  EXPECT_TRUE(Ready("gated"));
  EXPECT_EQ(Condition("gated", "example.com/group-ready")["status"], "True");  // kept
}

}  // namespace
}  // namespace lws::cluster
