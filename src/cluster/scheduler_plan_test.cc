// Tests of the scheduler's pure decisions (scheduler_plan.h): each filter alone, combined
// messages, resource accounting, GPU packing, LWS exclusive placement and determinism.
#include "cluster/scheduler_plan.h"

#include <gtest/gtest.h>

#include <functional>

#include "cluster/scheduler_filters.h"
#include "cluster/scheduler_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;  // NOLINT: test builders

// ---- Every filter rule alone, on a one-node cluster -------------------------------------------

struct RuleCase {
  std::string name;
  std::function<void(api::Node&)> node;
  std::function<void(api::Pod&)> pod;
  std::string reason;  // "" when the pod fits
};

class FilterRuleTest : public ::testing::TestWithParam<RuleCase> {};

TEST_P(FilterRuleTest, SingleNode) {
  const RuleCase& c = GetParam();
  Cluster cluster;
  api::Node& node = cluster.Add(MakeNode("node-a", {{"zone", "z1"}, {"rank", "5"}}));
  if (c.node) c.node(node);
  api::Pod pod = MakePod("p", {{"cpu", Q("1")}, {"memory", Q("1Gi")}});
  if (c.pod) c.pod(pod);
  ScheduleResult r = SchedulePod(pod, cluster.infos);
  if (c.reason.empty()) {
    EXPECT_EQ(r.node_name, "node-a") << r.message;
    EXPECT_TRUE(r.reasons.empty());
    return;
  }
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.condition_reason, "Unschedulable");
  EXPECT_EQ(r.reasons, (std::map<std::string, int>{{c.reason, 1}}));
  EXPECT_EQ(r.message.rfind("0/1 nodes are available: 1 " + c.reason + ". preemption: ", 0), 0u)
      << r.message;
}

auto SetResource(std::string name, std::string amount) {
  return [=](api::Pod& p) { p.spec.containers[0].resources.requests[name] = Q(amount); };
}

