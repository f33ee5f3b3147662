// The LWS lifecycle through the API, on the whole simulated cluster with automatic kubelets
// (lws-scenarios.md section 2: S24-S42; and a rolling update end to end).
#include <gtest/gtest.h>

#include "client/resource.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

class Lifecycle : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(world.Start().ok()); }

  void CreateLws(const LwsShape& shape) {
    auto created = world.Create(client::kLeaderWorkerSets, LwsObject(shape));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  std::string Condition(const std::string& name, const std::string& type) {
    auto lws = world.Lws(name);
    if (!lws) return "?";
    for (const auto& c : lws->status.conditions) {
      if (c.type == type) return c.status;
    }
    return "-";
  }
  bool Available(const std::string& name = "test-sample") {
    return Condition(name, "Available") == "True";
  }
  std::vector<std::string> EventNotes(const std::string& reason) {
    std::vector<std::string> notes;
    for (const auto& e : world.Events(reason)) notes.push_back(e.message);
    return notes;
  }

  LwsWorld world{WorldOptions{GpuCluster(4, 8), 1}};
};

TEST_F(Lifecycle, CreatesLeaderAndWorkerStatefulSetsAndBecomesAvailable) {  // S24, S32, S38
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  auto leader = world.StatefulSet("test-sample");
  ASSERT_TRUE(leader.has_value());
  EXPECT_EQ(leader->spec.replicas.value_or(-1), 2);
  EXPECT_EQ(leader->spec.service_name, "test-sample");
  EXPECT_EQ(leader->spec.pod_management_policy, "Parallel");
  EXPECT_EQ(leader->metadata.annotations[api::kReplicasAnnotation], "2");
  for (int g = 0; g < 2; ++g) {
    auto workers = world.StatefulSet("test-sample-" + std::to_string(g));
    ASSERT_TRUE(workers.has_value()) << g;
    EXPECT_EQ(workers->spec.replicas.value_or(-1), 1);
    ASSERT_NE(workers->metadata.ControllerRef(), nullptr);
    EXPECT_EQ(workers->metadata.ControllerRef()->kind, "Pod");
  }
  EXPECT_EQ(world.Pods({{api::kSetNameLabel, "test-sample"}}).size(), 4u);
  auto worker_pod = world.Pod("test-sample-1-1");
  ASSERT_TRUE(worker_pod.has_value());
  EXPECT_EQ(worker_pod->metadata.labels[api::kWorkerIndexLabel], "1");
  ASSERT_FALSE(worker_pod->spec.containers.empty());
  ASSERT_FALSE(worker_pod->spec.containers[0].env.empty());
  EXPECT_EQ(worker_pod->spec.containers[0].env[0].name, "LWS_LEADER_ADDRESS");
  EXPECT_EQ(worker_pod->spec.containers[0].env[0].value, "test-sample-1.test-sample.default");
  auto services = world.List(client::kServices);
  ASSERT_EQ(services.size(), 1u);
  EXPECT_EQ(services[0]["spec"]["clusterIP"], "None");
  EXPECT_EQ(services[0]["spec"]["publishNotReadyAddresses"], true);
  auto notes = EventNotes("GroupsProgressing");
  EXPECT_NE(std::find(notes.begin(), notes.end(), "Created leader statefulset test-sample"),
            notes.end());
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "Created worker statefulset for leader pod test-sample-0"),
            notes.end());
  auto ready = EventNotes("AllGroupsReady");
  ASSERT_FALSE(ready.empty());
  EXPECT_EQ(ready.back(), "All replicas are ready, with 2 groups ready of total 2 groups");
  auto lws = world.Lws("test-sample");
  EXPECT_EQ(lws->status.ready_replicas, 2);
  EXPECT_EQ(lws->status.updated_replicas, 2);
  EXPECT_EQ(lws->status.replicas, 2);
  EXPECT_EQ(lws->status.observed_generation, lws->metadata.generation);
}

