// Table-driven tests of the garbage collector's pure rules (gc_plan.h).
#include "cluster/gc_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "store/store_testing.h"

namespace lws::cluster {
namespace {

using api::Json;
using store::testing::ConfigMaps;
using store::testing::Lws;
using store::testing::Nodes;
using store::testing::Pods;
using store::testing::StatefulSets;

// Options of one test object beyond its identity.
struct Extra {
  std::vector<Json> refs;
  std::vector<std::string> finalizers;
  bool deleting = false;
  std::uint64_t rv = 1;
};

// An object of `info` with uid "u-<name>".
GcObject Object(const api::ResourceInfo& info, const std::string& ns, const std::string& name,
                Extra extra = {}) {
  Json json = {{"apiVersion", info.ApiVersion()},
               {"kind", info.kind},
               {"metadata", {{"name", name}, {"uid", "u-" + name}}}};
  if (!ns.empty()) json["metadata"]["namespace"] = ns;
  if (!extra.refs.empty()) json["metadata"]["ownerReferences"] = extra.refs;
  if (!extra.finalizers.empty()) json["metadata"]["finalizers"] = extra.finalizers;
  if (extra.deleting) json["metadata"]["deletionTimestamp"] = "2024-01-02T03:04:05Z";
  return GcObject{&info, store::MakeStoredObject(std::move(json), extra.rv)};
}

// An ownerReference to a (possibly absent) object of `info` named `name`, uid "u-<name>".
Json Ref(const api::ResourceInfo& info, const std::string& name, bool block = false) {
  Json ref = {{"apiVersion", info.ApiVersion()},
              {"kind", info.kind},
              {"name", name},
              {"uid", "u-" + name},
              {"controller", true}};
  if (block) ref["blockOwnerDeletion"] = true;
  return ref;
}

Extra Owned(std::vector<Json> refs) { return Extra{.refs = std::move(refs)}; }

std::vector<std::string> Describe(const std::vector<GcAction>& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) out.push_back(ToString(a));
  return out;
}

struct PlanCase {
  std::string name;
  std::vector<GcObject> objects;
  std::vector<std::string> want;
};

std::vector<PlanCase> Cases() {
  const Extra foreground{.finalizers = {"foregroundDeletion"}, .deleting = true};
  const Extra orphan{.finalizers = {"orphan"}, .deleting = true};
  return {
      {"no owner references: never collected", {Object(Pods(), "default", "p")}, {}},
      {"live owner: nothing to do",
       {Object(StatefulSets(), "default", "s"),
        Object(Pods(), "default", "p", Owned({Ref(StatefulSets(), "s")}))},
       {}},
      {"objects outside the ownership graph change nothing; a named one still resolves",
       {Object(ConfigMaps(), "default", "unrelated-1"), Object(ConfigMaps(), "default", "owner"),
        Object(ConfigMaps(), "default", "unrelated-2"),
        Object(Pods(), "default", "kept", Owned({Ref(ConfigMaps(), "owner")})),
        Object(Pods(), "default", "orphaned", Owned({Ref(ConfigMaps(), "unrelated-3")}))},
       {"Delete pods default/orphaned Background"}},
      {"absent owner: background delete",
       {Object(Pods(), "default", "p", Owned({Ref(StatefulSets(), "s")}))},
       {"Delete pods default/p Background"}},
      {"absent owner, own orphan finalizer honoured",
       {Object(Pods(), "default", "p",
               {.refs = {Ref(StatefulSets(), "s")}, .finalizers = {"orphan"}})},
       {"Delete pods default/p Orphan"}},
      {"one live and one absent owner: only the dangling reference goes",
       {Object(ConfigMaps(), "default", "live"),
        Object(Pods(), "default", "p",
               Owned({Ref(ConfigMaps(), "gone"), Ref(ConfigMaps(), "live")}))},
       {"RemoveOwnerReferences pods default/p [u-gone]"}},
      {"owner being deleted without GC finalizer still exists",
       {Object(StatefulSets(), "default", "s",
               {.finalizers = {"example.com/keep"}, .deleting = true}),
        Object(Pods(), "default", "p", Owned({Ref(StatefulSets(), "s")}))},
       {}},
      {"uid matches but name differs: absent",
       {Object(StatefulSets(), "default", "s"), Object(Pods(), "default", "p", Owned({[] {
                                                         Json r = Ref(StatefulSets(), "s");
                                                         r["name"] = "t";
                                                         return r;
                                                       }()}))},
       {"Delete pods default/p Background"}},
      {"uid matches but kind differs: absent",
       {Object(StatefulSets(), "default", "s"), Object(Pods(), "default", "p", Owned({[] {
                                                         Json r = Ref(StatefulSets(), "s");
                                                         r["kind"] = "Deployment";
                                                         return r;
                                                       }()}))},
       {"Delete pods default/p Background"}},
      {"another version of the owner's group still resolves",
       {Object(StatefulSets(), "default", "s"), Object(Pods(), "default", "p", Owned({[] {
                                                         Json r = Ref(StatefulSets(), "s");
                                                         r["apiVersion"] = "apps/v1beta2";
                                                         return r;
                                                       }()}))},
       {}},
      {"namespaced owner in another namespace: absent",
       {Object(ConfigMaps(), "other", "cm"),
        Object(Pods(), "default", "p", Owned({Ref(ConfigMaps(), "cm")}))},
       {"Delete pods default/p Background"}},
      {"cluster-scoped owner owns objects of any namespace",
       {Object(Nodes(), "", "n1"), Object(Pods(), "a", "p", Owned({Ref(Nodes(), "n1")})),
        Object(Pods(), "b", "q", Owned({Ref(Nodes(), "n1")}))},
       {}},
      {"cluster-scoped dependent of a namespaced owner: absent",
       {Object(ConfigMaps(), "default", "cm"),
        Object(Nodes(), "", "n1", Owned({Ref(ConfigMaps(), "cm")}))},
       {"Delete nodes n1 Background"}},
      {"dependent being deleted is left alone",
       {Object(Pods(), "default", "p", {.refs = {Ref(StatefulSets(), "s")}, .deleting = true})},
       {}},
      {"reference without uid is ignored",
       {Object(Pods(), "default", "p", Owned({Json{{"kind", "StatefulSet"}, {"name", "s"}}}))},
       {}},
      {"object written after the snapshot began is not judged",
       {Object(Pods(), "default", "p", {.refs = {Ref(StatefulSets(), "s")}, .rv = 11})},
       {}},
      {"foreground: blocking leaf dependent deleted in background, owner waits",
       {Object(Lws(), "default", "l", foreground),
        Object(Pods(), "default", "p", Owned({Ref(Lws(), "l", true)}))},
       {"Delete pods default/p Background"}},
      {"foreground: dependent with dependents deleted in foreground",
       {Object(Lws(), "default", "l", foreground),
        Object(StatefulSets(), "default", "s", Owned({Ref(Lws(), "l", true)})),
        Object(Pods(), "default", "p", Owned({Ref(StatefulSets(), "s", true)}))},
       {"Delete statefulsets.apps default/s Foreground"}},
      {"foreground: terminating blocking dependent holds the owner",
       {Object(Lws(), "default", "l", foreground),
        Object(Pods(), "default", "p", {.refs = {Ref(Lws(), "l", true)}, .deleting = true})},
       {}},
      {"foreground: non-blocking dependents do not hold the owner",
       {Object(Lws(), "default", "l", foreground),
        Object(Pods(), "default", "p", Owned({Ref(Lws(), "l")})),
        Object(Pods(), "default", "q", {.refs = {Ref(Lws(), "l")}, .deleting = true})},
       {"RemoveFinalizer leaderworkersets.leaderworkerset.x-k8s.io default/l foregroundDeletion",
        "Delete pods default/p Background"}},
      {"foreground: no dependents left",
       {Object(Lws(), "default", "l", foreground)},
       {"RemoveFinalizer leaderworkersets.leaderworkerset.x-k8s.io default/l foregroundDeletion"}},
      {"foreground: dependent with another live owner only loses the reference",
       {Object(Lws(), "default", "l", foreground), Object(ConfigMaps(), "default", "live"),
        Object(Pods(), "default", "p", Owned({Ref(Lws(), "l", true), Ref(ConfigMaps(), "live")}))},
       {"RemoveOwnerReferences pods default/p [u-l]"}},
      {"orphan: references removed, finalizer kept until they are gone",
       {Object(Lws(), "default", "l", orphan),
        Object(StatefulSets(), "default", "s", Owned({Ref(Lws(), "l", true)})),
        Object(Pods(), "default", "p", {.refs = {Ref(Lws(), "l")}, .deleting = true})},
       {"RemoveOwnerReferences pods default/p [u-l]",
        "RemoveOwnerReferences statefulsets.apps default/s [u-l]"}},
      {"orphan: no dependents left",
       {Object(Lws(), "default", "l", orphan)},
       {"RemoveFinalizer leaderworkersets.leaderworkerset.x-k8s.io default/l orphan"}},
      {"orphan and dangling references of one dependent: one update, no delete",
       {Object(Lws(), "default", "l", orphan),
        Object(Pods(), "default", "p", Owned({Ref(StatefulSets(), "gone"), Ref(Lws(), "l")}))},
       {"RemoveOwnerReferences pods default/p [u-gone u-l]"}},
  };
}

TEST(GcPlanTest, Rules) {
  for (const PlanCase& c : Cases()) {
    GcSnapshot snapshot{c.objects, 10};
    EXPECT_EQ(Describe(PlanGarbageCollection(snapshot)), c.want) << c.name;
  }
}

TEST(GcPlanTest, DeleteCarriesPreconditions) {
  GcSnapshot snapshot{
      {Object(Pods(), "default", "p", {.refs = {Ref(StatefulSets(), "s")}, .rv = 7})}};
  GcAction want{.kind = GcActionKind::kDelete,
                .resource = &Pods(),
                .namespace_ = "default",
                .name = "p",
                .uid = "u-p",
                .resource_version = "7",
                .propagation_policy = "Background"};
  EXPECT_EQ(PlanGarbageCollection(snapshot), std::vector<GcAction>{want});
}

// Every order of the same objects gives the same plan, sorted by (resource, namespace, name).
TEST(GcPlanTest, OrderIsIndependentOfTheSnapshot) {
  const std::vector<std::string> want = {
      "RemoveFinalizer leaderworkersets.leaderworkerset.x-k8s.io default/l orphan",
      "Delete pods a/z Background",
      "Delete pods b/a Background",
      "Delete statefulsets.apps a/a Background",
  };
  std::vector<GcObject> objects = {
      Object(Pods(), "b", "a", Owned({Ref(Nodes(), "gone")})),
      Object(StatefulSets(), "a", "a", Owned({Ref(Nodes(), "gone")})),
      Object(Lws(), "default", "l", {.finalizers = {"orphan"}, .deleting = true}),
      Object(Pods(), "a", "z", Owned({Ref(Nodes(), "gone")})),
  };
  std::vector<int> order = {0, 1, 2, 3};
  do {
    GcSnapshot snapshot;
    for (int i : order) snapshot.objects.push_back(objects[i]);
    EXPECT_EQ(Describe(PlanGarbageCollection(snapshot)), want);
  } while (std::next_permutation(order.begin(), order.end()));
}

}  // namespace
}  // namespace lws::cluster