const RuleCase kRuleCases[] = {
    {"Fits", nullptr, nullptr, ""},
    {"Unschedulable", [](api::Node& n) { n.spec.unschedulable = true; }, nullptr,
     "node(s) were unschedulable"},
    {"UnschedulableTolerated", [](api::Node& n) { n.spec.unschedulable = true; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("node.kubernetes.io/unschedulable", "Exists")}; },
     ""},
    {"TaintNoSchedule", [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     nullptr, "node(s) had untolerated taint {gpu: a100}"},
    {"TaintNoExecute", [](api::Node& n) { n.spec.taints = {Taint("k", "", "NoExecute")}; }, nullptr,
     "node(s) had untolerated taint {k: }"},
    {"TaintPreferNoScheduleIgnored",
     [](api::Node& n) { n.spec.taints = {Taint("k", "v", "PreferNoSchedule")}; }, nullptr, ""},
    {"TaintFirstUntoleratedReported",
     [](api::Node& n) {
       n.spec.taints = {Taint("a", "1", "NoSchedule"), Taint("b", "2", "NoSchedule")};
     },
     [](api::Pod& p) { p.spec.tolerations = {Tol("a", "Equal", "1")}; },
     "node(s) had untolerated taint {b: 2}"},
    {"TolerationEqual", [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "Equal", "a100", "NoSchedule")}; }, ""},
    {"TolerationDefaultOperatorIsEqual",
     [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "", "h100")}; },
     "node(s) had untolerated taint {gpu: a100}"},
    {"TolerationExists", [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "Exists")}; }, ""},
    {"TolerationEmptyKeyExistsToleratesAll",
     [](api::Node& n) {
       n.spec.taints = {Taint("x", "1", "NoSchedule"), Taint("y", "", "NoExecute")};
     },
     [](api::Pod& p) { p.spec.tolerations = {Tol("", "Exists")}; }, ""},
    {"TolerationWrongEffect",
     [](api::Node& n) { n.spec.taints = {Taint("gpu", "", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "Exists", "", "NoExecute")}; },
     "node(s) had untolerated taint {gpu: }"},
    {"NotReady", [](api::Node& n) { n.status.conditions[0].status = "False"; }, nullptr,
     "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
    {"NoReadyCondition", [](api::Node& n) { n.status.conditions.clear(); }, nullptr,
     "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
    {"ReadyUnknown", [](api::Node& n) { n.status.conditions[0].status = "Unknown"; }, nullptr,
     "node(s) had untolerated taint {node.kubernetes.io/unreachable: }"},
    {"NotReadyNoExecuteTolerationIsNotEnough",
     [](api::Node& n) { n.status.conditions[0].status = "False"; },
     [](api::Pod& p) {
       p.spec.tolerations = {Tol("node.kubernetes.io/not-ready", "Exists", "", "NoExecute")};
     },
     "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
    {"NodeSelectorMatches", nullptr,
     [](api::Pod& p) {
       p.spec.node_selector = {{"zone", "z1"}};
     },
     ""},
    {"NodeSelectorMismatch", nullptr,
     [](api::Pod& p) {
       p.spec.node_selector = {{"zone", "z2"}};
     },
     "node(s) didn't match Pod's node affinity/selector"},
    {"NodeSelectorMissingLabel", nullptr,
     [](api::Pod& p) {
       p.spec.node_selector = {{"rack", "r1"}};
     },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityIn", nullptr,
     [](api::Pod& p) {
       RequireNodeAffinity(p, {{Expr("zone", "In", {"z0", "z1"})}});
     },
     ""},
    {"AffinityInMismatch", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "In", {"z2"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityNotIn", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "NotIn", {"z1"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityNotInAbsentKey", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rack", "NotIn", {"r1"})}}); }, ""},
    {"AffinityExists", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rack", "Exists")}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityDoesNotExist", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rack", "DoesNotExist")}}); }, ""},
    {"AffinityGt", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rank", "Gt", {"4"})}}); }, ""},
    {"AffinityGtFails", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rank", "Gt", {"5"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityLt", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rank", "Lt", {"6"})}}); }, ""},
    {"AffinityLtNonInteger", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "Lt", {"6"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityExpressionsAnded", nullptr,
     [](api::Pod& p) {
       RequireNodeAffinity(p, {{Expr("zone", "In", {"z1"}), Expr("rank", "Gt", {"9"})}});
     },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityTermsOred", nullptr,
     [](api::Pod& p) {
       RequireNodeAffinity(p, {{Expr("zone", "In", {"z9"})}, {Expr("rank", "Lt", {"9"})}});
     },
     ""},
    {"AffinityMatchFieldsName", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("metadata.name", "In", {"node-a"})}}, true); },
     ""},
    {"AffinityMatchFieldsOtherName", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("metadata.name", "In", {"node-b"})}}, true); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"InsufficientCpu", nullptr, SetResource("cpu", "8001m"), "Insufficient cpu"},
    {"CpuExactlyFits", nullptr, SetResource("cpu", "8"), ""},
    {"InsufficientMemory", nullptr, SetResource("memory", "33Gi"), "Insufficient memory"},
    {"InsufficientEphemeralStorage", nullptr, SetResource("ephemeral-storage", "101Gi"),
     "Insufficient ephemeral-storage"},
    {"InsufficientGpu", nullptr, SetResource("nvidia.com/gpu", "9"), "Insufficient nvidia.com/gpu"},
    {"InsufficientTpu", nullptr, SetResource("google.com/tpu", "4"), "Insufficient google.com/tpu"},
    {"InsufficientExtended", nullptr, SetResource("example.com/fpga", "1"),
     "Insufficient example.com/fpga"},
    {"UnaccountedResourceIgnored", nullptr, SetResource("widgets", "5"), ""},
    {"GpuLimitOnlyIsRequested", nullptr,
     [](api::Pod& p) { p.spec.containers[0].resources.limits["nvidia.com/gpu"] = Q("9"); },
     "Insufficient nvidia.com/gpu"},
    {"TooManyPods", [](api::Node& n) { n.status.allocatable["pods"] = Q("0"); }, nullptr,
     "Too many pods"},
    {"InitContainerPeak", nullptr,
     [](api::Pod& p) {
       api::Container init;
       init.name = "init";
       init.resources.requests["cpu"] = Q("9");
       p.spec.init_containers.push_back(init);
     },
     "Insufficient cpu"},
    {"OverheadCounts", nullptr, [](api::Pod& p) { p.spec.overhead["cpu"] = Q("7500m"); },
     "Insufficient cpu"},
};

INSTANTIATE_TEST_SUITE_P(Rules, FilterRuleTest, ::testing::ValuesIn(kRuleCases),
                         [](const auto& info) { return info.param.name; });

// ---- Messages --------------------------------------------------------------------------------

api::Pod GpuPod(const std::string& name, int gpus) {
  return MakePod(name, {{"cpu", Q("1")}, {"nvidia.com/gpu", Q(std::to_string(gpus))}});
}

TEST(ScheduleMessage, CombinesReasonsWithCounts) {
  Cluster cluster;
  for (int i = 0; i < 3; ++i) {
    cluster.Add(MakeNode("gpu-" + std::to_string(i), {{"pool", "gpu"}}));
    cluster.Bind(i, GpuPod("busy-" + std::to_string(i), 4));
  }
  for (int i = 0; i < 5; ++i) cluster.Add(MakeNode("cpu-" + std::to_string(i), {{"pool", "cpu"}}));
  api::Pod pod = GpuPod("p", 8);
  pod.spec.node_selector = {{"pool", "gpu"}};
  ScheduleResult r = SchedulePod(pod, cluster.infos);
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.condition_reason, "Unschedulable");
  EXPECT_EQ(r.reasons,
            (std::map<std::string, int>{{"Insufficient nvidia.com/gpu", 3},
                                        {"node(s) didn't match Pod's node affinity/selector", 5}}));
  EXPECT_EQ(r.message,
            "0/8 nodes are available: 3 Insufficient nvidia.com/gpu, 5 node(s) didn't match Pod's "
            "node affinity/selector. preemption: 0/8 nodes are available: 3 No preemption victims "
            "found for incoming pod, 5 Preemption is not helpful for scheduling..");
}

