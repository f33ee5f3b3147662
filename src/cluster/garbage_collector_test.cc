// The garbage collector against a real in-memory store (ManualClock): whole cascades through the
// store's own DELETE and update rules.
#include "cluster/garbage_collector.h"

#include <gtest/gtest.h>

#include "cluster/gc_testing.h"

namespace lws::cluster {
namespace {

using api::Json;
using store::ObjectPtr;
using namespace store::testing;  // NOLINT: the store's test fixtures and builders
using cluster::testing::OwnedBy;
using cluster::testing::ValidLeaderWorkerSet;
using cluster::testing::ValidStatefulSet;

class GarbageCollectorTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    plane_ = std::make_unique<cluster::testing::ControlPlaneOver>(store_.get(), &clock_,
                                                                  "generic-garbage-collector");
  }

  // Through the API: the objects the collector updates must be as the server stores them.
  ObjectPtr MustCreate(const api::ResourceInfo& info, Json object) {
    return plane_->Create(info, std::move(object));
  }

  GarbageCollector Gc() { return GarbageCollector(store_.get(), &plane_->client, &Registry()); }

  static Json OnNode(Json pod) {
    pod["spec"]["nodeName"] = "n1";  // bound pods terminate gracefully (30 s)
    return pod;
  }

  bool Exists(const api::ResourceInfo& info, const std::string& name,
              const std::string& ns = "default") {
    return store_->Get(info, ns, name).ok();
  }

  Json Current(const api::ResourceInfo& info, const std::string& name,
               const std::string& ns = "default") {
    auto got = store_->Get(info, ns, name);
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    return got.ok() ? (*got)->document() : Json();
  }

  void MustDelete(const api::ResourceInfo& info, const std::string& name,
                  store::DeleteOptions options = {}, const std::string& ns = "default") {
    auto deleted = store_->Delete(info, ns, name, options);
    ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  }

  std::unique_ptr<cluster::testing::ControlPlaneOver> plane_;

  static store::DeleteOptions Policy(const std::string& policy) {
    return store::DeleteOptions{.propagation_policy = policy};
  }

  // The number of actions of each pass until one takes none.
  std::vector<int> Passes() {
    GarbageCollector gc = Gc();
    std::vector<int> out;
    for (int i = 0; i < 10; ++i) {
      auto changed = gc.RunOnce();
      EXPECT_TRUE(changed.ok()) << changed.status().ToString();
      if (!changed.ok() || *changed == 0) break;
      out.push_back(*changed);
    }
    return out;
  }
};

TEST_F(GarbageCollectorTest, BackgroundCascadeDeletesThreeLevels) {
  ObjectPtr lws = MustCreate(Lws(), ValidLeaderWorkerSet("l"));
  ObjectPtr sts = MustCreate(StatefulSets(), OwnedBy(ValidStatefulSet("l"), Lws(), lws, true));
  MustCreate(Pods(), OwnedBy(Pod("l-0"), StatefulSets(), sts, true));
  MustCreate(Pods(), OwnedBy(Pod("l-1"), StatefulSets(), sts, true));
  MustCreate(Pods(), Pod("unowned"));
  EXPECT_EQ(*Gc().RunOnce(), 0);

  MustDelete(Lws(), "l");
  EXPECT_EQ(Passes(), (std::vector<int>{1, 2}));  // one level per pass
  EXPECT_FALSE(Exists(StatefulSets(), "l"));
  EXPECT_FALSE(Exists(Pods(), "l-0"));
  EXPECT_FALSE(Exists(Pods(), "l-1"));
  EXPECT_TRUE(Exists(Pods(), "unowned"));
}

TEST_F(GarbageCollectorTest, RunUntilStableCountsEveryAction) {
  ObjectPtr lws = MustCreate(Lws(), ValidLeaderWorkerSet("l"));
  ObjectPtr sts = MustCreate(StatefulSets(), OwnedBy(ValidStatefulSet("l"), Lws(), lws));
  MustCreate(Pods(), OwnedBy(Pod("l-0"), StatefulSets(), sts));
  MustDelete(Lws(), "l");
  EXPECT_EQ(*Gc().RunUntilStable(1), 1);  // the pass bound holds
  EXPECT_EQ(*Gc().RunUntilStable(10), 1);
  EXPECT_EQ(*Gc().RunUntilStable(10), 0);
}

