// Drains in `lws simulate` (node_drain.h): evictions through the Eviction API, a
// PodDisruptionBudget holding them back 5 s at a time, the report's drain lines.
#include <gtest/gtest.h>

#include "simulate/report.h"
#include "simulate/run.h"

namespace lws::simulate {
namespace {

// Two full nodes (two 4-GPU groups each) and room for a third; gpu-0 is drained at 5m.
// `budget`: the workloads' PodDisruptionBudget, if any.
std::string DrainScenario(const std::string& budget) {
  return R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: drain}
cluster:
  nodePools:
  - {name: gpu, nodes: 2, maxNodes: 3, allocatable: {nvidia.com/gpu: "8", pods: "110"},
     startup: {distribution: uniform, min: 20s, max: 40s}, termination: 5s,
     provisioningDelay: 90s}
workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: model}
    spec:
      replicas: 4
      leaderWorkerTemplate:
        size: 1
        workerTemplate:
          spec:
            containers: [{name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "4"}}}]
)" + budget +
         R"(
timeline: [{at: 5m, drain: gpu-0}]
limits: {horizon: 30m, stall: 10m}
)";
}

std::string Budget(const std::string& max_unavailable) {
  return R"(- object:
    apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: {name: model-groups}
    spec:
      maxUnavailable: )" +
         max_unavailable + R"(
      selector: {matchLabels: {leaderworkerset.sigs.k8s.io/name: model}})";
}

Result<RunResult> RunDrain(const std::string& budget) {
  Result<Scenario> s = ParseScenario(DrainScenario(budget), "drain.yaml", ".");
  if (!s.ok()) return s.status();
  return RunScenario(*s, s->strategies.front(), 1);
}

TEST(Drain, WithoutABudgetEveryPodOfTheNodeGoesAtOnce) {
  Result<RunResult> run = RunDrain("");
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->drains.size(), 1u);
  const DrainResult& d = run->drains[0];
  EXPECT_EQ(d.node, "gpu-0");
  EXPECT_EQ(d.at_s, 300);
  EXPECT_EQ(d.pods, 2);
  EXPECT_EQ(d.evicted, 2);
  EXPECT_EQ(d.refused, 0);
  ASSERT_TRUE(d.finished_s.has_value());
  EXPECT_LE(*d.finished_s, 10);  // the 5 s termination, sampled each second
  EXPECT_TRUE(run->metrics.completed);
  EXPECT_EQ(run->metrics.min_ready, 2);  // both of the node's groups were down together
}

// The budget lets one group go at a time: the second eviction is refused (429) and asked again
// every 5 s until the first group is ready on the node the autoscaler adds.
TEST(Drain, ABudgetHoldsTheSecondEvictionUntilTheFirstGroupIsBack) {
  Result<RunResult> run = RunDrain(Budget("1"));
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->drains.size(), 1u);
  const DrainResult& d = run->drains[0];
  EXPECT_EQ(d.evicted, 2);
  EXPECT_GE(d.refused, 90 / 5);  // at least the node's provisioning delay, 5 s at a time
  EXPECT_NE(d.refusal.find("Cannot evict pod as it would violate the pod's disruption budget."),
            std::string::npos)
      << d.refusal;
  ASSERT_TRUE(d.finished_s.has_value());
  EXPECT_GE(*d.finished_s, 90 + 20);  // a new node, then a group started on it
  EXPECT_TRUE(run->metrics.completed);
  EXPECT_EQ(run->metrics.min_ready, 3);
}

// A budget that allows nothing: the drain waits until the horizon, and the report says why.
TEST(Drain, ABudgetThatAllowsNothingKeepsTheDrainWaiting) {
  Result<RunResult> run = RunDrain(Budget("0"));
  ASSERT_TRUE(run.ok()) << run.status().message();
  const DrainResult& d = run->drains[0];
  EXPECT_EQ(d.evicted, 0);
  EXPECT_FALSE(d.finished_s.has_value());
  EXPECT_GE(d.refused, 2 * (30 * 60 / 5) - 2);  // both pods, every 5 s for the 30m horizon
  EXPECT_FALSE(run->metrics.completed);
  EXPECT_EQ(run->metrics.min_ready, 4);

  Report report{"drain", "model", 1800, {{"as-written", {*run}}}};
  Result<Report> back = ReportFromJson(ReportJson(report));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ReportJson(*back), ReportJson(report));  // drains survive a merge of shards
  const std::string table = ReportTable(report);
  EXPECT_NE(table.find("drain gpu-0 at 5.0m (as-written): done in 0% of runs, evictions refused"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("  not done in 1 runs: Cannot evict pod as it would violate the pod's "
                       "disruption budget."),
            std::string::npos)
      << table;
}

TEST(Drain, DaemonSetAndMirrorPodsStay) {
  api::Json daemon = {
      {"metadata", {{"ownerReferences", {{{"kind", "DaemonSet"}, {"controller", true}}}}}}};
  api::Json mirror = {{"metadata", {{"annotations", {{"kubernetes.io/config.mirror", "x"}}}}}};
  api::Json member = {
      {"metadata", {{"ownerReferences", {{{"kind", "StatefulSet"}, {"controller", true}}}}}}};
  EXPECT_TRUE(DrainSkips(daemon));
  EXPECT_TRUE(DrainSkips(mirror));
  EXPECT_FALSE(DrainSkips(member));
  EXPECT_FALSE(DrainSkips(api::Json::object()));
}

}  // namespace
}  // namespace lws::simulate
