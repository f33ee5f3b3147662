// DisaggregatedSets on the whole simulated system (scenario/lws_world.h with the
// DisaggregatedSet controller): upstream's External scaling sample driven through the role
// scaler's /scale subresource (sheet 6.1), the example of examples/disaggregatedset rolled out
// on the demo cluster's 8 nodes, and slices added and removed without a rollout.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "api/codec.h"
#include "api/yaml.h"
#include "client/resource.h"
#include "cluster/cluster_config.h"
#include "controllers/disaggregatedset/ds_caches.h"
#include "scenario/lws_world.h"
#include "testdata/testdata_dir.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;
using disaggregatedset::kDisaggregatedSets;
using disaggregatedset::kRoleScalers;

Json Load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto docs = api::LoadYamlDocuments(text.str());
  EXPECT_TRUE(docs.ok()) << path;
  for (const auto& doc : *docs) {
    if (doc.value.value("kind", "") != "DisaggregatedSet") continue;
    Json ds = doc.value;
    ds["metadata"]["namespace"] = "default";
    return ds;
  }
  ADD_FAILURE() << "no DisaggregatedSet in " << path;
  return Json();
}

WorldOptions DsWorld(cluster::ClusterSpec cluster) {
  WorldOptions options{std::move(cluster), 1};
  options.disaggregatedset = true;
  return options;
}

// Replicas of the set's LeaderWorkerSets by role, all slices and revisions.
std::map<std::string, int> RoleReplicas(const LwsWorld& world, const std::string& ds) {
  std::map<std::string, int> out;
  for (const Json& lws : world.List(client::kLeaderWorkerSets, {{api::kDsNameLabel, ds}})) {
    out[lws["metadata"]["labels"][api::kDsRoleLabel].get<std::string>()] +=
        lws["spec"].value("replicas", 1);
  }
  return out;
}

bool Available(const LwsWorld& world, const std::string& ds) {
  auto stored = world.user().Get(kDisaggregatedSets, "default", ds);
  if (!stored.ok()) return false;
  auto set = api::Decode<api::DisaggregatedSet>((*stored)->document());
  if (!set.ok() || set->status.observed_generation != set->metadata.generation) return false;
  const api::Condition* c = api::FindCondition(set->status.conditions, "Available");
  return c != nullptr && c->status == "True";
}

// Four pools of 16 nodes of 8 GPUs, each pool its own cloud.google.com/gke-nodepool and racks of
// 4 labelled topology.kubernetes.io/rack: the topology keys upstream's samples name.
cluster::ClusterSpec SampleCluster() {
  cluster::ClusterSpec spec;
  for (int i = 0; i < 4; ++i) {
    cluster::NodePoolSpec pool = GpuCluster(16, 8).pools[0];
    pool.name = "pool-" + std::to_string(i);
    pool.labels["cloud.google.com/gke-nodepool"] = pool.name;
    pool.labels["topology.kubernetes.io/rack"] = pool.name + "-rack";
    spec.pools.push_back(pool);
  }
  return spec;
}

// Every v1 DisaggregatedSet of upstream's samples (testdata/disaggregatedset/upstream) becomes
// Available unchanged: created as kubectl would create it, in namespace default.
TEST(DisaggregatedSetScenario, UpstreamSamplesBecomeAvailable) {
  int samples = 0;
  const std::string root = TestdataDir() + "/disaggregatedset/upstream";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    auto docs = api::LoadYamlDocuments(text.str());
    ASSERT_TRUE(docs.ok()) << entry.path();
    for (const auto& doc : *docs) {
      if (doc.value.value("apiVersion", "") != "disaggregatedset.x-k8s.io/v1") continue;
      SCOPED_TRACE(entry.path().string());
      LwsWorld world(DsWorld(SampleCluster()));
      ASSERT_TRUE(world.Start().ok());
      Json ds = doc.value;
      ds["metadata"]["namespace"] = "default";
      auto created = world.Create(kDisaggregatedSets, ds);
      ASSERT_TRUE(created.ok()) << created.status().ToString();
      const std::string name = ds["metadata"]["name"];
      EXPECT_TRUE(world.RunUntil([&] { return Available(world, name); }, 20min));
      ++samples;
    }
  }
  EXPECT_EQ(samples, 17);
}

