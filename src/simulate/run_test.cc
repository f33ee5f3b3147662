// Runs of scenarios (run.h, sweep.h): determinism, and the two ways scarce capacity stops a
// rollout that issue 32 asks `lws simulate` to show.
#include "simulate/run.h"

#include <gtest/gtest.h>

#include "simulate/report.h"
#include "simulate/sweep.h"

namespace lws::simulate {
namespace {

// Two nodes of 8 GPUs, in stockout: 2 groups of one 8-GPU pod fill them.
std::string TightScenario(const std::string& strategy, const std::string& tenants) {
  return R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: tight}
cluster:
  nodePools:
  - name: gpu
    nodes: 2
    maxNodes: 4
    allocatable: {nvidia.com/gpu: "8", pods: "110"}
    startup: {distribution: uniform, min: 20s, max: 40s}
    termination: 5s
  capacityChanges: [{at: 0s, stockout: gpu, for: 10h}]
)" + tenants +
         R"(
workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: model}
    spec:
      replicas: 2
      leaderWorkerTemplate:
        size: 1
        workerTemplate:
          spec:
            containers: [{name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "8"}}}]
timeline: [{at: 5m, lws: model, image: img:2}]
strategies: [)" +
         strategy + R"(]
limits: {horizon: 30m, stall: 3m}
)";
}

const char* kSurgeOnly =
    "{name: surge, rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 0, maxSurge: "
    "1}}}";
const char* kUnavailable =
    "{name: unavailable, rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 1, "
    "maxSurge: 0}}}";

Scenario Parse(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "test.yaml", ".");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

TEST(RunScenario, SameSeedSameReportAnyJobs) {
  Scenario s = Parse(TightScenario(std::string(kUnavailable) + ", " + kSurgeOnly, ""));
  SweepOptions one;
  one.seeds = {1, 2, 3};
  SweepOptions two = one;
  two.jobs = 2;
  Result<Report> a = Sweep(s, one);
  Result<Report> b = Sweep(s, two);
  Result<Report> c = Sweep(s, one);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(ReportJson(*a).dump(), ReportJson(*b).dump());
  EXPECT_EQ(ReportJson(*a).dump(), ReportJson(*c).dump());
  // Shards merged equal the whole.
  SweepOptions first = one, second = one;
  first.shard_count = second.shard_count = 2;
  second.shard_index = 1;
  Result<Report> merged = MergeReports({*Sweep(s, first), *Sweep(s, second)});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(ReportJson(*merged).dump(), ReportJson(*a).dump());
}

// maxSurge needs a node the stockout does not give: the surge group waits and the rollout never
// completes; the stall names the group and the scheduler's reason.
TEST(RunScenario, SurgeThatCannotBeScheduledStallsWithTheSchedulersReason) {
  Scenario s = Parse(TightScenario(kSurgeOnly, ""));
  Result<RunResult> run = RunScenario(s, s.strategies[0], 1);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const RunMetrics& m = run->metrics;
  EXPECT_FALSE(m.completed);
  EXPECT_EQ(m.duration_s, 1800);
  EXPECT_EQ(m.min_ready, 2) << "maxUnavailable 0: nothing goes down";
  ASSERT_EQ(m.stalls.size(), 1u);
  EXPECT_EQ(m.stalls[0].waiting_groups, std::set<int>{2});
  bool insufficient = false, stockout = false;
  for (const auto& [message, count] : m.stalls[0].reasons) {
    insufficient |=
        message.find("FailedScheduling: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu") ==
        0;
    stockout |= message.find("stockout of pool gpu") != std::string::npos;
  }
  EXPECT_TRUE(insufficient);
  EXPECT_TRUE(stockout);
  // The surge group never gets a node: it costs waiting, not accelerators.
  EXPECT_EQ(m.surge_accelerator_hours, 0);
  EXPECT_EQ(m.peak_accelerators, 16);
}