TEST_F(Lifecycle, RollingUpdateReplacesEveryGroupAndTruncatesRevisions) {  // S178
  LwsShape shape;
  shape.replicas = 3;
  shape.max_surge = 1;
  CreateLws(shape);
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  auto before = world.Pods({{api::kSetNameLabel, "test-sample"}});
  api::Json patch = WorkerImagePatch("vllm/vllm-openai:v0.6.1");
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", patch).ok());
  ASSERT_TRUE(
      world.RunUntil([&] { return Condition("test-sample", "UpdateInProgress") == "True"; }, 30s));
  int most = 0;
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto sts = world.StatefulSet("test-sample");
        if (sts) most = std::max(most, sts->spec.replicas.value_or(0));
        return Condition("test-sample", "UpdateInProgress") == "False" && Available() &&
               sts->spec.replicas.value_or(0) == 3;
      },
      300s));
  EXPECT_EQ(most, 4);  // one surge group
  std::vector<api::Pod> after;
  ASSERT_TRUE(world.RunUntil(
      [&] {
        after = world.Pods({{api::kSetNameLabel, "test-sample"}});
        return after.size() == 6u;  // the surge group's pods are gone
      },
      60s));
  for (const auto& pod : after) {
    for (const auto& old : before)
      EXPECT_NE(pod.metadata.uid, old.metadata.uid) << pod.metadata.name;
  }
  world.RunFor(5s);
  EXPECT_EQ(world.LwsRevisions("test-sample").size(), 1u);
  auto lws = world.Lws("test-sample");
  EXPECT_EQ(lws->status.updated_replicas, 3);
}

TEST_F(Lifecycle, ScaleUpAndDownThroughTheScaleSubresource) {  // S25-S28, S36, S37
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  ASSERT_TRUE(world
                  .MergePatch(client::kLeaderWorkerSets, "test-sample",
                              {{"spec", {{"replicas", 3}}}}, "scale")
                  .ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        return Available() && world.StatefulSets({{api::kSetNameLabel, "test-sample"}}).size() == 4;
      },
      120s));
  EXPECT_EQ(
      world.Lws("test-sample")->status.hpa_pod_selector,
      "leaderworkerset.sigs.k8s.io/name=test-sample,leaderworkerset.sigs.k8s.io/worker-index=0");
  ASSERT_TRUE(
      world.MergePatch(client::kLeaderWorkerSets, "test-sample", {{"spec", {{"replicas", 0}}}})
          .ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        return world.Pods({{api::kSetNameLabel, "test-sample"}}).empty() && Available();
      },
      120s));
  EXPECT_EQ(world.StatefulSet("test-sample")->spec.replicas.value_or(-1), 0);
}

TEST_F(Lifecycle, DeletedObjectsAreRecreated) {  // S31, S33, S35
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  ASSERT_TRUE(world.Delete(client::kStatefulSets, "test-sample-0").ok());
  ASSERT_TRUE(world.Delete(client::kServices, "test-sample").ok());
  world.RunFor(2s);
  ASSERT_TRUE(world.RunUntil(
      [&] {
        return world.StatefulSet("test-sample-0") && world.List(client::kServices).size() == 1;
      },
      60s));
  ASSERT_TRUE(world.Delete(client::kStatefulSets, "test-sample").ok());
  ASSERT_TRUE(world.RunUntil(
      [&] { return world.StatefulSet("test-sample").has_value() && Available(); }, 180s));
}

TEST_F(Lifecycle, UniquePerReplicaMakesOneServicePerGroup) {  // S34
  LwsShape shape;
  shape.subdomain_policy = "UniquePerReplica";
  CreateLws(shape);
  ASSERT_TRUE(world.RunUntil([&] { return world.List(client::kServices).size() == 2; }, 60s));
  auto services = world.List(client::kServices);
  EXPECT_EQ(services[0]["metadata"]["name"], "test-sample-0");
  EXPECT_EQ(services[0]["spec"]["selector"][api::kGroupIndexLabel], "0");
  EXPECT_EQ(services[1]["metadata"]["ownerReferences"][0]["name"], "test-sample-1");
}

