// `lws rollout` (`kubectl lws rollout`): what status, history, undo and pause decide
// (rollout_view.h). The words follow kubectl's DeploymentStatusViewer and StatefulSetStatusViewer
// (kubectl/pkg/polymorphichelpers/rollout_status.go) and its rollback messages
// (kubectl/pkg/polymorphichelpers/rollback.go); the commands end to end: tests/cli/kubectl_lws.sh.
#include "cli/rollout_view.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "api/lws_testing.h"
#include "api/rollout_annotations.h"

namespace lws::cli {
namespace {

using api::testing::DefaultLws;

api::Condition Cond(const std::string& type, const std::string& status,
                    const std::string& reason = "", const std::string& message = "") {
  api::Condition c;
  c.type = type;
  c.status = status;
  c.reason = reason;
  c.message = message;
  return c;
}

// An LWS of 4 groups whose status the controller has observed.
api::LeaderWorkerSet Observed(std::int32_t updated, std::int32_t ready, std::int32_t replicas,
                              std::vector<api::Condition> conditions) {
  api::LeaderWorkerSet lws = DefaultLws();
  lws.metadata.name = "llama";
  lws.spec.replicas = 4;
  lws.metadata.generation = 2;
  lws.status.observed_generation = 2;
  lws.status.updated_replicas = updated;
  lws.status.ready_replicas = ready;
  lws.status.replicas = replicas;
  lws.status.conditions = std::move(conditions);
  return lws;
}

std::string Look(const api::LeaderWorkerSet& lws) {
  RolloutStatusView v = ViewRolloutStatus(lws);
  if (v.error) return "error: " + *v.error;
  return v.message + (v.done ? " [done]" : "");
}

TEST(RolloutStatusTest, FollowsTheRolloutAsKubectlDoesADeployment) {
  api::LeaderWorkerSet lws = Observed(0, 4, 4, {Cond("UpdateInProgress", "True")});
  lws.metadata.generation = 3;
  EXPECT_EQ(Look(lws), "Waiting for leaderworkerset spec update to be observed...");
  lws.status.observed_generation = 0;
  lws.metadata.generation = 0;
  EXPECT_EQ(Look(lws), "Waiting for leaderworkerset spec update to be observed...");

  EXPECT_EQ(Look(Observed(1, 4, 5, {Cond("UpdateInProgress", "True")})),
            "Waiting for leaderworkerset \"llama\" rollout to finish: 1 out of 4 new groups have "
            "been updated...");
  // Surge groups are updated too: while the update is in progress, at most 3 of 4 are shown.
  EXPECT_EQ(Look(Observed(4, 4, 5, {Cond("UpdateInProgress", "True")})),
            "Waiting for leaderworkerset \"llama\" rollout to finish: 3 out of 4 new groups have "
            "been updated...");
  EXPECT_EQ(Look(Observed(5, 5, 5, {Cond("UpdateInProgress", "False")})),
            "Waiting for leaderworkerset \"llama\" rollout to finish: 1 surge groups are pending "
            "termination...");
  EXPECT_EQ(
      Look(Observed(4, 3, 4, {Cond("UpdateInProgress", "False"), Cond("Available", "False")})),
      "Waiting for leaderworkerset \"llama\" rollout to finish: 3 of 4 updated groups are "
      "ready...");
  EXPECT_EQ(Look(Observed(4, 4, 4, {Cond("UpdateInProgress", "False"), Cond("Available", "True")})),
            "leaderworkerset \"llama\" successfully rolled out [done]");
}

TEST(RolloutStatusTest, APartitionIsAStatefulSetStylePartitionedRollOut) {
  api::LeaderWorkerSet lws = Observed(1, 4, 4, {Cond("UpdateInProgress", "True")});
  lws.spec.rollout_strategy.rolling_update_configuration->partition = 2;
  EXPECT_EQ(
      Look(lws),
      "Waiting for partitioned roll out to finish: 1 out of 2 new groups have been updated...");
  lws.status.updated_replicas = 2;
  lws.status.conditions = {Cond("UpdateInProgress", "False"), Cond("Available", "True")};
  EXPECT_EQ(Look(lws), "partitioned roll out complete: 2 new groups have been updated... [done]");
}

TEST(RolloutStatusTest, StalledFailedAndPausedRollouts) {
  EXPECT_EQ(Look(Observed(1, 4, 4,
                          {Cond("UpdateInProgress", "True"),
                           Cond("Progressing", "False", "ProgressDeadlineExceeded")})),
            "error: leaderworkerset \"llama\" exceeded its progress deadline");
  EXPECT_EQ(Look(Observed(4, 4, 4,
                          {Cond("Available", "True"),
                           Cond("RolloutFailed", "True", "RolledBack", "revision a failed")})),
            "error: leaderworkerset \"llama\" rollout failed: revision a failed");
  // Done before: a rollout that completed past a stall is done.
  EXPECT_EQ(
      Look(Observed(
          4, 4, 4, {Cond("Available", "True"), Cond("Progressing", "False", "GroupsProgressing")})),
      "leaderworkerset \"llama\" successfully rolled out [done]");
  EXPECT_EQ(Look(Observed(2, 4, 4, {Cond("UpdateInProgress", "True"), Cond("Paused", "True")})),
            "Waiting for leaderworkerset \"llama\" rollout to finish: 2 out of 4 new groups have "
            "been updated... (paused: kubectl lws rollout resume llama)");
}

// Two revisions: 1 (the old image) and 2 (the live template).
struct History {
  api::LeaderWorkerSet lws = DefaultLws();
  std::vector<api::ControllerRevision> revisions;
  History() {
    api::LeaderWorkerSet old = lws;
    old.spec.leader_worker_template.worker_template.spec.containers[0].image = "worker:old";
    revisions.push_back(api::NewRevision(old, 1));
    revisions.push_back(api::NewRevision(lws, 2));
  }
  api::RevisionRefs refs() const { return api::RefsOf(revisions); }
};

TEST(RolloutHistoryTest, ListsTheRevisionsWithTheOneInForceAndAFailedOne) {
  History h;
  const std::string k1 = api::RevisionKey(h.revisions[0]);
  const std::string k2 = api::RevisionKey(h.revisions[1]);
  h.lws.metadata.annotations[api::kFailedRevisionAnnotation] =
      api::EncodeFailedRevision({k1, "Rollback", k2, "why"});
  const std::string expected =
      "leaderworkerset.leaderworkerset.x-k8s.io/test-sample\n"
      "REVISION  HASH        STATUS\n" +
      fmt::format("{:<10}{:<12}failed\n", 1, k1) + fmt::format("{:<10}{:<12}current\n", 2, k2);
  EXPECT_EQ(FormatHistory(h.lws, h.refs()), expected);

  Result<std::string> one = FormatRevision(h.lws, h.refs(), 1);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(
      one->rfind("leaderworkerset.leaderworkerset.x-k8s.io/test-sample with revision #1 (hash " +
                     k1 + ")\nLeader Worker Template:\n",
                 0),
      0u);
  EXPECT_NE(one->find("    - image: worker:old\n"), std::string::npos) << *one;
  EXPECT_EQ(FormatRevision(h.lws, h.refs(), 7).status().message(),
            "unable to find the specified revision 7");
}

TEST(RolloutUndoTest, RestoresTheNewestRevisionNotInForce) {
  History h;
  Result<UndoPlan> plan = PlanUndo(h.lws, h.refs(), 0);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->revision, 1);
  ASSERT_TRUE(plan->restored.has_value());
  EXPECT_EQ(plan->restored->spec.leader_worker_template.worker_template.spec.containers[0].image,
            "worker:old");
  // Everything but the template stays live.
  EXPECT_EQ(plan->restored->spec.replicas, h.lws.spec.replicas);
  EXPECT_EQ(plan->restored->metadata.resource_version, h.lws.metadata.resource_version);

