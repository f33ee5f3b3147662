// Status, conditions and group states against spec 11.1 and 12 (S158, S161, Q2-Q5).
#include "controllers/lws/lws_status.h"

#include <gtest/gtest.h>

#include <map>

#include "api/group_restarts.h"

namespace lws::controllers {
namespace {

constexpr char kNow[] = "2026-11-30T00:00:00Z";
constexpr char kLater[] = "2026-11-30T00:01:00Z";

api::LeaderWorkerSet Lws(std::int32_t replicas, std::int32_t size, std::int32_t partition = 0) {
  api::LeaderWorkerSet lws;
  lws.metadata.name = "test-sample";
  lws.metadata.namespace_ = "default";
  lws.metadata.generation = 1;
  lws.spec.replicas = replicas;
  lws.spec.leader_worker_template.size = size;
  api::RollingUpdateConfiguration config;
  config.partition = partition;
  config.max_unavailable = api::IntOrString::FromInt(1);
  lws.spec.rollout_strategy.rolling_update_configuration = config;
  return lws;
}

api::Pod Leader(int index, const std::string& key, bool ready) {
  api::Pod pod;
  pod.metadata.name = "test-sample-" + std::to_string(index);
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = {{api::kSetNameLabel, "test-sample"},
                         {api::kWorkerIndexLabel, "0"},
                         {api::kGroupIndexLabel, std::to_string(index)},
                         {api::kRevisionLabel, key}};
  pod.status.phase = ready ? "Running" : "Pending";
  api::PodCondition condition;
  condition.type = "Ready";
  condition.status = ready ? "True" : "False";
  pod.status.conditions.push_back(condition);
  return pod;
}

api::StatefulSet Workers(int index, const std::string& key, bool ready, std::int32_t replicas = 1) {
  api::StatefulSet sts;
  sts.metadata.name = "test-sample-" + std::to_string(index);
  sts.metadata.namespace_ = "default";
  sts.metadata.labels = {{api::kSetNameLabel, "test-sample"},
                         {api::kGroupIndexLabel, std::to_string(index)},
                         {api::kRevisionLabel, key}};
  sts.spec.replicas = replicas;
  sts.status.available_replicas = ready ? replicas : 0;
  return sts;
}

// The leader pods and worker StatefulSets of one test, owned here so pointers stay valid.
struct Groups {
  std::vector<api::Pod> pods;
  std::map<std::string, api::StatefulSet> sets;

