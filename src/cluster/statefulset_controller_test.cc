// The StatefulSet controller against the embedded control plane on a virtual clock: creation
// order, scale down, recreation, PVCs, status and Events (rolling updates are in
// statefulset_controller_update_test.cc).
#include "cluster/statefulset_controller.h"

#include <gtest/gtest.h>

#include "cluster/statefulset_controller_testing.h"

namespace lws::cluster {
namespace {

using namespace testing;  // NOLINT: the controller's fixture and builders

// The owner read from a stored object: its controller reference, when that names a StatefulSet
// of the apps group; a malformed reference is skipped rather than read.
// (owner_controller.h ControllingOwner, which every owner controller's index uses.)
std::optional<ControllerOf> ControllingOwnerOf(const Json& pod) {
  return ControllingOwner(*store::MakeStoredObject(pod, 1), "StatefulSet");
}

TEST(ControllingStatefulSetTest, ReadsTheControllerReferenceOnly) {
  Json pod = Json::parse(R"({"metadata": {"namespace": "ns", "name": "web-0", "ownerReferences": [
      "junk",
      {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "other", "uid": "u0"},
      {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "odd", "uid": "u1",
       "controller": "yes"},
      {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "u2",
       "controller": true}]}})");
  std::optional<ControllerOf> owner = ControllingOwnerOf(pod);
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->owner.namespace_, "ns");
  EXPECT_EQ(owner->owner.name, "web");
  EXPECT_EQ(owner->uid, "u2");

  pod["metadata"]["ownerReferences"][3]["kind"] = "ReplicaSet";
  EXPECT_FALSE(ControllingOwnerOf(pod).has_value());
  pod["metadata"]["ownerReferences"][3]["kind"] = "StatefulSet";
  pod["metadata"]["ownerReferences"][3]["apiVersion"] = "v1";
  EXPECT_FALSE(ControllingOwnerOf(pod).has_value());
  EXPECT_FALSE(ControllingOwnerOf(Json::parse(R"({"metadata": {"name": "x"}})")).has_value());
}

TEST_F(StatefulSetControllerTest, OrderedReadyCreatesTheNextPodOnlyOnceTheLastIsReady) {
  Create(WebSet(3));
  Settle();
  EXPECT_EQ(PodNames(), (Strings{"web-0"}));
  Settle();  // nothing moves while web-0 is not Ready
  EXPECT_EQ(PodNames(), (Strings{"web-0"}));

  MakeReady("web-0");
  Settle();
  EXPECT_EQ(PodNames(), (Strings{"web-0", "web-1"}));
  MakeReady("web-1");
  Settle();
  EXPECT_EQ(PodNames(), (Strings{"web-0", "web-1", "web-2"}));
  EXPECT_EQ(trace_, (Strings{"+web-0", "+web-1", "+web-2"}));  // each created once

  Json pod = Pods()["web-1"];
  const Json& labels = pod["metadata"]["labels"];
  EXPECT_EQ(labels["app"], "web");
  EXPECT_EQ(labels[std::string(kStatefulSetPodNameLabel)], "web-1");
  EXPECT_EQ(labels[std::string(kPodIndexLabel)], "1");
  EXPECT_EQ(labels[std::string(kControllerRevisionHashLabel)], Status()["updateRevision"]);
  EXPECT_EQ(pod["spec"]["hostname"], "web-1");
  EXPECT_EQ(pod["spec"]["subdomain"], "web-svc");
  const Json& owner = pod["metadata"]["ownerReferences"][0];
  EXPECT_EQ(owner["kind"], "StatefulSet");
  EXPECT_EQ(owner["uid"], Set()["metadata"]["uid"]);
  EXPECT_EQ(owner["controller"], true);
  // Written by the controller's own field manager.
  EXPECT_EQ(pod["metadata"]["managedFields"][0]["manager"], "statefulset-controller");
}

TEST_F(StatefulSetControllerTest, ParallelCreatesEveryPodAtOnce) {
  Create(WebSet(3, "Parallel"));
  Settle();
  EXPECT_EQ(PodNames(), (Strings{"web-0", "web-1", "web-2"}));
  EXPECT_EQ(MakeAllReady(), 3);  // none was Ready: they were not waited for
}

TEST_F(StatefulSetControllerTest, ScaleDownRemovesTheHighestOrdinalFirst) {
  Create(WebSet(4));
  Converge();
  ASSERT_EQ(PodNames().size(), 4u);
  trace_.clear();
  PatchSpec({{"replicas", 1}});
  Settle();
  EXPECT_EQ(trace_, (Strings{"-web-3", "-web-2", "-web-1"}));
  EXPECT_EQ(PodNames(), (Strings{"web-0"}));
  EXPECT_EQ(Status()["replicas"], 1);
}

TEST_F(StatefulSetControllerTest, OrderedScaleDownWaitsForTheReplicasToBeReady) {
  Create(WebSet(3));
  Converge();
  PatchPodStatus("web-0", {{"phase", "Running"}, {"conditions", Json::array()}});
  trace_.clear();
  PatchSpec({{"replicas", 1}});
  Settle();
  EXPECT_EQ(trace_, Strings{});  // web-0, a replica, is not Ready
  MakeReady("web-0");
  Settle();
  EXPECT_EQ(trace_, (Strings{"-web-2", "-web-1"}));
}