TEST_F(GarbageCollectorTest, DependentWithTwoOwnersLosesOnlyTheDanglingReference) {
  ObjectPtr a = MustCreate(ConfigMaps(), ConfigMap("a"));
  ObjectPtr b = MustCreate(ConfigMaps(), ConfigMap("b"));
  MustCreate(Pods(), OwnedBy(OwnedBy(Pod("p"), ConfigMaps(), a), ConfigMaps(), b));
  MustDelete(ConfigMaps(), "a");
  EXPECT_EQ(Passes(), (std::vector<int>{1}));
  Json refs = Current(Pods(), "p")["metadata"]["ownerReferences"];
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0]["name"], "b");
  EXPECT_EQ(refs[0]["uid"], b->uid());
}

TEST_F(GarbageCollectorTest, ForegroundOwnerWaitsForBlockingDependentsOnly) {
  ObjectPtr lws = MustCreate(Lws(), ValidLeaderWorkerSet("l"));
  ObjectPtr sts = MustCreate(StatefulSets(), OwnedBy(ValidStatefulSet("l"), Lws(), lws, true));
  MustCreate(Pods(), OnNode(OwnedBy(Pod("l-0"), StatefulSets(), sts, true)));
  MustCreate(Pods(), OnNode(OwnedBy(Pod("loose"), Lws(), lws, false)));
  MustDelete(Lws(), "l", Policy("Foreground"));

  // StatefulSet deleted in foreground, both pods terminating gracefully; nobody finishes yet.
  ASSERT_TRUE(Gc().RunUntilStable(10).ok());
  EXPECT_TRUE(Exists(Lws(), "l"));
  EXPECT_EQ(Current(StatefulSets(), "l")["metadata"]["finalizers"], Json({"foregroundDeletion"}));
  EXPECT_NE(store::MetaString(Current(Pods(), "l-0"), "deletionTimestamp"), "");
  EXPECT_NE(store::MetaString(Current(Pods(), "loose"), "deletionTimestamp"), "");

  // The kubelet finishes the blocking pod: the StatefulSet, then the LWS go, while the
  // non-blocking pod is still terminating.
  MustDelete(Pods(), "l-0", store::DeleteOptions{.grace_period_seconds = 0});
  EXPECT_EQ(Passes(), (std::vector<int>{1, 1}));
  EXPECT_FALSE(Exists(StatefulSets(), "l"));
  EXPECT_FALSE(Exists(Lws(), "l"));
  EXPECT_TRUE(Exists(Pods(), "loose"));
}

TEST_F(GarbageCollectorTest, OrphanKeepsDependentsWithoutTheReference) {
  ObjectPtr lws = MustCreate(Lws(), ValidLeaderWorkerSet("l"));
  ObjectPtr other = MustCreate(ConfigMaps(), ConfigMap("other"));
  MustCreate(StatefulSets(), OwnedBy(ValidStatefulSet("l"), Lws(), lws, true));
  MustCreate(Pods(), OwnedBy(OwnedBy(Pod("p"), Lws(), lws), ConfigMaps(), other));
  MustDelete(Lws(), "l", Policy("Orphan"));
  EXPECT_EQ(Current(Lws(), "l")["metadata"]["finalizers"], Json({"orphan"}));

  EXPECT_EQ(Passes(), (std::vector<int>{2, 1}));  // references first, then the finalizer
  EXPECT_FALSE(Exists(Lws(), "l"));
  EXPECT_FALSE(Current(StatefulSets(), "l")["metadata"].contains("ownerReferences"));
  Json refs = Current(Pods(), "p")["metadata"]["ownerReferences"];
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0]["name"], "other");
}

TEST_F(GarbageCollectorTest, OwnerInAnotherNamespaceCountsAsAbsent) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  MustCreate(Pods(), OwnedBy(Pod("p", "other"), ConfigMaps(), cm));
  MustCreate(Pods(), OwnedBy(Pod("q"), ConfigMaps(), cm));
  EXPECT_EQ(Passes(), (std::vector<int>{1}));
  EXPECT_FALSE(Exists(Pods(), "p", "other"));
  EXPECT_TRUE(Exists(Pods(), "q"));
  EXPECT_TRUE(Exists(ConfigMaps(), "cm"));
}

TEST_F(GarbageCollectorTest, ClusterScopedOwnerOwnsAcrossNamespaces) {
  ObjectPtr node = MustCreate(
      Nodes(), Json{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}}}});
  MustCreate(Pods(), OwnedBy(Pod("p", "a"), Nodes(), node));
  MustCreate(Pods(), OwnedBy(Pod("q", "b"), Nodes(), node));
  EXPECT_EQ(Passes(), std::vector<int>{});
  MustDelete(Nodes(), "n1");
  EXPECT_EQ(Passes(), (std::vector<int>{2}));
  EXPECT_FALSE(Exists(Pods(), "p", "a"));
  EXPECT_FALSE(Exists(Pods(), "q", "b"));
}

