// DefaultPreemption (scheduler_preemption.h) through SchedulePod. Cases after kube-scheduler's
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
// (TestDryRunPreemption: "a pod that fits on both nodes when lower priority pods are preempted",
// "a pod that would fit on the nodes, but other pods running are higher priority, no preemption
// would happen", "medium priority pod is preempted, but lower priority one stays as it is small";
// TestSelectBestCandidate: "a pod that fits on a node with no preemption", "machine with min
// highest priority pod is picked", "when highest priorities are the same, minimum sum of lower
// priority pods is used", "mixed priority pods are preempted, pick later StartTime one";
// TestPodEligibleToPreemptOthers: "Pod with nominatedNodeName and a terminating preempted pod on
// it", "Pod with PreemptionPolicy Never") and pkg/scheduler/framework/runtime's nominated-pod
// filtering.
#include "cluster/scheduler_preemption.h"

#include <gtest/gtest.h>

#include "cluster/scheduler_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;

api::Pod Gpus(const std::string& name, int gpus, std::int32_t priority,
              const std::string& start = "") {
  api::Pod pod = MakePod(name, {{"nvidia.com/gpu", Q(std::to_string(gpus))}});
  pod.metadata.uid = "uid-" + name;
  pod.spec.rest = {{"priority", priority}};
  pod.status.start_time = start;
  return pod;
}

std::vector<std::string> Names(const std::vector<const api::Pod*>& pods) {
  std::vector<std::string> out;
  for (const api::Pod* p : pods) out.push_back(p->metadata.name);
  return out;
}