// maxUnavailable releases a node; another tenant takes it before the replacement: capacity is
// lost and the rollout does not complete. Without the tenant it completes.
TEST(RunScenario, CapacityTakenByOtherTenantsIsLost) {
  const std::string tenants = "  otherTenants: {takeFreed: {probability: 1, delay: 0s}}";
  Scenario taken = Parse(TightScenario(kUnavailable, tenants));
  Scenario free = Parse(TightScenario(kUnavailable, ""));
  Result<RunResult> lost = RunScenario(taken, taken.strategies[0], 1);
  Result<RunResult> kept = RunScenario(free, free.strategies[0], 1);
  ASSERT_TRUE(lost.ok() && kept.ok());
  EXPECT_TRUE(kept->metrics.completed);
  EXPECT_LT(kept->metrics.group_hours_lost, 0.05);
  EXPECT_FALSE(lost->metrics.completed);
  EXPECT_EQ(lost->metrics.min_ready, 1);
  EXPECT_GT(lost->metrics.group_hours_lost, 0.3);  // one group of two missing for most of 30 min
  EXPECT_GT(lost->metrics.below_replicas_s, 1500);
  ASSERT_FALSE(lost->metrics.stalls.empty());
}

}  // namespace
}  // namespace lws::simulate

namespace lws::simulate {
namespace {

// Another tenant's pods arriving at 4m take the one spare node: the surge group that would have
// used it waits, where without them the rollout completes.
TEST(RunScenario, ArrivingTenantsTakeTheSpareNode) {
  auto text = [](bool arrivals) {
    std::string s = TightScenario(
        kSurgeOnly,
        arrivals
            ? "  otherTenants: {arrivals: [{at: 4m, pods: 1, requests: {nvidia.com/gpu: \"8\"}}]}"
            : "");
    const std::string two = "    nodes: 2\n";
    s.replace(s.find(two), two.size(), "    nodes: 3\n");  // one spare node
    return s;
  };
  Scenario without = Parse(text(false));
  Scenario with = Parse(text(true));
  Result<RunResult> free = RunScenario(without, without.strategies[0], 1);
  Result<RunResult> taken = RunScenario(with, with.strategies[0], 1);
  ASSERT_TRUE(free.ok() && taken.ok());
  EXPECT_TRUE(free->metrics.completed);
  EXPECT_FALSE(taken->metrics.completed);
  ASSERT_FALSE(taken->metrics.stalls.empty());
  EXPECT_EQ(taken->metrics.stalls[0].waiting_groups, std::set<int>{2});
}

}  // namespace
}  // namespace lws::simulate

namespace lws::simulate {
namespace {

// A broken build whose worker crashes 5 s after it is Ready, rolled out to 3 groups, with and
// without the opt-in restart budget: upstream recreates the groups for the whole window (the
// three are never Ready together, so the rollout never completes), the budget stops after one
// recreation per group, and the table shows the RECREATED column.
TEST(RunScenario, RestartBudgetStopsACrashLoop) {
  Scenario s = Parse(R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: crash}
cluster:
  nodePools:
  - {name: gpu, nodes: 4, allocatable: {nvidia.com/gpu: "8", pods: "110"},
     startup: {distribution: fixed, value: 10s}}
workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: model}
    spec:
      replicas: 3
      leaderWorkerTemplate:
        size: 2
        workerTemplate:
          spec:
            containers: [{name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "4"}}}]
timeline:
- at: 2m
  lws: model
  patch:
    spec:
      leaderWorkerTemplate:
        workerTemplate:
          metadata: {annotations: {sim.lws-cpp.dev/crash-after-seconds: "5"}}
