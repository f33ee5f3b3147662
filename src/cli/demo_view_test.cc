#include "cli/demo_view.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli/demo_render.h"

namespace lws::cli {
namespace {

using api::Json;

constexpr char kOld[] = "hash-old";
constexpr char kNew[] = "hash-new";

template <class T>
T DecodeOrDie(const Json& json) {
  Result<T> decoded = api::Decode<T>(json);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? *decoded : T{};
}

api::LeaderWorkerSet Lws(std::vector<std::string> true_conditions, int ready = 4, int updated = 0) {
  Json conditions = Json::array();
  for (const std::string& type : true_conditions)
    conditions.push_back({{"type", type}, {"status", "True"}});
  conditions.push_back({{"type", "Unrelated"}, {"status", "False"}});
  return DecodeOrDie<api::LeaderWorkerSet>(
      {{"metadata", {{"name", "demo"}, {"namespace", "default"}, {"generation", 2}}},
       {"spec",
        {{"replicas", 4},
         {"leaderWorkerTemplate", {{"size", 4}}},
         {"rolloutStrategy",
          {{"type", "RollingUpdate"},
           {"rollingUpdateConfiguration",
            {{"partition", 0}, {"maxUnavailable", 1}, {"maxSurge", 1}}}}}}},
       {"status",
        {{"conditions", conditions},
         {"readyReplicas", ready},
         {"updatedReplicas", updated},
         {"observedGeneration", 2}}}});
}

api::StatefulSet LeaderSet(int replicas, int partition, const std::string& hash = kNew) {
  return DecodeOrDie<api::StatefulSet>(
      {{"metadata", {{"name", "demo"}, {"labels", {{api::kRevisionLabel, hash}}}}},
       {"spec",
        {{"replicas", replicas},
         {"updateStrategy", {{"rollingUpdate", {{"partition", partition}}}}}}}});
}

struct PodSpec {
  int index;
  std::string hash;
  bool ready = true;
  bool deleting = false;
};

api::Pod LeaderPod(const PodSpec& p) {
  std::string name = "demo-" + std::to_string(p.index);
  Json meta = {{"name", name},
               {"uid", "uid-" + name},
               {"labels",
                {{api::kGroupIndexLabel, std::to_string(p.index)}, {api::kRevisionLabel, p.hash}}}};
  if (p.deleting) meta["deletionTimestamp"] = "2024-01-01T00:00:00Z";
  Json status = {{"phase", "Running"},
                 {"conditions", {{{"type", "Ready"}, {"status", p.ready ? "True" : "False"}}}}};
  return DecodeOrDie<api::Pod>({{"metadata", meta}, {"status", status}});
}

api::StatefulSet WorkerSet(int index, int available, const std::string& owner_uid = "") {
  std::string name = "demo-" + std::to_string(index);
  std::string uid = owner_uid.empty() ? "uid-" + name : owner_uid;
  Json owner = {
      {"apiVersion", "v1"}, {"kind", "Pod"}, {"name", name}, {"uid", uid}, {"controller", true}};
  return DecodeOrDie<api::StatefulSet>(
      {{"metadata", {{"name", name}, {"ownerReferences", {owner}}}},
       {"spec", {{"replicas", 3}}},
       {"status", {{"replicas", 3}, {"availableReplicas", available}}}});
}

// Leader pods as given, each with a fully available worker set unless its index is in `no_workers`.
RolloutObjects Objects(api::LeaderWorkerSet lws, std::optional<api::StatefulSet> leader,
                       const std::vector<PodSpec>& pods, std::vector<int> no_workers = {}) {
  RolloutObjects objects{std::move(lws), std::move(leader), {}, {}};
  for (const PodSpec& p : pods) {
    objects.leader_pods.push_back(LeaderPod(p));
    if (std::find(no_workers.begin(), no_workers.end(), p.index) == no_workers.end()) {
      objects.worker_sets.emplace("demo-" + std::to_string(p.index), WorkerSet(p.index, 3));
    }
  }
  return objects;
}

// The groups as cli/demo_render.h draws them, one glyph each.
std::string Glyphs(const RolloutView& view) {
  std::vector<std::string> glyphs;
  for (const GroupView& group : view.groups) glyphs.push_back(GroupGlyph(group));
  return fmt::format("{}", fmt::join(glyphs, " "));
}

TEST(RolloutView, ReadsTheRolloutFromTheObjects) {
  RolloutObjects objects =
      Objects(Lws({"Progressing", "UpdateInProgress"}, 3, 2), LeaderSet(5, 2),
              {{0, kOld}, {1, kOld}, {2, kNew, false}, {3, kNew}, {4, kNew, false}});
  RolloutView view = BuildRolloutView(objects);
  EXPECT_EQ(Glyphs(view), "o+ o+ n~ n+ s~");
  EXPECT_TRUE(view.sts_found);
  EXPECT_EQ(view.sts_partition, 2);
  EXPECT_EQ(view.sts_replicas, 5);
  EXPECT_EQ(view.ready_replicas, 3);
  EXPECT_EQ(view.updated_replicas, 2);
  EXPECT_EQ(view.true_conditions, (std::vector<std::string>{"Progressing", "UpdateInProgress"}));
  EXPECT_EQ(view.ReadyGroups(), 3);
  EXPECT_EQ(view.SurgeGroups(), 1);
  EXPECT_EQ(view.max_unavailable, 1);
  EXPECT_EQ(view.max_surge, 1);
}

TEST(RolloutView, MissingPodsAndLeaderSet) {
  // The StatefulSet wants 5 groups; pods 2 and 4 do not exist yet.
  RolloutView view = BuildRolloutView(
      Objects(Lws({"Progressing"}), LeaderSet(5, 4), {{0, kOld}, {1, kOld}, {3, kOld}}));
  EXPECT_EQ(Glyphs(view), "o+ o+ -- o+ s-");
  EXPECT_EQ(view.SurgeGroups(), 0);

  // Before the controller made its StatefulSet the revision of a pod is unknown.
  view = BuildRolloutView(Objects(Lws({}), std::nullopt, {{0, kOld}}));
  EXPECT_FALSE(view.sts_found);
  EXPECT_EQ(Glyphs(view), "?+ -- -- --");
  EXPECT_TRUE(view.true_conditions.empty());
}

TEST(RolloutView, AGroupIsReadyOnlyWithItsLeaderAndAllItsWorkers) {
  struct Case {
    const char* name;
    PodSpec pod;
    std::optional<api::StatefulSet> workers;
    char mark;
  };
  const Case cases[] = {
      {"leader and workers up", {0, kNew}, WorkerSet(0, 3), '+'},
      {"leader not ready", {0, kNew, false}, WorkerSet(0, 3), '~'},
      {"workers missing", {0, kNew}, std::nullopt, '~'},
      {"two of three workers", {0, kNew}, WorkerSet(0, 2), '~'},
      {"workers of the replaced leader", {0, kNew}, WorkerSet(0, 3, "uid-of-the-old-pod"), '~'},
      {"leader terminating", {0, kNew, true, true}, WorkerSet(0, 3), 'x'},
  };
  for (const Case& c : cases) {
    RolloutObjects objects{Lws({}), LeaderSet(1, 0), {}, {LeaderPod(c.pod)}};
    objects.lws.spec.replicas = 1;
    if (c.workers) objects.worker_sets.emplace("demo-0", *c.workers);
    RolloutView view = BuildRolloutView(objects);
    ASSERT_EQ(view.groups.size(), 1u) << c.name;
    EXPECT_EQ(GroupGlyph(view.groups[0]), std::string("n") + c.mark) << c.name;
  }
}

TEST(RolloutView, UnobservedGenerationBlocksCompletion) {
  RolloutObjects objects = Objects(Lws({"Available"}), LeaderSet(4, 0, kOld),
                                   {{0, kOld}, {1, kOld}, {2, kOld}, {3, kOld}});
  objects.lws.metadata.generation = 3;
  RolloutView view = BuildRolloutView(objects);
  EXPECT_EQ(Glyphs(view), "n+ n+ n+ n+");
  EXPECT_EQ(view.generation, 3);
  EXPECT_EQ(view.observed_generation, 2);
  EXPECT_FALSE(RolloutComplete(view, kOld));
  EXPECT_EQ(RolloutBlocker(view, kOld),
            "the controller has not observed generation 3 (status is at 2)");
}

TEST(RolloutComplete, EveryConditionMatters) {
  const std::vector<PodSpec> all_new = {{0, kNew}, {1, kNew}, {2, kNew}, {3, kNew}};
  struct Case {
    const char* name;
    RolloutObjects objects;
    std::string blocker;
  };
  std::vector<Case> cases = {
      {"done", Objects(Lws({"Available"}), LeaderSet(4, 0), all_new), ""},
      {"still the old revision", Objects(Lws({"Available"}), LeaderSet(4, 0, kOld), all_new),
       "the leader StatefulSet is still on the old revision hash-old"},
      {"no leader sts", Objects(Lws({"Available"}), std::nullopt, all_new),
       "the leader StatefulSet does not exist"},
      {"partition up", Objects(Lws({"Available"}), LeaderSet(4, 1), all_new),
       "the leader StatefulSet's partition is 1, not 0"},
      {"surge replica", Objects(Lws({"Available"}), LeaderSet(5, 0), all_new),
       "the leader StatefulSet has 5 replicas, not 4"},
      {"surge pod terminating",
       Objects(Lws({"Available"}), LeaderSet(4, 0),
               {{0, kNew}, {1, kNew}, {2, kNew}, {3, kNew}, {4, kNew, true, true}}),
       "surge group 4 still exists"},
      {"an old group",
       Objects(Lws({"Available"}), LeaderSet(4, 0), {{0, kOld}, {1, kNew}, {2, kNew}, {3, kNew}}),
       "group 0 is not updated"},
      {"workers of group 2 missing", Objects(Lws({"Available"}), LeaderSet(4, 0), all_new, {2}),
       "group 2 is not ready"},
      {"not Available", Objects(Lws({"Progressing"}), LeaderSet(4, 0), all_new),
       "the LeaderWorkerSet is not Available"},
      {"UpdateInProgress",
       Objects(Lws({"Available", "UpdateInProgress"}), LeaderSet(4, 0), all_new),
       "UpdateInProgress is still True"},
  };
  for (const Case& c : cases) {
    RolloutView view = BuildRolloutView(c.objects);
    EXPECT_EQ(RolloutBlocker(view, kOld), c.blocker) << c.name;
    EXPECT_EQ(RolloutComplete(view, kOld), c.blocker.empty()) << c.name;
  }
}

TEST(RolloutStats, FewestReadyAndMostSurge) {
  Time start = Time(std::chrono::seconds(1000));
  RolloutStats stats(start);
  EXPECT_EQ(stats.MinReadyGroups(), -1);
  auto lws = Lws({"Progressing", "UpdateInProgress"});
  stats.Observe(BuildRolloutView(
                    Objects(lws, LeaderSet(5, 3),
                            {{0, kOld}, {1, kOld}, {2, kOld}, {3, kNew, false}, {4, kNew, false}})),
                start + std::chrono::seconds(1));
  stats.Observe(
      BuildRolloutView(Objects(lws, LeaderSet(5, 2),
                               {{0, kOld}, {1, kOld}, {2, kNew, false}, {3, kNew}, {4, kNew}})),
      start + std::chrono::seconds(5));
  RolloutView last = BuildRolloutView(
      Objects(Lws({"Available"}), LeaderSet(4, 0), {{0, kNew}, {1, kNew}, {2, kNew}, {3, kNew}}));
  stats.Observe(last, start + std::chrono::milliseconds(42'300));
  EXPECT_EQ(stats.MinReadyGroups(), 3);
  EXPECT_EQ(stats.MaxSurgeGroups(), 1);
  EXPECT_EQ(stats.Elapsed(), std::chrono::milliseconds(42'300));
  EXPECT_EQ(stats.Summary(last),
            "rollout complete in 42.3s\n"
            "  fewest ready groups: 3 of 4, never below replicas - maxUnavailable = 3\n"
            "  most surge groups:   1 (maxSurge 1)\n");

  // Two groups down at once breaks the maxUnavailable promise, and the summary says so.
  stats.Observe(
      BuildRolloutView(Objects(lws, LeaderSet(4, 2),
                               {{0, kOld}, {1, kOld}, {2, kNew, false}, {3, kNew, false}})),
      start + std::chrono::seconds(50));
  EXPECT_EQ(stats.MinReadyGroups(), 2);
  EXPECT_NE(stats.Summary(last).find("2 of 4, FELL BELOW replicas - maxUnavailable = 3"),
            std::string::npos);
}

TEST(FormatElapsed, SecondsThenMinutes) {
  using std::chrono::milliseconds;
  EXPECT_EQ(FormatElapsed(milliseconds(0)), "0.0s");
  EXPECT_EQ(FormatElapsed(milliseconds(12'449)), "12.4s");
  EXPECT_EQ(FormatElapsed(milliseconds(59'900)), "59.9s");
  EXPECT_EQ(FormatElapsed(milliseconds(123'500)), "2m03.5s");
}

}  // namespace
}  // namespace lws::cli
