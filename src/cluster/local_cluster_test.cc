// The simulated cluster end to end on virtual time: a StatefulSet's pods are created, scheduled,
// started and replaced by the components together, and a run is a function of its seed.
#include "cluster/local_cluster.h"

#include <gtest/gtest.h>

#include "cluster/cluster_testing.h"
#include "cluster/trace.h"

namespace lws::cluster {
namespace {

using testing::GpuPool;
using testing::SimCluster;

ClusterSpec TwoPools() {
  ClusterSpec spec;
  spec.pools.push_back(GpuPool("gpu-a", 2, 8, 3));
  spec.pools.push_back(GpuPool("gpu-b", 2, 8, 2));
  spec.pools[0].startup = {Distribution::Kind::kLogNormal, 20, 0.5};
  spec.pools[1].startup = {Distribution::Kind::kUniform, 5, 40};
  return spec;
}

// Runs a StatefulSet through creation and an image update; returns the trace hash.
std::uint64_t RunScenario(std::uint64_t seed, std::uint64_t* changes = nullptr) {
  SimCluster sim(TwoPools(), seed);
  Trace trace(&sim.loop(), &sim.user,
              {client::kNodes, client::kPods, client::kStatefulSets, client::kEvents,
               client::kControllerRevisions});
  EXPECT_TRUE(trace.Start().ok());
  EXPECT_TRUE(sim.Start().ok());
  EXPECT_TRUE(
      sim.user.Create(client::kStatefulSets, testing::StatefulSet("web", 6, 4, "Parallel")).ok());
  EXPECT_TRUE(sim.RunUntil([&] { return sim.ReadyPods("web") == 6; }, std::chrono::minutes(10)));
  api::Json patch = {
      {"spec",
       {{"template", {{"spec", {{"containers", {{{"name", "server"}, {"image", "vllm:2"}}}}}}}}}}};
  EXPECT_TRUE(
      sim.user.Patch(client::kStatefulSets, "default", "web", client::PatchType::kStrategic, patch)
          .ok());
  sim.loop().RunFor(std::chrono::minutes(20));
  EXPECT_EQ(sim.ReadyPods("web"), 6);
  if (changes) *changes = trace.changes();
  return trace.hash();
}

TEST(LocalCluster, SameSeedSameTraceDifferentSeedDifferentTrace) {
  std::uint64_t changes = 0;
  std::uint64_t first = RunScenario(42, &changes);
  EXPECT_GT(changes, 100u);  // the scenario did happen
  EXPECT_EQ(RunScenario(42), first);
  EXPECT_NE(RunScenario(43), first);
}

TEST(LocalCluster, OrderedReadyPodsStartOneAfterAnother) {
  SimCluster sim(TwoPools());
  ASSERT_TRUE(sim.Start().ok());
  ASSERT_TRUE(sim.user.Create(client::kStatefulSets, testing::StatefulSet("web", 3, 8)).ok());
  // Each 8-GPU pod takes a whole node; web-1 must not exist before web-0 is Ready.
  std::vector<int> created_when_ready;
  ASSERT_TRUE(sim.RunUntil(
      [&] {
        int pods = static_cast<int>(sim.Pods("web").size());
        int ready = sim.ReadyPods("web");
        EXPECT_LE(pods, ready + 1) << "OrderedReady created a pod before its predecessor was Ready";
        return ready == 3;
      },
      std::chrono::minutes(10)));
  std::set<std::string> nodes;
  for (const store::ObjectPtr& pod : sim.Pods("web"))
    nodes.insert(pod->document()["spec"].value("nodeName", ""));
  EXPECT_EQ(nodes.size(), 3u);  // one node each
  EXPECT_FALSE(nodes.count(""));
}

TEST(LocalCluster, PodsOfAFailedNodeAreReplacedElsewhere) {
  SimCluster sim(TwoPools());
  ASSERT_TRUE(sim.Start().ok());
  ASSERT_TRUE(
      sim.user.Create(client::kStatefulSets, testing::StatefulSet("web", 2, 8, "Parallel")).ok());
  ASSERT_TRUE(sim.RunUntil([&] { return sim.ReadyPods("web") == 2; }, std::chrono::minutes(10)));
  std::string failed =
      (*sim.user.Get(client::kPods, "default", "web-0"))->document()["spec"]["nodeName"];
  ASSERT_TRUE(SetNodeReady(sim.user, failed, false, sim.loop().Now()).ok());
  ASSERT_TRUE(sim.RunUntil(
      [&] {
        auto pod = sim.user.Get(client::kPods, "default", "web-0");
        return pod.ok() && (*pod)->document()["spec"].value("nodeName", "") != failed &&
               sim.ReadyPods("web") == 2;
      },
      std::chrono::minutes(10)));
}

TEST(LocalCluster, PoolAtItsMaximumLeavesPodsPendingWithTheReason) {
  ClusterSpec spec;
  spec.pools.push_back(GpuPool("gpu", 1, 8, 2));
  SimCluster sim(spec);
  ASSERT_TRUE(sim.Start().ok());
  ASSERT_TRUE(
      sim.user.Create(client::kStatefulSets, testing::StatefulSet("web", 3, 8, "Parallel")).ok());
  // The autoscaler adds the one node the pool may still have; the third pod stays Pending.
  ASSERT_TRUE(sim.RunUntil([&] { return sim.ReadyPods("web") == 2; }, std::chrono::minutes(10)));
  sim.loop().RunFor(std::chrono::minutes(2));
  auto pending = sim.user.Get(client::kPods, "default", "web-2").value();
  EXPECT_FALSE(pending->document()["spec"].contains("nodeName"));
  bool unschedulable = false;
  for (const api::Json& c : pending->document()["status"].value("conditions", api::Json::array())) {
    unschedulable |=
        c.value("type", "") == "PodScheduled" && c.value("reason", "") == "Unschedulable";
  }
  EXPECT_TRUE(unschedulable);
  std::set<std::string> reasons;
  store::ListResult events = sim.user.List(client::kEvents).value();
  for (const store::ObjectPtr& e : events.items) {
    if (e->document()["involvedObject"].value("name", "") == "web-2")
      reasons.insert(e->document().value("reason", ""));
  }
  EXPECT_TRUE(reasons.count("FailedScheduling"));
  EXPECT_TRUE(reasons.count("NotTriggerScaleUp"));
  EXPECT_EQ(sim.user.List(client::kNodes).value().items.size(), 2u);
}

// A controller acting on a stale cache may create a dependent after its owner is gone (the LWS
// pod controller made a worker StatefulSet for a deleted leader pod in the Hash sweep's seed 22
// with a slow watch). No deletion follows to start a pass, yet the collector must take it, as
// upstream's graph builder does on meeting the unknown owner; a dependent of a live owner stays.
TEST(LocalCluster, ADependentCreatedAfterItsOwnerIsGoneIsCollected) {
  ClusterSpec spec;
  spec.pools.push_back(GpuPool("gpu", 1, 8, 1));
  SimCluster sim(spec);
  ASSERT_TRUE(sim.Start().ok());
  api::Json leader = {{"apiVersion", "v1"},
                      {"kind", "Pod"},
                      {"metadata", {{"name", "leader"}, {"namespace", "default"}}},
                      {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  const std::string uid =
      sim.user.Create(client::kPods, leader).value()->document()["metadata"]["uid"];
  leader["metadata"]["name"] = "kept";
  const std::string kept_uid =
      sim.user.Create(client::kPods, leader).value()->document()["metadata"]["uid"];
  ASSERT_TRUE(sim.user.Delete(client::kPods, "default", "leader").ok());
  ASSERT_TRUE(sim.RunUntil([&] { return !sim.user.Get(client::kPods, "default", "leader").ok(); },
                           std::chrono::minutes(2)));
  sim.loop().RunFor(std::chrono::seconds(5));  // the deletion's pass is over
  auto owned_by = [](const std::string& owner, const std::string& owner_uid) {
    return api::Json::array({{{"apiVersion", "v1"},
                              {"kind", "Pod"},
                              {"name", owner},
                              {"uid", owner_uid},
                              {"controller", true}}});
  };
  api::Json orphan = testing::StatefulSet("orphan", 0, 1);
  orphan["metadata"]["ownerReferences"] = owned_by("leader", uid);
  ASSERT_TRUE(sim.user.Create(client::kStatefulSets, orphan).ok());
  api::Json dependent = testing::StatefulSet("dependent", 0, 1);
  dependent["metadata"]["ownerReferences"] = owned_by("kept", kept_uid);
  ASSERT_TRUE(sim.user.Create(client::kStatefulSets, dependent).ok());
  sim.loop().RunFor(std::chrono::seconds(5));
  EXPECT_FALSE(sim.user.Get(client::kStatefulSets, "default", "orphan").ok());
  EXPECT_TRUE(sim.user.Get(client::kStatefulSets, "default", "dependent").ok());
}

// A kind installed after the cluster started can own objects: deleting one of its objects
// collects its dependents, as upstream's collector does for every kind discovery serves.
TEST(LocalCluster, ACustomResourceInstalledLaterOwnsItsDependents) {
  ClusterSpec spec;
  spec.pools.push_back(GpuPool("gpu", 1, 8, 1));
  SimCluster sim(spec);
  ASSERT_TRUE(sim.Start().ok());
  const client::Resource crds{"apiextensions.k8s.io", "v1", "customresourcedefinitions", false};
  const api::Json crd = api::Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
             "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
             "versions": [{"name": "v1", "served": true, "storage": true,
                           "schema": {"openAPIV3Schema": {"type": "object",
                             "x-kubernetes-preserve-unknown-fields": true}}}]}})");
  ASSERT_TRUE(sim.user.Create(crds, crd).ok());
  sim.loop().RunFor(std::chrono::seconds(1));
  const client::Resource widgets{"example.com", "v1", "widgets"};
  auto widget = sim.user.Create(widgets, {{"apiVersion", "example.com/v1"},
                                          {"kind", "Widget"},
                                          {"metadata", {{"name", "w"}, {"namespace", "default"}}}});
  ASSERT_TRUE(widget.ok()) << widget.status().message();
  api::Json dependent = testing::StatefulSet("made-by-w", 0, 1);
  dependent["metadata"]["ownerReferences"] =
      api::Json::array({{{"apiVersion", "example.com/v1"},
                         {"kind", "Widget"},
                         {"name", "w"},
                         {"uid", (*widget)->document()["metadata"]["uid"]},
                         {"controller", true}}});
  ASSERT_TRUE(sim.user.Create(client::kStatefulSets, dependent).ok());
  sim.loop().RunFor(std::chrono::seconds(5));
  ASSERT_TRUE(sim.user.Get(client::kStatefulSets, "default", "made-by-w").ok());
  ASSERT_TRUE(sim.user.Delete(widgets, "default", "w").ok());
  EXPECT_TRUE(sim.RunUntil(
      [&] { return !sim.user.Get(client::kStatefulSets, "default", "made-by-w").ok(); },
      std::chrono::minutes(1)));
}

// `kubectl delete namespace`: the namespace deleter (through its own client) deletes what is in
// the namespace after the grace period, waits for the pod's termination, removes the
// "kubernetes" finalizer and deletes the namespace for good.
TEST(LocalCluster, ADeletedNamespaceIsEmptiedAndThenGone) {
  ClusterSpec spec;
  spec.pools.push_back(GpuPool("gpu", 1, 8, 1));
  SimCluster sim(spec);
  ASSERT_TRUE(sim.Start().ok());
  ASSERT_TRUE(
      sim.user
          .Create(client::kNamespaces,
                  {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team-a"}}}})
          .ok());
  api::Json sts = testing::StatefulSet("web", 1, 0);
  sts["metadata"]["namespace"] = "team-a";
  ASSERT_TRUE(sim.user.Create(client::kStatefulSets, sts).ok());
  ASSERT_TRUE(sim.RunUntil(
      [&] {
        store::ListOptions options;
        options.namespace_ = "team-a";
        return sim.user.List(client::kPods, options).value().items.size() == 1;
      },
      std::chrono::minutes(1)));
  ASSERT_TRUE(sim.user.Delete(client::kNamespaces, "", "team-a").ok());
  EXPECT_TRUE(sim.RunUntil([&] { return !sim.user.Get(client::kNamespaces, "", "team-a").ok(); },
                           std::chrono::minutes(2)));
  store::ListOptions options;
  options.namespace_ = "team-a";
  EXPECT_TRUE(sim.user.List(client::kStatefulSets, options).value().items.empty());
  EXPECT_TRUE(sim.user.List(client::kPods, options).value().items.empty());
}

}  // namespace
}  // namespace lws::cluster
