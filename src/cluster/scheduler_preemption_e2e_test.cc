// Preemption end to end through the API server (PriorityClass, the Priority admission plugin)
// and the scheduler's I/O (scheduler.h): the victim gets the DisruptionTarget condition, a
// "Preempted" event and is deleted; the preemptor is nominated, and once the victim is gone it is
// bound there, ahead of a pod of lower priority that arrived meanwhile. After kube-scheduler's
// test/integration/scheduler/preemption/preemption_test.go (TestPreemption "basic pod preemption",
// TestNominatedNodeCleanUp, "lower priority pod does not take the nominated pod's room").
#include <gtest/gtest.h>

#include "client/resource.h"
#include "cluster/scheduler_e2e_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;

class PreemptionE2eTest : public SchedulerE2eTest {
 protected:
  void CreateClass(const std::string& name, int value) {
    Json pc = {{"apiVersion", "scheduling.k8s.io/v1"},
               {"kind", "PriorityClass"},
               {"metadata", {{"name", name}}},
               {"value", value}};
    ASSERT_TRUE(
        admin_.Create(client::Resource{"scheduling.k8s.io", "v1", "priorityclasses"}, pc).ok());
  }
  void CreateGpuPodOfClass(const std::string& name, int gpus, const std::string& priority_class) {
    api::Pod pod = GpuPodSpec(name, gpus);
    pod.spec.rest["priorityClassName"] = priority_class;
    CreatePod(pod);
  }
  Json Condition(const std::string& pod, const std::string& type) {
    for (const Json& c : PodJson(pod)["status"].value("conditions", Json::array())) {
      if (c.value("type", "") == type) return c;
    }
    return Json();
  }
};

TEST_F(PreemptionE2eTest, AHigherPriorityPodPreemptsAndKeepsItsRoom) {
  AddNode("gpu-a");
  CreateClass("serving", 1000);
  CreateGpuPod("batch", 8);
  StartScheduler();
  Run();
  ASSERT_EQ(NodeOf("batch"), "gpu-a");

  CreateGpuPodOfClass("llama", 8, "serving");
  Run();
  EXPECT_EQ(NodeOf("llama"), "");
  EXPECT_EQ(PodJson("llama")["status"].value("nominatedNodeName", ""), "gpu-a");
  const Json target = Condition("batch", "DisruptionTarget");
  EXPECT_EQ(target.value("status", ""), "True");
  EXPECT_EQ(target.value("reason", ""), "PreemptionByScheduler");
  EXPECT_EQ(target.value("message", ""),
            "default-scheduler: preempting to accommodate a higher priority pod");
  EXPECT_FALSE(PodJson("batch")["metadata"].value("deletionTimestamp", "").empty());
  auto preempted = EventsFor("batch", "Preempted");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0].value("message", ""),
            "Preempted by pod " + PodJson("llama")["metadata"].value("uid", "") + " on node gpu-a");
  auto failed = EventsFor("llama", "FailedScheduling");
  ASSERT_FALSE(failed.empty());
  EXPECT_EQ(failed[0].value("message", ""),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  EXPECT_EQ(scheduler_->preemptions(), 1u);

  // Another tenant's pod (priority 0) arrives while the victim terminates; then it is gone.
  CreateGpuPod("tenant", 8);
  Run(std::chrono::seconds(15));
  EXPECT_EQ(NodeOf("llama"), "");
  EXPECT_EQ(scheduler_->preemptions(), 1u);  // its victim is still leaving: no second preemption
  DeletePod("batch", 0);                     // the kubelet's final delete
  Run();
  EXPECT_EQ(NodeOf("llama"), "gpu-a");
  EXPECT_EQ(NodeOf("tenant"), "");
  // The tenant cannot preempt the serving pod.
  EXPECT_NE(Condition("tenant", "PodScheduled")
                .value("message", "")
                .find("preemption: 0/1 nodes are available: 1 No preemption victims found for "
                      "incoming pod"),
            std::string::npos);
}

TEST_F(PreemptionE2eTest, TheQueuePopsTheHighestPriorityFirst) {
  AddNode("gpu-a");
  CreateClass("serving", 1000);
  CreateGpuPod("first", 8);  // priority 0, arrives first
  CreateGpuPodOfClass("second", 8, "serving");
  StartScheduler();
  Run();
  EXPECT_EQ(NodeOf("second"), "gpu-a");
  EXPECT_EQ(NodeOf("first"), "");
  EXPECT_EQ(scheduler_->preemptions(), 0u);
}

}  // namespace
}  // namespace lws::cluster
