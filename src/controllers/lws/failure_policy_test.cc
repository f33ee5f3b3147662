// The failure policy's decision (failure_policy.h): what counts as failures, when it acts, what
// it records, and the failure window after a rollout.
#include "controllers/lws/failure_policy.h"

#include <gtest/gtest.h>

#include "api/lws_testing.h"

namespace lws::controllers {
namespace {

using namespace std::chrono_literals;

api::Pod PodOn(const std::string& revision, int restarts) {
  api::Pod pod;
  pod.metadata.labels[api::kRevisionLabel] = revision;
  api::ContainerStatus s;
  s.restart_count = restarts;
  pod.status.container_statuses = {s};
  return pod;
}

TEST(FailurePolicyTest, FailuresAreRestartsAndRecreationsOfTheRevision) {
  api::Pod a = PodOn("new", 2), b = PodOn("old", 7), c = PodOn("new", 1);
  api::GroupRestartCounts counts = {
      {"new/0", {2, false}}, {"old/1", {5, false}}, {"newer/2", {9, false}}};
  EXPECT_EQ(RevisionFailures({&a, &b, &c}, counts, "new"), 5);
}

TEST(FailurePolicyTest, PausesPastTheThresholdAndRecordsWhy) {
  api::LeaderWorkerSet lws = api::testing::DefaultLws();
  lws.metadata.annotations[api::kFailurePolicyAnnotation] = "Pause";
  api::Pod a = PodOn("new", 2), b = PodOn("new", 1);
  FailureInputs in;
  in.lws = &lws;
  in.revision_key = "new";
  in.watching = true;
  in.pods = {&a, &b};
  EXPECT_FALSE(DecideFailure(in).record.has_value());  // 3, not more than 3
  b = PodOn("new", 2);
  FailureDecision d = DecideFailure(in);
  EXPECT_TRUE(d.paused);
  ASSERT_TRUE(d.record.has_value());
  EXPECT_EQ(d.record->reason,
            "revision new failed: 4 container restarts and group recreations on its groups "
            "(lws-cpp.dev/failure-threshold: 3); paused, no further group is replaced");
  // Outside a rollout and its window, nothing.
  in.watching = false;
  EXPECT_FALSE(DecideFailure(in).record.has_value());
  // A recorded revision is paused on sight, whatever else.
  lws.metadata.annotations[api::kFailedRevisionAnnotation] = api::EncodeFailedRevision(*d.record);
  FailureDecision again = DecideFailure(in);
  EXPECT_TRUE(again.paused);
  EXPECT_FALSE(again.record.has_value());
}

TEST(FailurePolicyTest, RollbackWithoutAPreviousRevisionPauses) {
  api::LeaderWorkerSet lws = api::testing::DefaultLws();
  lws.metadata.annotations[api::kFailurePolicyAnnotation] = "Rollback";
  FailureInputs in;
  in.lws = &lws;
  in.revision_key = "new";
  in.watching = true;
  in.deadline_exceeded = true;
  api::RevisionRefs none;
  in.revisions = &none;
  FailureDecision d = DecideFailure(in);
  EXPECT_TRUE(d.paused);
  EXPECT_FALSE(d.rollback.has_value());
  ASSERT_TRUE(d.record.has_value());
  EXPECT_EQ(d.record->policy, "Pause");
  EXPECT_EQ(d.record->reason,
            "revision new failed: the rollout made no progress for its "
            "lws-cpp.dev/progress-deadline; paused, no further group is replaced (no previous "
            "revision to roll back to)");
}

// Regression: right after a rollback the status still says the deadline passed; judging the
// revision rolled back to on it rolled forward to the failed one, and back, without end.
TEST(FailurePolicyTest, TheRevisionRolledBackToIsNotJudgedAgain) {
  api::LeaderWorkerSet lws = api::testing::DefaultLws();
  lws.metadata.annotations[api::kFailurePolicyAnnotation] = "Rollback";
  lws.metadata.annotations[api::kFailedRevisionAnnotation] =
      api::EncodeFailedRevision({"new", "Rollback", "old", "why"});
  FailureInputs in;
  in.lws = &lws;
  in.revision_key = "old";
  in.watching = true;
  in.deadline_exceeded = true;
  api::RevisionRefs none;
  in.revisions = &none;
  FailureDecision d = DecideFailure(in);
  EXPECT_FALSE(d.paused);
  EXPECT_FALSE(d.record.has_value());
  EXPECT_FALSE(d.rollback.has_value());
}

TEST(FailurePolicyTest, TheWindowRunsTenMinutesPastTheRollout) {
  const Time t0 = *ParseRfc3339("2026-01-01T00:00:00Z");
  api::LeaderWorkerSetStatus status;
  EXPECT_FALSE(InFailureWindow(status, t0));
  api::Condition c;
  c.type = "UpdateInProgress";
  c.status = "True";
  c.last_transition_time = "2025-01-01T00:00:00Z";
  status.conditions = {c};
  EXPECT_TRUE(InFailureWindow(status, t0));
  status.conditions[0].status = "False";
  status.conditions[0].last_transition_time = FormatRfc3339(t0);
  EXPECT_TRUE(InFailureWindow(status, t0 + 9min));
  EXPECT_FALSE(InFailureWindow(status, t0 + 10min));
}

}  // namespace
}  // namespace lws::controllers