TEST_F(GarbageCollectorTest, ActionsApplyInSortedOrder) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  for (const char* name : {"c", "a", "b"}) MustCreate(Pods(), OwnedBy(Pod(name), ConfigMaps(), cm));
  MustCreate(Pods(), OwnedBy(Pod("z", "a-ns"), Nodes(), cm));  // kind mismatch: dangling
  MustDelete(ConfigMaps(), "cm");
  auto watcher = store_->Watch(Pods(), WatchFrom(store_->CurrentResourceVersion()));
  ASSERT_TRUE(watcher.ok());
  EXPECT_EQ(*Gc().RunOnce(), 4);
  std::vector<std::string> names;
  for (const auto& e : Drain(*watcher)) names.push_back(e.object->name().name);
  EXPECT_EQ(names, (std::vector<std::string>{"z", "a", "b", "c"}));
}

TEST_F(GarbageCollectorTest, StalePlanIsRetriedNotForced) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  MustCreate(Pods(), OwnedBy(Pod("changed"), ConfigMaps(), cm));
  MustCreate(Pods(), OwnedBy(Pod("recreated"), ConfigMaps(), cm));
  MustDelete(ConfigMaps(), "cm");
  GarbageCollector gc = Gc();
  auto snapshot = gc.Snapshot();
  ASSERT_TRUE(snapshot.ok());
  std::vector<GcAction> plan = PlanGarbageCollection(*snapshot);
  ASSERT_EQ(plan.size(), 2u);

  // After the snapshot: one pod gains a label (new resourceVersion), the other is replaced by
  // a namesake with another uid and no owner.
  Json changed = Current(Pods(), "changed");
  changed["metadata"]["labels"] = {{"a", "b"}};
  ASSERT_TRUE(store_->Update(Pods(), changed).ok());
  MustDelete(Pods(), "recreated");
  MustCreate(Pods(), Pod("recreated"));

  EXPECT_EQ(*gc.ApplyPlan(plan), 0);  // both conflicts, neither an error
  EXPECT_TRUE(Exists(Pods(), "changed"));
  EXPECT_TRUE(Exists(Pods(), "recreated"));
  EXPECT_EQ(Passes(), (std::vector<int>{1}));  // the next pass judges the fresh state
  EXPECT_FALSE(Exists(Pods(), "changed"));
  EXPECT_TRUE(Exists(Pods(), "recreated"));
}

TEST_F(GarbageCollectorTest, StaleRemovalOfAGoneObjectIsNotAnError) {
  ObjectPtr a = MustCreate(ConfigMaps(), ConfigMap("a"));
  ObjectPtr b = MustCreate(ConfigMaps(), ConfigMap("b"));
  MustCreate(Pods(), OwnedBy(OwnedBy(Pod("p"), ConfigMaps(), a), ConfigMaps(), b));
  MustDelete(ConfigMaps(), "a");
  GarbageCollector gc = Gc();
  std::vector<GcAction> plan = PlanGarbageCollection(*gc.Snapshot());
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, GcActionKind::kRemoveOwnerReferences);
  MustDelete(Pods(), "p");
  EXPECT_EQ(*gc.ApplyPlan(plan), 0);
}

// One collector across passes keeps what it read from each stored version; a new version of the
// same object (here its reference turned dangling) must be read again.
TEST_F(GarbageCollectorTest, APassReadsObjectsWrittenSinceTheLastPass) {
  ObjectPtr owner = MustCreate(StatefulSets(), ValidStatefulSet("s"));
  MustCreate(Pods(), OwnedBy(Pod("p"), StatefulSets(), owner));
  GarbageCollector gc = Gc();
  ASSERT_EQ(*gc.RunOnce(), 0);
  Json pod = Current(Pods(), "p");
  pod["metadata"]["ownerReferences"][0]["uid"] = "gone";
  ASSERT_TRUE(store_->Update(Pods(), pod).ok());
  EXPECT_EQ(*gc.RunOnce(), 1);
  EXPECT_FALSE(Exists(Pods(), "p"));
  EXPECT_EQ(*gc.RunOnce(), 0);
}

}  // namespace
}  // namespace lws::cluster
