#include "controllers/group/restart_policy.h"

#include <gtest/gtest.h>

#include <functional>

#include "controllers/group/group_testing.h"

namespace lws::controllers {
namespace {

using api::Json;

TEST(RestartPolicyTest, S171ContainerRestarted) {
  struct Case {
    std::string name, phase;
    int init_restarts, restarts;
    bool want;
  };
  const Case cases[] = {
      {"running_init_restart", "Running", 1, 0, true},
      {"pending_init_restart", "Pending", 1, 0, true},
      {"running_container_restart", "Running", 0, 2, true},
      {"pending_container_restart", "Pending", 0, 1, true},
      {"failed_with_restarts", "Failed", 1, 1, false},
      {"succeeded_with_restarts", "Succeeded", 0, 1, false},
      {"running_zero_restarts", "Running", 0, 0, false},
  };
  for (const Case& c : cases) {
    api::Pod pod = testing::MakePod("p-0", "0");
    pod.status.phase = c.phase;
    pod.status.init_container_statuses = {testing::Restarts(c.init_restarts)};
    pod.status.container_statuses = {testing::Restarts(0), testing::Restarts(c.restarts)};
    EXPECT_EQ(ContainerRestarted(pod), c.want) << c.name;
    EXPECT_EQ(PodDeletedOrRestarted(pod), c.want) << c.name;
    testing::MarkDeleting(pod);
    EXPECT_TRUE(PodDeletedOrRestarted(pod)) << c.name;
  }
}

TEST(RestartPolicyTest, LeaderNameOfWorker) {
  EXPECT_EQ(*LeaderNameOfWorker(testing::MakePod("test-sample-0-1", "1")), "test-sample-0");
  EXPECT_EQ(*LeaderNameOfWorker(testing::MakePod("lws-samples-1-0", "1")), "lws-samples-1");
  auto bad = LeaderNameOfWorker(testing::MakePod("lws-samples-1-u", "1"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "parsing pod name for pod lws-samples-1-u");
}

TEST(RestartPolicyTest, IsLeaderPod) {
  EXPECT_TRUE(IsLeaderPod(testing::MakePod("a-0", "0")));
  EXPECT_FALSE(IsLeaderPod(testing::MakePod("a-0-1", "1")));
  api::Pod unlabelled;
  EXPECT_FALSE(IsLeaderPod(unlabelled));
}

// Group 0 of an LWS of size 4 (scenario catalogue, section 3): leader test-sample-0, its worker
// StatefulSet (uid sts-current) and workers -1..-3, all Running. Worker 1 is being deleted.
struct Group {
  api::LeaderWorkerSet lws = testing::Lws([](Json& j) {
    j["spec"]["replicas"] = 1;
    j["spec"]["leaderWorkerTemplate"]["size"] = 4;
  });
  api::Pod leader = testing::Leader("0");
  api::StatefulSet sts = testing::WorkerSts(leader);
  std::vector<api::Pod> workers = {testing::Worker(leader, 1), testing::Worker(leader, 2),
                                   testing::Worker(leader, 3)};
  int reconciled = 1;  // 0: the leader; w: worker w
  bool leader_found = true;
  bool sts_found = true;
  bool worker_2_listed = true;

  Group() { testing::MarkDeleting(workers[0]); }
  api::Pod& Reconciled() { return reconciled == 0 ? leader : workers[reconciled - 1]; }
  void SetPolicy(const std::string& policy) {
    lws.spec.leader_worker_template.restart_policy = policy;
  }
  RestartInputs Inputs() {
    RestartInputs in;
    in.lws = &lws;
    in.pod = &Reconciled();
    in.group_pods.push_back(&leader);
    for (const api::Pod& w : workers) {
      if (w.metadata.name == "test-sample-0-2" && !worker_2_listed) continue;
      in.group_pods.push_back(&w);
    }
    in.leader = leader_found ? &leader : nullptr;
    in.owner_statefulset = sts_found && reconciled != 0 ? &sts : nullptr;
    return in;
  }
};

struct DecideCase {
  std::string name;
  std::function<void(Group&)> setup;
  RestartVerdict want;
  std::string want_note = "";
};

void PrintTo(const DecideCase& c, std::ostream* os) { *os << c.name; }

const char kNote01[] =
    "Worker pod test-sample-0-1 failed, deleted leader pod test-sample-0 to "
    "recreate group 0";

class DecideRestartTest : public ::testing::TestWithParam<DecideCase> {};

TEST_P(DecideRestartTest, Verdict) {
  Group g;
  GetParam().setup(g);
  Result<RestartDecision> decision = DecideRestart(g.Inputs());
  ASSERT_TRUE(decision.ok()) << decision.status().ToString();
  EXPECT_EQ(decision->verdict, GetParam().want);
  EXPECT_EQ(decision->event_note, GetParam().want_note);
}

const std::string kAfterStartAnnotation = api::kRecreateGroupAfterStartAnnotation;

INSTANTIATE_TEST_SUITE_P(
    Cases, DecideRestartTest,
    ::testing::Values(
        DecideCase{"S43_none_policy", [](Group& g) { g.SetPolicy("None"); }, RestartVerdict::kNone},
        DecideCase{"legacy_default_policy", [](Group& g) { g.SetPolicy("Default"); },
                   RestartVerdict::kNone},
        DecideCase{"S44_deleted_worker", [](Group&) {}, RestartVerdict::kDeleteLeader, kNote01},
        DecideCase{"S45_annotation_and_pending_pod",
                   [](Group& g) {
                     g.lws.metadata.annotations[kAfterStartAnnotation] = "enable";
                     g.workers[1].status.phase = "Pending";
                   },
                   RestartVerdict::kNone},
        DecideCase{"annotation_group_started",
                   [](Group& g) { g.lws.metadata.annotations[kAfterStartAnnotation] = ""; },
                   RestartVerdict::kDeleteLeader, kNote01},
        DecideCase{"pending_without_after_start_still_recreates",
                   [](Group& g) { g.workers[1].status.phase = "Pending"; },
                   RestartVerdict::kDeleteLeader, kNote01},
        DecideCase{"S46_after_start_pending_pod",
                   [](Group& g) {
                     g.SetPolicy(api::kRecreateGroupAfterStart);
                     g.workers[1].status.phase = "Pending";
                   },
                   RestartVerdict::kNone},
        DecideCase{"after_start_pod_missing",
                   [](Group& g) {
                     g.SetPolicy(api::kRecreateGroupAfterStart);
                     g.worker_2_listed = false;
                   },
                   RestartVerdict::kNone},
        DecideCase{"S47_after_start_all_running",
                   [](Group& g) { g.SetPolicy(api::kRecreateGroupAfterStart); },
                   RestartVerdict::kDeleteLeader, kNote01},
        DecideCase{"S50_worker_container_restart",
                   [](Group& g) {
                     g.reconciled = 2;
                     g.workers[1].status.container_statuses = {testing::Restarts(1)};
                   },
                   RestartVerdict::kDeleteLeader,
                   "Worker pod test-sample-0-2 failed, deleted leader pod test-sample-0 to "
                   "recreate group 0"},
        DecideCase{"S50_failed_worker_with_restarts_is_ignored",
                   [](Group& g) {
                     g.reconciled = 2;
                     g.workers[1].status.phase = "Failed";
                     g.workers[1].status.container_statuses = {testing::Restarts(1)};
                   },
                   RestartVerdict::kNone},
        DecideCase{"S50_leader_init_restart",
                   [](Group& g) {
                     g.reconciled = 0;
                     g.leader.status.phase = "Pending";
                     g.leader.status.init_container_statuses = {testing::Restarts(3)};
                   },
                   RestartVerdict::kDeleteLeader,
                   "Worker pod test-sample-0 failed, deleted leader pod test-sample-0 to "
                   "recreate group 0"},
        DecideCase{"healthy_worker", [](Group& g) { g.reconciled = 3; }, RestartVerdict::kNone},
        DecideCase{"leader_not_found", [](Group& g) { g.leader_found = false; },
                   RestartVerdict::kNone},
        DecideCase{"worker_of_another_revision",
                   [](Group& g) { g.leader.metadata.labels[api::kRevisionLabel] = "rev-2"; },
                   RestartVerdict::kNone},
        DecideCase{"leader_already_deleting", [](Group& g) { testing::MarkDeleting(g.leader); },
                   RestartVerdict::kLeaderAlreadyDeleting},
        DecideCase{"deleting_leader_itself",
                   [](Group& g) {
                     g.reconciled = 0;
                     testing::MarkDeleting(g.leader);
                   },
                   RestartVerdict::kLeaderAlreadyDeleting},
        // S48: ownership through the current worker StatefulSet only.
        DecideCase{"S48a_current_statefulset_owner",
                   [](Group& g) { g.sts.metadata.uid = "sts-current"; },
                   RestartVerdict::kDeleteLeader, kNote01},
        DecideCase{"S48b_stale_statefulset_owner",
                   [](Group& g) { g.workers[0].metadata.owner_references[0].uid = "sts-stale"; },
                   RestartVerdict::kNone},
        DecideCase{"owner_statefulset_missing", [](Group& g) { g.sts_found = false; },
                   RestartVerdict::kNone},
        DecideCase{"statefulset_of_previous_leader",
                   [](Group& g) { g.sts.metadata.owner_references[0].uid = "old-leader-uid"; },
                   RestartVerdict::kNone},
        DecideCase{"statefulset_not_controlled",
                   [](Group& g) { g.sts.metadata.owner_references[0].controller = false; },
                   RestartVerdict::kNone},
        DecideCase{"owned_by_the_leader_pod",
                   [](Group& g) {
                     g.workers[0].metadata.owner_references = {
                         testing::RefTo("v1", "Pod", "test-sample-0", g.leader.metadata.uid)};
                   },
                   RestartVerdict::kDeleteLeader, kNote01},
        DecideCase{"owned_by_a_previous_leader_pod",
                   [](Group& g) {
                     g.workers[0].metadata.owner_references = {
                         testing::RefTo("v1", "Pod", "test-sample-0", "old-uid")};
                   },
                   RestartVerdict::kNone},
        DecideCase{"owned_by_something_else",
                   [](Group& g) {
                     g.workers[0].metadata.owner_references = {
                         testing::RefTo("apps/v1", "ReplicaSet", "test-sample-0", "sts-current")};
                   },
                   RestartVerdict::kNone},
        DecideCase{"no_controller",
                   [](Group& g) { g.workers[0].metadata.owner_references.clear(); },
                   RestartVerdict::kNone}),
    [](const auto& info) { return info.param.name; });

TEST(RestartPolicyTest, UnparsableWorkerNameIsAnError) {
  Group g;
  g.workers[0].metadata.name = "bad";
  auto decision = DecideRestart(g.Inputs());
  ASSERT_FALSE(decision.ok());
  EXPECT_EQ(decision.status().message(), "parsing pod name for pod bad");
}

}  // namespace
}  // namespace lws::controllers
