// The scenario file (scenario_file.h): what decodes, and every error with its file and field.
#include "simulate/scenario_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "simulate/run.h"
#include "testdata/testdata_dir.h"

namespace lws::simulate {
namespace {

constexpr const char* kValid = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: small}
cluster:
  nodePools:
  - {name: gpu, nodes: 2, allocatable: {nvidia.com/gpu: "8", pods: "110"}}
  otherTenants:
    takeFreed: {probability: 0.25, delay: 30s}
    arrivals: [{at: 5m, pods: 2, requests: {nvidia.com/gpu: "4"}, pool: gpu, for: 1h}]
workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: demo}
    spec:
      replicas: 2
      leaderWorkerTemplate:
        size: 2
        workerTemplate:
          spec:
            containers: [{name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "2"}}}]
timeline:
- {at: 20m, lws: demo, replicas: 3}
- {at: 10m, lws: demo, image: img:2}
- {at: 30m, cordon: gpu-1}
strategies:
- {name: surge, rolloutStrategy: {rollingUpdateConfiguration: {maxSurge: 1}}}
limits: {horizon: 1h, stall: 2m}
)";

TEST(ScenarioFile, DecodesEveryPart) {
  Result<Scenario> s = ParseScenario(kValid, "small.yaml", ".");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->name, "small");
  ASSERT_EQ(s->cluster.pools.size(), 1u);
  ASSERT_TRUE(s->cluster.other_tenants.take_freed.has_value());
  EXPECT_EQ(s->cluster.other_tenants.take_freed->probability, 0.25);
  ASSERT_EQ(s->cluster.other_tenants.arrivals.size(), 1u);
  EXPECT_EQ(s->cluster.other_tenants.arrivals[0].pods, 2);
  ASSERT_EQ(s->Leaderworkersets().size(), 1u);
  ASSERT_EQ(s->timeline.size(), 3u);
  // In time order; the image change patches every container of the templates (ImagePatch, made
  // from the object as the run has it).
  EXPECT_EQ(s->timeline[0].description, "image img:2");
  EXPECT_EQ(s->timeline[0].target_kind, "LeaderWorkerSet");
  EXPECT_EQ(s->timeline[0].image, "img:2");
  EXPECT_EQ(ImagePatch(*s->Leaderworkersets()[0],
                       "img:2")["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]
                               ["containers"][0]["image"],
            "img:2");
  EXPECT_EQ(s->timeline[1].patch, Json::parse(R"({"spec":{"replicas":3}})"));
  EXPECT_EQ(s->timeline[2].kind, Change::Kind::kCordon);
  ASSERT_EQ(s->strategies.size(), 1u);
  EXPECT_EQ(s->strategies[0]
                .lws_patch["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"]["maxSurge"],
            1);
  EXPECT_EQ(s->horizon, std::chrono::hours(1));
  EXPECT_EQ(s->stall, std::chrono::minutes(2));
  EXPECT_TRUE(CheckScenario(*s, "small.yaml").ok());
}

