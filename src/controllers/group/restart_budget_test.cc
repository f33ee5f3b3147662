// The opt-in restart budget and backoff through the pod reconcile's plan (restart_budget.h,
// group_plan.h): what is written, in which order, and which events say so.
#include "controllers/group/restart_budget.h"

#include <gtest/gtest.h>

#include "api/revision.h"
#include "controllers/group/group_plan.h"
#include "controllers/group/group_testing.h"

namespace lws::controllers {
namespace {

using api::Json;
using namespace std::chrono_literals;

const Time kCreated = *ParseRfc3339("2026-01-01T00:00:00Z");

// Leader test-sample-1 (group 1, size 2, RecreateGroupOnPodRestart) whose container restarted,
// created at kCreated, with the LWS annotations `annotations`.
struct Failure {
  api::LeaderWorkerSet lws;
  api::Pod leader;
  Time now = kCreated + 10s;

  explicit Failure(const Json& annotations) {
    lws = testing::Lws([&](Json& j) { j["metadata"]["annotations"] = annotations; });
    lws.metadata.resource_version = "41";
    leader = testing::Leader("1", "rev");
    leader.metadata.creation_timestamp = FormatRfc3339(kCreated);
    leader.status.container_statuses = {testing::Restarts(1)};
  }
  void SetCounts(const std::string& counts) {
    lws.metadata.annotations[api::kGroupRestartsAnnotation] = counts;
  }
  GroupPlan Plan() const {
    GroupSnapshot s = testing::LeaderSnapshot(lws, leader);
    s.now = now;
    return PlanGroup(s);
  }
};

std::vector<GroupActionKind> Kinds(const GroupPlan& plan) {
  std::vector<GroupActionKind> kinds;
  for (const auto& action : plan.actions) kinds.push_back(action.kind);
  return kinds;
}

// The counts a kPatchLws action writes, and its resourceVersion precondition.
std::string PatchedCounts(const GroupAction& action) {
  EXPECT_EQ(action.object["metadata"]["resourceVersion"], "41");
  const Json& value = action.object["metadata"]["annotations"][api::kGroupRestartsAnnotation];
  return value.is_null() ? "<removed>" : value.get<std::string>();
}

TEST(RestartBudgetTest, WithinTheBudgetTheRecreationIsCountedFirst) {
  Failure f(Json{{api::kMaxGroupRestartsAnnotation, "2"}});
  GroupPlan plan = f.Plan();
  ASSERT_EQ(Kinds(plan),
            (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kDeleteLeaderForeground}));
  EXPECT_EQ(PatchedCounts(plan.actions[0]), R"({"rev/1":{"restarts":1}})");
  EXPECT_EQ(plan.actions[1].reason, "RecreateGroup");
  EXPECT_EQ(plan.actions[1].target, "test-sample-1");

  f.SetCounts(R"({"rev/0":{"restarts":5},"rev/1":{"restarts":1}})");
  plan = f.Plan();
  ASSERT_EQ(plan.actions.size(), 2u);
  EXPECT_EQ(PatchedCounts(plan.actions[0]), R"({"rev/0":{"restarts":5},"rev/1":{"restarts":2}})");
}

TEST(RestartBudgetTest, ASpentBudgetKeepsTheGroupAndSaysHowToRecover) {
  Failure f(Json{{api::kMaxGroupRestartsAnnotation, "2"}});
  f.SetCounts(R"({"rev/1":{"restarts":2}})");
  GroupPlan plan = f.Plan();
  ASSERT_EQ(Kinds(plan), (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kWarning}));
  EXPECT_EQ(PatchedCounts(plan.actions[0]), R"({"rev/1":{"exhausted":true,"restarts":2}})");
  EXPECT_EQ(plan.actions[1].reason, "ReplicaRestartBudgetExceeded");
  EXPECT_EQ(plan.actions[1].note,
            "Pod test-sample-1 failed; group 1 was already recreated 2 times "
            "(lws-cpp.dev/max-group-restarts: 2), so it is kept as it is for debugging; annotate "
            "leader pod test-sample-1 with lws-cpp.dev/recover=true to recreate it");
  EXPECT_FALSE(plan.requeue_after_ms.has_value());

  // Later failures of the exhausted group change nothing and record nothing.
  f.SetCounts(R"({"rev/1":{"exhausted":true,"restarts":2}})");
  EXPECT_TRUE(f.Plan().actions.empty());
}

TEST(RestartBudgetTest, ZeroMeansTheFirstFailureIsKept) {
  Failure f(Json{{api::kMaxGroupRestartsAnnotation, "0"}});
  EXPECT_EQ(Kinds(f.Plan()), (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kWarning}));
}

