#include "controllers/group/group_plan.h"

#include <gtest/gtest.h>

#include "api/revision.h"
#include "controllers/group/group_testing.h"

namespace lws::controllers {
namespace {

using api::Json;

// A reconcile of leader test-sample-1 (size 2, policy None unless changed) with its revision
// present and nothing else existing: the plan creates the worker StatefulSet.
struct Snapshot {
  api::LeaderWorkerSet lws;
  api::Pod pod;
  api::Pod leader;
  api::ControllerRevision revision;
  std::optional<api::StatefulSet> worker_sts;
  std::optional<api::Service> service;
  std::optional<api::Node> node;
  bool lws_found = true;
  bool revision_found = true;
  std::optional<api::LeaderWorkerSet> revision_lws;  // the reconciler's kept ApplyRevision
  GangProvider gang = GangProvider::kNone;
  bool pod_group_exists = false;

  explicit Snapshot(api::LeaderWorkerSet l = testing::Lws([](Json& j) {
                      j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "None";
                    }))
      : lws(std::move(l)) {
    revision = api::NewRevision(lws, 1);
    leader = testing::Leader("1", api::RevisionKey(revision));
    pod = leader;
  }

  GroupPlan Plan() {
    GroupSnapshot s;
    s.lws = lws_found ? &lws : nullptr;
    s.pod = &pod;
    s.restart.lws = s.lws;
    s.restart.pod = &pod;
    s.restart.group_pods = {&pod};
    s.restart.leader = IsLeaderPod(pod) ? &pod : &leader;
    s.worker_statefulset = worker_sts ? &*worker_sts : nullptr;
    s.group_service = service ? &*service : nullptr;
    s.leader_revision = revision_found ? &revision : nullptr;
    s.leader_node = node ? &*node : nullptr;
    s.revision_lws = revision_lws ? &*revision_lws : nullptr;
    s.gang = gang;
    s.pod_group_exists = pod_group_exists;
    return PlanGroup(s);
  }
};

std::vector<GroupActionKind> Kinds(const GroupPlan& plan) {
  std::vector<GroupActionKind> kinds;
  for (const auto& action : plan.actions) kinds.push_back(action.kind);
  return kinds;
}

void ExpectNothing(const GroupPlan& plan) {
  EXPECT_TRUE(plan.actions.empty());
  EXPECT_TRUE(plan.error.ok()) << plan.error.ToString();
  EXPECT_FALSE(plan.requeue_after_ms.has_value());
}

api::StatefulSet CreatedSts(const GroupPlan& plan) {
  for (const auto& action : plan.actions) {
    if (action.kind != GroupActionKind::kCreateWorkerStatefulSet) continue;
    EXPECT_FALSE(action.object.contains("status"));
    auto sts = api::Decode<api::StatefulSet>(action.object);
    EXPECT_TRUE(sts.ok()) << sts.status().ToString();
    return sts.ok() ? *sts : api::StatefulSet{};
  }
  ADD_FAILURE() << "no worker StatefulSet created";
  return {};
}

TEST(GroupPlanTest, LeaderCreatesItsWorkerStatefulSet) {
  Snapshot s;
  GroupPlan plan = s.Plan();
  ASSERT_TRUE(plan.error.ok()) << plan.error.ToString();
  ASSERT_EQ(Kinds(plan), std::vector{GroupActionKind::kCreateWorkerStatefulSet});
  EXPECT_EQ(plan.actions[0].reason, "GroupsProgressing");
  EXPECT_EQ(plan.actions[0].note, "Created worker statefulset for leader pod test-sample-1");
  api::StatefulSet sts = CreatedSts(plan);
  EXPECT_EQ(sts.metadata.name, "test-sample-1");
  EXPECT_EQ(sts.spec.replicas, std::optional<std::int32_t>(1));
  EXPECT_EQ(sts.metadata.owner_references.at(0).uid, "test-sample-1-uid");
  EXPECT_FALSE(plan.requeue_after_ms.has_value());
}

TEST(GroupPlanTest, MissingLabelsAreErrors) {
  Snapshot s;
  s.pod.metadata.labels[api::kSetNameLabel] = "";
  GroupPlan plan = s.Plan();
  EXPECT_EQ(plan.error.message(), "leaderworkerset.sigs.k8s.io/name label is unexpected missing");
  EXPECT_TRUE(plan.actions.empty());

  Snapshot t;
  t.pod.metadata.labels.erase(api::kWorkerIndexLabel);
  plan = t.Plan();
  EXPECT_EQ(plan.error.message(),
            "leaderworkerset.sigs.k8s.io/worker-index label is unexpected missing");
}

TEST(GroupPlanTest, LwsNotFoundPlansNothing) {
  Snapshot s;
  s.lws_found = false;
  ExpectNothing(s.Plan());
}

TEST(GroupPlanTest, RestartDeletesTheLeaderAndStops) {
  Snapshot s(testing::Lws());  // RecreateGroupOnPodRestart
  s.pod.status.container_statuses = {testing::Restarts(1)};
  s.pod.metadata.labels[api::kGroupIndexLabel] = "1";
  GroupPlan plan = s.Plan();
  ASSERT_EQ(Kinds(plan), std::vector{GroupActionKind::kDeleteLeaderForeground});
  EXPECT_EQ(plan.actions[0].reason, "RecreateGroup");
  EXPECT_EQ(plan.actions[0].target, "test-sample-1");
  EXPECT_EQ(plan.actions[0].note,
            "Worker pod test-sample-1 failed, deleted leader pod test-sample-1 to recreate "
            "group 1");
  EXPECT_TRUE(plan.error.ok());
}

TEST(GroupPlanTest, DeletedWorkerDeletesItsLeader) {
  Snapshot s(testing::Lws());
  s.pod = testing::Worker(s.leader, 1);
  s.pod.metadata.owner_references = {
      testing::RefTo("v1", "Pod", s.leader.metadata.name, s.leader.metadata.uid)};
  testing::MarkDeleting(s.pod);
  GroupPlan plan = s.Plan();
  ASSERT_EQ(Kinds(plan), std::vector{GroupActionKind::kDeleteLeaderForeground});
  EXPECT_EQ(plan.actions[0].target, "test-sample-1");
  EXPECT_EQ(plan.actions[0].note,
            "Worker pod test-sample-1-1 failed, deleted leader pod test-sample-1 to recreate "
            "group 1");
}

TEST(GroupPlanTest, LeaderAlreadyDeletingStops) {
  Snapshot s(testing::Lws());
  testing::MarkDeleting(s.pod);
  ExpectNothing(s.Plan());
}

TEST(GroupPlanTest, RestartErrorIsReturned) {
  Snapshot s(testing::Lws());
  s.pod = testing::MakePod("nonumber", "1");
  testing::MarkDeleting(s.pod);
  GroupPlan plan = s.Plan();
  EXPECT_EQ(plan.error.message(), "parsing pod name for pod nonumber");
  EXPECT_TRUE(plan.actions.empty());
}

TEST(GroupPlanTest, WorkerWithoutRestartPlansNothing) {
  Snapshot s;
  s.pod = testing::Worker(s.leader, 1);
  ExpectNothing(s.Plan());
}

TEST(GroupPlanTest, LeaderNameAnnotationWarns) {
  Snapshot s;
  s.pod.metadata.annotations[api::kLeaderPodNameAnnotation] = "test-sample-0";
  GroupPlan plan = s.Plan();
  ASSERT_EQ(Kinds(plan), std::vector{GroupActionKind::kWarning});
  EXPECT_EQ(plan.actions[0].reason, "FailedCreate");
  EXPECT_EQ(plan.actions[0].note,
            "leader pod default/test-sample-1 contains mistake annotation "
            "'leaderworkerset.sigs.k8s.io/leader-name': requires Kubernetes \u2265v1.27 or "
            "v1.26 with StatefulSetStartOrdinal feature");
  EXPECT_TRUE(plan.error.ok());
}

api::LeaderWorkerSet UniquePerReplicaLws(int size = 2) {
  return testing::Lws([size](Json& j) {
    j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "None";
    j["spec"]["leaderWorkerTemplate"]["size"] = size;
    j["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica";
  });
}

TEST(GroupPlanTest, S55DeletingLeaderSkipsPerReplicaService) {
  Snapshot s(UniquePerReplicaLws());
  testing::MarkDeleting(s.pod);
  s.pod.metadata.finalizers = {"example.com/hold"};
  ExpectNothing(s.Plan());
}

TEST(GroupPlanTest, UniquePerReplicaCreatesTheGroupServiceFirst) {
  Snapshot s(UniquePerReplicaLws());
  GroupPlan plan = s.Plan();
  ASSERT_EQ(Kinds(plan), (std::vector{GroupActionKind::kCreateGroupService,
                                      GroupActionKind::kCreateWorkerStatefulSet}));
  auto service = api::Decode<api::Service>(plan.actions[0].object);
  ASSERT_TRUE(service.ok());
  EXPECT_EQ(service->metadata.name, "test-sample-1");
  EXPECT_EQ(service->spec.selector.at(api::kGroupIndexLabel), "1");
  EXPECT_EQ(CreatedSts(plan).spec.service_name, "test-sample-1");

  s.service = api::Service{};
  EXPECT_EQ(Kinds(s.Plan()), std::vector{GroupActionKind::kCreateWorkerStatefulSet});
}

TEST(GroupPlanTest, SizeOneHasNoWorkersButStillItsService) {
  Snapshot s(UniquePerReplicaLws(1));
  EXPECT_EQ(Kinds(s.Plan()), std::vector{GroupActionKind::kCreateGroupService});
  Snapshot shared(testing::Lws([](Json& j) {
    j["spec"]["leaderWorkerTemplate"]["size"] = 1;
    j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "None";
  }));
  ExpectNothing(shared.Plan());
}

TEST(GroupPlanTest, S51LeaderReadyWaitsForTheLeader) {
  Snapshot s(testing::Lws([](Json& j) {
    j["spec"]["startupPolicy"] = "LeaderReady";
    j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "None";
  }));
  ExpectNothing(s.Plan());
  testing::SetReady(s.pod, false);
  ExpectNothing(s.Plan());
  testing::SetReady(s.pod, true);
  EXPECT_EQ(Kinds(s.Plan()), std::vector{GroupActionKind::kCreateWorkerStatefulSet});
}

TEST(GroupPlanTest, S52LeaderCreatedDoesNotWait) {
  Snapshot s;
  testing::SetReady(s.pod, false);
  s.pod.status.phase = "Pending";
  EXPECT_EQ(Kinds(s.Plan()), std::vector{GroupActionKind::kCreateWorkerStatefulSet});
}

TEST(GroupPlanTest, MissingRevisionRequeuesAfterOneSecond) {
  Snapshot s;
  s.revision_found = false;
  GroupPlan plan = s.Plan();
  EXPECT_TRUE(plan.actions.empty());
  EXPECT_TRUE(plan.error.ok());
  EXPECT_EQ(plan.requeue_after_ms, std::optional<std::int64_t>(1000));
}

TEST(GroupPlanTest, ExistingWorkerStatefulSetIsNeverUpdated) {
  Snapshot s;
  s.worker_sts = testing::WorkerSts(s.leader);
  ExpectNothing(s.Plan());
}

TEST(GroupPlanTest, UndecodableRevisionIsAnError) {
  Snapshot s;
  s.revision.data = Json::array({1, 2});
  GroupPlan plan = s.Plan();
  EXPECT_FALSE(plan.error.ok());
  EXPECT_TRUE(plan.actions.empty());
}

// Q1/F38: the group is rebuilt from the leader's (old) revision, not from the live spec.
TEST(GroupPlanTest, OldRevisionLeaderGetsOldSize) {
  Snapshot s;
  api::LeaderWorkerSet old_lws =
      testing::Lws([](Json& j) { j["spec"]["leaderWorkerTemplate"]["size"] = 5; });
  s.revision = api::NewRevision(old_lws, 1);
  api::StatefulSet sts = CreatedSts(s.Plan());
  EXPECT_EQ(sts.spec.replicas, std::optional<std::int32_t>(4));
  EXPECT_EQ(sts.spec.template_.metadata.annotations.at(api::kSizeAnnotation), "5");
}

// The reconciler's kept ApplyRevision result stands in for the plan's own: the same worker
// StatefulSet when it is the same, and the plan trusts it as it is.
TEST(GroupPlanTest, KeptRevisionLwsStandsInForApplyingTheRevision) {
  Snapshot s;
  s.revision = api::NewRevision(
      testing::Lws([](Json& j) { j["spec"]["leaderWorkerTemplate"]["size"] = 5; }), 1);
  const api::StatefulSet built = CreatedSts(s.Plan());
  Result<api::LeaderWorkerSet> applied = api::ApplyRevision(s.lws, s.revision);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  s.revision_lws = *applied;
  EXPECT_EQ(api::Encode(CreatedSts(s.Plan())), api::Encode(built));

  s.revision_lws->spec.leader_worker_template.size = 3;
  EXPECT_EQ(CreatedSts(s.Plan()).spec.replicas, std::optional<std::int32_t>(2));
}

const std::string kPoolKey = "cloud.google.com/gke-nodepool";

api::LeaderWorkerSet ExclusiveLws() {
  return testing::Lws([](Json& j) {
    j["metadata"]["annotations"] = {{api::kExclusiveKeyAnnotation, kPoolKey}};
    j["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "None";
  });
}

TEST(GroupPlanTest, S53ExclusiveWaitsForTheLeaderToBeScheduled) {
  Snapshot s(ExclusiveLws());
  ExpectNothing(s.Plan());
}

TEST(GroupPlanTest, S54ExclusivePinsWorkersToTheLeadersDomain) {
  Snapshot s(ExclusiveLws());
  s.pod.spec.node_name = "n1";
  s.node = testing::MakeNode("n1", {{kPoolKey, "pool-a"}});
  api::StatefulSet sts = CreatedSts(s.Plan());
  EXPECT_EQ(sts.spec.template_.spec.node_selector, (api::StringMap{{kPoolKey, "pool-a"}}));
  EXPECT_EQ(sts.spec.template_.metadata.annotations.at(api::kExclusiveKeyAnnotation), kPoolKey);
}

TEST(GroupPlanTest, S54NodeWithoutTopologyLabelIsAnError) {
  Snapshot s(ExclusiveLws());
  s.pod.spec.node_name = "n1";
  s.node = testing::MakeNode("n1", {});
  GroupPlan plan = s.Plan();
  EXPECT_EQ(plan.error.message(), "node does not have topology label: ");
  EXPECT_TRUE(plan.actions.empty());
}

TEST(GroupPlanTest, S54MissingNodeIsNotFound) {
  Snapshot s(ExclusiveLws());
  s.pod.spec.node_name = "n1";
  GroupPlan plan = s.Plan();
  EXPECT_EQ(plan.error.code(), Code::kNotFound);
  EXPECT_EQ(plan.error.message(), "getting node \"n1\": nodes \"n1\" not found");
  EXPECT_TRUE(plan.actions.empty());
}

// Spec section 19, upstream CreatePodGroupIfNotExists: a non-deleting leader's PodGroup is made
// when missing, before the size-1 stop; minMember is the size (1 with LeaderReady), minResources
// the templates' requests.
TEST(GroupPlanTest, GangSchedulingCreatesTheMissingPodGroup) {
  Snapshot s(testing::Lws([](Json& j) {
    j["metadata"]["annotations"] = {{"scheduling.volcano.sh/queue-name", "q"},
                                    {"volcano.sh/x", "1"}};
    j["spec"]["leaderWorkerTemplate"]["size"] = 3;
    j["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["resources"] = {
        {"requests", {{"cpu", "2"}, {"nvidia.com/gpu", "8"}}}};
  }));
  s.pod.metadata.annotations[api::kGangGroupNameAnnotation] = "test-sample-1-abc";
  s.pod.metadata.uid = "leader-uid";
  EXPECT_EQ(Kinds(s.Plan()),
            std::vector<GroupActionKind>{GroupActionKind::kCreateWorkerStatefulSet});
  s.gang = GangProvider::kVolcano;
  GroupPlan plan = s.Plan();
  ASSERT_EQ(Kinds(plan), (std::vector<GroupActionKind>{GroupActionKind::kCreatePodGroup,
                                                       GroupActionKind::kCreateWorkerStatefulSet}));
  const Json& group = plan.actions[0].object;
  EXPECT_EQ(group["apiVersion"], "scheduling.volcano.sh/v1beta1");
  EXPECT_EQ(group["metadata"]["name"], "test-sample-1-abc");
  EXPECT_EQ(group["metadata"]["annotations"], Json({{"volcano.sh/x", "1"}}));
  EXPECT_EQ(group["metadata"]["ownerReferences"][0]["uid"], "leader-uid");
  EXPECT_EQ(group["spec"]["minMember"], 3);
  EXPECT_EQ(group["spec"]["queue"], "q");
  // The leader template requests nothing: (size - 1) x the worker's requests.
  EXPECT_EQ(group["spec"]["minResources"], Json({{"cpu", "4"}, {"nvidia.com/gpu", "16"}}));

  s.pod_group_exists = true;
  EXPECT_EQ(Kinds(s.Plan()),
            std::vector<GroupActionKind>{GroupActionKind::kCreateWorkerStatefulSet});
  s.pod_group_exists = false;
  s.lws.spec.startup_policy = api::kLeaderReadyStartupPolicy;
  plan = s.Plan();
  ASSERT_FALSE(plan.actions.empty());
  EXPECT_EQ(plan.actions[0].object["spec"]["minMember"], 1);
  s.lws.spec.leader_worker_template.size = 1;  // before the size-1 stop
  EXPECT_EQ(Kinds(s.Plan()), std::vector<GroupActionKind>{GroupActionKind::kCreatePodGroup});
  s.pod.metadata.deletion_timestamp = "2025-01-01T00:00:00Z";
  ExpectNothing(s.Plan());
}

}  // namespace
}  // namespace lws::controllers
