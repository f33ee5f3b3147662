// The garbage collector's graph against a real in-memory store: what a pass judges after each
// kind of change, when it reads everything again, and (property) that collecting from the graph
// leaves a cluster exactly as collecting from a full listing on every pass does.
#include "cluster/gc_graph.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "cluster/garbage_collector.h"
#include "cluster/gc_testing.h"

namespace lws::cluster {
namespace {

using api::Json;
using store::ObjectPtr;
using namespace store::testing;  // NOLINT: the store's test fixtures and builders
using cluster::testing::OwnedBy;

// "pods/p judged", "configmaps/cm context": one line per snapshot object, in order.
std::vector<std::string> Judging(const GcSnapshot& snapshot) {
  std::vector<std::string> out;
  for (const GcObject& entry : snapshot.objects) {
    out.push_back(entry.resource->resource + "/" + entry.meta->name +
                  (entry.judged ? " judged" : " context"));
  }
  return out;
}

class GcGraphTest : public StoreTest {
 protected:
  std::vector<std::string> Next() {
    Result<GcSnapshot> snapshot = graph_.NextSnapshot(*store_, Registry());
    EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    return snapshot.ok() ? Judging(*snapshot) : std::vector<std::string>{};
  }

  GcGraph graph_;
};

TEST_F(GcGraphTest, FirstSnapshotJudgesEveryObject) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  MustCreate(Pods(), OwnedBy(Pod("p"), ConfigMaps(), cm));
  EXPECT_EQ(Next(), (std::vector<std::string>{"configmaps/cm judged", "pods/p judged"}));
  EXPECT_EQ(graph_.full_reads(), 1);
  EXPECT_EQ(graph_.size(), 2u);
  EXPECT_TRUE(Next().empty());  // nothing changed since
}

TEST_F(GcGraphTest, WritesTheRulesDoNotReadJudgeNothing) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  ObjectPtr pod = MustCreate(Pods(), OwnedBy(Pod("p"), ConfigMaps(), cm));
  Next();
  Json relabelled = pod->document();
  relabelled["metadata"]["labels"] = {{"a", "b"}};
  ASSERT_TRUE(store_->Update(Pods(), relabelled).ok());
  Json edited = cm->document();
  edited["data"]["k"] = "changed";
  ASSERT_TRUE(store_->Update(ConfigMaps(), edited).ok());
  MustCreate(ConfigMaps(), ConfigMap("unrelated"));  // judged: new, but takes part in nothing
  EXPECT_EQ(Next(), (std::vector<std::string>{"configmaps/unrelated judged"}));
  EXPECT_EQ(graph_.full_reads(), 1);
}

TEST_F(GcGraphTest, NewDependentIsJudgedWithItsOwnerButNotTheOwnersOtherDependents) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  MustCreate(Pods(), OwnedBy(Pod("p1"), ConfigMaps(), cm));
  Next();
  MustCreate(Pods(), OwnedBy(Pod("p2"), ConfigMaps(), cm));
  // The owner is judged (its dependents changed), but it is not being deleted: its verdict
  // reads its own owners only, so its other dependents stay out.
  EXPECT_EQ(Next(), (std::vector<std::string>{"configmaps/cm judged", "pods/p2 judged"}));
}

TEST_F(GcGraphTest, OwnerWaitingForItsDependentsIsJudgedWithAllOfThem) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  ObjectPtr p1 = MustCreate(Pods(), OwnedBy(Pod("p1"), ConfigMaps(), cm));
  MustCreate(Pods(), OwnedBy(Pod("p2"), ConfigMaps(), cm));
  MustCreate(Pods(), OwnedBy(Pod("p1-child"), Pods(), p1));
  Next();
  ASSERT_TRUE(
      store_->Delete(ConfigMaps(), "default", "cm", {.propagation_policy = "Foreground"}).ok());
  // Rule 6 reads every dependent of the waiting owner; rule 4 asks each of them whether it has
  // dependents of its own (p1 has), so theirs come too.
  EXPECT_EQ(Next(), (std::vector<std::string>{"configmaps/cm judged", "pods/p1 judged",
                                              "pods/p1-child context", "pods/p2 judged"}));
}