// Issue 31 item 8: the pod webhook gives each UniquePerReplica pod its group's Service as
// subdomain; the StatefulSet controller sets the subdomain only when it creates a pod (upstream
// initIdentity), so it must not try to write it back to `serviceName` on an existing pod (the
// API server refuses, pod spec is immutable, and the leader StatefulSet is never synced again).
// A surge rollout, and the switch back to Shared, both complete.
TEST_F(Lifecycle, UniquePerReplicaRollsOutWithSurgeAndBackToShared) {
  LwsShape shape;
  shape.subdomain_policy = "UniquePerReplica";
  shape.max_surge = 1;
  CreateLws(shape);
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  auto leader_pod = world.Pod("test-sample-0");
  ASSERT_TRUE(leader_pod.has_value());
  EXPECT_EQ(leader_pod->spec.subdomain, "test-sample-0");
  auto synced = [&] {
    auto sts = world.StatefulSet("test-sample");
    return sts && sts->status.replicas == 2 &&
           sts->status.observed_generation == sts->metadata.generation;
  };
  ASSERT_TRUE(world.RunUntil(synced, 30s));

  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  bool surge_service = false;
  ASSERT_TRUE(world.RunUntil(
      [&] {
        for (const Json& s : world.List(client::kServices)) {
          surge_service |= s["metadata"]["name"] == "test-sample-2";
        }
        return Condition("test-sample", "UpdateInProgress") == "False" && Available() &&
               world.Lws("test-sample")->status.updated_replicas == 2 && synced();
      },
      300s));
  EXPECT_TRUE(surge_service);

  ASSERT_TRUE(world
                  .MergePatch(client::kLeaderWorkerSets, "test-sample",
                              {{"spec", {{"networkConfig", {{"subdomainPolicy", "Shared"}}}}}})
                  .ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto pod = world.Pod("test-sample-0");
        return pod && pod->spec.subdomain == "test-sample" && Available() &&
               Condition("test-sample", "UpdateInProgress") == "False" && synced();
      },
      300s));
}

// Issue 31 item 1: a leader StatefulSet without the replicas annotation (an old upstream
// version's, or a user's edit) is adopted by a restarted controller with no group restarted, the
// annotation written back at rest, and a later template change rolls out.
TEST_F(Lifecycle, LeaderStatefulSetWithoutReplicasAnnotationIsAdoptedAndHealed) {
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  auto before = world.Pods({{api::kSetNameLabel, "test-sample"}});
  world.StopController();
  const Json strip = {{"metadata", {{"annotations", {{api::kReplicasAnnotation, nullptr}}}}}};
  ASSERT_TRUE(world.MergePatch(client::kStatefulSets, "test-sample", strip).ok());
  ASSERT_TRUE(world.StartController().ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto sts = world.StatefulSet("test-sample");
        return sts && sts->metadata.annotations[api::kReplicasAnnotation] == "2";
      },
      30s));
  world.RunFor(10s);
  auto after = world.Pods({{api::kSetNameLabel, "test-sample"}});
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].metadata.uid, before[i].metadata.uid) << after[i].metadata.name;
  }
  EXPECT_TRUE(Available());

  // Stripped again, then a template change: rule 2 does not need it, and rolls out.
  ASSERT_TRUE(world.MergePatch(client::kStatefulSets, "test-sample", strip).ok());
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto lws = world.Lws("test-sample");
        return Available() && Condition("test-sample", "UpdateInProgress") == "False" &&
               lws->status.updated_replicas == 2;
      },
      300s));
}

