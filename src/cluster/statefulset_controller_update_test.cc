// The StatefulSet controller's update strategies on the embedded control plane: RollingUpdate
// with a partition and with maxUnavailable, and OnDelete.
#include <gtest/gtest.h>

#include "cluster/statefulset_controller.h"
#include "cluster/statefulset_controller_testing.h"

namespace lws::cluster {
namespace {

using namespace testing;  // NOLINT: the controller's fixture and builders

Json WithStrategy(Json set, const Json& strategy) {
  set["spec"]["updateStrategy"] = strategy;
  return set;
}

TEST_F(StatefulSetControllerTest, PartitionedRollingUpdateReplacesOrdinalsFromTheHighestDown) {
  Create(
      WithStrategy(WebSet(4), {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 2}}}}));
  Converge();
  const std::string old_revision = Revision("web-0");
  trace_.clear();
  SetImage("nginx:2");
  Converge();

  const std::string new_revision = Status()["updateRevision"];
  EXPECT_NE(new_revision, old_revision);
  EXPECT_EQ(Revision("web-0"), old_revision);
  EXPECT_EQ(Revision("web-1"), old_revision);
  EXPECT_EQ(Revision("web-2"), new_revision);
  EXPECT_EQ(Revision("web-3"), new_revision);
  EXPECT_EQ(Pods()["web-3"]["spec"]["containers"][0]["image"], "nginx:2");
  EXPECT_EQ(Pods()["web-1"]["spec"]["containers"][0]["image"], "nginx:1");
  EXPECT_EQ(trace_, (Strings{"-web-3", "+web-3", "-web-2", "+web-2"}));
  Json status = Status();
  EXPECT_EQ(status["currentRevision"], old_revision);
  EXPECT_EQ(status["currentReplicas"], 2);
  EXPECT_EQ(status["updatedReplicas"], 2);

  // Lowering the partition finishes the rollout; the update revision becomes current.
  PatchSpec({{"updateStrategy", {{"rollingUpdate", {{"partition", 0}}}}}});
  Converge();
  for (const std::string pod : {"web-0", "web-1", "web-2", "web-3"}) {
    EXPECT_EQ(Revision(pod), new_revision) << pod;
  }
  status = Status();
  EXPECT_EQ(status["currentRevision"], new_revision);
  EXPECT_EQ(status["currentReplicas"], 4);
  EXPECT_EQ(status["updatedReplicas"], 4);
  EXPECT_EQ(status["readyReplicas"], 4);
}

TEST_F(StatefulSetControllerTest, MaxUnavailableTwoReplacesTwoPodsAtATime) {
  Create(WithStrategy(
      WebSet(4, "Parallel"),
      {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}, {"maxUnavailable", 2}}}}));
  Converge();
  const std::string old_revision = Revision("web-0");
  trace_.clear();
  SetImage("nginx:2");
  Settle();
  Settle();  // without Ready pods the rollout holds at two
  EXPECT_EQ(trace_, (Strings{"-web-3", "-web-2", "+web-2", "+web-3"}));
  EXPECT_EQ(Revision("web-0"), old_revision);
  EXPECT_EQ(Revision("web-1"), old_revision);
  EXPECT_NE(Revision("web-2"), old_revision);
  EXPECT_NE(Revision("web-3"), old_revision);

  trace_.clear();
  MakeAllReady();
  Settle();
  EXPECT_EQ(trace_, (Strings{"-web-1", "-web-0", "+web-0", "+web-1"}));
  Converge();
  EXPECT_EQ(Status()["currentRevision"], Status()["updateRevision"]);
  EXPECT_EQ(Status()["updatedReplicas"], 4);
}

TEST_F(StatefulSetControllerTest, OnDeleteReplacesOnlyDeletedPods) {
  Create(WithStrategy(WebSet(2), {{"type", "OnDelete"}}));
  Converge();
  const std::string old_revision = Revision("web-0");
  trace_.clear();
  SetImage("nginx:2");
  Converge();
  EXPECT_EQ(trace_, Strings{});
  Json status = Status();
  EXPECT_NE(status["updateRevision"], old_revision);
  EXPECT_EQ(status["currentRevision"], old_revision);
  EXPECT_EQ(status.value("updatedReplicas", 0), 0);
  EXPECT_EQ(status["currentReplicas"], 2);

  DeletePod("web-1");
  Converge();
  EXPECT_EQ(Revision("web-1"), status["updateRevision"]);
  EXPECT_EQ(Revision("web-0"), old_revision);
  EXPECT_EQ(Status()["updatedReplicas"], 1);
  EXPECT_EQ(Status()["currentReplicas"], 1);
}

TEST_F(StatefulSetControllerTest, RevisionsAreOwnedByTheSet) {
  Create(WebSet(1));
  Converge();
  SetImage("nginx:2");
  Converge();
  Strings names;
  for (const store::ObjectPtr& r : List(client::kControllerRevisions)) {
    names.push_back(r->name().name);
    EXPECT_EQ(r->document()["metadata"]["ownerReferences"][0]["uid"], Set()["metadata"]["uid"]);
  }
  ASSERT_EQ(names.size(), 2u);
  EXPECT_NE(std::find(names.begin(), names.end(), Status()["updateRevision"]), names.end());
}

}  // namespace
}  // namespace lws::cluster
