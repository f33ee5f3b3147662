// Runs that watch several roles (watched.h, service_metrics.h, role_report.h): a
// DisaggregatedSet rolled in lock step against its roles as independent LWSs, each role's
// numbers, the service's, and their report.
#include <gtest/gtest.h>

#include "simulate/report.h"
#include "simulate/run.h"
#include "simulate/sweep.h"

namespace lws::simulate {
namespace {

// One role of the set, or the LWS standing for it: `groups` groups of one 8-GPU pod.
std::string RoleSpec(int groups, int max_unavailable, int max_surge) {
  return "{replicas: " + std::to_string(groups) +
         ", rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: " +
         std::to_string(max_unavailable) + ", maxSurge: " + std::to_string(max_surge) +
         "}}, leaderWorkerTemplate: {size: 1, workerTemplate: {spec: {containers: [{name: c, "
         "image: img:1, resources: {limits: {nvidia.com/gpu: \"8\"}}}]}}}}";
}

// Prefill gives a group up first (maxUnavailable 1), decode surges (maxSurge 1), on nodes
// enough for both: what differs is only how the roles are rolled.
std::string PrefillDecode(const std::string& strategies) {
  const std::string prefill = RoleSpec(2, 1, 0);
  const std::string decode = RoleSpec(2, 0, 1);
  return R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: pd}
cluster:
  nodePools:
  - {name: gpu, nodes: 6, maxNodes: 6, allocatable: {nvidia.com/gpu: "8", pods: "110"},
     startup: {distribution: uniform, min: 60s, max: 90s}, termination: 5s}
workloads:
- object:
    apiVersion: disaggregatedset.x-k8s.io/v1
    kind: DisaggregatedSet
    metadata: {name: pd}
    spec:
      roles:
      - {name: prefill, spec: )" +
         prefill + R"(}
      - {name: decode, spec: )" +
         decode + R"(}
timeline: [{at: 5m, image: img:2}]
strategies:
- {name: set}
- name: independent
  workloads:
  - object: {apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet,
             metadata: {name: pd-prefill}, spec: )" +
         prefill + R"(}
  - object: {apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet,
             metadata: {name: pd-decode}, spec: )" +
         decode + R"(}
)" + strategies +
         R"(
limits: {horizon: 1h, stall: 5m}
)";
}

Scenario Parse(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "pd.yaml", ".");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario{};
}

const RoleResult* Role(const RunResult& run, const std::string& name) {
  for (const RoleResult& role : run.roles) {
    if (role.name == name) return &role;
  }
  return nullptr;
}

TEST(DisaggregatedRun, TheSetIsWatchedRoleByRoleUntilItsNewRevisionIsAvailable) {
  Scenario s = Parse(PrefillDecode(""));
  ASSERT_TRUE(CheckScenario(s, "pd.yaml").ok());
  Result<RunResult> run = RunScenario(s, s.strategies[0], 1);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->lws, "pd");
  EXPECT_TRUE(run->metrics.completed);
  ASSERT_EQ(run->roles.size(), 2u);
  EXPECT_EQ(run->roles[0].name, "prefill");
  EXPECT_EQ(run->roles[0].replicas, 2);
  EXPECT_EQ(run->roles[0].floor, 1) << "2 - maxUnavailable 1";
  EXPECT_EQ(run->roles[1].name, "decode");
  EXPECT_EQ(run->roles[1].floor, 2);
  // The totals are the roles' together.
  EXPECT_EQ(run->replicas, 4);
  EXPECT_EQ(run->floor, 3);
  // The run counts roles: decode's surge group does not make up for prefill's missing one.
  EXPECT_NEAR(run->metrics.group_hours_lost,
              run->roles[0].metrics.group_hours_lost + run->roles[1].metrics.group_hours_lost,
              1e-9);
  EXPECT_GE(run->metrics.below_replicas_s, run->roles[0].metrics.below_replicas_s);
  EXPECT_GE(run->metrics.below_floor_s, run->roles[1].metrics.below_floor_s);
  // Prefill gave a group up: the service ran at half its prefill for a while.
  EXPECT_EQ(run->roles[0].metrics.min_ready, 1);
  EXPECT_DOUBLE_EQ(run->service.capacity_min, 0.5);
  EXPECT_GT(run->service.service_hours_lost, 0);
  EXPECT_GT(run->service.idle_accelerator_hours, 0) << "decode's GPUs waited for prefill";
  ASSERT_TRUE(run->roles[1].metrics.first_new_ready_s.has_value());
}