// Issue 31 item 2, checked against upstream's newest setConditions (pkg/controllers/
// leaderworkerset_controller.go, which no longer short-circuits: "Accumulating with
// `shouldUpdate || setCondition(...)` would short-circuit and silently drop every condition
// after the first one that changed"): a template change from Available is one status write with
// UpdateInProgress=True, Progressing=True and Available=False, and one GroupsUpdating event.
TEST_F(Lifecycle, TemplateChangeSetsEveryConditionInOneStatusWrite) {
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  world.RunFor(5s);
  const std::uint64_t before = world.store()->CurrentResourceVersion();
  auto rollout_notes = [&] {
    std::vector<std::string> notes;
    for (const std::string& note : EventNotes("GroupsUpdating")) {
      if (note.rfind("Rolling Upgrade", 0) == 0) notes.push_back(note);
    }
    return notes;
  };
  const std::size_t updating_events = rollout_notes().size();
  ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, "test-sample", WorkerImagePatch()).ok());
  ASSERT_TRUE(
      world.RunUntil([&] { return Condition("test-sample", "UpdateInProgress") == "True"; }, 30s));

  auto changes = world.store()->Changes(before);
  ASSERT_TRUE(changes.ok());
  std::vector<Json> status_versions;  // each LWS version whose conditions changed
  Json last_conditions;
  bool first = true;
  for (const store::StoreChange& change : changes->changes) {
    if (change.group_resource != "leaderworkersets.leaderworkerset.x-k8s.io") continue;
    Json conditions = change.object->document()["status"]["conditions"];
    if (!first && conditions == last_conditions) continue;
    if (!first) status_versions.push_back(conditions);
    first = false;
    last_conditions = conditions;
  }
  ASSERT_EQ(status_versions.size(), 1u) << Json(status_versions).dump();
  std::map<std::string, std::string> by_type;
  for (const Json& c : status_versions[0]) by_type[c["type"]] = c["status"];
  EXPECT_EQ(by_type["UpdateInProgress"], "True");
  EXPECT_EQ(by_type["Progressing"], "True");
  EXPECT_EQ(by_type["Available"], "False");
  auto notes = rollout_notes();
  ASSERT_EQ(notes.size(), updating_events + 1);
  EXPECT_EQ(notes.back(), "Rolling Upgrade is in progress, with 2 groups ready of total 2 groups");
}

TEST_F(Lifecycle, GroupOfOneHasNoWorkerStatefulSet) {  // S29
  LwsShape shape;
  shape.size = 1;
  CreateLws(shape);
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  EXPECT_EQ(world.StatefulSets({{api::kSetNameLabel, "test-sample"}}).size(), 1u);
}

TEST_F(Lifecycle, ConditionsWipedAreRestored) {  // S42
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  ASSERT_TRUE(world
                  .MergePatch(client::kLeaderWorkerSets, "test-sample",
                              {{"status", {{"conditions", Json::array()}}}}, "status")
                  .ok());
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 10s));
}

// Another writer's edit of fields the controller owns on the leader StatefulSet is undone by
// the next apply (spec 8), also now that an apply that cannot change anything is not sent
// (controllers/lws/applied_leader_sets.h).
TEST_F(Lifecycle, EditsOfOwnedLeaderStatefulSetFieldsAreUndone) {
  CreateLws({});
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  auto leader = world.StatefulSet("test-sample");
  ASSERT_TRUE(leader.has_value());
  ASSERT_EQ(leader->metadata.Label(api::kSetNameLabel), "test-sample");
  const Json edit = {{"metadata", {{"labels", {{api::kSetNameLabel, nullptr}}}}},
                     {"spec", {{"replicas", 3}}}};
  ASSERT_TRUE(world.MergePatch(client::kStatefulSets, "test-sample", edit).ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto now = world.StatefulSet("test-sample");
        return now && now->spec.replicas.value_or(-1) == 2 &&
               now->metadata.Label(api::kSetNameLabel) == "test-sample" && Available();
      },
      120s));
}

TEST_F(Lifecycle, DeletingAWorkerRecreatesTheGroup) {  // S44, S49
  LwsShape shape;
  shape.replicas = 1;
  shape.size = 3;
  CreateLws(shape);
  ASSERT_TRUE(world.RunUntil([&] { return Available(); }, 120s));
  auto before = world.Pods({{api::kSetNameLabel, "test-sample"}});
  ASSERT_EQ(before.size(), 3u);
  ASSERT_TRUE(world.Delete(client::kPods, "test-sample-0-1").ok());
  ASSERT_TRUE(world.RunUntil(
      [&] {
        auto now = world.Pods({{api::kSetNameLabel, "test-sample"}});
        if (now.size() != 3 || !Available()) return false;
        for (const auto& p : now) {
          for (const auto& b : before) {
            if (p.metadata.uid == b.metadata.uid) return false;
          }
        }
        return true;
      },
      180s));
  auto notes = EventNotes("RecreateGroup");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(
      notes[0],
      "Worker pod test-sample-0-1 failed, deleted leader pod test-sample-0 to recreate group 0");
}

}  // namespace
}  // namespace lws::scenario
