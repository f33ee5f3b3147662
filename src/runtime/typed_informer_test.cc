#include "runtime/typed_informer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/lws_types.h"
#include "api/pod.h"
#include "client/local/local_testing.h"
#include "runtime/indexes.h"

namespace lws::runtime {
namespace {

using api::Json;

Json OwnerRef(const std::string& name, const std::string& uid) {
  return {{"apiVersion", "leaderworkerset.x-k8s.io/v1"},
          {"kind", "LeaderWorkerSet"},
          {"name", name},
          {"uid", uid},
          {"controller", true}};
}

Json Pod(const std::string& name, const std::string& group, const Json& owner = nullptr) {
  Json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name}, {"namespace", "default"}, {"labels", {{api::kGroupIndexLabel, group}}}}},
      {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  if (!owner.is_null()) pod["metadata"]["ownerReferences"] = Json::array({owner});
  return pod;
}

std::vector<std::string> Names(const std::vector<const api::Pod*>& pods) {
  std::vector<std::string> out;
  for (const api::Pod* pod : pods)
    out.push_back(pod->metadata.namespace_ + "/" + pod->metadata.name);
  return out;
}

class TypedInformerTest : public ::testing::Test {
 protected:
  TypedInformerTest() {
    pods.AddIndex("group", IndexByLabel(api::kGroupIndexLabel));
    pods.AddIndex("uid", IndexByControllerUid);
    pods.AddIndex("owner", IndexByControllerName);
    pods.AddHandler([this](const api::Pod* old, const api::Pod* now) {
      std::string kind = !old ? "add" : !now ? "delete" : "update";
      std::string label = [&] {
        if (!old || !now) return std::string();
        return ":" + old->metadata.Label(api::kGroupIndexLabel) + "->" +
               now->metadata.Label(api::kGroupIndexLabel);
      }();
      seen.push_back(kind + ":" + (now ? now : old)->metadata.name + label);
    });
  }

  void Write(const Json& pod) { ASSERT_TRUE(client.Create(client::kPods, pod).ok()); }
  void Relabel(const std::string& name, const std::string& group) {
    Json patch = {{"metadata", {{"labels", {{api::kGroupIndexLabel, group}}}}}};
    ASSERT_TRUE(
        client.Patch(client::kPods, "default", name, client::PatchType::kMerge, patch).ok());
  }
  void Remove(const std::string& name) {
    client::DeleteOptions now;
    now.grace_period_seconds = 0;
    ASSERT_TRUE(client.Delete(client::kPods, "default", name, now).ok());
  }
  // Stores `object` directly, past the API server's validation: what another writer with a
  // different schema could leave behind.
  void StoreRaw(const Json& object) {
    const api::ResourceInfo* info = cp.server->served()->registry.Find("", "v1", "pods");
    ASSERT_NE(info, nullptr);
    ASSERT_TRUE(cp.store->Update(*info, object).ok());
  }

  client::testing::ControlPlane cp;
  client::LocalClient client = cp.Client("test-controller");
  TypedInformer<api::Pod> pods{&cp.loop, &client, client::kPods};
  std::vector<std::string> seen;
};