  plan = PlanUndo(h.lws, h.refs(), 2);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->skipped);
  EXPECT_EQ(PlanUndo(h.lws, h.refs(), 9).status().message(),
            "unable to find specified revision 9 in history");
  EXPECT_EQ(PlanUndo(h.lws, {}, 0).status().message(),
            "no rollout history found for leaderworkerset \"test-sample\"");
  // Only the revision in force (upstream deletes the others once a rollout completes).
  api::RevisionRefs current = {&h.revisions[1]};
  EXPECT_EQ(
      PlanUndo(h.lws, current, 0).status().message().rfind("no last revision to roll back to", 0),
      0u);
}

TEST(RolloutPauseTest, PatchesTheAnnotationOrSaysWhyNot) {
  api::LeaderWorkerSet lws = DefaultLws();
  lws.metadata.resource_version = "42";
  Result<api::Json> pause = PausePatch(lws, true);
  ASSERT_TRUE(pause.ok());
  EXPECT_EQ(pause->dump(),
            R"({"metadata":{"annotations":{"lws-cpp.dev/paused":"true"},"resourceVersion":"42"}})");
  EXPECT_EQ(PausePatch(lws, false).status().message(),
            "leaderworkersets.leaderworkerset.x-k8s.io \"test-sample\" is not paused");
  lws.metadata.annotations[api::kPausedAnnotation] = "true";
  EXPECT_EQ(PausePatch(lws, true).status().message(),
            "leaderworkersets.leaderworkerset.x-k8s.io \"test-sample\" is already paused");
  EXPECT_EQ(PausePatch(lws, false)->dump(),
            R"({"metadata":{"annotations":{"lws-cpp.dev/paused":null},"resourceVersion":"42"}})");
}

}  // namespace
}  // namespace lws::cli