  void Add(int index, const std::string& key, bool ready, bool with_workers = true) {
    pods.push_back(Leader(index, key, ready));
    if (with_workers) sets["test-sample-" + std::to_string(index)] = Workers(index, key, ready);
  }
  std::vector<const api::Pod*> Leaders() const {
    std::vector<const api::Pod*> out;
    for (const auto& p : pods) out.push_back(&p);
    return out;
  }
  WorkerSetLookup Lookup() const {
    return [this](const std::string& name) -> const api::StatefulSet* {
      auto it = sets.find(name);
      return it == sets.end() ? nullptr : &it->second;
    };
  }
  std::vector<const api::StatefulSet*> Sets() const {
    std::vector<const api::StatefulSet*> out;
    for (const auto& [name, s] : sets) out.push_back(&s);
    return out;
  }
};

const api::Condition* Find(const api::LeaderWorkerSetStatus& status, const std::string& type) {
  for (const auto& c : status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

std::string StatusOf(const api::LeaderWorkerSetStatus& status, const std::string& type) {
  const api::Condition* c = Find(status, type);
  return c == nullptr ? "-" : c->status;
}

TEST(ExclusiveConditionTypes, UpstreamPairs) {  // S158
  EXPECT_TRUE(ExclusiveConditionTypes("Available", "Progressing"));
  EXPECT_TRUE(ExclusiveConditionTypes("Progressing", "Available"));
  EXPECT_TRUE(ExclusiveConditionTypes("Available", "UpdateInProgress"));
  EXPECT_TRUE(ExclusiveConditionTypes("UpdateInProgress", "Available"));
  EXPECT_FALSE(ExclusiveConditionTypes("Available", "Available"));
  EXPECT_FALSE(ExclusiveConditionTypes("Progressing", "UpdateInProgress"));
}

TEST(SetCondition, ReportsWhetherSomethingChanged) {  // S161
  std::vector<api::Condition> conditions;
  EXPECT_TRUE(SetCondition(&conditions, MakeCondition("Progressing", 1, kNow), kNow));
  EXPECT_FALSE(SetCondition(&conditions, MakeCondition("Progressing", 1, kLater), kLater));
  EXPECT_EQ(conditions[0].last_transition_time, kNow);  // untouched (Q5)
  EXPECT_TRUE(SetCondition(&conditions, MakeCondition("Progressing", 2, kLater), kLater));
  EXPECT_EQ(conditions[0].last_transition_time, kLater);
  conditions[0].status = "False";
  EXPECT_TRUE(SetCondition(&conditions, MakeCondition("Progressing", 2, kLater), kLater));
  EXPECT_EQ(conditions[0].status, "True");
  EXPECT_TRUE(SetCondition(&conditions, MakeCondition("Available", 2, kLater), kLater));
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0].status, "False");  // exclusive: flipped, reason kept
  EXPECT_EQ(conditions[0].reason, "GroupsProgressing");
}

TEST(PlanStatus, NewLwsIsProgressingWithAnEvent) {  // S40
  api::LeaderWorkerSet lws = Lws(2, 2);
  Groups g;
  g.Add(0, "k1", false);
  g.Add(1, "k1", false);
  auto plan = PlanStatus(lws, "k1", 2, g.Leaders(), g.Lookup(), kNow);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->changed);
  EXPECT_EQ(StatusOf(plan->status, "Progressing"), "True");
  EXPECT_EQ(Find(plan->status, "Progressing")->message, "Replicas are progressing");
  EXPECT_EQ(StatusOf(plan->status, "UpdateInProgress"), "-");  // S41
  ASSERT_TRUE(plan->event.has_value());
  EXPECT_EQ(plan->event->first, "GroupsProgressing");
  EXPECT_EQ(plan->event->second, "Replicas are progressing, with 0 groups ready of total 2 groups");
  EXPECT_EQ(
      plan->status.hpa_pod_selector,
      "leaderworkerset.sigs.k8s.io/name=test-sample,leaderworkerset.sigs.k8s.io/worker-index=0");
  EXPECT_EQ(plan->status.replicas, 2);
  EXPECT_EQ(plan->status.observed_generation, 1);
}

TEST(PlanStatus, ProgressingAvailableProgressing) {  // S38, S39
  api::LeaderWorkerSet lws = Lws(2, 2);
  Groups g;
  g.Add(0, "k1", true);
  g.Add(1, "k1", true);
  auto first = PlanStatus(lws, "k1", 2, g.Leaders(), g.Lookup(), kNow);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(StatusOf(first->status, "Available"), "True");
  EXPECT_EQ(first->event->first, "AllGroupsReady");
  EXPECT_EQ(first->event->second, "All replicas are ready, with 2 groups ready of total 2 groups");
  EXPECT_TRUE(first->update_done);
  lws.status = first->status;
  auto again = PlanStatus(lws, "k1", 2, g.Leaders(), g.Lookup(), kLater);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->changed);
  EXPECT_FALSE(again->event.has_value());
  lws.spec.replicas = 3;
  lws.metadata.generation = 2;
  auto scaled = PlanStatus(lws, "k1", 2, g.Leaders(), g.Lookup(), kLater);
  ASSERT_TRUE(scaled.ok());
  EXPECT_EQ(StatusOf(scaled->status, "Progressing"), "True");
  EXPECT_EQ(StatusOf(scaled->status, "Available"), "False");
  EXPECT_EQ(scaled->event->second,
            "Replicas are progressing, with 2 groups ready of total 3 groups");
  for (const auto& c : scaled->status.conditions) EXPECT_EQ(c.observed_generation, 2);
}

