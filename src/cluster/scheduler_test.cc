// The scheduler reconciler end to end on the embedded control plane: binding, the
// PodScheduled=False condition and FailedScheduling event, parking and every reason a parked pod
// is tried again, terminating pods holding their GPUs, and write economy.
#include "cluster/scheduler.h"

#include <gtest/gtest.h>

#include "cluster/scheduler_e2e_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;  // NOLINT: test builders and fixture
using std::chrono::hours;
using std::chrono::seconds;

// Event-driven tests turn the periodic retry off (an hour), so only the event can be the cause.
SchedulerOptions NoPeriodicRetry() { return SchedulerOptions{.unschedulable_retry = hours(1)}; }

TEST_F(SchedulerE2eTest, BindsAPodToANodeWithRoomAndRecordsScheduled) {
  AddNode("gpu-a");
  CreateGpuPod("p", 2);
  StartScheduler();
  Run();
  EXPECT_EQ(NodeOf("p"), "gpu-a");
  EXPECT_EQ(PodScheduled("p")["status"], "True");  // written by the binding
  std::vector<Json> events = EventsFor("p", "Scheduled");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["type"], "Normal");
  EXPECT_EQ(events[0]["message"], "Successfully assigned default/p to gpu-a");
  // kube-scheduler records through events.k8s.io (client-go tools/events).
  EXPECT_EQ(events[0]["reportingComponent"], "default-scheduler");
  EXPECT_EQ(events[0]["action"], "Binding");
  EXPECT_EQ(scheduler_->bindings(), 1u);
  EXPECT_EQ(scheduler_->attempts(), 1u);
  // The binding registry writes the pod past the field manager (one GuaranteedUpdate upstream):
  // a pod bound at the first attempt has no entry of the scheduler's.
  const Json managed = PodJson("p")["metadata"]["managedFields"];
  bool by_scheduler = false;
  for (const Json& entry : managed) {
    by_scheduler |= entry.value("manager", "") == "default-scheduler";
  }
  EXPECT_FALSE(by_scheduler) << managed.dump();
}

TEST_F(SchedulerE2eTest, LeavesOtherSchedulersPodsAndPreboundPodsAlone) {
  AddNode("gpu-a");
  api::Pod other = GpuPodSpec("other", 1);
  other.spec.scheduler_name = "volcano";
  CreatePod(other);
  api::Pod prebound = GpuPodSpec("prebound", 7);
  prebound.spec.node_name = "gpu-a";
  CreatePod(prebound);
  CreateGpuPod("mine", 2);  // 7 of 8 GPUs are held by the pre-bound pod
  StartScheduler(NoPeriodicRetry());
  Run();
  EXPECT_EQ(NodeOf("other"), "");
  EXPECT_TRUE(PodScheduled("other").is_null());
  EXPECT_EQ(NodeOf("mine"), "");
  EXPECT_EQ(PodScheduled("mine")["message"], NoGpuMessage(1));
  EXPECT_EQ(scheduler_->attempts(), 1u);
}

TEST_F(SchedulerE2eTest, FullNodesGiveUnschedulableConditionAndFailedSchedulingEvent) {
  AddNode("gpu-a");
  AddNode("gpu-b");
  CreateGpuPod("big-1", 8);
  CreateGpuPod("big-2", 8);
  CreateGpuPod("late", 1);
  StartScheduler();
  Run();
  EXPECT_NE(NodeOf("big-1"), "");
  EXPECT_NE(NodeOf("big-2"), "");
  EXPECT_NE(NodeOf("big-1"), NodeOf("big-2"));
  EXPECT_EQ(NodeOf("late"), "");

  Json condition = PodScheduled("late");
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], "Unschedulable");
  EXPECT_EQ(condition["message"], NoGpuMessage(2));
  EXPECT_TRUE(condition.contains("lastTransitionTime"));
  // The shape a real API server stores: lastProbeTime present and null.
  ASSERT_TRUE(condition.contains("lastProbeTime"));
  EXPECT_TRUE(condition["lastProbeTime"].is_null());
  std::vector<Json> events = EventsFor("late", "FailedScheduling");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["type"], "Warning");
  EXPECT_EQ(events[0]["message"], NoGpuMessage(2));
  EXPECT_EQ(scheduler_->bindings(), 2u);
}