TEST_F(GcGraphTest, DeletedOwnerHasItsDependentsJudgedAndCollected) {
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  MustCreate(Pods(), OwnedBy(Pod("p1"), ConfigMaps(), cm));
  MustCreate(Pods(), OwnedBy(Pod("p2"), ConfigMaps(), cm));
  MustCreate(Pods(), Pod("bystander"));
  cluster::testing::ControlPlaneOver plane(store_.get(), &clock_, "generic-garbage-collector");
  GarbageCollector gc(store_.get(), &plane.client, &Registry(), &graph_);
  ASSERT_EQ(*gc.RunOnce(), 0);
  ASSERT_TRUE(store_->Delete(ConfigMaps(), "default", "cm").ok());
  EXPECT_EQ(*gc.RunOnce(), 2);
  EXPECT_FALSE(store_->Get(Pods(), "default", "p1").ok());
  EXPECT_FALSE(store_->Get(Pods(), "default", "p2").ok());
  EXPECT_TRUE(store_->Get(Pods(), "default", "bystander").ok());
  EXPECT_EQ(*gc.RunOnce(), 0);
  EXPECT_EQ(graph_.full_reads(), 1);
}

TEST_F(GcGraphTest, ReferenceAddedToAnOlderObjectJudgesBothOnTheNextPass) {
  // The pod was judged before the ConfigMap existed; the update that makes the ConfigMap its
  // owner changes the pod's references, so both are judged again, each beside the other.
  MustCreate(Pods(), Pod("p"));
  Next();
  ObjectPtr cm = MustCreate(ConfigMaps(), ConfigMap("cm"));
  Json pod = store_->Get(Pods(), "default", "p").value()->document();
  pod = OwnedBy(pod, ConfigMaps(), cm);
  ASSERT_TRUE(store_->Update(Pods(), pod).ok());
  EXPECT_EQ(Next(), (std::vector<std::string>{"configmaps/cm judged", "pods/p judged"}));
}

TEST_F(GcGraphTest, TrimmedHistoryReadsEverythingAgain) {
  store_ = OpenStore(store::StoreOptions{.history_size = 2});
  MustCreate(ConfigMaps(), ConfigMap("a"));
  Next();
  for (const char* name : {"b", "c", "d"}) MustCreate(ConfigMaps(), ConfigMap(name));
  EXPECT_EQ(Next(), (std::vector<std::string>{"configmaps/a judged", "configmaps/b judged",
                                              "configmaps/c judged", "configmaps/d judged"}));
  EXPECT_EQ(graph_.full_reads(), 2);
}

TEST_F(GcGraphTest, ResourcesNotServedAreAbsentAndAChangeOfThemJudgesEverything) {
  const api::ResourceRegistry builtins = api::ResourceRegistry::WithBuiltins();
  ObjectPtr lws = MustCreate(Lws(), LeaderWorkerSet("l"));
  MustCreate(Pods(), OwnedBy(Pod("p"), Lws(), lws));
  ASSERT_TRUE(graph_.NextSnapshot(*store_, Registry()).ok());
  // Without the CRD the LWS is absent, and the pod, unchanged, is judged on that.
  Result<GcSnapshot> without = graph_.NextSnapshot(*store_, builtins);
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(Judging(*without), (std::vector<std::string>{"pods/p judged"}));
  ASSERT_EQ(PlanGarbageCollection(*without).size(), 1u);  // deleted: its owner is absent
  Result<GcSnapshot> again = graph_.NextSnapshot(*store_, Registry());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Judging(*again),
            (std::vector<std::string>{"leaderworkersets/l judged", "pods/p judged"}));
}