TEST(PlanStatus, TemplateChangeSetsUpdateInProgressUntilAvailable) {  // Q4
  api::LeaderWorkerSet lws = Lws(2, 2);
  Groups old_groups;
  old_groups.Add(0, "k1", true);
  old_groups.Add(1, "k1", true);
  lws.status = PlanStatus(lws, "k1", 2, old_groups.Leaders(), old_groups.Lookup(), kNow)->status;
  auto rolling = PlanStatus(lws, "k2", 2, old_groups.Leaders(), old_groups.Lookup(), kLater);
  ASSERT_TRUE(rolling.ok());
  EXPECT_EQ(StatusOf(rolling->status, "UpdateInProgress"), "True");
  EXPECT_EQ(StatusOf(rolling->status, "Progressing"), "True");
  EXPECT_EQ(StatusOf(rolling->status, "Available"), "False");
  EXPECT_EQ(rolling->event->first, "GroupsUpdating");
  EXPECT_EQ(rolling->event->second,
            "Rolling Upgrade is in progress, with 2 groups ready of total 2 groups");
  EXPECT_FALSE(rolling->update_done);
  lws.status = rolling->status;
  Groups half;  // group 1 updated but not ready: Progressing, UpdateInProgress stays True
  half.Add(0, "k1", true);
  half.Add(1, "k2", false);
  auto mid = PlanStatus(lws, "k2", 2, half.Leaders(), half.Lookup(), kLater);
  EXPECT_EQ(StatusOf(mid->status, "UpdateInProgress"), "True");
  Groups done;
  done.Add(0, "k2", true);
  done.Add(1, "k2", true);
  auto finished = PlanStatus(lws, "k2", 2, done.Leaders(), done.Lookup(), kLater);
  EXPECT_EQ(StatusOf(finished->status, "Available"), "True");
  EXPECT_EQ(StatusOf(finished->status, "UpdateInProgress"), "False");
  EXPECT_EQ(StatusOf(finished->status, "Progressing"), "False");
  EXPECT_TRUE(finished->update_done);
}

TEST(PlanStatus, SurgeGroupsCountAndMissingWorkersCountNowhere) {  // Q2, Q3
  api::LeaderWorkerSet lws = Lws(2, 2);
  Groups g;
  g.Add(0, "k1", true);
  g.Add(1, "k1", true, /*with_workers=*/false);
  g.Add(2, "k1", true);  // surge group
  auto plan = PlanStatus(lws, "k1", 3, g.Leaders(), g.Lookup(), kNow);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->status.ready_replicas, 2);
  EXPECT_EQ(plan->status.updated_replicas, 2);
  EXPECT_EQ(StatusOf(plan->status, "Available"), "-");  // group 1 is not ready
  EXPECT_EQ(plan->status.replicas, 3);                  // Q14: the leader sts status
}

TEST(PlanStatus, PartitionLimitsTheWindow) {
  api::LeaderWorkerSet lws = Lws(4, 1, /*partition=*/2);
  Groups g;
  g.Add(0, "old", true, false);
  g.Add(1, "old", true, false);
  g.Add(2, "new", true, false);
  g.Add(3, "new", true, false);
  auto plan = PlanStatus(lws, "new", 4, g.Leaders(), g.Lookup(), kNow);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(StatusOf(plan->status, "Available"), "True");
  EXPECT_FALSE(plan->update_done);  // revisions are kept while partition > 0
}

TEST(PlanStatus, UnparsableGroupIndexIsAnError) {
  api::LeaderWorkerSet lws = Lws(1, 1);
  Groups g;
  g.Add(0, "k1", true, false);
  g.pods[0].metadata.labels[api::kGroupIndexLabel] = "x";
  EXPECT_FALSE(PlanStatus(lws, "k1", 1, g.Leaders(), g.Lookup(), kNow).ok());
}