TEST(ScheduleMessage, SortsCountPrefixedStrings) {
  // Upstream sorts "<count> <reason>" strings, so "10 node(s)..." comes before "2 Insufficient".
  Cluster cluster;
  for (int i = 0; i < 12; ++i) {
    api::Node& node = cluster.Add(MakeNode("n" + std::to_string(i)));
    if (i < 10) node.spec.taints = {Taint("t", "", "NoSchedule")};
  }
  ScheduleResult r = SchedulePod(MakePod("p", {{"cpu", Q("9")}}), cluster.infos);
  EXPECT_EQ(
      r.message,
      "0/12 nodes are available: 10 node(s) had untolerated taint {t: }, 2 Insufficient cpu. "
      "preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, 2 No "
      "preemption victims found for incoming pod..");
}

TEST(ScheduleMessage, OneNodeCanGiveSeveralResourceReasons) {
  Cluster cluster;
  cluster.Add(MakeNode("n"));
  cluster.nodes[0].status.allocatable["pods"] = Q("1");
  cluster.Bind(0, MakePod("old"));
  ScheduleResult r =
      SchedulePod(MakePod("p", {{"cpu", Q("9")}, {"memory", Q("40Gi")}}), cluster.infos);
  EXPECT_EQ(
      r.message,
      "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods. "
      "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..");
}

TEST(ScheduleMessage, NoNodes) {
  ScheduleResult r = SchedulePod(MakePod("p"), {});
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.message, "no nodes available to schedule pods");
  EXPECT_EQ(r.condition_reason, "SchedulerError");
}

TEST(ScheduleMessage, PreemptionPolicyNever) {
  Cluster cluster;
  cluster.Add(MakeNode("n"));
  api::Pod pod = MakePod("p", {{"cpu", Q("9")}});
  pod.spec.rest = {{"preemptionPolicy", "Never"}};
  EXPECT_EQ(SchedulePod(pod, cluster.infos).message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
            "preemptionPolicy=Never..");
}

// ---- Resource accounting ---------------------------------------------------------------------