TEST_F(StatefulSetControllerTest, DeletedPodIsRecreated) {
  Create(WebSet(2));
  Converge();
  std::string old_uid = Uid("web-0");
  DeletePod("web-0");
  Settle();
  ASSERT_EQ(PodNames(), (Strings{"web-0", "web-1"}));
  EXPECT_NE(Uid("web-0"), old_uid);
  // The recorder folded the second creation into the first Event.
  EXPECT_EQ(Events(),
            (Strings{"SuccessfulCreate: create Pod web-0 in StatefulSet web successful (x2)",
                     "SuccessfulCreate: create Pod web-1 in StatefulSet web successful"}));
}

TEST_F(StatefulSetControllerTest, FailedPodIsReplaced) {
  Create(WebSet(2, "Parallel"));
  Converge();
  std::string old_uid = Uid("web-1");
  PatchPodStatus("web-1", {{"phase", "Failed"}});
  Settle();
  ASSERT_EQ(PodNames(), (Strings{"web-0", "web-1"}));
  EXPECT_NE(Uid("web-1"), old_uid);
  EXPECT_EQ(Pods()["web-1"]["status"]["phase"], "Pending");
  EXPECT_EQ(trace_.back(), "+web-1");
  EXPECT_EQ(trace_[trace_.size() - 2], "-web-1");
}

TEST_F(StatefulSetControllerTest, StatusCountsThePods) {
  Json set = WebSet(3, "Parallel");
  Create(set);
  Settle();
  Json status = Status();
  EXPECT_EQ(status["replicas"], 3);
  EXPECT_EQ(status.value("readyReplicas", 0), 0);
  EXPECT_EQ(status["availableReplicas"], 0);

  MakeReady("web-0");
  Settle();
  EXPECT_EQ(Status().value("readyReplicas", 0), 1);
  Converge();
  status = Status();
  EXPECT_EQ(status["replicas"], 3);
  EXPECT_EQ(status["readyReplicas"], 3);
  EXPECT_EQ(status["availableReplicas"], 3);
  EXPECT_EQ(status["currentReplicas"], 3);
  EXPECT_EQ(status["updatedReplicas"], 3);
  EXPECT_EQ(status["currentRevision"], Revision("web-2"));
  EXPECT_EQ(status["updateRevision"], Revision("web-2"));
  EXPECT_EQ(status["observedGeneration"], Set()["metadata"]["generation"]);

  PatchSpec({{"replicas", 2}});  // a new generation
  Settle();
  EXPECT_EQ(Status()["observedGeneration"], Set()["metadata"]["generation"]);
  EXPECT_EQ(Status()["replicas"], 2);
}

TEST_F(StatefulSetControllerTest, StatusNeverGoesBackwardsDuringAnOrderedScaleUp) {
  std::vector<std::pair<int, int>> seen;  // (replicas, readyReplicas) of every stored status
  client::Informer sets(&cp_.loop, &user_, client::kStatefulSets);
  sets.AddHandler([&](const store::ObjectPtr&, const store::ObjectPtr& now) {
    if (!now) return;
    const Json& status = now->document().value("status", Json::object());
    seen.emplace_back(status.value("replicas", 0), status.value("readyReplicas", 0));
  });
  ASSERT_TRUE(sets.Start().ok());
  Create(WebSet(5));
  Converge();
  ASSERT_EQ(Status()["readyReplicas"], 5);
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].first, seen[i - 1].first) << i;
    EXPECT_GE(seen[i].second, seen[i - 1].second) << i;
  }
  EXPECT_EQ(seen.back(), std::make_pair(5, 5));
}

TEST_F(StatefulSetControllerTest, VolumeClaimTemplatesMakeOnePvcPerPod) {
  Json set = WebSet(2, "Parallel");
  set["spec"]["volumeClaimTemplates"] = Json::parse(R"([{
      "metadata": {"name": "data"},
      "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
  }])");
  Create(set);
  Settle();
  Strings claims;
  for (const store::ObjectPtr& pvc : List(client::kPersistentVolumeClaims)) {
    claims.push_back(pvc->name().name);
    EXPECT_EQ(pvc->document()["metadata"]["labels"]["app"], "web");
  }
  EXPECT_EQ(claims, (Strings{"data-web-0", "data-web-1"}));
  Json volume = Pods()["web-1"]["spec"]["volumes"][0];
  EXPECT_EQ(volume["name"], "data");
  EXPECT_EQ(volume["persistentVolumeClaim"]["claimName"], "data-web-1");
  Strings events = Events();
  EXPECT_NE(
      std::find(events.begin(), events.end(),
                "SuccessfulCreate: create Claim data-web-0 Pod web-0 in StatefulSet web success"),
      events.end());

  // A recreated pod finds its claim: no second claim, no event about it.
  DeletePod("web-0");
  Settle();
  EXPECT_EQ(List(client::kPersistentVolumeClaims).size(), 2u);
  EXPECT_EQ(PodNames(), (Strings{"web-0", "web-1"}));
}

TEST_F(StatefulSetControllerTest, EventsOfCreationAndDeletion) {
  Create(WebSet(2));
  Converge();
  PatchSpec({{"replicas", 1}});
  Settle();
  EXPECT_EQ(Events(),
            (Strings{"SuccessfulCreate: create Pod web-0 in StatefulSet web successful",
                     "SuccessfulCreate: create Pod web-1 in StatefulSet web successful",
                     "SuccessfulDelete: delete Pod web-1 in StatefulSet web successful"}));
  const Json event = List(client::kEvents)[0]->document();
  EXPECT_EQ(event["involvedObject"]["kind"], "StatefulSet");
  EXPECT_EQ(event["involvedObject"]["name"], "web");
  EXPECT_EQ(event["source"]["component"], "statefulset-controller");
}

}  // namespace
}  // namespace lws::cluster