TEST_F(SchedulerE2eTest, DeletingABoundPodLetsTheParkedPodSchedule) {
  AddNode("gpu-a");
  CreateGpuPod("big", 8);
  CreateGpuPod("waiting", 4);
  StartScheduler(NoPeriodicRetry());
  Run();
  ASSERT_EQ(NodeOf("waiting"), "");
  DeletePod("big", 0);
  Run();
  EXPECT_EQ(NodeOf("waiting"), "gpu-a");
  EXPECT_EQ(PodScheduled("waiting")["status"], "True");
}

TEST_F(SchedulerE2eTest, AFinishedPodFreesItsGpus) {
  AddNode("gpu-a");
  CreateGpuPod("job", 8);
  CreateGpuPod("waiting", 8);
  StartScheduler(NoPeriodicRetry());
  Run();
  ASSERT_EQ(NodeOf("job"), "gpu-a");
  ASSERT_EQ(NodeOf("waiting"), "");
  ASSERT_TRUE(admin_
                  .Patch(client::kPods, "default", "job", client::PatchType::kMerge,
                         {{"status", {{"phase", "Succeeded"}}}}, "status")
                  .ok());
  Run();
  EXPECT_EQ(NodeOf("waiting"), "gpu-a");
}

TEST_F(SchedulerE2eTest, ATerminatingPodHoldsItsGpusUntilItIsGone) {
  AddNode("gpu-a");
  CreateGpuPod("old", 8);
  StartScheduler();
  Run();
  ASSERT_EQ(NodeOf("old"), "gpu-a");
  DeletePod("old", 3600);  // graceful: stays, with a deletionTimestamp, until the kubelet is done
  ASSERT_FALSE(PodJson("old")["metadata"]["deletionTimestamp"].is_null());
  CreateGpuPod("new", 8);
  Run(seconds(60));  // several periodic retries
  EXPECT_EQ(NodeOf("new"), "");
  EXPECT_EQ(PodScheduled("new")["message"], NoGpuMessage(1));
  EXPECT_GE(scheduler_->attempts(), 5u);

  // A scheduler started now (a restart) sees the terminating pod in its first list too.
  scheduler_->Stop();
  StartScheduler();
  Run(seconds(30));
  EXPECT_EQ(NodeOf("new"), "");

  DeletePod("old", 0);
  Run();
  EXPECT_EQ(NodeOf("new"), "gpu-a");
}

TEST_F(SchedulerE2eTest, ANodeAddedLaterGetsTheParkedPod) {
  AddNode("gpu-a");
  CreateGpuPod("big", 8);
  CreateGpuPod("waiting", 8);
  StartScheduler(NoPeriodicRetry());
  Run();
  ASSERT_EQ(NodeOf("waiting"), "");
  AddNode("gpu-b");
  Run();
  EXPECT_EQ(NodeOf("waiting"), "gpu-b");
}

TEST_F(SchedulerE2eTest, NoNodesAtAllIsASchedulerErrorUntilOneRegisters) {
  CreateGpuPod("p", 1);
  StartScheduler(NoPeriodicRetry());
  Run();
  Json condition = PodScheduled("p");
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], "SchedulerError");  // upstream's ErrNoNodesAvailable
  EXPECT_EQ(condition["message"], "no nodes available to schedule pods");
  AddNode("gpu-a");
  Run();
  EXPECT_EQ(NodeOf("p"), "gpu-a");
}

TEST_F(SchedulerE2eTest, ANodeThatTurnsReadyGetsTheParkedPodButHeartbeatsDoNot) {
  AddNode("gpu-a");
  Json node = admin_.Get(client::kNodes, "", "gpu-a").value()->document();
  node["status"]["conditions"][0]["status"] = "False";
  ASSERT_TRUE(admin_.UpdateStatus(client::kNodes, node).ok());
  CreateGpuPod("p", 1);
  StartScheduler(NoPeriodicRetry());
  Run();
  ASSERT_EQ(NodeOf("p"), "");
  const std::uint64_t attempts = scheduler_->attempts();

  node = admin_.Get(client::kNodes, "", "gpu-a").value()->document();
  node["status"]["conditions"][0]["lastHeartbeatTime"] = "2023-11-14T22:15:00Z";
  ASSERT_TRUE(admin_.UpdateStatus(client::kNodes, node).ok());
  Run();
  EXPECT_EQ(scheduler_->attempts(), attempts);  // nothing that matters changed

  node = admin_.Get(client::kNodes, "", "gpu-a").value()->document();
  node["status"]["conditions"][0]["status"] = "True";
  ASSERT_TRUE(admin_.UpdateStatus(client::kNodes, node).ok());
  Run();
  EXPECT_EQ(NodeOf("p"), "gpu-a");
}