TEST(ScheduleResources, TerminatingPodsHoldTheirResources) {
  Cluster cluster;
  cluster.Add(MakeNode("n"));
  api::Pod old = GpuPod("old", 8);
  old.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  cluster.Bind(0, old);
  EXPECT_EQ(SchedulePod(GpuPod("new", 8), cluster.infos).reasons,
            (std::map<std::string, int>{{"Insufficient nvidia.com/gpu", 1}}));
  cluster.infos[0].pods.clear();  // the terminating pod is gone
  EXPECT_EQ(SchedulePod(GpuPod("new", 8), cluster.infos).node_name, "n");
}

TEST(ScheduleResources, BoundPodsConsumeEveryResource) {
  Cluster cluster;
  cluster.Add(MakeNode("n"));
  cluster.Bind(0, MakePod("a", {{"cpu", Q("6")}, {"memory", Q("30Gi")}}));
  EXPECT_EQ(
      SchedulePod(MakePod("p", {{"cpu", Q("2")}, {"memory", Q("2Gi")}}), cluster.infos).node_name,
      "n");
  EXPECT_EQ(SchedulePod(MakePod("p", {{"cpu", Q("2001m")}}), cluster.infos).reasons,
            (std::map<std::string, int>{{"Insufficient cpu", 1}}));
  EXPECT_EQ(SchedulePod(MakePod("p", {{"memory", Q("3Gi")}}), cluster.infos).reasons,
            (std::map<std::string, int>{{"Insufficient memory", 1}}));
}

// upstream leastRequestedScore per resource, averaged over the resources the node has: a node
// without GPUs is scored on cpu and memory alone, with the non-zero defaults for what the pod
// leaves out (100m cpu, 200Mi memory).
TEST(ScheduleScore, LeastAllocatedAveragesTheResourcesTheNodeHas) {
  Cluster cluster;
  api::Node cpu_only = MakeNode("cpu-only");
  cpu_only.status.allocatable.erase("nvidia.com/gpu");
  cluster.Add(cpu_only);
  cluster.Add(MakeNode("gpu"));
  cluster.Bind(1, MakePod("busy", {{"cpu", Q("2")}, {"nvidia.com/gpu", Q("4")}}));
  const api::Pod pod = MakePod("p", {{"cpu", Q("2")}});
  const auto nonzero = scheduler::NonZeroRequests(pod);
  // cpu (8000 - 2000) * 100 / 8000 = 75; memory (32Gi - 200Mi) * 100 / 32Gi = 99.
  EXPECT_EQ(scheduler::LeastAllocatedScore(nonzero, cluster.infos[0]), (75 + 99) / 2);
  // cpu 4000 of 8000: 50; memory 400Mi of 32Gi: 98; gpu 4 of 8: 50.
  EXPECT_EQ(scheduler::LeastAllocatedScore(nonzero, cluster.infos[1]), (50 + 98 + 50) / 3);
  EXPECT_EQ(SchedulePod(pod, cluster.infos).node_name, "cpu-only");
}

TEST(PodRequests, InitContainersSidecarsAndOverhead) {
  api::Pod pod = MakePod("p", {{"cpu", Q("1")}, {"memory", Q("1Gi")}});
  api::Container second;
  second.resources.requests = {{"cpu", Q("500m")}};
  second.resources.limits = {{"nvidia.com/gpu", Q("2")}};
  pod.spec.containers.push_back(second);
  api::Container sidecar;
  sidecar.resources.requests = {{"cpu", Q("250m")}};
  sidecar.rest = {{"restartPolicy", "Always"}};
  api::Container init;
  init.resources.requests = {{"cpu", Q("1")}, {"memory", Q("4Gi")}};
  pod.spec.init_containers = {sidecar, init};
  pod.spec.overhead = {{"cpu", Q("100m")}};
  api::ResourceList got = PodRequests(pod);
  // cpu: max(1 + 0.5 + 0.25 sidecar, 1 init + 0.25 sidecar) + 0.1 overhead.
  EXPECT_EQ(got.at("cpu"), Q("1850m"));
  EXPECT_EQ(got.at("memory"), Q("4Gi"));        // the init container's peak
  EXPECT_EQ(got.at("nvidia.com/gpu"), Q("2"));  // limit without request
}

}  // namespace
}  // namespace lws::cluster