strategies:
- {name: upstream}
- {name: budget-1, annotations: {lws-cpp.dev/max-group-restarts: "1"}}
limits: {horizon: 20m, stall: 5m}
)");
  Result<RunResult> upstream = RunScenario(s, s.strategies[0], 1);
  Result<RunResult> budget = RunScenario(s, s.strategies[1], 1);
  ASSERT_TRUE(upstream.ok() && budget.ok());
  EXPECT_FALSE(upstream->metrics.completed);
  EXPECT_GT(upstream->metrics.recreations, 10);  // a group every ~25 s for 20 minutes
  EXPECT_LE(budget->metrics.recreations, 3);
  SweepOptions one;
  one.seeds = {1};
  Result<Report> report = Sweep(s, one);
  ASSERT_TRUE(report.ok());
  const std::string table = ReportTable(*report);
  EXPECT_NE(table.find(" RECREATED\n"), std::string::npos) << table;
}

}  // namespace
}  // namespace lws::simulate

namespace lws::simulate {
namespace {

// Regression: a surge rollout stalled in a stockout, rolled back at its progress deadline. The
// rollback once ping-ponged between the two revisions without virtual time passing (the run
// never ended); now it completes on the previous revision.
TEST(RunScenario, ProgressDeadlineRollbackEndsAStalledSurge) {
  const std::string strategy =
      "{name: rollback, rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 0, "
      "maxSurge: 1}}, "
      "annotations: {lws-cpp.dev/progress-deadline: 3m, lws-cpp.dev/failure-policy: Rollback}}";
  Scenario s = Parse(TightScenario(strategy, ""));
  Result<RunResult> run = RunScenario(s, s.strategies[0], 1);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(run->metrics.completed);
  EXPECT_GE(run->metrics.duration_s, 180);
  EXPECT_LT(run->metrics.duration_s, 300);
}

}  // namespace
}  // namespace lws::simulate

namespace lws::simulate {
namespace {

// The capacity hand-off (docs/scarcity.md): two full nodes, another team's pods waiting for GPUs,
// the LWS's class above theirs. Without the hand-off and without preemption the waiting pod takes
// the node a replaced group let go of; with the hand-off the rollout completes and no one's pod
// is preempted; with a preempting class it completes by preempting the other team's pod.
TEST(RunScenario, CapacityHandOffKeepsTheNodeWithoutPreemptingAnyone) {
  const std::string text = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: hand-off}
cluster:
  nodePools:
  - {name: gpu, nodes: 2, maxNodes: 2, allocatable: {nvidia.com/gpu: "8", pods: "110"},
     startup: {distribution: uniform, min: 20s, max: 40s}, termination: 20s}
  otherTenants: {arrivals: [{at: 2m, pods: 2, requests: {nvidia.com/gpu: "8"}}]}
workloads:
- object: {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: serving}, value: 1000, preemptionPolicy: Never}
- object: {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: preempting}, value: 1000}
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: model}
    spec:
      replicas: 2
      leaderWorkerTemplate:
        size: 1
        workerTemplate:
          spec:
            priorityClassName: serving
            containers: [{name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "8"}}}]
timeline: [{at: 5m, lws: model, image: img:2}]
strategies:
- {name: upstream}
- {name: hand-off, annotations: {lws-cpp.dev/capacity-hand-off: 5m}}
- {name: preempting, patch: {spec: {leaderWorkerTemplate: {workerTemplate: {spec: {priorityClassName: preempting}}}}}}
limits: {horizon: 30m, stall: 3m}
)";
  Scenario s = Parse(text);
  ASSERT_EQ(s.strategies.size(), 3u);
  Result<RunResult> upstream = RunScenario(s, s.strategies[0], 1);
  Result<RunResult> hand_off = RunScenario(s, s.strategies[1], 1);
  Result<RunResult> preempting = RunScenario(s, s.strategies[2], 1);
  ASSERT_TRUE(upstream.ok() && hand_off.ok() && preempting.ok());
  EXPECT_FALSE(upstream->metrics.completed);
  EXPECT_GT(upstream->metrics.group_hours_lost, 0.3);
  EXPECT_TRUE(hand_off->metrics.completed);
  EXPECT_EQ(hand_off->metrics.preemptions, 0);
  EXPECT_TRUE(preempting->metrics.completed);
  EXPECT_GE(preempting->metrics.preemptions, 1);
}

}  // namespace
}  // namespace lws::simulate
