// The StatefulSet controller when the world is not what its caches say: a restart over existing
// pods, a name taken by a pod it does not own, and writes the API server rejects.
#include <gtest/gtest.h>

#include "cluster/statefulset_controller.h"
#include "cluster/statefulset_controller_testing.h"

namespace lws::cluster {
namespace {

using namespace testing;  // NOLINT: the controller's fixture and builders

TEST_F(StatefulSetControllerTest, RestartedControllerSyncsEachSetOnceOverItsExistingPods) {
  // More pods than one watch delivery batch (512): the first sync must wait for all of them.
  Create(WebSet(600, "Parallel"));
  Settle();
  ASSERT_EQ(PodNames().size(), 600u);
  controller_.Stop();
  trace_.clear();
  std::size_t events = Events().size();

  StatefulSetController restarted(&cp_.loop, &controller_client_);
  ASSERT_TRUE(restarted.Start().ok());
  cp_.loop.RunFor(std::chrono::seconds(5));
  EXPECT_EQ(restarted.syncs(), 1u);
  EXPECT_EQ(trace_, Strings{});
  EXPECT_EQ(Events().size(), events);

  MakeReady("web-7");  // and it goes on reacting to changes
  Settle();
  EXPECT_EQ(restarted.syncs(), 3u);  // the pod's change, then its own status write
  EXPECT_EQ(Status()["readyReplicas"], 1);
}

TEST_F(StatefulSetControllerTest, ChangesOfOneSetSyncItOnce) {
  Create(WebSet(3, "Parallel"));
  Settle();
  std::uint64_t before = controller_.syncs();
  // Three pod changes delivered in one watch batch: one sync.
  MakeReady("web-0");
  MakeReady("web-1");
  MakeReady("web-2");
  Settle();
  // The sync that saw them writes the status, whose own event syncs once more to no effect.
  EXPECT_EQ(controller_.syncs() - before, 2u);
  EXPECT_EQ(Status()["readyReplicas"], 3);
}

TEST_F(StatefulSetControllerTest, SyncWaitsUntilItsOwnCreationsAreInTheCache) {
  // One sync creates 600 pods; their events arrive in watch batches of 512. The sync the first
  // batch triggers must not plan on a cache that lacks the other 88 (it would create them
  // again): it is skipped, and the sync after the last batch writes the status.
  Create(WebSet(600, "Parallel"));
  Settle();
  EXPECT_EQ(controller_.syncs(), 3u);  // creations, status, no-op on the status's own event
  EXPECT_EQ(trace_.size(), 600u);
  EXPECT_EQ(Status()["replicas"], 600);
}

TEST_F(StatefulSetControllerTest, PodNameTakenByAStrangerIsRetriedWithoutEvents) {
  Json stranger = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", "web-0"}, {"namespace", "default"}, {"labels", {{"app", "other"}}}}},
      {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  ASSERT_TRUE(user_.Create(client::kPods, stranger).ok());
  Create(WebSet(1));
  Settle();
  // AlreadyExists: retried every 100 ms, never recorded, the stranger left alone.
  EXPECT_GE(controller_.syncs(), 5u);
  EXPECT_EQ(Events(), Strings{});
  EXPECT_EQ(Pods()["web-0"]["metadata"]["labels"]["app"], "other");

  DeletePod("web-0");
  Settle();
  EXPECT_EQ(Pods()["web-0"]["metadata"]["labels"]["app"], "web");
  EXPECT_EQ(Events(),
            (Strings{"SuccessfulCreate: create Pod web-0 in StatefulSet web successful"}));
}

TEST_F(StatefulSetControllerTest, RejectedPodRecordsFailedCreateAndBacksOff) {
  // Straight into the store, past validation: a template whose pods the API server rejects.
  Json set = WebSet(1);
  set["spec"]["template"]["spec"]["containers"][0].erase("image");
  const api::ResourceInfo* info = cp_.server->served()->registry.Find("apps", "v1", "statefulsets");
  ASSERT_NE(info, nullptr);
  ASSERT_TRUE(cp_.store->Create(*info, set).ok());
  cp_.loop.RunFor(std::chrono::seconds(30));

  EXPECT_EQ(PodNames(), Strings{});
  Strings events = Events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(events[0].starts_with(
      "FailedCreate: create Pod web-0 in StatefulSet web failed error: Pod \"web-0\" is invalid: "
      "spec.containers[0].image: Required value"))
      << events[0];
  // Retried with a doubling backoff from 1 s (about six tries in 30 s), not every 100 ms; each
  // try folds into the one Event.
  EXPECT_GE(controller_.syncs(), 4u);
  EXPECT_LE(controller_.syncs(), 7u);
  EXPECT_TRUE(events[0].ends_with("(x" + std::to_string(controller_.syncs()) + ")")) << events[0];
}

}  // namespace
}  // namespace lws::cluster