TEST(ScenarioFile, ReportsEveryProblemWithFileAndField) {
  const std::string bad = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
cluster:
  nodePools: [{name: gpu, nodes: 1, allocatable: {pods: "110"}, colour: red}]
  otherTenants: {takeFreed: {probability: 2}, arrivals: [{at: 1m, requests: {nvidia.com/gpu: lots}, pool: cpu}]}
workloads:
- {object: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: team-a}}}
- {file: missing.yaml}
timeline:
- {at: soon, lws: nosuch, replicas: 2}
- {at: 1m, cordon: n, drain: n}
- {at: 2m, drain: gpu-9}
strategies: [{rolloutStrategy: {}}, {name: x}, {name: x}]
limits: {horizon: 0s}
surprise: true
)";
  Result<Scenario> s = ParseScenario(bad, "bad.yaml", "/nonexistent");
  ASSERT_FALSE(s.ok());
  const std::string message(s.status().message());
  for (const char* expected :
       {"bad.yaml: surprise: Forbidden: unknown field",
        "bad.yaml: cluster.nodePools[0].colour: Forbidden: unknown field",
        "bad.yaml: cluster.otherTenants.takeFreed.probability: Invalid value: 2: must be a number "
        "between 0 and 1",
        "bad.yaml: cluster.otherTenants.arrivals[0].requests[nvidia.com/gpu]: Invalid value: "
        "\"lots\"",
        "bad.yaml: cluster.otherTenants.arrivals[0].pool: Invalid value: \"cpu\": no node pool has "
        "this name",
        "bad.yaml: workloads[0]: Invalid value: \"team-a\": objects live in namespace default in a "
        "simulation",
        "bad.yaml: workloads[1].file: Invalid value: \"missing.yaml\"",
        "bad.yaml: workloads: Required value: at least one LeaderWorkerSet or DisaggregatedSet",
        "bad.yaml: timeline[0].lws: Invalid value: \"nosuch\": no LeaderWorkerSet of this name "
        "among the workloads",
        "bad.yaml: timeline[1]: Invalid value: null: must set exactly one of lws, "
        "disaggregatedset, cordon, uncordon, drain (or image alone: every workload's)",
        "bad.yaml: timeline[2].drain: Invalid value: \"gpu-9\": no node of this name can exist: "
        "nodes are "
        "named <pool>-<index>, with index below the pool's maxNodes",
        "bad.yaml: strategies[0].name: Required value",
        "bad.yaml: strategies[2].name: Duplicate value: \"x\"",
        "bad.yaml: limits.horizon: Invalid value: \"0s\": must be positive"}) {
    EXPECT_NE(message.find(expected), std::string::npos) << "missing: " << expected << "\nin:\n"
                                                         << message;
  }
}

TEST(ScenarioFile, WorkloadsFromFilesAndTheChecksBeforeRunning) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "scenario-files";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "lws.yaml") << R"(apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: big}
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: "16"}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
)";
  const std::string text = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
cluster: {nodePools: [{name: gpu, nodes: 1, allocatable: {nvidia.com/gpu: "8", pods: "110"}}]}
workloads: [{file: lws.yaml}]
strategies: [{name: broken, rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 0, maxSurge: 0}}}]
)";
  Result<Scenario> s = ParseScenario(text, "s.yaml", dir.string());
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->workloads.size(), 2u);
  EXPECT_EQ(s->name, "s");
  Status checked = CheckScenario(*s, "s.yaml");
  ASSERT_FALSE(checked.ok());
  const std::string message(checked.message());
  EXPECT_NE(message.find("s.yaml: LeaderWorkerSet big (strategy broken): spec.rolloutStrategy."
                         "rollingUpdateConfiguration.maxUnavailable: Invalid value"),
            std::string::npos)
      << message;
  s->strategies = {{"plain", Json::object()}};
  checked = CheckScenario(*s, "s.yaml");
  ASSERT_FALSE(checked.ok());
  EXPECT_NE(
      std::string(checked.message())
          .find("s.yaml: LeaderWorkerSet big (strategy plain): a leader pod fits no node of the "
                "cluster: it asks for nvidia.com/gpu 16 (pool gpu nodes have 8)"),
      std::string::npos)
      << checked.message();
}

}  // namespace
}  // namespace lws::simulate

namespace lws::simulate {
namespace {

constexpr const char* kDisaggregated = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
cluster:
  nodePools: [{name: gpu, nodes: 4, allocatable: {nvidia.com/gpu: "8", pods: "110"}}]
workloads:
- object:
    apiVersion: disaggregatedset.x-k8s.io/v1
    kind: DisaggregatedSet
    metadata: {name: pd}
    spec:
      roles:
      - name: prefill
        spec: {replicas: 1, leaderWorkerTemplate: {workerTemplate: {spec: {containers: [
               {name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "8"}}}]}}}}
      - name: decode
        spec: {replicas: 1, leaderWorkerTemplate: {workerTemplate: {spec: {containers: [
               {name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "16"}}}]}}}}
timeline:
- {at: 1m, disaggregatedset: pd, image: img:2}
- {at: 2m, image: img:3}
- {at: 3m, lws: two, patch: {metadata: {labels: {a: b}}}}
strategies:
- {name: set, rolloutStrategy: {rollingUpdateConfiguration: {maxSurge: 0, maxUnavailable: 1}}}
- name: lws
  workloads:
  - object: {apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet,
             metadata: {name: two}, spec: {leaderWorkerTemplate: {workerTemplate: {spec:
             {containers: [{name: c, image: img:1}]}}}}}
)";

