// The pod reconcile of a groupIdentity Hash leader (upstream KEP 898). Ported from upstream
// pkg/controllers/pod_controller_hash_worker_test.go TestReconcilePodNamesHashWorkersAfterHostname
// (the worker StatefulSet named after the hostname; one of that name owned by another leader is an
// error), the pod controller's TestReconcileGroupReplacementGate (the stored gate is lifted iff
// admitted; the decision's own cases are in group_replacement_test.cc) and
// TestPodCtrlReconcilePodSyncsGroupReadyConditionInHashMode.
#include "controllers/group/hash_group_plan.h"

#include <gtest/gtest.h>

#include "api/group_identity.h"
#include "api/revision.h"
#include "controllers/group/group_testing.h"
#include "controllers/group/worker_statefulset.h"

namespace lws::controllers {
namespace {

using api::Json;

api::PodCondition Condition(const std::string& type, const std::string& status) {
  api::PodCondition c;
  c.type = type;
  c.status = status;
  return c;
}

// Leader test-lws-7d9f8b6c4-x2kkp of a Hash LWS (size 2), hostname test-sample-9f2ac71b.
struct HashSnapshot {
  api::LeaderWorkerSet lws;
  api::ControllerRevision revision;
  api::Pod leader;
  std::vector<api::Pod> others;  // further pods of the LWS
  std::optional<api::StatefulSet> worker_sts;

  HashSnapshot() {
    lws = testing::Lws([](Json& j) {
      j["spec"]["groupIdentity"] = "Hash";
      j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "None";
    });
    revision = api::NewRevision(lws, 1);
    leader = testing::MakePod("test-sample-7d9f8b6c4-x2kkp", "0", "9f2ac71b00",
                              api::RevisionKey(revision));
    leader.metadata.labels[api::kGroupUniqueHashLabel] = "9f2ac71b00";
    leader.metadata.creation_timestamp = "2026-01-01T00:00:00Z";
    leader.spec.hostname = "test-sample-9f2ac71b";
    leader.spec.subdomain = "test-sample";
  }

  void Gate() {
    leader.spec.rest["schedulingGates"] = Json::array({{{"name", api::kGroupReplacementGate}}});
  }

  GroupPlan Plan() {
    GroupSnapshot s = testing::LeaderSnapshot(lws, leader);
    s.worker_statefulset = worker_sts ? &*worker_sts : nullptr;
    s.leader_revision = &revision;
    s.lws_pods = {&leader};
    for (const api::Pod& pod : others) s.lws_pods.push_back(&pod);
    return PlanGroup(s);
  }
};

const GroupAction* Find(const GroupPlan& plan, GroupActionKind kind) {
  for (const GroupAction& action : plan.actions) {
    if (action.kind == kind) return &action;
  }
  return nullptr;
}

api::Pod TearingDown(const std::string& name) {
  api::Pod old = testing::MakePod(name, "0", name);
  testing::MarkDeleting(old);
  return old;
}

TEST(HashGroupPlanTest, WorkerStatefulSetIsNamedAfterTheHostname) {
  HashSnapshot s;
  GroupPlan plan = s.Plan();
  ASSERT_TRUE(plan.error.ok()) << plan.error.ToString();
  const GroupAction* create = Find(plan, GroupActionKind::kCreateWorkerStatefulSet);
  ASSERT_NE(create, nullptr);
  EXPECT_EQ(create->object["metadata"]["name"], "test-sample-9f2ac71b");
  EXPECT_EQ(create->note, "Created worker statefulset for leader pod test-sample-7d9f8b6c4-x2kkp");
  // Created just now: not ready, so the leader's group-ready condition says False.
  const GroupAction* ready = Find(plan, GroupActionKind::kPatchLeaderStatus);
  ASSERT_NE(ready, nullptr);
  EXPECT_EQ(ready->target, s.leader.metadata.name);
  const Json& condition = ready->object["status"]["conditions"][0];
  EXPECT_EQ(condition["type"], api::kGroupReadyCondition);
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], api::kWorkerStatefulSetNotReady);
}

TEST(HashGroupPlanTest, AStatefulSetOfAnotherLeaderIsAnError) {
  HashSnapshot s;
  api::Pod other = s.leader;
  other.metadata.name = "test-sample-5c4b3a2f1-abcde";
  other.metadata.uid = "other-uid";
  s.worker_sts = testing::WorkerSts(other);
  s.worker_sts->metadata.name = "test-sample-9f2ac71b";
  GroupPlan plan = s.Plan();
  EXPECT_EQ(plan.error.message(),
            "worker statefulset default/test-sample-9f2ac71b is not controlled by leader pod "
            "test-sample-7d9f8b6c4-x2kkp");
  const GroupAction* warning = Find(plan, GroupActionKind::kWarning);
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->reason, "FailedCreate");
  EXPECT_EQ(Find(plan, GroupActionKind::kCreateWorkerStatefulSet), nullptr);
}

