#include "cluster/cluster_config.h"

#include <gtest/gtest.h>

#include "testdata/testdata_dir.h"

namespace lws::cluster {
namespace {

constexpr const char* kFull = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Cluster
nodePools:
- name: gpu-a
  nodes: 4
  maxNodes: 6
  allocatable: {cpu: "96", memory: 1Ti, nvidia.com/gpu: "8", pods: "110"}
  labels: {nvidia.com/gpu.product: H100}
  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
  zones: [zone-a, zone-b]
  nodesPerRack: 2
  provisioningDelay: 2m30s
  scaleDownDelay: 0s
  startup: {distribution: uniform, min: 10s, max: 40s}
  termination: 5s
  crashProbability: 0.1
- name: cpu
  nodes: 2
  allocatable: {cpu: "8", pods: "110"}
  startup: {distribution: fixed, value: 1500ms}
capacityChanges:
- {at: 10m, stockout: gpu-a, for: 30m}
- {at: 5m, zoneDown: zone-a}
- {at: 6m, nodeUp: gpu-a-5}
)";

TEST(ClusterConfig, DecodesEveryField) {
  Result<ClusterSpec> spec = ParseClusterConfig(kFull, "cluster.yaml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->pools.size(), 2u);
  const NodePoolSpec& a = spec->pools[0];
  EXPECT_EQ(a.initial_nodes, 4);
  EXPECT_EQ(a.min_nodes, 4);
  EXPECT_EQ(a.max_nodes, 6);
  EXPECT_EQ(a.allocatable.at("nvidia.com/gpu"), "8");
  EXPECT_EQ(a.taints.size(), 1u);
  EXPECT_EQ(a.zones, (std::vector<std::string>{"zone-a", "zone-b"}));
  EXPECT_EQ(a.provisioning_delay, std::chrono::seconds(150));
  EXPECT_EQ(a.scale_down_delay, Duration{});
  EXPECT_EQ(a.startup.kind, Distribution::Kind::kUniform);
  EXPECT_DOUBLE_EQ(a.startup.b, 40);
  EXPECT_EQ(a.termination, std::chrono::seconds(5));
  EXPECT_DOUBLE_EQ(a.crash_probability, 0.1);
  const NodePoolSpec& cpu = spec->pools[1];
  EXPECT_EQ(cpu.max_nodes, 2);  // defaults to nodes
  EXPECT_EQ(cpu.startup.kind, Distribution::Kind::kFixed);
  EXPECT_DOUBLE_EQ(cpu.startup.a, 1.5);
  // Sorted by time; the stockout became a begin and an end.
  ASSERT_EQ(spec->changes.size(), 4u);
  EXPECT_EQ(spec->changes[0].kind, CapacityChange::Kind::kZoneDown);
  EXPECT_EQ(spec->changes[1].node, "gpu-a-5");
  EXPECT_EQ(spec->changes[2].kind, CapacityChange::Kind::kStockoutBegin);
  EXPECT_EQ(spec->changes[3].kind, CapacityChange::Kind::kStockoutEnd);
  EXPECT_EQ(spec->changes[3].at, std::chrono::minutes(40));
}

TEST(ClusterConfig, ReportsEveryProblemWithFileAndField) {
  constexpr const char* kBad = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Cluster
nodePools:
- name: Bad_Name
  nodes: 4
  maxNodes: 2
  allocatable: {nvidia.com/gpu: eight}
  startup: {distribution: normal}
  colour: blue
capacityChanges:
- {at: 1m, zoneDown: zone-z}
- {at: soon, nodeDown: x, nodeUp: y}
)";
  Result<ClusterSpec> spec = ParseClusterConfig(kBad, "bad.yaml");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), Code::kInvalid);
  const std::string message(spec.status().message());
  for (const char* expected :
       {"bad.yaml: nodePools[0].name: Invalid value: \"Bad_Name\"",
        "bad.yaml: nodePools[0].maxNodes: Invalid value: 2: must be at least nodes (4)",
        "bad.yaml: nodePools[0].allocatable[nvidia.com/gpu]: Invalid value: \"eight\"",
        "bad.yaml: nodePools[0].allocatable[pods]: Required value",
        "bad.yaml: nodePools[0].startup.distribution: Unsupported value: \"normal\"",
        "bad.yaml: nodePools[0].colour: Forbidden: unknown field",
        "bad.yaml: capacityChanges[0].zoneDown: Invalid value: \"zone-z\": no node pool has this "
        "zone",
        "bad.yaml: capacityChanges[1].at: Invalid value: \"soon\": invalid duration",
        "bad.yaml: capacityChanges[1]: Invalid value: null: must set exactly one of"}) {
    EXPECT_NE(message.find(expected), std::string::npos) << "missing: " << expected << "\nin:\n"
                                                         << message;
  }
  EXPECT_GE(spec.status().causes().size(), 9u);
}