TEST_F(TypedInformerTest, DecodesEachVersionOnce) {
  Write(Pod("a", "0"));
  Write(Pod("b", "0"));
  ASSERT_TRUE(pods.Start().ok());
  cp.loop.RunUntilIdle();
  const api::Pod* a = pods.Get("default", "a");
  const api::Pod* b = pods.Get("default", "b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->metadata.Label(api::kGroupIndexLabel), "0");
  EXPECT_EQ(pods.GetStored("default", "a")->document()["metadata"]["name"], "a");
  Relabel("b", "1");
  cp.loop.RunUntilIdle();
  EXPECT_EQ(pods.Get("default", "a"), a);  // unchanged: the same decoded object
  ASSERT_NE(pods.Get("default", "b"), nullptr);
  EXPECT_EQ(pods.Get("default", "b")->metadata.Label(api::kGroupIndexLabel), "1");
  EXPECT_EQ(pods.Get("default", "missing"), nullptr);
  EXPECT_EQ(pods.GetStored("default", "missing"), nullptr);
  EXPECT_EQ(Names(pods.List()), (std::vector<std::string>{"default/a", "default/b"}));
}

TEST_F(TypedInformerTest, InformersShareTheStoredVersionsViewUnlessPrivate) {
  TypedInformer<api::Pod> second{&cp.loop, &client, client::kPods};
  TypedInformer<api::Pod> own{&cp.loop, &client, client::kPods};
  own.DecodePrivately();
  Write(Pod("a", "0"));
  ASSERT_TRUE(pods.Start().ok());
  ASSERT_TRUE(second.Start().ok());
  ASSERT_TRUE(own.Start().ok());
  cp.loop.RunUntilIdle();
  const api::Pod* a = pods.Get("default", "a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(second.Get("default", "a"), a);  // one decoding for both
  ASSERT_NE(own.Get("default", "a"), nullptr);
  EXPECT_NE(own.Get("default", "a"), a);
  // The stored version has managedFields (the API server wrote them, the store keeps them apart
  // from the object); the views do not.
  EXPECT_FALSE(pods.GetStored("default", "a")->managed_fields().empty());
  EXPECT_FALSE(a->metadata.rest.contains("managedFields"));
  EXPECT_FALSE(own.Get("default", "a")->metadata.rest.contains("managedFields"));
}

TEST_F(TypedInformerTest, HandlersSeeOldAndNow) {
  ASSERT_TRUE(pods.Start().ok());
  Write(Pod("a", "0"));
  cp.loop.RunUntilIdle();
  Relabel("a", "1");
  cp.loop.RunUntilIdle();
  Remove("a");
  cp.loop.RunUntilIdle();
  EXPECT_EQ(seen, (std::vector<std::string>{"add:a", "update:a:0->1", "delete:a"}));
  EXPECT_EQ(pods.Get("default", "a"), nullptr);
  EXPECT_TRUE(pods.List().empty());
}

TEST_F(TypedInformerTest, IndexesFollowLabelChangesAndDeletes) {
  Write(Pod("a-0", "0", OwnerRef("a", "uid-a")));
  Write(Pod("a-1", "1", OwnerRef("a", "uid-a")));
  Write(Pod("b-0", "0", OwnerRef("b", "uid-b")));
  Write(Pod("lone", "0"));
  ASSERT_TRUE(pods.Start().ok());
  cp.loop.RunUntilIdle();
  EXPECT_EQ(Names(pods.ByIndex("group", "0")),
            (std::vector<std::string>{"default/a-0", "default/b-0", "default/lone"}));
  EXPECT_EQ(Names(pods.ByIndex("uid", "uid-a")),
            (std::vector<std::string>{"default/a-0", "default/a-1"}));
  EXPECT_EQ(Names(pods.ByIndex("owner", ControllerNameKey("LeaderWorkerSet", "default", "b"))),
            (std::vector<std::string>{"default/b-0"}));
  EXPECT_EQ(ControllerNameKey("LeaderWorkerSet", "default", "b"), "LeaderWorkerSet/default/b");

  Relabel("a-0", "1");
  Remove("b-0");
  cp.loop.RunUntilIdle();
  EXPECT_EQ(Names(pods.ByIndex("group", "0")), (std::vector<std::string>{"default/lone"}));
  EXPECT_EQ(Names(pods.ByIndex("group", "1")),
            (std::vector<std::string>{"default/a-0", "default/a-1"}));
  EXPECT_TRUE(pods.ByIndex("uid", "uid-b").empty());
  EXPECT_TRUE(pods.ByIndex("owner", "LeaderWorkerSet/default/b").empty());
  EXPECT_TRUE(pods.ByIndex("no-such-index", "0").empty());
}

// A version that keeps its index values (an annotation change) is filed in place: the index
// must hand out the new version, not the replaced one.
TEST_F(TypedInformerTest, IndexesHandOutTheNewVersionWhenTheirValuesStay) {
  Write(Pod("a-0", "0", OwnerRef("a", "uid-a")));
  ASSERT_TRUE(pods.Start().ok());
  cp.loop.RunUntilIdle();
  Json patch = {{"metadata", {{"annotations", {{"note", "second"}}}}}};
  ASSERT_TRUE(client.Patch(client::kPods, "default", "a-0", client::PatchType::kMerge, patch).ok());
  cp.loop.RunUntilIdle();
  const api::Pod* now = pods.Get("default", "a-0");
  ASSERT_NE(now, nullptr);
  EXPECT_EQ(now->metadata.annotations.at("note"), "second");
  for (const auto& [index, value] : std::vector<std::pair<std::string, std::string>>{
           {"group", "0"}, {"uid", "uid-a"}, {"owner", "LeaderWorkerSet/default/a"}}) {
    std::vector<const api::Pod*> filed = pods.ByIndex(index, value);
    ASSERT_EQ(filed.size(), 1u) << index;
    EXPECT_EQ(filed[0], now) << index;
  }
}

TEST_F(TypedInformerTest, UndecodableObjectIsTreatedAsAbsent) {
  ASSERT_TRUE(pods.Start().ok());
  Write(Pod("a", "0"));
  cp.loop.RunUntilIdle();
  Json bad = Pod("a", "0");
  bad["spec"]["containers"] = "not a list";
  StoreRaw(bad);
  cp.loop.RunUntilIdle();
  EXPECT_EQ(pods.Get("default", "a"), nullptr);
  EXPECT_EQ(pods.GetStored("default", "a"), nullptr);
  EXPECT_TRUE(pods.ByIndex("group", "0").empty());
  EXPECT_NE(pods.informer().Get("default", "a"), nullptr);  // the raw cache still has it
  StoreRaw(Pod("a", "2"));
  cp.loop.RunUntilIdle();
  EXPECT_EQ(seen, (std::vector<std::string>{"add:a", "delete:a", "add:a"}));
  EXPECT_EQ(Names(pods.ByIndex("group", "2")), (std::vector<std::string>{"default/a"}));
}

TEST_F(TypedInformerTest, SyncedOnceTheInitialObjectsArrived) {
  EXPECT_FALSE(pods.synced());  // not started
  // More than one watch batch (512 events), so the initial list takes several loop tasks.
  for (int i = 0; i < 600; ++i) Write(Pod("p-" + std::to_string(i), "0"));
  std::vector<std::size_t> size_when_synced;
  pods.OnSynced([&] { size_when_synced.push_back(pods.size()); });
  ASSERT_TRUE(pods.Start().ok());
  EXPECT_FALSE(pods.synced());
  ASSERT_TRUE(cp.loop.Step());  // the first batch
  EXPECT_FALSE(pods.synced());
  EXPECT_LT(pods.size(), 600u);
  cp.loop.RunUntilIdle();
  EXPECT_TRUE(pods.synced());
  EXPECT_EQ(size_when_synced, (std::vector<std::size_t>{600}));
  // Deleting objects afterwards does not make it unsynced.
  Remove("p-0");
  cp.loop.RunUntilIdle();
  EXPECT_TRUE(pods.synced());
  EXPECT_EQ(pods.Start().code(), Code::kInternal);  // started twice
}

TEST_F(TypedInformerTest, EmptyInitialListSyncsOnTheLoop) {
  ASSERT_TRUE(pods.Start().ok());
  EXPECT_FALSE(pods.synced());
  cp.loop.RunUntilIdle();
  EXPECT_TRUE(pods.synced());
}

// With workers, a version replaced or deleted by the loop stays readable by a reconcile that
// started before (ASan would report the read otherwise) and is freed when that reconcile ends.
TEST_F(TypedInformerTest, SharedCacheKeepsReplacedVersionsForRunningReaders) {
  ConcurrentReads reads;
  pods.ShareWith(&reads);
  ASSERT_TRUE(pods.Start().ok());
  Write(Pod("a", "0"));
  cp.loop.RunUntilIdle();
  const api::Pod* before = nullptr;
  {
    ConcurrentReads::Reader reconcile(&reads);
    before = pods.Get("default", "a");
    ASSERT_NE(before, nullptr);
    Relabel("a", "1");
    cp.loop.RunUntilIdle();
    Remove("a");
    cp.loop.RunUntilIdle();
    EXPECT_EQ(pods.Get("default", "a"), nullptr);                   // later reads see the change
    EXPECT_EQ(before->metadata.Label(api::kGroupIndexLabel), "0");  // still alive
    EXPECT_EQ(reads.retired(), 2u);
  }
  EXPECT_EQ(reads.retired(), 0u);
  EXPECT_EQ(seen, (std::vector<std::string>{"add:a", "update:a:0->1", "delete:a"}));
}

}  // namespace
}  // namespace lws::runtime
