// groupIdentity Hash (upstream KEP 898) through the API, on the whole simulated cluster with
// automatic kubelets. Ported from upstream pkg/controllers/leaderworkerset_hash_status_test.go
// TestReconcileHash (the first reconcile makes one revision, the leader Deployment with its key
// and the headless Service; a template change makes a new revision and rolls it to the
// Deployment) and, for the group-replacement gate's wake-up on pod deletions,
// pod_controller tests TestPodCtrlEnqueueGatedLeaders and the integration test "holds a gated
// leader back until a terminating leader is gone" (test/integration/controllers/
// group_replacement_test.go).
#include <gtest/gtest.h>

#include "api/apps_workloads.h"
#include "api/group_identity.h"
#include "client/resource.h"
#include "cluster/kubelet.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

class HashLifecycle : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(world.Start().ok()); }

  void CreateHashLws(int replicas) {
    LwsShape shape;
    shape.replicas = replicas;
    api::Json lws = LwsObject(shape);
    lws["spec"]["groupIdentity"] = "Hash";
    auto created = world.Create(client::kLeaderWorkerSets, lws);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  bool Available() { return world.LwsCondition("test-sample", "Available").status == "True"; }
  bool RolledOut() {
    return Available() && world.LwsCondition("test-sample", "UpdateInProgress").status != "True";
  }
  std::optional<api::Deployment> Deployment() {
    for (const api::Json& d : world.List(client::kDeployments)) {
      if (d["metadata"]["name"] == "test-sample") return *api::Decode<api::Deployment>(d);
    }
    return std::nullopt;
  }
  std::vector<api::Pod> LiveLeaders() {
    std::vector<api::Pod> out;
    for (api::Pod& p :
         world.Pods({{api::kSetNameLabel, "test-sample"}, {api::kWorkerIndexLabel, "0"}})) {
      if (!p.metadata.IsDeleting()) out.push_back(std::move(p));
    }
    return out;
  }
  bool Gated(const api::Pod& pod) {
    const api::Json& gates = api::ChildOrNull(pod.spec.rest, "schedulingGates");
    return gates.is_array() && !gates.empty();
  }

  LwsWorld world{WorldOptions{GpuCluster(4, 8), 1}};
};

TEST_F(HashLifecycle, LeaderDeploymentRevisionAndServiceThenARollout) {
  CreateHashLws(2);
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  ASSERT_EQ(world.LwsRevisions("test-sample").size(), 1u);
  const std::string first_key =
      world.LwsRevisions("test-sample")[0]["metadata"]["labels"][api::kRevisionLabel];
  std::optional<api::Deployment> deployment = Deployment();
  ASSERT_TRUE(deployment.has_value());
  EXPECT_EQ(deployment->metadata.Label(api::kRevisionLabel), first_key);
  EXPECT_EQ(deployment->spec.replicas.value_or(-1), 2);
  EXPECT_FALSE(world.StatefulSet("test-sample").has_value()) << "no leader StatefulSet";
  auto services = world.List(client::kServices);
  ASSERT_EQ(services.size(), 1u);
  EXPECT_EQ(services[0]["spec"]["clusterIP"], "None");
  for (const api::Pod& leader : LiveLeaders()) {
    auto workers = world.StatefulSet(leader.spec.hostname);
    ASSERT_TRUE(workers.has_value()) << leader.metadata.name;
    EXPECT_EQ(workers->metadata.ControllerRef()->uid, leader.metadata.uid);
    const api::PodCondition* ready = leader.status.FindCondition(api::kGroupReadyCondition);
    ASSERT_NE(ready, nullptr);
    EXPECT_EQ(ready->status, "True");
  }
  const auto lws = world.Lws("test-sample");
  EXPECT_EQ(lws->status.replicas, 2);
  EXPECT_EQ(lws->status.ready_replicas, 2);
  EXPECT_EQ(lws->status.updated_replicas, 2);
  bool created = false;
  for (const api::Event& e : world.Events("GroupsProgressing")) {
    created |= e.message == "Created leader deployment test-sample";
  }
  EXPECT_TRUE(created);

  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  // Both revisions stay while the Deployment rolls: old groups may still be recreated.
  ASSERT_TRUE(world.RunUntil([&] { return world.LwsRevisions("test-sample").size() == 2; }, 10s));
  ASSERT_TRUE(world.RunUntil([&] { return RolledOut(); }, 300s));
  ASSERT_TRUE(world.RunUntil([&] { return world.LwsRevisions("test-sample").size() == 1; }, 10s));
  const std::string second_key =
      world.LwsRevisions("test-sample")[0]["metadata"]["labels"][api::kRevisionLabel];
  EXPECT_NE(second_key, first_key);
  EXPECT_EQ(Deployment()->metadata.Label(api::kRevisionLabel), second_key);
  for (const api::Pod& leader : LiveLeaders()) {
    EXPECT_EQ(leader.metadata.Label(api::kRevisionLabel), second_key);
  }
}

// A worker crash recreates the group (RecreateGroupOnPodRestart): the old leader goes in the
// foreground, the ReplicaSet makes a new leader with a new key, which waits, gated, while the old
// group's pods exist, and is admitted as soon as the last of them is gone (the pod deletion wakes
// it), not at its 10 s requeue.
TEST_F(HashLifecycle, AReplacementIsAdmittedWhenItsOldGroupIsGone) {
  CreateHashLws(1);
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  const api::Pod old_leader = LiveLeaders().at(0);
  const std::string old_key = old_leader.metadata.Label(api::kGroupIndexLabel);
  ASSERT_TRUE(
      world.cluster().kubelets().CrashContainer("default", old_leader.spec.hostname + "-1").ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        std::vector<api::Pod> live = LiveLeaders();
        return live.size() == 1 && live[0].metadata.name != old_leader.metadata.name;
      },
      30s));
  const api::Pod replacement = LiveLeaders().at(0);
  EXPECT_NE(replacement.metadata.Label(api::kGroupIndexLabel), old_key);
  // Step by step: when did the old group's last pod go, and when was the replacement admitted?
  std::optional<Time> gone, admitted;
  const Time limit = world.loop().Now() + 60s;
  while (world.loop().Now() < limit && !(gone && admitted)) {
    world.RunFor(50ms);
    if (!gone && world.Pods({{api::kGroupIndexLabel, old_key}}).empty()) gone = world.loop().Now();
    auto now = world.Pod(replacement.metadata.name);
    if (!admitted && now && !Gated(*now)) admitted = world.loop().Now();
  }
  ASSERT_TRUE(gone && admitted);
  EXPECT_GE(*admitted, *gone) << "admitted while its old group still held its nodes";
  EXPECT_LT(*admitted - *gone, 2s) << "the old group's deletion did not wake the gated leader";
  bool deferred = false;
  for (const api::Event& e : world.Events(api::kGroupReplacementDeferred)) {
    deferred |= e.message.find(replacement.metadata.name) != std::string::npos;
  }
  EXPECT_TRUE(deferred);
  EXPECT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
}

}  // namespace
}  // namespace lws::scenario