TEST(ClusterConfig, RejectsWrongKindAndBrokenYaml) {
  EXPECT_EQ(
      ParseClusterConfig("apiVersion: v1\nkind: Pod\nnodePools: []\n", "x.yaml").status().code(),
      Code::kInvalid);
  Result<ClusterSpec> broken = ParseClusterConfig("nodePools: [", "x.yaml");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(std::string(broken.status().message()).rfind("x.yaml: ", 0), 0u);
  EXPECT_EQ(LoadClusterConfig("/nonexistent/c.yaml").status().code(), Code::kNotFound);
}

TEST(ClusterConfig, WrongTypesAreErrorsNotCrashes) {
  // Found by cluster_config_fuzz: a non-string apiVersion, kind or taint field.
  constexpr const char* kOdd = R"(
apiVersion: [1]
kind: {a: b}
nodePools:
- name: x
  allocatable: {pods: "1"}
  taints: [{key: [k], effect: 7}]
  startup: {distribution: uniform, min: 50s}
)";
  Result<ClusterSpec> spec = ParseClusterConfig(kOdd, "odd.yaml");
  ASSERT_FALSE(spec.ok());
  const std::string message(spec.status().message());
  EXPECT_NE(message.find("odd.yaml: apiVersion: Unsupported value"), std::string::npos) << message;
  EXPECT_NE(message.find("odd.yaml: nodePools[0].taints[0].key: Required value"), std::string::npos)
      << message;
  EXPECT_NE(message.find("odd.yaml: nodePools[0].startup.max: Invalid value: null"),
            std::string::npos)
      << message;
}

TEST(GoDuration, ParsesAndFormats) {
  EXPECT_EQ(*ParseGoDuration("90s"), std::chrono::seconds(90));
  EXPECT_EQ(*ParseGoDuration("1h30m"), std::chrono::minutes(90));
  EXPECT_EQ(*ParseGoDuration("1.5s"), std::chrono::milliseconds(1500));
  EXPECT_EQ(*ParseGoDuration("0"), Duration{});
  for (const char* bad : {"", "5", "s", "5x", "-5s", "1..2s"})
    EXPECT_FALSE(ParseGoDuration(bad).ok()) << bad;
  EXPECT_EQ(FormatGoDuration(std::chrono::minutes(90)), "1h30m");
  EXPECT_EQ(FormatGoDuration(std::chrono::seconds(30)), "30s");
  EXPECT_EQ(FormatGoDuration(std::chrono::milliseconds(1500)), "1500ms");
  EXPECT_EQ(FormatGoDuration(std::chrono::hours(2)), "2h");
}

}  // namespace
}  // namespace lws::cluster

namespace lws::cluster {
namespace {

TEST(ClusterConfig, ShippedExampleIsValid) {
  Result<ClusterSpec> spec =
      LoadClusterConfig(TestdataDir() + "/../examples/cluster/gpu-cluster.yaml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->pools.size(), 2u);
  EXPECT_EQ(spec->changes.size(), 4u);
}

}  // namespace
}  // namespace lws::cluster

namespace lws::cluster {
namespace {

TEST(ClusterConfig, GangSchedulerIsVolcanoOrAnError) {
  const std::string base =
      "apiVersion: lws-cpp.dev/v1alpha1\nkind: Cluster\n"
      "nodePools: [{name: gpu, nodes: 1, allocatable: {pods: \"110\"}}]\n";
  Result<ClusterSpec> plain = ParseClusterConfig(base, "c.yaml");
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->gang_scheduler, "");
  Result<ClusterSpec> volcano = ParseClusterConfig(base + "gangScheduler: volcano\n", "c.yaml");
  ASSERT_TRUE(volcano.ok()) << volcano.status().message();
  EXPECT_EQ(volcano->gang_scheduler, "volcano");
  Result<ClusterSpec> other = ParseClusterConfig(base + "gangScheduler: kueue\n", "c.yaml");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(
      other.status().message().find(
          "c.yaml: gangScheduler: Unsupported value: \"kueue\": supported values: \"volcano\""),
      std::string::npos)
      << other.status().message();
}

}  // namespace
}  // namespace lws::cluster