TEST(PreemptionTest, LowerPriorityPodsMakeRoomOnTheBestNode) {
  Cluster c;
  c.Add(MakeNode("node1"));
  c.Add(MakeNode("node2"));
  c.Bind(0, Gpus("p1.1", 4, 100));
  c.Bind(0, Gpus("p1.2", 4, 100));
  c.Bind(1, Gpus("p2.1", 8, 50));
  ScheduleResult r = SchedulePod(Gpus("preemptor", 8, 1000), c.infos);
  EXPECT_EQ(r.node_name, "");
  // node2's highest victim (50) is lower than node1's (100).
  EXPECT_EQ(r.nominated_node, "node2");
  EXPECT_EQ(Names(r.victims), (std::vector<std::string>{"p2.1"}));
  EXPECT_EQ(r.condition_reason, "Unschedulable");
  EXPECT_EQ(r.message, "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
}

TEST(PreemptionTest, HigherPriorityPodsAreNeverVictims) {
  Cluster c;
  c.Add(MakeNode("node1"));
  c.Add(MakeNode("node2"));
  c.Bind(0, Gpus("p1", 8, 2000));
  c.Bind(1, Gpus("p2", 6, 2000));
  c.Bind(1, Gpus("p3", 2, 10));
  ScheduleResult r = SchedulePod(Gpus("preemptor", 4, 1000), c.infos);
  EXPECT_EQ(r.nominated_node, "");
  // node2 without its low-priority pod still has only 2 GPUs.
  EXPECT_EQ(r.message,
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are "
            "available: 1 Insufficient nvidia.com/gpu, 1 No preemption victims found for incoming "
            "pod..");
}

TEST(PreemptionTest, AsFewVictimsAsPossibleTheMostImportantReprievedFirst) {
  Cluster c;
  c.Add(MakeNode("node1"));
  c.Bind(0, Gpus("small-low", 1, 10));
  c.Bind(0, Gpus("medium", 4, 500));
  c.Bind(0, Gpus("big-low", 3, 10));
  ScheduleResult r = SchedulePod(Gpus("preemptor", 4, 1000), c.infos);
  EXPECT_EQ(r.nominated_node, "node1");
  // medium is reprieved first and stays; the 4 GPUs must then come from both low ones.
  EXPECT_EQ(Names(r.victims), (std::vector<std::string>{"small-low", "big-low"}));
  // With room for the small one, it is reprieved.
  Cluster d;
  d.Add(MakeNode("node1"));
  d.Bind(0, Gpus("small-low", 1, 10));
  d.Bind(0, Gpus("medium", 3, 500));
  d.Bind(0, Gpus("big-low", 4, 10));
  r = SchedulePod(Gpus("preemptor", 4, 1000), d.infos);
  EXPECT_EQ(Names(r.victims), (std::vector<std::string>{"big-low"}));
}

TEST(PreemptionTest, PickOneNodeForPreemptionCriteria) {
  // Minimum highest-priority victim.
  Cluster a;
  for (const char* n : {"n1", "n2", "n3"}) a.Add(MakeNode(n));
  a.Bind(0, Gpus("a", 8, 300));
  a.Bind(1, Gpus("b", 8, 200));
  a.Bind(2, Gpus("c", 8, 250));
  EXPECT_EQ(SchedulePod(Gpus("p", 8, 1000), a.infos).nominated_node, "n2");
  // Same highest priority: the smallest sum of priorities.
  Cluster b;
  for (const char* n : {"n1", "n2"}) b.Add(MakeNode(n));
  b.Bind(0, Gpus("a1", 4, 200));
  b.Bind(0, Gpus("a2", 4, 150));
  b.Bind(1, Gpus("b1", 4, 200));
  b.Bind(1, Gpus("b2", 4, 100));
  EXPECT_EQ(SchedulePod(Gpus("p", 8, 1000), b.infos).nominated_node, "n2");
  // Fewer victims weigh less in the sum (each counts its priority plus 2^31): one victim of
  // priority 100 beats two of 100 and 0.
  Cluster d;
  for (const char* n : {"n1", "n2"}) d.Add(MakeNode(n));
  d.Bind(0, Gpus("a1", 4, 100));
  d.Bind(0, Gpus("a2", 4, 0));
  d.Bind(1, Gpus("b1", 8, 100));
  d.Bind(1, Gpus("pad", 0, 100));  // frees nothing: reprieved
  ScheduleResult r = SchedulePod(Gpus("p", 8, 1000), d.infos);
  EXPECT_EQ(r.nominated_node, "n2");
  EXPECT_EQ(Names(r.victims), (std::vector<std::string>{"b1"}));
  // Everything equal: the later start of the highest-priority victims.
  Cluster e;
  for (const char* n : {"n1", "n2"}) e.Add(MakeNode(n));
  e.Bind(0, Gpus("early", 8, 100, "2026-01-01T00:00:00Z"));
  e.Bind(1, Gpus("late", 8, 100, "2026-01-02T00:00:00Z"));
  EXPECT_EQ(SchedulePod(Gpus("p", 8, 1000), e.infos).nominated_node, "n2");
}

TEST(PreemptionTest, NotEligible) {
  Cluster c;
  c.Add(MakeNode("node1"));
  c.Bind(0, Gpus("low", 8, 10));
  api::Pod never = Gpus("never", 8, 1000);
  never.spec.rest["preemptionPolicy"] = "Never";
  ScheduleResult r = SchedulePod(never, c.infos);
  EXPECT_EQ(r.nominated_node, "");
  EXPECT_EQ(r.message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not "
            "eligible due to preemptionPolicy=Never..");

  // Nominated on node1, where its victim is still terminating: it waits.
  Cluster d;
  d.Add(MakeNode("node1"));
  api::Pod victim = Gpus("victim", 8, 10);
  victim.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  api::PodCondition target;
  target.type = "DisruptionTarget";
  target.status = "True";
  target.reason = "PreemptionByScheduler";
  victim.status.conditions.push_back(target);
  d.Bind(0, victim);
  api::Pod preemptor = Gpus("p", 8, 1000);
  preemptor.status.rest = {{"nominatedNodeName", "node1"}};
  r = SchedulePod(preemptor, d.infos);
  EXPECT_EQ(r.nominated_node, "");
  EXPECT_EQ(r.message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not "
            "eligible due to a terminating pod on the nominated node..");
}

TEST(PreemptionTest, UnresolvableNodesAreNotHelpful) {
  Cluster c;
  api::Node tainted = MakeNode("tainted");
  tainted.spec.taints.push_back(Taint("dedicated", "x", "NoSchedule"));
  c.Add(tainted);
  c.Add(MakeNode("full"));
  c.Bind(0, Gpus("low0", 8, 10));
  c.Bind(1, Gpus("high", 8, 5000));
  c.Bind(1, Gpus("zero", 0, 10));  // a lower-priority pod, but it frees nothing
  ScheduleResult r = SchedulePod(Gpus("p", 8, 1000), c.infos);
  EXPECT_EQ(r.nominated_node, "");
  EXPECT_EQ(r.message,
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated "
            "taint {dedicated: x}. preemption: 0/2 nodes are available: 1 Insufficient "
            "nvidia.com/gpu, 1 Preemption is not helpful for scheduling..");
}

TEST(PreemptionTest, NominatedPodsHoldTheirRoomAgainstLessImportantPods) {
  Cluster c;
  c.Add(MakeNode("node1"));
  c.Bind(0, Gpus("half", 4, 0));
  api::Pod waiting = Gpus("waiting", 4, 1000);
  NominatedPods nominated = {{"node1", {&waiting}}};
  // A pod of lower priority does not take the 4 free GPUs the nominated pod will use...
  ScheduleResult r = SchedulePod(Gpus("tenant", 4, 0), c.infos, {}, &nominated);
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 "
            "nodes are available: 1 No preemption victims found for incoming pod..");
  // ...one of higher priority does, and the nominated pod itself does.
  EXPECT_EQ(SchedulePod(Gpus("urgent", 4, 2000), c.infos, {}, &nominated).node_name, "node1");
  EXPECT_EQ(SchedulePod(waiting, c.infos, {}, &nominated).node_name, "node1");
}

TEST(PreemptionTest, EqualPrioritiesKeepTheMessagesOfNoPreemption) {
  Cluster c;
  c.Add(MakeNode("node1"));
  c.Bind(0, Gpus("a", 8, 0));
  ScheduleResult r = SchedulePod(Gpus("p", 1, 0), c.infos);
  EXPECT_EQ(r.nominated_node, "");
  EXPECT_EQ(r.message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 "
            "nodes are available: 1 No preemption victims found for incoming pod..");
}

}  // namespace
}  // namespace lws::cluster