TEST(DisaggregatedSetScenario, ExternalRoleFollowsItsScaler) {
  // Prefill groups of 4 nodes, decode groups of 1 node: 3 prefill and 4 decode take 16.
  LwsWorld world(DsWorld(GpuCluster(20, 8)));
  ASSERT_TRUE(world.Start().ok());
  Json ds = Load(TestdataDir() +
                 "/disaggregatedset/upstream/site/static/examples/disaggregatedset/role-scaler/"
                 "external-scaling.yaml");
  const std::string name = ds["metadata"]["name"];
  ASSERT_TRUE(world.Create(kDisaggregatedSets, ds).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Available(world, name); }, 10min));
  // One scaler per External role, seeded with 1 (a fresh role), bound to the set.
  std::vector<Json> scalers = world.List(kRoleScalers, {{api::kDsNameLabel, name}});
  ASSERT_EQ(scalers.size(), 1u);
  const std::string scaler = scalers[0]["metadata"]["name"];
  const std::string role = scalers[0]["metadata"]["labels"][api::kDsRoleLabel];
  EXPECT_EQ(scaler, name + "-" + role);
  EXPECT_EQ(scalers[0]["spec"]["replicas"], 1);
  EXPECT_EQ(RoleReplicas(world, name)[role], 1);
  // An autoscaler writes /scale: the role follows, the status reports the groups.
  ASSERT_TRUE(world.MergePatch(kRoleScalers, scaler, {{"spec", {{"replicas", 3}}}}, "scale").ok());
  ASSERT_TRUE(world.RunUntil(
      [&] { return RoleReplicas(world, name)[role] == 3 && Available(world, name); }, 10min));
  auto scaled = world.user().Get(kRoleScalers, "default", scaler);
  ASSERT_TRUE(scaled.ok());
  const Json& status = (*scaled)->document()["status"];
  EXPECT_EQ(status["replicas"], 3);
  EXPECT_EQ(status["selector"], "disaggregatedset.x-k8s.io/name=" + name +
                                    ",disaggregatedset.x-k8s.io/role=" + role +
                                    ",leaderworkerset.sigs.k8s.io/worker-index=0");
  EXPECT_EQ(world.Events("ScalerCreated").size(), 1u);
}

TEST(DisaggregatedSetScenario, ExampleRollsOutWithinTheDemoClustersEightNodes) {
  auto spec = cluster::LoadClusterConfig(TestdataDir() + "/../examples/cluster/demo-cluster.yaml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  LwsWorld world(DsWorld(*spec));
  ASSERT_TRUE(world.Start().ok());
  Json ds = Load(TestdataDir() + "/../examples/disaggregatedset/vllm-prefill-decode.yaml");
  ASSERT_TRUE(world.Create(kDisaggregatedSets, ds).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Available(world, "vllm-pd"); }, 10min));
  Json image = "vllm/vllm-openai:v0.9.1";
  Json patch = {{"spec", {{"roles", ds["spec"]["roles"]}}}};
  for (Json& role : patch["spec"]["roles"]) {
    role["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["image"] =
        image;
  }
  ASSERT_TRUE(world.MergePatch(kDisaggregatedSets, "vllm-pd", patch).ok());
  // The nodes the set asks for (2 per prefill group, 1 per decode group), every second; and the
  // nodes its pods hold, terminating ones included.
  int asked_peak = 0, held_peak = 0;
  auto sample = [&] {
    std::map<std::string, int> replicas = RoleReplicas(world, "vllm-pd");
    asked_peak = std::max(asked_peak, 2 * replicas["prefill"] + replicas["decode"]);
    std::set<std::string> nodes;
    for (const api::Pod& p : world.Pods({{api::kDsNameLabel, "vllm-pd"}})) {
      if (!p.spec.node_name.empty()) nodes.insert(p.spec.node_name);
    }
    held_peak = std::max(held_peak, static_cast<int>(nodes.size()));
  };
  world.RunFor(2s);
  EXPECT_TRUE(world.RunUntil(
      [&] {
        sample();
        return Available(world, "vllm-pd") && world.Events("LWSDeleted").size() == 2;
      },
      20min, 1s));
  EXPECT_EQ(asked_peak, 7) << "docs/disaggregatedset.md: the rollout asks for 7 of 8 nodes";
  // The executor does not wait for a drained group's pods to leave before the next step (as
  // upstream's): for their termination grace a new pod may wait for the node they free.
  EXPECT_EQ(held_peak, 8);
}

