// Table tests of the deployment_util.go pieces deployment_plan.h exposes, ported from upstream
// pkg/controller/deployment/util/deployment_util_test.go, and sync_test.go's history cleanup
// tables (cleanupDeployment, driven through PlanDeployment). Not ported: the feature-gated
// terminatingReplicas rows (TestGetReplicaCountForReplicaSets); TestAnnotationUtils and
// TestReplicasAnnotationsNeedUpdate (SetNewReplicaSetAnnotations with its length limit,
// SetReplicasAnnotations and IsSaturated are not exposed); TestFindNewReplicaSet and
// TestFindOldReplicaSets (not exposed; the plan tests find the new set by template).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cluster/deployment_internal.h"
#include "cluster/deployment_plan.h"

namespace lws::cluster {
namespace {

using api::IntOrString;
using OptInt = std::optional<IntOrString>;

OptInt Str(const char* s) { return s == nullptr ? OptInt() : OptInt(IntOrString::FromString(s)); }

// A RollingUpdate Deployment of `replicas` with the given fenceposts.
api::Deployment Rolling(std::int32_t replicas, OptInt max_surge, OptInt max_unavailable) {
  api::Deployment d;
  d.metadata.name = "foo";
  d.metadata.namespace_ = "default";
  d.spec.replicas = replicas;
  d.spec.strategy.type = std::string(api::kRollingUpdateDeployment);
  d.spec.strategy.rolling_update = api::RollingUpdateDeployment();
  d.spec.strategy.rolling_update->max_surge = std::move(max_surge);
  d.spec.strategy.rolling_update->max_unavailable = std::move(max_unavailable);
  return d;
}

api::Deployment RecreateDeployment(std::int32_t replicas) {
  api::Deployment d;
  d.spec.replicas = replicas;
  d.spec.strategy.type = std::string(api::kRecreateDeployment);
  return d;
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestResolveFenceposts
TEST(DeploymentUtilTest, ResolveFenceposts) {
  struct Row {
    const char* max_surge;
    const char* max_unavailable;
    std::int32_t desired;
    std::int32_t surge;
    std::int32_t unavailable;
    bool error;
  };
  const std::vector<Row> rows = {
      {"0%", "0%", 0, 0, 1, false},        {"39%", "39%", 10, 4, 3, false},
      {"oops", "39%", 10, 0, 0, true},     {"55%", "urg", 10, 0, 0, true},
      {nullptr, "39%", 10, 0, 3, false},   {"39%", nullptr, 10, 4, 0, false},
      {nullptr, nullptr, 10, 0, 1, false},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(row.max_surge ? row.max_surge : "nil") + " / " +
                 (row.max_unavailable ? row.max_unavailable : "nil"));
    Result<Fenceposts> got =
        ResolveFenceposts(Str(row.max_surge), Str(row.max_unavailable), row.desired);
    EXPECT_EQ(got.ok(), !row.error);
    if (!got.ok()) continue;
    EXPECT_EQ(got->surge, row.surge);
    EXPECT_EQ(got->unavailable, row.unavailable);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestNewRSNewReplicas
// allRSs holds only rs5 (5 replicas); the new set is not among them. maxUnavailable is 1.
TEST(DeploymentUtilTest, NewRSNewReplicas) {
  struct Row {
    const char* name;
    bool recreate;
    std::int32_t deployment_replicas;
    std::int32_t new_rs_replicas;
    std::int32_t max_surge;
    std::int32_t expected;
  };
  const std::vector<Row> rows = {
      {"can not scale up - to newRSReplicas", false, 1, 5, 1, 5},
      {"scale up - to depReplicas", false, 6, 2, 10, 6},
      {"recreate - to depReplicas", true, 3, 1, 1, 3},
  };
  api::ReplicaSet rs5;
  rs5.metadata.name = "foo-rs5";
  rs5.spec.replicas = 5;
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    api::Deployment d = Rolling(row.deployment_replicas, IntOrString::FromInt(row.max_surge),
                                IntOrString::FromInt(1));
    if (row.recreate) d.spec.strategy.type = std::string(api::kRecreateDeployment);
    api::ReplicaSet new_rs;
    new_rs.metadata.name = "foo-new";
    new_rs.spec.replicas = row.new_rs_replicas;
    Result<std::int32_t> got = NewRSNewReplicas(d, {&rs5}, new_rs);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, row.expected);
  }
}

struct FencepostRow {
  std::int32_t replicas;
  std::optional<IntOrString> max_unavailable;  // nullopt: a Recreate Deployment
  std::int32_t expected;
};

api::Deployment FencepostDeployment(const FencepostRow& row) {
  if (!row.max_unavailable) return RecreateDeployment(row.replicas);
  return Rolling(row.replicas, IntOrString::FromInt(1), row.max_unavailable);
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestMaxUnavailable
// (maxSurge 1).
TEST(DeploymentUtilTest, MaxUnavailable) {
  const std::vector<FencepostRow> rows = {
      {10, IntOrString::FromInt(5), 5},
      {10, IntOrString::FromInt(10), 10},
      {5, IntOrString::FromInt(10), 5},
      {0, IntOrString::FromInt(10), 0},
      {10, std::nullopt, 0},  // Recreate strategy
      {10, IntOrString::FromString("50%"), 5},
      {10, IntOrString::FromString("100%"), 10},
      {5, IntOrString::FromString("100%"), 5},
  };
  for (const FencepostRow& row : rows) {
    SCOPED_TRACE(std::to_string(row.replicas) + " " +
                 (row.max_unavailable ? row.max_unavailable->ToString() : "Recreate"));
    Result<std::int32_t> got = MaxUnavailable(FencepostDeployment(row));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, row.expected);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestMinAvailable
// (maxSurge 1). MinAvailable is not exposed: upstream defines it as replicas - MaxUnavailable for
// RollingUpdate and 0 otherwise, which is what this checks through MaxUnavailable.
TEST(DeploymentUtilTest, MinAvailable) {
  const std::vector<FencepostRow> rows = {
      {10, IntOrString::FromInt(5), 5},
      {10, IntOrString::FromInt(10), 0},
      {5, IntOrString::FromInt(10), 0},
      {0, IntOrString::FromInt(10), 0},
      {10, std::nullopt, 0},  // Recreate strategy
      {10, IntOrString::FromString("60%"), 4},
      {10, IntOrString::FromString("100%"), 0},
      {5, IntOrString::FromString("100%"), 0},
  };
  for (const FencepostRow& row : rows) {
    SCOPED_TRACE(std::to_string(row.replicas) + " " +
                 (row.max_unavailable ? row.max_unavailable->ToString() : "Recreate"));
    const api::Deployment d = FencepostDeployment(row);
    Result<std::int32_t> max_unavailable = MaxUnavailable(d);
    ASSERT_TRUE(max_unavailable.ok()) << max_unavailable.status().ToString();
    const std::int32_t min_available =
        d.spec.strategy.type == api::kRollingUpdateDeployment ? row.replicas - *max_unavailable : 0;
    EXPECT_EQ(min_available, row.expected);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestGetReplicaSetFraction
// (generateDeployment: maxUnavailable 1, the given maxSurge and status.replicas).
TEST(DeploymentUtilTest, ReplicaSetFraction) {
  struct Row {
    const char* name;
    std::int32_t replicas;
    std::int32_t status_replicas;
    std::int32_t max_surge;
    std::int32_t rs_replicas;
    const char* max_replicas_annotation;  // null: absent
    std::int32_t expected;
  };
  const std::vector<Row> rows = {
      {"empty deployment always scales to 0", 0, 0, 0, 10, nullptr, -10},
      {"unsynced deployment does not scale when max-replicas annotation is missing (should "
       "not happen)",
       10, 0, 0, 5, nullptr, 0},
      {"unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 "
       "(should not happen)",
       10, 0, 0, 5, "0", 0},
      {"scale up by 1/5 should increase RS replicas by 1/5 (annotation missing)", 120, 100, 0, 50,
       nullptr, 10},
      {"scale up by 1/5 should increase RS replicas by 1/5 (annotation 0)", 120, 100, 0, 50, "0",
       10},
      {"scale up by 1/5 should increase RS replicas by 1/5", 120, 0, 0, 50, "100", 10},
      {"scale up by 1/5 and maxSurge should increase RS replicas by 1/5", 120, 0, 10, 50, "110", 9},
      {"scale down by 1/6 should decrease RS replicas by 1/6", 10, 0, 0, 6, "12", -1},
      {"scale down by 1/6 and maxSurge should decrease RS replicas by 1/6", 100, 0, 10, 50, "130",
       -8},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    api::Deployment d =
        Rolling(row.replicas, IntOrString::FromInt(row.max_surge), IntOrString::FromInt(1));
    d.status.replicas = row.status_replicas;
    api::ReplicaSet rs;
    rs.metadata.name = "foo-rs";
    rs.spec.replicas = row.rs_replicas;
    if (row.max_replicas_annotation != nullptr) {
      rs.metadata.annotations[std::string(kMaxReplicasAnnotation)] = row.max_replicas_annotation;
    }
    Result<std::int32_t> max_surge = MaxSurge(d);
    ASSERT_TRUE(max_surge.ok()) << max_surge.status().ToString();
    EXPECT_EQ(ReplicaSetFraction(rs, d, *max_surge), row.expected);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestDeploymentComplete
TEST(DeploymentUtilTest, DeploymentComplete) {
  // deployment(desired, current, updated, available, maxUnavailable, maxSurge)
  auto deployment = [](std::int32_t desired, std::int32_t current, std::int32_t updated,
                       std::int32_t available, std::int32_t max_unavailable,
                       std::int32_t max_surge) {
    api::Deployment d =
        Rolling(desired, IntOrString::FromInt(max_surge), IntOrString::FromInt(max_unavailable));
    d.status.replicas = current;
    d.status.updated_replicas = updated;
    d.status.available_replicas = available;
    return d;
  };
  struct Row {
    const char* name;
    api::Deployment d;
    bool expected;
  };
  const std::vector<Row> rows = {
      {"not complete: min but not all pods become available", deployment(5, 5, 5, 4, 1, 0), false},
      {"not complete: min availability is not honored", deployment(5, 5, 5, 3, 1, 0), false},
      {"complete", deployment(5, 5, 5, 5, 0, 0), true},
      {"not complete: all pods are available but not updated", deployment(5, 5, 4, 5, 0, 0), false},
      {"not complete: still running old pods", deployment(1, 2, 1, 1, 0, 1), false},
      {"not complete: one replica deployment never complete", deployment(1, 1, 1, 0, 1, 1), false},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(DeploymentComplete(row.d, row.d.status), row.expected);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestDeploymentProgressing
TEST(DeploymentUtilTest, DeploymentProgressing) {
  auto status = [](std::int32_t current, std::int32_t updated, std::int32_t ready,
                   std::int32_t available) {
    api::DeploymentStatus s;
    s.replicas = current;
    s.updated_replicas = updated;
    s.ready_replicas = ready;
    s.available_replicas = available;
    return s;
  };
  struct Row {
    const char* name;
    api::DeploymentStatus old_status;
    api::DeploymentStatus new_status;
    bool expected;
  };
  const std::vector<Row> rows = {
      {"progressing: updated pods", status(10, 4, 4, 4), status(10, 6, 4, 4), true},
      {"not progressing", status(10, 4, 4, 4), status(10, 4, 4, 4), false},
      {"progressing: old pods removed", status(10, 4, 6, 6), status(8, 4, 6, 6), true},
      {"not progressing: less new pods", status(10, 7, 3, 3), status(10, 6, 3, 3), false},
      {"progressing: less overall but more new pods", status(10, 4, 7, 7), status(8, 8, 5, 5),
       true},
      {"progressing: more ready pods", status(10, 10, 9, 8), status(10, 10, 10, 8), true},
      {"progressing: more available pods", status(10, 10, 10, 9), status(10, 10, 10, 10), true},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    api::Deployment d = Rolling(10, IntOrString::FromInt(0), IntOrString::FromInt(1));
    d.status = row.old_status;
    EXPECT_EQ(DeploymentProgressing(d, row.new_status), row.expected);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestDeploymentTimedOut
TEST(DeploymentUtilTest, DeploymentTimedOut) {
  // A Progressing=True condition with `reason`, last updated at `from`.
  auto deployment = [](const char* reason, std::optional<std::int32_t> pds, const char* from) {
    api::Deployment d;
    d.spec.progress_deadline_seconds = pds;
    api::WorkloadCondition c;
    c.type = "Progressing";
    c.status = "True";
    c.reason = reason;
    c.last_update_time = from;
    d.status.conditions.push_back(c);
    return d;
  };
  const Result<Time> now = ParseRfc3339("2016-01-01T00:01:20Z");
  ASSERT_TRUE(now.ok());
  struct Row {
    const char* name;
    api::Deployment d;
    bool expected;
  };
  const std::vector<Row> rows = {
      {"nil progressDeadlineSeconds specified - no timeout",
       deployment("", std::nullopt, "2016-01-01T00:01:09Z"), false},
      {"infinite progressDeadlineSeconds specified - no timeout",
       deployment("", INT32_MAX, "2016-01-01T00:01:09Z"), false},
      {"progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s",
       deployment("", 10, "2016-01-01T00:01:09Z"), true},
      {"progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s",
       deployment("", 10, "2016-01-01T00:01:11Z"), false},
      // Upstream's zero time.Time is an unset (empty) timestamp here.
      {"previous status was a complete deployment",
       deployment("NewReplicaSetAvailable", std::nullopt, ""), false},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(DeploymentTimedOut(row.d, row.d.status, *now), row.expected);
  }
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestEqualIgnoreHash
// Every case also runs with the arguments reversed; the inputs keep their labels.
TEST(DeploymentUtilTest, EqualIgnoreHash) {
  auto tmpl = [](const char* name, const char* node, api::StringMap annotations,
                 api::StringMap labels) {
    api::PodTemplateSpec t;
    t.metadata.name = name;
    t.metadata.annotations = std::move(annotations);
    t.metadata.labels = std::move(labels);
    t.spec.node_name = node;
    return t;
  };
  const std::string hash(kPodTemplateHashLabel);
  auto check = [&](const char* name, const api::PodTemplateSpec& a, const api::PodTemplateSpec& b,
                   bool expected) {
    SCOPED_TRACE(name);
    const api::PodTemplateSpec a_before = a, b_before = b;
    EXPECT_EQ(EqualIgnoreHash(a, b), expected);
    EXPECT_EQ(EqualIgnoreHash(b, a), expected);
    EXPECT_EQ(a.metadata.labels, a_before.metadata.labels);
    EXPECT_EQ(b.metadata.labels, b_before.metadata.labels);
  };
  check("Same spec, same labels",
        tmpl("foo", "foo-node", {}, {{hash, "value-1"}, {"something", "else"}}),
        tmpl("foo", "foo-node", {}, {{hash, "value-1"}, {"something", "else"}}), true);
  check("Same spec, only pod-template-hash label value is different",
        tmpl("foo", "foo-node", {}, {{hash, "value-1"}, {"something", "else"}}),
        tmpl("foo", "foo-node", {}, {{hash, "value-2"}, {"something", "else"}}), true);
  check("Same spec, the former doesn't have pod-template-hash label",
        tmpl("foo", "foo-node", {}, {{"something", "else"}}),
        tmpl("foo", "foo-node", {}, {{hash, "value-2"}, {"something", "else"}}), true);
  check("Same spec, the label is different, the former doesn't have pod-template-hash label",
        tmpl("foo", "foo-node", {}, {{"something", "else"}}),
        tmpl("foo", "foo-node", {}, {{hash, "value-2"}}), false);
  check("Same spec, the label is different, the latter doesn't have pod-template-hash label",
        tmpl("foo", "foo-node", {}, {{hash, "value-1"}}),
        tmpl("foo", "foo-node", {}, {{"something", "else"}}), false);
  check("Same spec, the label is different, and the pod-template-hash label value is the same",
        tmpl("foo", "foo-node", {}, {{hash, "value-1"}}),
        tmpl("foo", "foo-node", {}, {{hash, "value-1"}, {"something", "else"}}), false);
  check("Different spec, same labels",
        tmpl("foo", "foo-node", {{"former", "value"}}, {{hash, "value-1"}, {"something", "else"}}),
        tmpl("foo", "foo-node", {{"latter", "value"}}, {{hash, "value-1"}, {"something", "else"}}),
        false);
  check("Different spec, different pod-template-hash label value",
        tmpl("foo-1", "foo-node", {}, {{hash, "value-1"}, {"something", "else"}}),
        tmpl("foo-2", "foo-node", {}, {{hash, "value-2"}, {"something", "else"}}), false);
  check("Different spec, the former doesn't have pod-template-hash label",
        tmpl("foo-1", "foo-node-1", {}, {{"something", "else"}}),
        tmpl("foo-2", "foo-node-2", {}, {{hash, "value-2"}, {"something", "else"}}), false);
  check("Different spec, different labels", tmpl("foo", "foo-node-1", {}, {{"something", "else"}}),
        tmpl("foo", "foo-node-2", {}, {{"nothing", "else"}}), false);
}

// ---- sync_test.go's history cleanup -----------------------------------------------------------

struct OldSet {
  std::int32_t spec, status;
  std::string revision;  // "" for none
  bool deleting = false;
};

// The names PlanDeployment deletes among the sets foo-1, foo-2, ... (created a minute apart,
// empty templates as upstream's rs()) of a paused Deployment with history `limit`: a paused sync
// runs cleanupDeployment after scale(). Upstream calls cleanupDeployment directly on a
// Deployment of 1 replica; here the Deployment has the sets' total, so that scale() leaves every
// size as it is.
std::set<std::string> CleanedUp(std::int32_t limit, const std::vector<OldSet>& sets) {
  DeploymentSnapshot snap;
  std::int32_t total = 0;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    api::ReplicaSet rs;
    rs.metadata.name = "foo-" + std::to_string(i + 1);
    rs.metadata.namespace_ = "default";
    rs.metadata.uid = "uid-" + rs.metadata.name;
    rs.metadata.creation_timestamp = "2016-05-20T00:0" + std::to_string(i) + ":00Z";
    if (!sets[i].revision.empty()) {
      rs.metadata.annotations[std::string(kRevisionAnnotation)] = sets[i].revision;
    }
    if (sets[i].deleting) rs.metadata.deletion_timestamp = "2016-05-20T03:00:00Z";
    rs.spec.replicas = sets[i].spec;
    rs.status.replicas = sets[i].status;
    snap.replica_sets.push_back(rs);
    total += sets[i].spec;
  }
  snap.deployment = Rolling(total, IntOrString::FromInt(0), IntOrString::FromInt(0));
  snap.deployment.spec.template_.metadata.labels["foo"] = "bar";  // no set's template
  snap.deployment.spec.paused = true;
  snap.deployment.spec.revision_history_limit = limit;
  Result<DeploymentPlan> plan = PlanDeployment(snap);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  std::set<std::string> deleted;
  if (!plan.ok()) return deleted;
  for (const DeploymentAction& a : plan->actions) {
    if (a.kind == DeploymentActionKind::kDeleteReplicaSet) deleted.insert(a.name);
  }
  return deleted;
}

// Upstream: pkg/controller/deployment/sync_test.go TestDeploymentController_cleanupDeployment
// (only the number of deletions is checked, as upstream does).
TEST(DeploymentCleanupTest, CleanupDeployment) {
  EXPECT_EQ(CleanedUp(1, {{0, 0, ""}, {0, 0, ""}, {0, 0, ""}}).size(), 2u);
  EXPECT_EQ(CleanedUp(0, {{0, 0, ""}, {0, 1, ""}, {1, 0, ""}, {1, 1, ""}}).size(), 1u);
  EXPECT_EQ(CleanedUp(0, {{0, 0, ""}, {0, 0, ""}}).size(), 2u);
  EXPECT_EQ(CleanedUp(0, {{1, 1, ""}, {1, 1, ""}}).size(), 0u);
  EXPECT_EQ(CleanedUp(0, {{0, 0, "", /*deleting=*/true}}).size(), 0u);
  EXPECT_EQ(CleanedUp(INT32_MAX, {{0, 0, ""}, {0, 0, ""}, {0, 0, ""}}).size(), 0u);
}

// Upstream: pkg/controller/deployment/sync_test.go
// TestDeploymentController_cleanupDeploymentOrder (status.replicas = spec.replicas).
TEST(DeploymentCleanupTest, CleanupDeploymentOrder) {
  using Set = std::set<std::string>;
  auto deleted = [](std::int32_t limit,
                    const std::vector<std::pair<std::int32_t, std::string>>& sets) {
    std::vector<OldSet> rows;
    for (const auto& [spec, revision] : sets) rows.push_back({spec, spec, revision});
    return CleanedUp(limit, rows);
  };
  EXPECT_EQ(deleted(1, {{0, "1"}, {0, "2"}}), (Set{"foo-1"}));
  EXPECT_EQ(deleted(1, {{0, "2"}, {0, "1"}}), (Set{"foo-2"}));
  EXPECT_EQ(deleted(1, {{0, "1"}, {0, ""}}), (Set{"foo-2"}));  // no revision counts as 0
  EXPECT_EQ(deleted(1, {{0, ""}, {0, "2"}}), (Set{"foo-1"}));
  EXPECT_EQ(deleted(1, {{1, "1"}, {0, "2"}, {0, "3"}}), (Set{"foo-2"}));
  EXPECT_EQ(deleted(1, {{1, "1"}, {1, "2"}, {0, "3"}}), Set());
  EXPECT_EQ(deleted(2, {{0, "3"}, {0, "1"}, {0, "4"}, {0, "2"}}), (Set{"foo-2", "foo-4"}));
}

// Upstream: pkg/controller/deployment/util/deployment_util_test.go TestAnnotationUtils, with
// its 5-character limit: from revision 12 on, the history keeps the last two entries.
TEST(DeploymentUtilTest, RevisionHistoryKeepsTheNewestEntriesWithinTheLimit) {
  std::string history;
  for (int i = 10; i < 20; ++i) {
    AppendRevisionHistory(history, std::to_string(i), 5);
    if (i >= 11) {
      EXPECT_EQ(history, std::to_string(i - 1) + "," + std::to_string(i));
    }
  }
  AppendRevisionHistory(history, "123456", 5);  // cannot fit at all: not recorded
  EXPECT_EQ(history, "18,19");
}

}  // namespace
}  // namespace lws::cluster