TEST(RestartBudgetTest, TheBudgetIsPerRevision) {
  Failure f(Json{{api::kMaxGroupRestartsAnnotation, "1"}});
  f.SetCounts(R"({"old/1":{"exhausted":true,"restarts":1}})");
  GroupPlan plan = f.Plan();
  ASSERT_EQ(plan.actions.size(), 2u);
  EXPECT_EQ(PatchedCounts(plan.actions[0]),
            R"({"old/1":{"exhausted":true,"restarts":1},"rev/1":{"restarts":1}})");
}

TEST(RestartBudgetTest, BackoffWaitsFromTheLeadersCreation) {
  Failure f(Json{{api::kGroupRestartBackoffAnnotation, "30s"}});
  // Never recreated: at once, whatever the backoff.
  EXPECT_EQ(Kinds(f.Plan()),
            (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kDeleteLeaderForeground}));
  // Recreated twice: 60 s after the leader's creation, 50 s from now.
  f.SetCounts(R"({"rev/1":{"restarts":2}})");
  GroupPlan plan = f.Plan();
  ASSERT_EQ(Kinds(plan), std::vector{GroupActionKind::kNormalEvent});
  EXPECT_EQ(plan.requeue_after_ms, std::optional<std::int64_t>(50'000));
  EXPECT_EQ(plan.actions[0].reason, "GroupRestartBackoff");
  EXPECT_EQ(plan.actions[0].note,
            "Pod test-sample-1 failed; group 1 was recreated 2 times, so it is recreated at "
            "2026-01-01T00:01:00Z, 1m0s after its leader was created "
            "(lws-cpp.dev/group-restart-backoff: 30s)");
  // The same note a few seconds later: the recorder folds the two into one event.
  f.now += 5s;
  EXPECT_EQ(f.Plan().actions[0].note, plan.actions[0].note);
  // Once due, the recreation is counted and made.
  f.now = kCreated + 60s;
  plan = f.Plan();
  ASSERT_EQ(plan.actions.size(), 2u);
  EXPECT_EQ(PatchedCounts(plan.actions[0]), R"({"rev/1":{"restarts":3}})");
}

TEST(RestartBudgetTest, BudgetAndBackoffTogether) {
  Failure f(
      Json{{api::kMaxGroupRestartsAnnotation, "1"}, {api::kGroupRestartBackoffAnnotation, "1m"}});
  f.SetCounts(R"({"rev/1":{"restarts":1}})");
  // The budget is checked before the backoff: a spent group is kept at once, not after a wait.
  EXPECT_EQ(Kinds(f.Plan()), (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kWarning}));
}

TEST(RestartBudgetTest, RecoverClearsTheCountAndRecreates) {
  Failure f(Json{{api::kMaxGroupRestartsAnnotation, "1"}});
  f.SetCounts(R"({"rev/1":{"exhausted":true,"restarts":1}})");
  f.leader.metadata.annotations[api::kRecoverAnnotation] = "true";
  GroupPlan plan = f.Plan();
  ASSERT_EQ(Kinds(plan),
            (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kDeleteLeaderForeground}));
  EXPECT_EQ(PatchedCounts(plan.actions[0]), "<removed>");
  EXPECT_EQ(plan.actions[1].reason, "RecoverGroup");
  EXPECT_EQ(plan.actions[1].note,
            "Leader pod test-sample-1 carries lws-cpp.dev/recover=true: cleared the restart count "
            "of group 1 and deleted the leader to recreate the group");
  // Only "true" asks, and only an exhausted group is recovered.
  f.leader.metadata.annotations[api::kRecoverAnnotation] = "yes";
  EXPECT_TRUE(f.Plan().actions.empty());
  f.leader.metadata.annotations[api::kRecoverAnnotation] = "true";
  f.SetCounts(R"({"rev/1":{"restarts":1}})");
  EXPECT_EQ(Kinds(f.Plan()), (std::vector{GroupActionKind::kPatchLws, GroupActionKind::kWarning}));
}

TEST(RestartBudgetTest, WithoutTheAnnotationsUpstreamBehaviourIsKept) {
  Failure f(Json::object());
  f.SetCounts(R"({"rev/1":{"exhausted":true,"restarts":9}})");  // ignored: nothing opted in
  EXPECT_EQ(Kinds(f.Plan()), std::vector{GroupActionKind::kDeleteLeaderForeground});
}

TEST(RestartBudgetTest, UnparsableCountsStartOver) {
  Failure f(Json{{api::kMaxGroupRestartsAnnotation, "3"}});
  f.SetCounts("not json");
  GroupPlan plan = f.Plan();
  ASSERT_EQ(plan.actions.size(), 2u);
  EXPECT_EQ(PatchedCounts(plan.actions[0]), R"({"rev/1":{"restarts":1}})");
}

}  // namespace
}  // namespace lws::controllers
