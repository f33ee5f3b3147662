// Tests of the Deployment controller's pure sync (deployment_plan.h). Most are upstream's
// pkg/controller/deployment table tests (rolling_test.go, sync_test.go TestScale) driven through
// PlanDeployment: upstream calls one step of the sync on a fake client, we run the whole sync
// on a snapshot built so that the step in question is what the sync does, and read the
// ReplicaSet updates off the plan. sync_test.go's cleanup tables are in deployment_util_test.cc.
#include "cluster/deployment_plan.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lws::cluster {
namespace {

using Kind = DeploymentActionKind;
using Sizes = std::map<std::string, std::int32_t>;
// The sizes each set was updated to, in the plan's order.
using History = std::map<std::string, std::vector<std::int32_t>>;

constexpr char kNewTs[] = "2016-05-20T02:00:00Z";
constexpr char kOldTs[] = "2016-05-20T01:00:00Z";
constexpr char kOlderTs[] = "2016-05-20T00:00:00Z";
const Time kNow = Time(std::chrono::seconds(1'700'000'000));

api::PodTemplateSpec Template(const std::string& image) {
  api::PodTemplateSpec t;
  t.metadata.labels["foo"] = "bar";
  t.spec.containers.push_back({.name = "foo", .image = image});
  return t;
}

// Upstream's newDeployment: RollingUpdate with int fenceposts (0 unless given), image foo/bar.
api::Deployment NewDeployment(std::int32_t replicas, std::int32_t max_surge = 0,
                              std::int32_t max_unavailable = 0) {
  api::Deployment d;
  d.metadata.name = "foo";
  d.metadata.namespace_ = "default";
  d.metadata.uid = "uid-foo";
  d.spec.replicas = replicas;
  d.spec.selector = api::LabelSelector();
  d.spec.selector->match_labels["foo"] = "bar";
  d.spec.template_ = Template("foo/bar");
  d.spec.strategy.type = std::string(api::kRollingUpdateDeployment);
  d.spec.strategy.rolling_update = api::RollingUpdateDeployment();
  d.spec.strategy.rolling_update->max_surge = api::IntOrString::FromInt(max_surge);
  d.spec.strategy.rolling_update->max_unavailable = api::IntOrString::FromInt(max_unavailable);
  return d;
}

// Upstream's rs(): `replicas` wanted and present, `available` of them available. `current` sets
// get NewDeployment's template (so the plan finds them as the new set), the others an older one.
api::ReplicaSet Rs(const std::string& name, std::int32_t replicas, const std::string& created,
                   bool current, std::int32_t available = 0) {
  api::ReplicaSet rs;
  rs.metadata.name = name;
  rs.metadata.namespace_ = "default";
  rs.metadata.uid = "uid-" + name;
  rs.metadata.creation_timestamp = created;
  rs.spec.replicas = replicas;
  rs.spec.template_ = Template(current ? "foo/bar" : "foo/bar:old");
  rs.status.replicas = replicas;
  rs.status.available_replicas = available;
  return rs;
}

api::ReplicaSet WithRevision(api::ReplicaSet rs, const std::string& revision) {
  if (!revision.empty()) rs.metadata.annotations[std::string(kRevisionAnnotation)] = revision;
  return rs;
}

std::string Annotation(const api::StringMap& annotations, std::string_view key) {
  auto it = annotations.find(std::string(key));
  return it == annotations.end() ? "" : it->second;
}

DeploymentPlan Plan(const api::Deployment& d, std::vector<api::ReplicaSet> sets,
                    std::set<std::string> running = {}) {
  const DeploymentSnapshot snap{.deployment = d,
                                .replica_sets = std::move(sets),
                                .sets_with_running_pods = std::move(running),
                                .now = kNow};
  Result<DeploymentPlan> plan = PlanDeployment(snap);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? *plan : DeploymentPlan();
}

History Updates(const DeploymentPlan& plan) {
  History history;
  for (const DeploymentAction& a : plan.actions) {
    if (a.kind == Kind::kUpdateReplicaSet) {
      history[a.name].push_back(a.replica_set->spec.replicas.value_or(1));
    }
  }
  return history;
}

std::vector<const DeploymentAction*> OfKind(const DeploymentPlan& plan, Kind kind) {
  std::vector<const DeploymentAction*> out;
  for (const DeploymentAction& a : plan.actions) {
    if (a.kind == kind) out.push_back(&a);
  }
  return out;
}

// Upstream: pkg/controller/deployment/rolling_test.go
// TestDeploymentController_reconcileNewReplicaSet. maxUnavailable 0; new set foo-v2, old foo-v1,
// no pod available. A row that does not scale the new set lets the sync go on to the old sets,
// so only foo-v2's updates are checked there. The feature-gated podReplacementPolicy /
// terminatingReplicas rows are not ported.
TEST(DeploymentPlanTest, ReconcileNewReplicaSet) {
  struct Row {
    const char* name;
    std::int32_t replicas, max_surge, old_replicas, new_replicas;
    std::optional<std::int32_t> expected_new;  // nullopt: no scale
  };
  const std::vector<Row> rows = {
      {"should not scale up when old replica set is fully saturated", 10, 0, 10, 0, {}},
      {"should scale up according to the maxSurge when old replica set is fully saturated", 10, 2,
       10, 0, 2},
      {"should scale up according to the maxSurge", 10, 2, 5, 0, 7},
      {"should not scale when maxSurge is fully saturated", 10, 2, 10, 2, {}},
      {"should scale down when there are replicas above maxSurge", 10, 2, 2, 11, 10},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    DeploymentPlan plan = Plan(NewDeployment(row.replicas, row.max_surge, 0),
                               {WithRevision(Rs("foo-v2", row.new_replicas, kNewTs, true), "2"),
                                WithRevision(Rs("foo-v1", row.old_replicas, kOldTs, false), "1")});
    if (row.expected_new) {
      EXPECT_EQ(Updates(plan), (History{{"foo-v2", {*row.expected_new}}}));
    } else {
      EXPECT_EQ(Updates(plan).count("foo-v2"), 0u);
    }
  }
}

// Upstream: pkg/controller/deployment/rolling_test.go
// TestDeploymentController_reconcileOldReplicaSets. maxSurge 0; upstream checks only that a
// scale happened, here the old set's resulting size (upstream's expectedOldReplicas) is checked
// too. The new set never grows: replicas + maxSurge pods are already wanted.
TEST(DeploymentPlanTest, ReconcileOldReplicaSets) {
  struct Row {
    std::int32_t replicas, max_unavailable, old_replicas, new_replicas, ready_old, ready_new;
    std::optional<std::int32_t> expected_old;  // nullopt: no scale
  };
  const std::vector<Row> rows = {
      {10, 0, 10, 0, 10, 0, 9}, {10, 2, 10, 0, 10, 0, 8},
      {10, 2, 10, 0, 8, 0, 8},  // the unhealthy pods go
      {10, 2, 10, 0, 9, 0, 8},  // one unhealthy, then one ready
      {10, 2, 8, 2, 8, 0, {}},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(::testing::Message() << "old " << row.old_replicas << " ready " << row.ready_old
                                      << " maxUnavailable " << row.max_unavailable);
    DeploymentPlan plan =
        Plan(NewDeployment(row.replicas, 0, row.max_unavailable),
             {WithRevision(Rs("foo-old", row.old_replicas, kOldTs, false, row.ready_old), "1"),
              WithRevision(Rs("foo-new", row.new_replicas, kNewTs, true, row.ready_new), "2")});
    History updates = Updates(plan);
    EXPECT_EQ(updates.count("foo-new"), 0u);
    if (row.expected_old) {
      ASSERT_EQ(updates.count("foo-old"), 1u);
      EXPECT_EQ(updates["foo-old"].back(), *row.expected_old);
    } else {
      EXPECT_TRUE(updates.empty());
    }
  }
}

// Upstream: pkg/controller/deployment/rolling_test.go
// TestDeploymentController_cleanupUnhealthyReplicas. Upstream passes maxCleanupCount directly;
// the sync derives it as allPods - minAvailable - newRSUnavailable. With a new set of 2
// unavailable pods, replicas 10 and maxSurge 2 (so the new set does not grow) that is
// maxUnavailable, so each row sets maxUnavailable = maxCleanupCount (upstream's deployment has
// 2). The cleanup is foo-v2's first update; the sync's scale-down of ready pods may follow it.
TEST(DeploymentPlanTest, CleanupUnhealthyReplicas) {
  struct Row {
    std::int32_t old_replicas, ready_pods, max_cleanup, cleaned;
    std::vector<std::int32_t> updates;  // foo-v2's sizes, in order
  };
  const std::vector<Row> rows = {
      {10, 8, 1, 1, {9}},
      {10, 8, 3, 2, {8, 7}},  // then one ready pod: 8 available, 7 needed
      {10, 8, 0, 0, {}},
      {10, 10, 3, 0, {7}},  // no cleanup; only the scale-down of ready pods
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(::testing::Message()
                 << "ready " << row.ready_pods << " maxCleanup " << row.max_cleanup);
    DeploymentPlan plan =
        Plan(NewDeployment(10, 2, row.max_cleanup),
             {WithRevision(Rs("foo-v2", row.old_replicas, kOldTs, false, row.ready_pods), "1"),
              WithRevision(Rs("foo-v3", 2, kNewTs, true), "2")});
    History updates = Updates(plan);
    EXPECT_EQ(updates["foo-v2"], row.updates);
    if (row.cleaned > 0 && !updates["foo-v2"].empty()) {
      EXPECT_EQ(row.old_replicas - updates["foo-v2"].front(), row.cleaned);
    }
    EXPECT_EQ(updates.count("foo-v3"), 0u);
  }
}

// Upstream: pkg/controller/deployment/rolling_test.go
// TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate. Upstream has no new set;
// the sync creates one (with 0 replicas when the old set fills replicas + maxSurge) and, before
// scaling ready pods down, cleans up unhealthy ones. Where ready < old replicas (rows 3 and 5)
// that cleanup scales foo-v2 to minAvailable and the scale-down adds nothing: upstream's "no
// scale" shows as the single cleanup update (a second update would be the scale-down's).
TEST(DeploymentPlanTest, ScaleDownOldReplicaSetsForRollingUpdate) {
  struct Row {
    std::int32_t replicas, max_unavailable, ready_pods, old_replicas;
    std::vector<std::int32_t> updates;  // foo-v2's sizes, in order
  };
  const std::vector<Row> rows = {
      {10, 0, 10, 10, {9}}, {10, 2, 10, 10, {8}}, {10, 2, 8, 10, {8}},
      {10, 2, 10, 0, {}},   {10, 2, 1, 10, {8}},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(::testing::Message() << "ready " << row.ready_pods << " old " << row.old_replicas);
    DeploymentPlan plan =
        Plan(NewDeployment(row.replicas, 0, row.max_unavailable),
             {WithRevision(Rs("foo-v2", row.old_replicas, kOldTs, false, row.ready_pods), "1")});
    EXPECT_EQ(Updates(plan)["foo-v2"], row.updates);
    EXPECT_EQ(OfKind(plan, Kind::kCreateReplicaSet).size(), 1u);
  }
}

// Upstream: pkg/controller/deployment/sync_test.go TestScale. Every set carries the
// desired-replicas and max-replicas annotations of the old Deployment, as upstream sets them.
// The Deployment is paused: a paused sync runs exactly scale() (no new set, no rollout), while
// unpaused some rows (0 -> 6, failed rs update, saturated) would not be scaling events and
// would roll out instead. n() builds the new set (the Deployment's template), o() old ones.
TEST(DeploymentPlanTest, Scale) {
  struct Row {
    const char* name;
    api::Deployment deployment, old_deployment;
    std::vector<api::ReplicaSet> sets;
    std::vector<std::int32_t> expected;  // the sets' sizes afterwards, in order
    std::set<std::string> wasnt_updated;
    Sizes desired_override;
  };
  auto n = [](const char* name, std::int32_t size) { return Rs(name, size, kNewTs, true); };
  auto o = [](const char* name, std::int32_t size, const char* created = kOldTs) {
    return Rs(name, size, created, false);
  };
  api::Deployment updated_template = NewDeployment(14);
  updated_template.spec.template_.metadata.labels["another"] = "label";
  // clang-format off
  const std::vector<Row> rows = {
      {"normal scaling event: 10 -> 12", NewDeployment(12), NewDeployment(10),
       {n("foo-v1", 10)}, {12}},
      {"normal scaling event: 10 -> 5", NewDeployment(5), NewDeployment(10), {n("foo-v1", 10)},
       {5}},
      {"proportional scaling: 5 -> 10", NewDeployment(10), NewDeployment(5),
       {n("foo-v2", 2), o("foo-v1", 3)}, {4, 6}},
      {"proportional scaling: 5 -> 3", NewDeployment(3), NewDeployment(5),
       {n("foo-v2", 2), o("foo-v1", 3)}, {1, 2}},
      {"proportional scaling: 9 -> 4", NewDeployment(4), NewDeployment(9),
       {n("foo-v2", 8), o("foo-v1", 1)}, {4, 0}},
      {"proportional scaling: 7 -> 10", NewDeployment(10), NewDeployment(7),
       {n("foo-v3", 2), o("foo-v2", 3), o("foo-v1", 2, kOlderTs)}, {3, 4, 3}},
      {"proportional scaling: 13 -> 8", NewDeployment(8), NewDeployment(13),
       {n("foo-v3", 2), o("foo-v2", 8), o("foo-v1", 3, kOlderTs)}, {1, 5, 2}},
      {"leftover distribution: 3 -> 4", NewDeployment(4), NewDeployment(3),
       {n("foo-v3", 1), o("foo-v2", 1), o("foo-v1", 1, kOlderTs)}, {2, 1, 1}},
      {"leftover distribution: 3 -> 2", NewDeployment(2), NewDeployment(3),
       {n("foo-v3", 1), o("foo-v2", 1), o("foo-v1", 1, kOlderTs)}, {1, 1, 0}},
      {"proportional scaling (no new rs): 4 -> 5", NewDeployment(5), NewDeployment(4),
       {o("foo-v2", 2), o("foo-v1", 2, kOlderTs)}, {3, 2}},
      {"proportional scaling: 6 -> 0", NewDeployment(0), NewDeployment(6),
       {n("foo-v3", 3), o("foo-v2", 2), o("foo-v1", 1, kOlderTs)}, {0, 0, 0}},
      {"proportional scaling: 0 -> 6", NewDeployment(6), NewDeployment(6),
       {n("foo-v3", 0), o("foo-v2", 0), o("foo-v1", 0, kOlderTs)}, {6, 0, 0},
       {"foo-v2", "foo-v1"}},
      {"failed rs update", NewDeployment(5), NewDeployment(5),
       {n("foo-v3", 2), o("foo-v2", 1), o("foo-v1", 1, kOlderTs)}, {2, 2, 1},
       {"foo-v3", "foo-v1"}, {{"foo-v2", 3}}},
      {"deployment with surge pods", NewDeployment(20, 2), NewDeployment(10, 2),
       {n("foo-v2", 6), o("foo-v1", 6)}, {11, 11}},
      {"change both surge and size", NewDeployment(50, 6), NewDeployment(10, 3),
       {n("foo-v2", 5), o("foo-v1", 8)}, {22, 34}},
      {"change both size and template", updated_template, NewDeployment(10),
       {o("foo-v2", 7, kNewTs), o("foo-v1", 3)}, {10, 4}},
      // n() sets have no available pods: the new set is not saturated.
      {"saturated but broken new replica set does not affect old pods", NewDeployment(2, 1, 1),
       NewDeployment(2, 1, 1), {n("foo-v2", 2), o("foo-v1", 1)}, {2, 1}},
  };
  // clang-format on
  for (Row row : rows) {
    SCOPED_TRACE(row.name);
    Result<std::int32_t> old_surge = MaxSurge(row.old_deployment);
    ASSERT_TRUE(old_surge.ok());
    for (api::ReplicaSet& rs : row.sets) {
      const std::string& name = rs.metadata.name;
      std::int32_t desired = row.old_deployment.spec.replicas.value_or(1);
      if (auto it = row.desired_override.find(name); it != row.desired_override.end()) {
        desired = it->second;
      }
      auto& annotations = rs.metadata.annotations;
      annotations[std::string(kDesiredReplicasAnnotation)] = std::to_string(desired);
      annotations[std::string(kMaxReplicasAnnotation)] = std::to_string(desired + *old_surge);
      // foo-vN has revision N, so the new set's revision is already in sync (no extra update).
      annotations[std::string(kRevisionAnnotation)] = name.substr(name.size() - 1);
    }
    row.deployment.spec.paused = true;
    DeploymentPlan plan = Plan(row.deployment, row.sets);
    EXPECT_TRUE(OfKind(plan, Kind::kCreateReplicaSet).empty());
    History updates = Updates(plan);
    std::vector<std::int32_t> sizes;
    for (const api::ReplicaSet& rs : row.sets) {
      const std::string& name = rs.metadata.name;
      EXPECT_TRUE(!row.wasnt_updated.count(name) || !updates.count(name)) << name << " updated";
      sizes.push_back(updates.count(name) ? updates[name].back() : rs.spec.replicas.value_or(1));
    }
    EXPECT_EQ(sizes, row.expected);
  }
}

// ---- The whole flow ---------------------------------------------------------------------------

// A Deployment "web" of `replicas` running `image`, RollingUpdate 25%/25%.
api::Deployment Web(std::int32_t replicas, const std::string& image) {
  api::Deployment d = NewDeployment(replicas);
  d.metadata.name = "web";
  d.metadata.uid = "uid-web";
  d.metadata.generation = 1;
  d.spec.template_ = Template(image);
  d.spec.strategy.rolling_update->max_surge = api::IntOrString::FromString("25%");
  d.spec.strategy.rolling_update->max_unavailable = api::IntOrString::FromString("25%");
  return d;
}

// A set of Web's running `image` at `revision` with `replicas`, all available and ready.
api::ReplicaSet WebSet(const std::string& name, const std::string& image, std::int32_t replicas,
                       const std::string& revision, const std::string& created) {
  api::ReplicaSet rs = WithRevision(Rs(name, replicas, created, false, replicas), revision);
  rs.spec.template_ = Template(image);
  rs.spec.template_.metadata.labels[std::string(kPodTemplateHashLabel)] = name;
  rs.status.ready_replicas = replicas;
  return rs;
}

TEST(DeploymentPlanTest, FreshDeploymentCreatesItsFirstSet) {
  api::Deployment d = Web(3, "nginx:1");
  d.spec.progress_deadline_seconds = 600;
  DeploymentPlan plan = Plan(d, {});
  std::vector<const DeploymentAction*> creates = OfKind(plan, Kind::kCreateReplicaSet);
  ASSERT_EQ(creates.size(), 1u);
  const std::string hash = PodTemplateHash(d.spec.template_, std::nullopt);
  const std::string name = "web-" + hash;
  const api::ReplicaSet& rs = *creates[0]->replica_set;
  EXPECT_EQ(creates[0]->name, name);
  EXPECT_EQ(rs.metadata.name, name);
  EXPECT_EQ(rs.spec.replicas, 3);
  EXPECT_EQ(Annotation(rs.metadata.annotations, kRevisionAnnotation), "1");
  EXPECT_EQ(Annotation(rs.metadata.annotations, kDesiredReplicasAnnotation), "3");
  // maxSurge: 25% of 3 rounds up to 1.
  EXPECT_EQ(Annotation(rs.metadata.annotations, kMaxReplicasAnnotation), "4");
  EXPECT_EQ(rs.spec.template_.metadata.labels.at("pod-template-hash"), hash);
  ASSERT_TRUE(rs.spec.selector.has_value());
  EXPECT_EQ(rs.spec.selector->match_labels.at("pod-template-hash"), hash);
  ASSERT_TRUE(creates[0]->event.has_value());
  EXPECT_EQ(creates[0]->event->message, "Scaled up replica set " + name + " from 0 to 3");
  EXPECT_EQ(Annotation(plan.annotations, kRevisionAnnotation), "1");
  const api::WorkloadCondition* progressing =
      api::FindCondition(plan.status.conditions, "Progressing");
  ASSERT_NE(progressing, nullptr);
  EXPECT_EQ(progressing->status, "True");
  EXPECT_EQ(progressing->reason, "NewReplicaSetCreated");
  EXPECT_EQ(progressing->message, "Created new replica set \"" + name + "\"");
  EXPECT_EQ(OfKind(plan, Kind::kUpdateStatus).size(), 1u);
}

TEST(DeploymentPlanTest, TemplateChangeCreatesSecondSetWithinMaxSurge) {
  api::Deployment d = Web(4, "nginx:2");
  d.metadata.annotations[std::string(kRevisionAnnotation)] = "1";
  d.status.replicas = d.status.updated_replicas = d.status.available_replicas = 4;
  api::ReplicaSet old = WebSet("web-1", "nginx:1", 4, "1", kOldTs);
  old.metadata.annotations[std::string(kDesiredReplicasAnnotation)] = "4";
  old.metadata.annotations[std::string(kMaxReplicasAnnotation)] = "5";
  DeploymentPlan plan = Plan(d, {old});
  std::vector<const DeploymentAction*> creates = OfKind(plan, Kind::kCreateReplicaSet);
  ASSERT_EQ(creates.size(), 1u);
  const api::ReplicaSet& rs = *creates[0]->replica_set;
  EXPECT_EQ(rs.metadata.name, "web-" + PodTemplateHash(d.spec.template_, std::nullopt));
  EXPECT_EQ(rs.spec.template_.spec.containers.at(0).image, "nginx:2");
  EXPECT_EQ(rs.spec.replicas, 1);  // 4 + maxSurge 1 pods in all
  EXPECT_EQ(Annotation(rs.metadata.annotations, kRevisionAnnotation), "2");
  EXPECT_EQ(Annotation(plan.annotations, kRevisionAnnotation), "2");
  // New pods are not yet available, so only maxUnavailable (1) of the old ones may go.
  EXPECT_EQ(Updates(plan), (History{{"web-1", {3}}}));
}

TEST(DeploymentPlanTest, RecreateWaitsForOldPodsToStop) {
  api::Deployment d = Web(2, "nginx:2");
  d.spec.strategy.type = std::string(api::kRecreateDeployment);
  d.spec.strategy.rolling_update.reset();
  api::ReplicaSet old = WebSet("web-1", "nginx:1", 2, "1", kOldTs);
  // First the old set goes to 0, and nothing is created.
  DeploymentPlan plan = Plan(d, {old});
  EXPECT_EQ(Updates(plan), (History{{"web-1", {0}}}));
  EXPECT_TRUE(OfKind(plan, Kind::kCreateReplicaSet).empty());
  // Its pods are gone from status but one still runs: still nothing is created.
  old.spec.replicas = 0;
  old.status.replicas = old.status.ready_replicas = old.status.available_replicas = 0;
  plan = Plan(d, {old}, {"uid-web-1"});
  EXPECT_TRUE(OfKind(plan, Kind::kCreateReplicaSet).empty());
  EXPECT_TRUE(Updates(plan).empty());
  // Once none runs the new set is created at full size.
  plan = Plan(d, {old});
  std::vector<const DeploymentAction*> creates = OfKind(plan, Kind::kCreateReplicaSet);
  ASSERT_EQ(creates.size(), 1u);
  EXPECT_EQ(creates[0]->replica_set->spec.replicas, 2);
  EXPECT_EQ(Annotation(creates[0]->replica_set->metadata.annotations, kRevisionAnnotation), "2");
}

TEST(DeploymentPlanTest, CompleteRolloutDeletesHistoryBeyondLimit) {
  api::Deployment d = Web(2, "nginx:3");
  d.spec.revision_history_limit = 1;
  d.status.observed_generation = 1;
  d.status.replicas = d.status.updated_replicas = d.status.available_replicas = 2;
  api::ReplicaSet current = WebSet("web-3", "nginx:3", 2, "3", kNewTs);
  DeploymentPlan plan = Plan(d, {WebSet("web-1", "nginx:1", 0, "1", kOlderTs),
                                 WebSet("web-2", "nginx:2", 0, "2", kOldTs), current});
  std::vector<const DeploymentAction*> deletes = OfKind(plan, Kind::kDeleteReplicaSet);
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0]->name, "web-1");  // the lowest revision; web-2 is the one kept
  EXPECT_EQ(deletes[0]->uid, "uid-web-1");
  EXPECT_TRUE(Updates(plan).empty());
  EXPECT_TRUE(OfKind(plan, Kind::kCreateReplicaSet).empty());
}

}  // namespace
}  // namespace lws::cluster
