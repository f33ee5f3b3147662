// Rolling updates step by step with manual kubelets, as `lws up --kubelet manual` runs them: the
// test marks groups Ready through the pod status subresource, one step at a time, and after each
// step the leader StatefulSet's partition and replicas, the LWS status counts and its conditions
// must be exactly those of spec section 11's worked examples (A-F).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "client/resource.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

// What a step must lead to. ready/updated are status.readyReplicas/updatedReplicas.
struct Expect {
  int partition;
  int replicas;
  int ready;
  int updated;
  bool available;
  bool update_in_progress;
};

std::string Describe(const Expect& e) {
  return fmt::format("P{} R{} ready {} updated {} Available {} UpdateInProgress {}", e.partition,
                     e.replicas, e.ready, e.updated, e.available, e.update_in_progress);
}

class Stepwise : public ::testing::Test {
 protected:
  void Start(LwsShape shape) {
    shape_ = shape;
    ASSERT_TRUE(world.Start().ok());
    auto created = world.Create(client::kLeaderWorkerSets, LwsObject(shape));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    for (int g = 0; g < shape.replicas; ++g) ReadyGroup(g);
    int p = shape.partition;
    Reach({p, shape.replicas, shape.replicas, shape.replicas, true, false});
  }

  // Marks group g Ready once all its pods exist on the current template and none is terminating.
  void ReadyGroup(int g) {
    const std::string leader = fmt::format("{}-{}", shape_.name, g);
    bool formed = world.RunUntil(
        [&] {
          auto pods = world.Pods(
              {{api::kSetNameLabel, shape_.name}, {api::kGroupIndexLabel, std::to_string(g)}});
          if (static_cast<int>(pods.size()) != Size(g)) return false;
          for (const auto& p : pods) {
            if (p.metadata.IsDeleting() || p.spec.node_name.empty()) return false;
          }
          return true;
        },
        60s);
    ASSERT_TRUE(formed) << "group " << g << " never formed";
    ASSERT_TRUE(world.MarkGroupReady(shape_.name, g).ok());
  }

  int Size(int) const { return shape_.size; }

  Expect Observe() {
    Expect now{-1, -1, -1, -1, false, false};
    if (auto sts = world.StatefulSet(shape_.name)) {
      now.replicas = sts->spec.replicas.value_or(1);
      now.partition = sts->spec.update_strategy.rolling_update
                          ? sts->spec.update_strategy.rolling_update->partition.value_or(0)
                          : 0;
    }
    if (auto lws = world.Lws(shape_.name)) {
      now.ready = lws->status.ready_replicas;
      now.updated = lws->status.updated_replicas;
      for (const auto& c : lws->status.conditions) {
        if (c.type == "Available") now.available = c.status == "True";
        if (c.type == "UpdateInProgress") now.update_in_progress = c.status == "True";
      }
    }
    return now;
  }

  // Runs until the world shows `want`, then checks that it stays so for a second.
  void Reach(const Expect& want) {
    auto same = [&] { return Describe(Observe()) == Describe(want); };
    bool reached = world.RunUntil(same, 60s);
    ASSERT_TRUE(reached) << "want " << Describe(want) << "\n got " << Describe(Observe());
    world.RunFor(1s);
    ASSERT_TRUE(same()) << "did not stay at " << Describe(want) << "\n got " << Describe(Observe());
  }

  void ChangeTemplate(const std::string& image = "vllm/vllm-openai:v0.6.1") {
    api::Json patch = WorkerImagePatch(image);
    ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, shape_.name, patch).ok());
  }

  void Patch(const api::Json& spec) {
    ASSERT_TRUE(world.MergePatch(client::kLeaderWorkerSets, shape_.name, {{"spec", spec}}).ok());
  }

  // Readies `group`, then expects `want`.
  void Step(int group, const Expect& want) {
    SCOPED_TRACE(fmt::format("after group {} ready", group));
    ReadyGroup(group);
    Reach(want);
  }

  LwsWorld world{WorldOptions{GpuCluster(8, 8), 1, cluster::KubeletMode::kManual}};
  LwsShape shape_;
};

TEST_F(Stepwise, ExampleA_MaxUnavailable1MaxSurge2) {
  LwsShape shape;
  shape.replicas = 4;
  shape.max_surge = 2;
  Start(shape);
  ChangeTemplate();
  Reach({3, 6, 3, 3, false, true});
  Step(5, {2, 6, 3, 4, false, true});
  Step(4, {1, 6, 3, 5, false, true});
  Step(3, {0, 6, 3, 6, false, true});
  Step(2, {0, 5, 3, 5, false, true});
  Step(1, {0, 4, 3, 4, false, true});
  Step(0, {0, 4, 4, 4, true, false});
  auto surge = world.Events("GroupsProgressing");
  std::vector<std::string> notes;
  for (const auto& e : surge) notes.push_back(e.message);
  EXPECT_NE(std::find(notes.begin(), notes.end(), "deleting surge replica test-sample-5"),
            notes.end());
  EXPECT_NE(std::find(notes.begin(), notes.end(), "deleting surge replica test-sample-4"),
            notes.end());
}