// Two stores receive the same writes. After each, one is collected through a graph kept across
// passes, the other by a fresh graph (a full listing) on every pass: they must end up equal,
// object for object. The stores give the same uids to the same writes, so any difference in
// what the collectors did shows.
class Twin {
 public:
  explicit Twin(const ManualClock* clock) {
    store_ = std::move(store::Store::Open(store::StoreOptions{.clock = clock}).value());
    plane_ = std::make_unique<cluster::testing::ControlPlaneOver>(store_.get(), clock,
                                                                  "generic-garbage-collector");
  }
  store::Store& store() { return *store_; }
  // Creates through the API: the collector's updates pass the server's validation.
  void Create(const api::ResourceInfo& info, Json object) {
    (void)plane_->admin.Create(client::ResourceOf(info), std::move(object));
  }
  int CollectIncrementally() {
    return *GarbageCollector(store_.get(), Writer(), &Registry(), &graph_).RunUntilStable(50);
  }
  int CollectFromScratch() {
    int total = 0;
    for (int pass = 0; pass < 50; ++pass) {
      const int changed = *GarbageCollector(store_.get(), Writer(), &Registry()).RunOnce();
      if (changed == 0) break;
      total += changed;
    }
    return total;
  }
  std::vector<Json> Everything() {
    std::vector<Json> out;
    for (const api::ResourceInfo* info : {&ConfigMaps(), &Pods(), &StatefulSets()}) {
      Result<store::ListResult> listed = store_->List(*info, {});
      for (const ObjectPtr& item : listed.value().items) out.push_back(item->document());
    }
    return out;
  }

 private:
  const client::Client* Writer() const { return &plane_->client; }

  std::unique_ptr<store::Store> store_;
  std::unique_ptr<cluster::testing::ControlPlaneOver> plane_;
  GcGraph graph_;
};

const api::ResourceInfo& KindAt(int i) {
  const api::ResourceInfo* kinds[] = {&ConfigMaps(), &Pods(), &StatefulSets()};
  return *kinds[i];
}

Json Named(const api::ResourceInfo& info, const std::string& name) {
  if (&info == &Pods()) return Pod(name);
  if (&info == &StatefulSets()) return cluster::testing::ValidStatefulSet(name);
  return ConfigMap(name);
}

// A choice in [0, n), uniform whatever rapidcheck's size: small sizes would make nearly every
// early case a handful of creates.
int Pick(int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }

RC_GTEST_PROP(GcGraphProperty, CollectingFromTheGraphEqualsCollectingFromFullListings, ()) {
  ManualClock clock;
  Twin incremental(&clock), scratch(&clock);
  const int steps = 1 + Pick(40);
  for (int step = 0; step < steps; ++step) {
    const api::ResourceInfo& info = KindAt(Pick(3));
    const std::string name = "o" + std::to_string(Pick(4));
    const int op = Pick(10);
    struct Owner {
      const api::ResourceInfo* info;
      std::string name;
      bool block;
    };
    std::vector<Owner> owners;  // for a create: existing objects become owners
    const int owner_count = op < 5 ? Pick(3) : 0;
    for (int i = 0; i < owner_count; ++i) {
      owners.push_back({&KindAt(Pick(3)), "o" + std::to_string(Pick(4)), Pick(2) == 0});
    }
    // The same write, decided above, to both stores.
    auto write = [&](Twin& twin) {
      store::Store& s = twin.store();
      if (op < 5) {
        Json object = Named(info, name);
        for (const Owner& o : owners) {
          auto owner = s.Get(*o.info, "default", o.name);
          if (owner.ok()) object = OwnedBy(object, *o.info, *owner, o.block);
        }
        twin.Create(info, object);
      } else if (op < 8) {  // delete with one of the three policies
        const char* policies[] = {"Background", "Foreground", "Orphan"};
        (void)s.Delete(info, "default", name, {.propagation_policy = policies[op - 5]});
      } else if (auto current = s.Get(info, "default", name); current.ok()) {
        Json object = (*current)->document();
        if (op == 8) {
          object["metadata"]["labels"]["step"] = std::to_string(step);  // read by no rule
        } else {
          object["metadata"]["ownerReferences"].push_back(
              {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "gone"}, {"uid", "gone"}});
        }
        (void)s.Update(info, object);
      }
    };
    write(incremental);
    write(scratch);
    const int by_graph = incremental.CollectIncrementally();
    const int by_listing = scratch.CollectFromScratch();
    RC_ASSERT(by_graph == by_listing);
    RC_ASSERT(incremental.Everything() == scratch.Everything());
  }
}

}  // namespace
}  // namespace lws::cluster