// Upstream's planner ends by draining the last old groups of every role and scaling the new up
// in one step (a role never keeps old groups once another role's are gone): decode, which
// surges and may not lose a group, is one group short while its last new group starts. The
// same decode as an LWS of its own waits for its surge group to be ready first.
TEST(DisaggregatedRun, LockStepTakesDecodeBelowItsFloorWhereAnLwsOfItsOwnDoesNot) {
  Scenario s = Parse(PrefillDecode(""));
  for (std::uint64_t seed : {1, 2, 3}) {
    Result<RunResult> set = RunScenario(s, s.strategies[0], seed);
    Result<RunResult> independent = RunScenario(s, s.strategies[1], seed);
    ASSERT_TRUE(set.ok() && independent.ok());
    EXPECT_TRUE(set->metrics.completed && independent->metrics.completed) << seed;
    EXPECT_EQ(independent->lws, "pd-prefill,pd-decode") << "the untargeted change: both";
    ASSERT_TRUE(Role(*set, "decode") && Role(*independent, "pd-decode"));
    EXPECT_GT(Role(*set, "decode")->metrics.below_floor_s, 0) << seed;
    EXPECT_EQ(Role(*independent, "pd-decode")->metrics.below_floor_s, 0) << seed;
    EXPECT_EQ(Role(*independent, "pd-decode")->metrics.min_ready, 2) << seed;
  }
}

// Slices multiply a role (each slice has its own LWS per role); a drain evicts pods of the
// set's LWSs, and the run completes once the drain is over and every role is whole again.
TEST(DisaggregatedRun, SlicesAndADrainAreFollowedRoleByRole) {
  std::string text = PrefillDecode("");
  auto replace = [&](const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
  };
  replace("    spec:\n      roles:", "    spec:\n      slices: 2\n      roles:");
  replace("nodes: 6, maxNodes: 6", "nodes: 11, maxNodes: 11");
  replace("timeline: [{at: 5m, image: img:2}]", "timeline: [{at: 5m, drain: gpu-0}]");
  Scenario s = Parse(text);
  Result<RunResult> run = RunScenario(s, s.strategies[0], 1);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->lws, "pd") << "nothing changed: the first workload is watched";
  ASSERT_EQ(run->roles.size(), 2u);
  EXPECT_EQ(run->roles[0].replicas, 4) << "2 slices x 2";
  EXPECT_EQ(run->roles[0].floor, 2) << "2 slices x (2 - 1)";
  ASSERT_EQ(run->drains.size(), 1u);
  ASSERT_TRUE(run->drains[0].finished_s.has_value());
  EXPECT_EQ(run->drains[0].evicted, 1);
  EXPECT_TRUE(run->metrics.completed);
  EXPECT_LT(run->service.capacity_min, 1) << "the evicted group was recreated elsewhere";
}

TEST(DisaggregatedRun, RolesAndServiceInTheReportMergeAndTable) {
  Scenario s = Parse(PrefillDecode(""));
  SweepOptions all;
  all.seeds = {1, 2};
  Result<Report> whole = Sweep(s, all);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  const api::Json json = ReportJson(*whole);
  EXPECT_EQ(json["lws"], "pd; pd-prefill,pd-decode");
  const api::Json& run = json["strategies"][0]["runs"][0];
  ASSERT_EQ(run["roles"].size(), 2u);
  EXPECT_EQ(run["roles"][1]["name"], "decode");
  EXPECT_EQ(run["service"]["capacityMin"], 0.5);
  EXPECT_EQ(json["strategies"][1]["summary"]["roles"][1]["name"], "pd-decode");
  EXPECT_EQ(json["strategies"][1]["summary"]["roles"][1]["minReadyGroups"]["worst"], 2);
  // Read back (what `lws simulate merge` does), the same bytes.
  Result<Report> back = ReportFromJson(json);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ReportJson(*back).dump(), json.dump());
  const std::string table = ReportTable(*whole);
  EXPECT_NE(table.find("CAPACITY MIN SERVICE-H LOST IDLE ACC-H"), std::string::npos) << table;
  EXPECT_NE(table.find("role decode (set): min ready 1/1 of 2 (floor 2)"), std::string::npos)
      << table;
  EXPECT_NE(table.find("role pd-decode (independent): min ready 2/2 of 2 (floor 2)"),
            std::string::npos)
      << table;
}

TEST(DisaggregatedRun, ARunOfOneLwsHasNoRoles) {
  Scenario s = Parse(PrefillDecode(R"(- name: prefill-only
  workloads:
  - object: {apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet,
             metadata: {name: pd-prefill}, spec: )" +
                                   RoleSpec(2, 1, 0) + "}"));
  Result<RunResult> run = RunScenario(s, s.strategies[2], 1);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(run->roles.empty());
  EXPECT_EQ(run->lws, "pd-prefill");
  EXPECT_TRUE(run->metrics.completed);
  Report report{"pd", "pd-prefill", 3600, {{"prefill-only", {*run}}}};
  EXPECT_FALSE(ReportJson(report)["strategies"][0]["runs"][0].contains("roles"));
  EXPECT_EQ(ReportTable(report).find("CAPACITY MIN"), std::string::npos);
}

}  // namespace
}  // namespace lws::simulate