TEST_F(Stepwise, ExampleB_MaxUnavailable2MaxSurge2) {
  LwsShape shape;
  shape.replicas = 4;
  shape.max_unavailable = 2;
  shape.max_surge = 2;
  Start(shape);
  ChangeTemplate();
  Reach({2, 6, 2, 4, false, true});
  Step(4, {2, 6, 3, 4, false, true});  // the top group 5 is not ready: C = 0
  Step(5, {0, 6, 2, 6, false, true});
  ReadyGroup(2);
  Step(3, {0, 4, 2, 4, false, true});  // both surge groups reclaimed at once
  ReadyGroup(1);
  Step(0, {0, 4, 4, 4, true, false});
}

TEST_F(Stepwise, ExampleC_MaxUnavailable0MaxSurge1) {
  LwsShape shape;
  shape.replicas = 4;
  shape.max_unavailable = 0;
  shape.max_surge = 1;
  Start(shape);
  ChangeTemplate();
  Reach({4, 5, 4, 1, false, true});
  Step(4, {3, 5, 4, 2, false, true});
  Step(3, {2, 5, 4, 3, false, true});
  Step(2, {1, 5, 4, 4, false, true});
  Step(1, {0, 5, 4, 5, false, true});
  Step(0, {0, 4, 4, 4, true, false});
}

TEST_F(Stepwise, ExampleD_MaxSurgeEqualToReplicasBurstsToSeven) {
  LwsShape shape;
  shape.replicas = 4;
  shape.max_surge = 4;
  Start(shape);
  ChangeTemplate();
  // Rule 2: 4 + max(0, 4 - 1) = 7; then rule 5: step 1 + 3 = 4, C = 0: base 3.
  Reach({3, 7, 3, 4, false, true});
}

TEST_F(Stepwise, ExampleE_UserPartition) {
  LwsShape shape;
  shape.replicas = 6;
  shape.partition = 4;
  Start(shape);
  ChangeTemplate();
  Reach({5, 6, 5, 1, false, true});
  Step(5, {4, 6, 5, 2, false, true});
  Step(4, {4, 6, 6, 2, true, false});  // only indexes >= partition must be updated
  Patch({{"rolloutStrategy", {{"rollingUpdateConfiguration", {{"partition", 2}}}}}});
  Reach({3, 6, 5, 3, false, true});
  Step(3, {2, 6, 5, 4, false, true});
  Step(2, {2, 6, 6, 4, true, false});
  EXPECT_EQ(world.LwsRevisions(shape_.name).size(), 2u);  // kept while partition > 0
}

TEST_F(Stepwise, ExampleF_ScaleUpDuringARollout) {
  LwsShape shape;
  shape.replicas = 4;
  shape.partition = 2;
  Start(shape);
  ChangeTemplate();
  Reach({3, 4, 3, 1, false, true});
  Patch({{"replicas", 6}});
  // Rule 3b: (stsP, 6) = (3, 6): the partition stays where the rollout had it, and the new
  // groups 4 and 5 are created above it, on the new template.
  Reach({3, 6, 3, 3, false, true});
  Step(4, {3, 6, 4, 3, false, true});
  Step(5, {3, 6, 5, 3, false, true});
  Step(3, {2, 6, 5, 4, false, true});
  Step(2, {2, 6, 6, 4, true, false});
}

// A controller restart mid-rollout (caches lost, state re-read from the API) restarts no group,
// creates no revision, and the rollout then completes with each group replaced exactly once.
TEST_F(Stepwise, ControllerRestartMidRolloutRestartsNoGroup) {
  LwsShape shape;
  shape.replicas = 4;
  shape.max_surge = 2;
  Start(shape);
  ChangeTemplate();
  Reach({3, 6, 3, 3, false, true});
  auto uids = [&] {
    std::map<std::string, std::string> out;
    for (const auto& p : world.Pods({{api::kSetNameLabel, shape_.name}}))
      out[p.metadata.name] = p.metadata.uid;
    return out;
  };
  const auto before = uids();
  ASSERT_TRUE(world.RestartController().ok());
  world.RunFor(5s);
  Reach({3, 6, 3, 3, false, true});
  EXPECT_EQ(uids(), before);
  EXPECT_EQ(world.LwsRevisions(shape_.name).size(), 2u);
  std::map<std::string, std::set<std::string>> seen;
  auto note = [&] {
    for (const auto& [name, uid] : uids()) seen[name].insert(uid);
  };
  for (int g : {5, 4, 3, 2, 1, 0}) {
    ReadyGroup(g);
    world.RunFor(2s);
    note();
  }
  Reach({0, 4, 4, 4, true, false});
  for (const auto& [name, set] : seen) {
    if (name.rfind("test-sample-4", 0) == 0 || name.rfind("test-sample-5", 0) == 0) continue;
    std::set<std::string> all = set;
    if (before.count(name)) all.insert(before.at(name));
    EXPECT_LE(all.size(), 2u) << name << " was replaced more than once";
  }
  EXPECT_TRUE(world.Events("RecreateGroup").empty());
}

}  // namespace
}  // namespace lws::scenario