TEST(HashGroupPlanTest, GroupReadyTurnsTrueWithTheWorkersAndIsWrittenOnce) {
  HashSnapshot s;
  s.worker_sts = testing::WorkerSts(s.leader);
  s.worker_sts->metadata.name = "test-sample-9f2ac71b";
  s.worker_sts->spec.replicas = 1;
  s.worker_sts->status.available_replicas = 1;
  GroupPlan plan = s.Plan();
  EXPECT_EQ(Find(plan, GroupActionKind::kCreateWorkerStatefulSet), nullptr);
  const GroupAction* ready = Find(plan, GroupActionKind::kPatchLeaderStatus);
  ASSERT_NE(ready, nullptr);
  EXPECT_EQ(ready->object["status"]["conditions"][0]["status"], "True");
  EXPECT_EQ(ready->object["status"]["conditions"][0]["reason"], api::kWorkerStatefulSetReady);

  api::PodCondition written = Condition(api::kGroupReadyCondition, "True");
  s.leader.status.conditions.push_back(written);
  EXPECT_TRUE(s.Plan().actions.empty());
}

TEST(HashGroupPlanTest, OrdinalLeadersGetNoGroupReadyCondition) {
  api::LeaderWorkerSet lws = testing::Lws();
  api::ControllerRevision revision = api::NewRevision(lws, 1);
  api::Pod leader = testing::Leader("1", api::RevisionKey(revision));
  GroupSnapshot s = testing::LeaderSnapshot(lws, leader);
  s.leader_revision = &revision;
  GroupPlan plan = PlanGroup(s);
  EXPECT_EQ(Find(plan, GroupActionKind::kPatchLeaderStatus), nullptr);
  EXPECT_NE(Find(plan, GroupActionKind::kCreateWorkerStatefulSet), nullptr);
}

TEST(HashGroupPlanTest, AGatedLeaderWaitsForATearingDownGroupAndCreatesNothing) {
  HashSnapshot s;
  s.Gate();
  s.others.push_back(TearingDown("old"));
  GroupPlan plan = s.Plan();
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions[0].reason, "GroupReplacementDeferred");
  EXPECT_EQ(plan.actions[0].note,
            "Leader pod test-sample-7d9f8b6c4-x2kkp waits for 1 terminating group(s) to be "
            "removed before scheduling");
  EXPECT_EQ(plan.requeue_after_ms, kGroupReplacementRequeueMs);
}

TEST(HashGroupPlanTest, AnAdmittedLeaderLosesOnlyItsGateAndGetsItsWorkers) {
  HashSnapshot s;
  s.Gate();
  s.leader.spec.rest["schedulingGates"].push_back({{"name", "example.com/other"}});
  GroupPlan plan = s.Plan();
  ASSERT_TRUE(plan.error.ok()) << plan.error.ToString();
  ASSERT_FALSE(plan.actions.empty());
  const GroupAction& lift = plan.actions[0];
  EXPECT_EQ(lift.kind, GroupActionKind::kPatchLeader);
  EXPECT_EQ(lift.reason, "GroupReplacementAdmitted");
  EXPECT_EQ(lift.note, "Leader pod test-sample-7d9f8b6c4-x2kkp admitted for scheduling");
  EXPECT_EQ(lift.object["spec"]["schedulingGates"], Json::array({{{"name", "example.com/other"}}}));
  EXPECT_NE(Find(plan, GroupActionKind::kCreateWorkerStatefulSet), nullptr);
}

TEST(HashGroupPlanTest, TheLastGateGoesAsNull) {
  HashSnapshot s;
  s.Gate();
  s.lws.spec.group_replacement_policy = api::kGroupReplacementImmediate;
  s.others.push_back(TearingDown("old"));
  GroupPlan plan = s.Plan();
  ASSERT_FALSE(plan.actions.empty());
  EXPECT_TRUE(plan.actions[0].object["spec"]["schedulingGates"].is_null());
}

TEST(HashGroupPlanTest, LeaderReadyWaitsForContainersNotForThePodsReady) {
  HashSnapshot s;
  s.lws.spec.startup_policy = api::kLeaderReadyStartupPolicy;
  EXPECT_TRUE(s.Plan().actions.empty());
  s.leader.status.conditions = {Condition("ContainersReady", "True"), Condition("Ready", "False")};
  EXPECT_NE(Find(s.Plan(), GroupActionKind::kCreateWorkerStatefulSet), nullptr);
}

TEST(HashGroupPlanTest, ALeaderWithoutHostnameIsAnError) {
  HashSnapshot s;
  s.leader.spec.hostname.clear();
  EXPECT_EQ(s.Plan().error.message(),
            "leader pod default/test-sample-7d9f8b6c4-x2kkp has no hostname or subdomain");
}

}  // namespace
}  // namespace lws::controllers