// A DisaggregatedSet among the workloads, changes of it and of every workload, a strategy with
// workloads of its own; the strategy's rollout settings reach every role; the checks before
// running read each role's pods.
TEST(ScenarioFile, DisaggregatedSetsAndStrategiesWithTheirOwnWorkloads) {
  Result<Scenario> s = ParseScenario(kDisaggregated, "pd.yaml", ".");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->timeline.size(), 3u);
  EXPECT_EQ(s->timeline[0].target_kind, "DisaggregatedSet");
  EXPECT_EQ(s->timeline[0].image, "img:2");
  EXPECT_EQ(s->timeline[1].target_kind, "") << "an image alone: every workload";
  EXPECT_EQ(s->timeline[2].target, "two") << "a workload only a strategy brings";
  ASSERT_EQ(s->strategies.size(), 2u);
  EXPECT_EQ(s->WorkloadsOf(s->strategies[0]).size(), 1u);
  ASSERT_EQ(s->WorkloadsOf(s->strategies[1]).size(), 1u);
  EXPECT_EQ(NameOf(s->WorkloadsOf(s->strategies[1])[0]), "two");
  Result<Json> set = WithStrategy(s->workloads[0], s->strategies[0]);
  ASSERT_TRUE(set.ok());
  for (const Json& role : (*set)["spec"]["roles"]) {
    EXPECT_EQ(role["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"]["maxUnavailable"], 1);
    EXPECT_EQ(role["spec"]["replicas"], 1) << "the rest of the role kept";
  }
  const Json image = ImagePatch(s->workloads[0], "img:9");
  EXPECT_EQ(image["spec"]["roles"][1]["name"], "decode");
  EXPECT_EQ(image["spec"]["roles"][1]["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]
                 ["containers"][0]["image"],
            "img:9");
  Status checked = CheckScenario(*s, "pd.yaml");
  EXPECT_EQ(checked.message(),
            "pd.yaml: DisaggregatedSet pd (strategy set) role decode: a leader pod fits no node "
            "of the cluster: it asks for nvidia.com/gpu 16 (pool gpu nodes have 8)\n"
            "pd.yaml: DisaggregatedSet pd (strategy set) role decode: a worker pod fits no node "
            "of the cluster: it asks for nvidia.com/gpu 16 (pool gpu nodes have 8)");
}

TEST(ScenarioFile, DisaggregatedSetChangesAndStrategyWorkloadsAreChecked) {
  std::string text = kDisaggregated;
  auto replace = [&](const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
  };
  replace("{at: 1m, disaggregatedset: pd, image: img:2}",
          "{at: 1m, disaggregatedset: pd, "
          "replicas: 2}");
  replace("{at: 2m, image: img:3}", "{at: 2m, disaggregatedset: nosuch, image: img:3}");
  replace("metadata: {name: two}", "metadata: {name: other}");
  replace("kind: LeaderWorkerSet,", "kind: ConfigMap,");
  Result<Scenario> s = ParseScenario(text, "bad.yaml", ".");
  ASSERT_FALSE(s.ok());
  const std::string message(s.status().message());
  for (const char* expected :
       {"bad.yaml: timeline[0].replicas: Forbidden: a DisaggregatedSet's replicas are its "
        "roles': patch them",
        "bad.yaml: timeline[1].disaggregatedset: Invalid value: \"nosuch\": no DisaggregatedSet "
        "of this name among the workloads",
        "bad.yaml: timeline[2].lws: Invalid value: \"two\": no LeaderWorkerSet of this name "
        "among the workloads",
        "bad.yaml: strategies[1].workloads: Required value: at least one LeaderWorkerSet or "
        "DisaggregatedSet"}) {
    EXPECT_NE(message.find(expected), std::string::npos) << "missing: " << expected << "\nin:\n"
                                                         << message;
  }
}

// Every scenario of examples/simulate loads (its LWS admitted as the API server would admit it);
// indexed-job.yaml there is the Job that runs a sweep, not a scenario.
TEST(ScenarioFile, EveryExampleLoads) {
  const std::filesystem::path dir = TestdataDir() + "/../examples/simulate";
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml" || entry.path().filename() == "indexed-job.yaml") {
      continue;
    }
    Result<Scenario> s = LoadScenario(entry.path().string());
    EXPECT_TRUE(s.ok()) << entry.path() << ": " << s.status().message();
    ++loaded;
  }
  EXPECT_GE(loaded, 5);
}

}  // namespace
}  // namespace lws::simulate