TEST(PlanStatus, ZeroReplicasIsAvailableAtOnce) {  // S30
  auto plan = PlanStatus(
      Lws(0, 2), "k1", 0, {}, [](const std::string&) { return nullptr; }, kNow);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(StatusOf(plan->status, "Available"), "True");
}

TEST(PlanStatus, DegradedNamesTheGroupsKeptAfterTheirBudget) {
  api::LeaderWorkerSet lws = Lws(3, 2);
  Groups g;
  g.Add(0, "k", true);
  g.Add(1, "k", false);
  g.Add(2, "k", false);
  // No counts: no Degraded condition, as upstream.
  auto plan = PlanStatus(lws, "k", 3, g.Leaders(), g.Lookup(), kNow);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(StatusOf(plan->status, "Degraded"), "-");
  // Groups 2 and 1 exhausted; an exhausted entry of another revision is not a current group.
  lws.metadata.annotations[api::kGroupRestartsAnnotation] =
      R"({"k/2":{"restarts":1,"exhausted":true},"k/1":{"restarts":1,"exhausted":true},)"
      R"("old/0":{"restarts":1,"exhausted":true}})";
  plan = PlanStatus(lws, "k", 3, g.Leaders(), g.Lookup(), kNow);
  const api::Condition* degraded = Find(plan->status, "Degraded");
  ASSERT_NE(degraded, nullptr);
  EXPECT_EQ(degraded->status, "True");
  EXPECT_EQ(degraded->reason, "ReplicaRestartBudgetExceeded");
  EXPECT_EQ(degraded->message,
            "groups 1, 2: restart budget spent (lws-cpp.dev/max-group-restarts), not recreated; "
            "annotate a group's leader pod with lws-cpp.dev/recover=true to recreate it");
  EXPECT_TRUE(plan->changed);
  // Group 1 recovered: the message follows, the transition time stays.
  lws.status = plan->status;
  lws.metadata.annotations[api::kGroupRestartsAnnotation] =
      R"({"k/2":{"restarts":1,"exhausted":true}})";
  plan = PlanStatus(lws, "k", 3, g.Leaders(), g.Lookup(), kLater);
  degraded = Find(plan->status, "Degraded");
  EXPECT_EQ(degraded->message.substr(0, 9), "group 2: ");
  EXPECT_EQ(degraded->last_transition_time, kNow);
  // None left: False, and the other conditions are upstream's.
  lws.status = plan->status;
  lws.metadata.annotations.erase(api::kGroupRestartsAnnotation);
  plan = PlanStatus(lws, "k", 3, g.Leaders(), g.Lookup(), kLater);
  degraded = Find(plan->status, "Degraded");
  EXPECT_EQ(degraded->status, "False");
  EXPECT_EQ(degraded->reason, "RestartBudgetAvailable");
  EXPECT_EQ(degraded->last_transition_time, kLater);
  EXPECT_EQ(StatusOf(plan->status, "Progressing"), "True");
}

TEST(GroupStates, ByIndexAndExpectedNames) {
  api::LeaderWorkerSet lws = Lws(3, 2);
  Groups g;
  g.Add(0, "k2", true);
  g.Add(1, "k1", true);
  g.Add(2, "k2", false);
  g.sets.erase("test-sample-2");
  g.Add(5, "k2", true);  // beyond the StatefulSet's replicas: ignored
  auto states = GroupStates(lws, "k2", 4, g.Leaders(), g.Sets());
  ASSERT_EQ(states.size(), 4u);
  EXPECT_TRUE(states[0].ready && states[0].updated);
  EXPECT_TRUE(states[1].ready && !states[1].updated);
  EXPECT_FALSE(states[2].ready || states[2].updated);  // worker sts missing
  EXPECT_FALSE(states[3].ready || states[3].updated);  // no leader pod
}

}  // namespace
}  // namespace lws::controllers