TEST(DisaggregatedSetScenario, SlicesComeAndGoWithoutARollout) {
  LwsWorld world(DsWorld(GpuCluster(8, 8)));
  ASSERT_TRUE(world.Start().ok());
  Json ds = Load(TestdataDir() + "/../examples/disaggregatedset/vllm-prefill-decode.yaml");
  for (Json& role : ds["spec"]["roles"]) {
    role["spec"]["leaderWorkerTemplate"]["size"] = 1;
    role["spec"]["replicas"] = 1;
    role["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["resources"] = {
        {"limits", {{"nvidia.com/gpu", "1"}}}};
  }
  ASSERT_TRUE(world.Create(kDisaggregatedSets, ds).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Available(world, "vllm-pd"); }, 10min));
  ASSERT_TRUE(world.MergePatch(kDisaggregatedSets, "vllm-pd", {{"spec", {{"slices", 3}}}}).ok());
  ASSERT_TRUE(world.RunUntil(
      [&] { return Available(world, "vllm-pd") && RoleReplicas(world, "vllm-pd")["decode"] == 3; },
      10min));
  EXPECT_EQ(world.List(client::kLeaderWorkerSets, {{api::kDsNameLabel, "vllm-pd"}}).size(), 6u);
  ASSERT_TRUE(world.MergePatch(kDisaggregatedSets, "vllm-pd", {{"spec", {{"slices", 1}}}}).ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        return Available(world, "vllm-pd") &&
               world.List(client::kLeaderWorkerSets, {{api::kDsNameLabel, "vllm-pd"}}).size() == 2;
      },
      10min));
  EXPECT_TRUE(world.Events("RollingUpdateStarted").empty()) << "slices never start a rollout";
}

}  // namespace
}  // namespace lws::scenario

namespace lws::scenario {
namespace {

// A small set for the tests below: prefill and decode, 2 groups of one 1-GPU pod each.
Json SmallSet() {
  Json ds = Load(TestdataDir() + "/../examples/disaggregatedset/vllm-prefill-decode.yaml");
  for (Json& role : ds["spec"]["roles"]) {
    role["spec"]["leaderWorkerTemplate"]["size"] = 1;
    role["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["resources"] = {
        {"limits", {{"nvidia.com/gpu", "1"}}}};
  }
  return ds;
}

// Renaming a role is a new revision without the old role (sheet 4.6.6): the old role's groups
// drain with the rest of the old revision and the new role comes up beside prefill.
TEST(DisaggregatedSetScenario, RenamedRoleDrainsWithTheOldRevision) {
  LwsWorld world(DsWorld(GpuCluster(8, 8)));
  ASSERT_TRUE(world.Start().ok());
  Json ds = SmallSet();
  ASSERT_TRUE(world.Create(kDisaggregatedSets, ds).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Available(world, "vllm-pd"); }, 10min));
  Json roles = ds["spec"]["roles"];
  roles[1]["name"] = "generate";
  ASSERT_TRUE(world.MergePatch(kDisaggregatedSets, "vllm-pd", {{"spec", {{"roles", roles}}}}).ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        std::map<std::string, int> replicas = RoleReplicas(world, "vllm-pd");
        return Available(world, "vllm-pd") && replicas.count("decode") == 0 &&
               replicas["generate"] == 2 && replicas["prefill"] == 2;
      },
      10min));
  EXPECT_EQ(world.List(client::kLeaderWorkerSets, {{api::kDsNameLabel, "vllm-pd"}}).size(), 2u);
}

// The set owns its LeaderWorkerSets, Services and scalers: deleting it collects them all.
TEST(DisaggregatedSetScenario, DeletingTheSetCollectsWhatItMade) {
  LwsWorld world(DsWorld(GpuCluster(8, 8)));
  ASSERT_TRUE(world.Start().ok());
  Json ds = SmallSet();
  ds["spec"]["roles"][0]["scaling"] = {{"mode", "External"}};
  ASSERT_TRUE(world.Create(kDisaggregatedSets, ds).ok());
  ASSERT_TRUE(world.RunUntil([&] { return Available(world, "vllm-pd"); }, 10min));
  const api::StringMap owned = {{api::kDsNameLabel, "vllm-pd"}};
  ASSERT_EQ(world.List(client::kServices, owned).size(), 2u);
  ASSERT_EQ(world.List(kRoleScalers, owned).size(), 1u);
  ASSERT_TRUE(world.Delete(kDisaggregatedSets, "vllm-pd").ok());
  EXPECT_TRUE(world.RunUntil(
      [&] {
        return world.List(client::kLeaderWorkerSets, owned).empty() &&
               world.List(client::kServices, owned).empty() &&
               world.List(kRoleScalers, owned).empty() && world.Pods(owned).empty();
      },
      10min));
}

}  // namespace
}  // namespace lws::scenario