TEST_F(SchedulerE2eTest, TheUnchangedConditionIsNotWrittenAgain) {
  AddNode("gpu-a");
  CreateGpuPod("big", 8);
  CreateGpuPod("waiting", 8);
  StartScheduler();  // retries every 10 s
  Run();
  ASSERT_EQ(PodScheduled("waiting")["reason"], "Unschedulable");
  const Json first = PodScheduled("waiting");
  const std::string rv = PodJson("waiting")["metadata"]["resourceVersion"];
  const std::uint64_t attempts = scheduler_->attempts();
  ASSERT_EQ(scheduler_->condition_writes(), 1u);

  Run(seconds(95));
  EXPECT_GE(scheduler_->attempts(), attempts + 9);
  EXPECT_EQ(scheduler_->condition_writes(), 1u);
  EXPECT_EQ(PodJson("waiting")["metadata"]["resourceVersion"], rv);
  // The repeats make one series (events.k8s.io): the first attempt's event regards the pod
  // before its condition was written (another resourceVersion, so another event, as upstream's
  // isomorphic key includes it), every later one the same version: a series of them.
  std::vector<Json> events = EventsFor("waiting", "FailedScheduling");
  ASSERT_EQ(events.size(), 2u);
  const Json& repeated = events[0].contains("series") ? events[0] : events[1];
  EXPECT_EQ(repeated["series"]["count"], 2) << "written again by the 6-minute series work only";

  // A new reason is written, keeping the transition time (the status stays False).
  AddNode("gpu-b", {}, {Taint("dedicated", "infer", "NoSchedule")});
  Run(seconds(15));
  EXPECT_EQ(scheduler_->condition_writes(), 2u);
  Json second = PodScheduled("waiting");
  EXPECT_EQ(
      second["message"],
      "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint "
      "{dedicated: infer}. preemption: 0/2 nodes are available: 1 No preemption victims found "
      "for incoming pod, 1 Preemption is not helpful for scheduling..");
  EXPECT_EQ(second["lastTransitionTime"], first["lastTransitionTime"]);
}

TEST_F(SchedulerE2eTest, ABindingConflictDropsThePod) {
  AddNode("gpu-a");
  AddNode("gpu-b");
  StartScheduler();
  Run();
  CreateGpuPod("p", 1);
  cp_.loop.Step();  // the watch delivers the pod; the scheduler posts its batch
  ASSERT_TRUE(admin_.Bind("default", "p", PodJson("p")["metadata"]["uid"], "gpu-b").ok());
  Run();
  EXPECT_EQ(NodeOf("p"), "gpu-b");
  EXPECT_EQ(scheduler_->attempts(), 1u);  // it tried (the race happened) and lost
  EXPECT_EQ(scheduler_->bindings(), 0u);
  EXPECT_TRUE(EventsFor("p", "Scheduled").empty());
  EXPECT_TRUE(EventsFor("p", "FailedScheduling").empty());
}

// kube-scheduler's SchedulingGates plugin and the API server's SchedulingGated condition: a pod
// with a gate is never bound; removing its last gate makes it schedulable.
TEST_F(SchedulerE2eTest, AGatedPodWaitsUntilItsLastGateIsRemoved) {
  AddNode("gpu-a");
  Json pod = api::Encode(GpuPodSpec("p", 1));
  pod["spec"]["schedulingGates"] = {{{"name", "example.com/a"}}, {{"name", "example.com/b"}}};
  ASSERT_TRUE(admin_.Create(client::kPods, pod).ok());
  EXPECT_EQ(PodScheduled("p")["reason"], "SchedulingGated");
  EXPECT_EQ(PodScheduled("p")["message"],
            "Scheduling is blocked due to non-empty scheduling gates");
  StartScheduler();
  Run();
  EXPECT_EQ(NodeOf("p"), "");
  EXPECT_EQ(scheduler_->attempts(), 0u);
  auto gates = [&](Json value) {
    ASSERT_TRUE(admin_
                    .Patch(client::kPods, "default", "p", client::PatchType::kMerge,
                           {{"spec", {{"schedulingGates", value}}}})
                    .ok());
    Run();
  };
  gates(Json::array({{{"name", "example.com/b"}}}));
  EXPECT_EQ(NodeOf("p"), "");
  gates(nullptr);
  EXPECT_EQ(NodeOf("p"), "gpu-a");
  EXPECT_EQ(PodScheduled("p")["status"], "True");
}

}  // namespace
}  // namespace lws::cluster
