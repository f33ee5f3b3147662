#include "store/store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "store/store_testing.h"

namespace lws::store {
namespace {

using testing::ConfigMaps;
using testing::Lws;
using testing::Pods;
using testing::Rv;
using testing::StatefulSets;

class StoreWriteTest : public testing::StoreTest {};

TEST_F(StoreWriteTest, OneResourceVersionCounterAcrossResources) {
  EXPECT_EQ(store_->CurrentResourceVersion(), 0u);
  EXPECT_EQ(Rv(MustCreate(Pods(), testing::Pod("p1"))), "1");
  EXPECT_EQ(Rv(MustCreate(ConfigMaps(), testing::ConfigMap("c1"))), "2");
  EXPECT_EQ(Rv(MustCreate(StatefulSets(), testing::StatefulSet("s1"))), "3");
  Json update = (*store_->Get(Pods(), "default", "p1"))->document();
  update["metadata"]["labels"] = {{"a", "b"}};
  EXPECT_EQ(Rv(*store_->Update(Pods(), update)), "4");
  ASSERT_TRUE(store_->Delete(ConfigMaps(), "default", "c1").ok());
  EXPECT_EQ(store_->CurrentResourceVersion(), 5u);
  EXPECT_EQ(Rv(MustCreate(ConfigMaps(), testing::ConfigMap("c1"))), "6");
}

TEST_F(StoreWriteTest, LastWriteIsPerResource) {
  EXPECT_EQ(store_->LastWrite(Pods()), 0u);
  MustCreate(Pods(), testing::Pod("p1"));              // 1
  MustCreate(ConfigMaps(), testing::ConfigMap("c1"));  // 2
  EXPECT_EQ(store_->LastWrite(Pods()), 1u);
  EXPECT_EQ(store_->LastWrite(ConfigMaps()), 2u);
  EXPECT_EQ(store_->LastWrite(StatefulSets()), 0u);
  Json status = (*store_->Get(Pods(), "default", "p1"))->document();
  status["status"] = {{"phase", "Running"}};
  ASSERT_TRUE(store_->UpdateStatus(Pods(), status).ok());  // 3
  EXPECT_EQ(store_->LastWrite(Pods()), 3u);
  ASSERT_TRUE(store_->Delete(ConfigMaps(), "default", "c1").ok());  // 4
  EXPECT_EQ(store_->LastWrite(ConfigMaps()), 4u);
  EXPECT_EQ(store_->LastWrite(Pods()), 3u);
  // A write that changes nothing stores nothing.
  ASSERT_TRUE(
      store_->UpdateStatus(Pods(), (*store_->Get(Pods(), "default", "p1"))->document()).ok());
  EXPECT_EQ(store_->LastWrite(Pods()), 3u);
}

TEST_F(StoreWriteTest, CreateSetsIdentityFromTheClockAndSeed) {
  clock_.Set(Time(std::chrono::seconds(1'700'000'000)));
  ObjectPtr p = MustCreate(Pods(), testing::Pod("p1"));
  EXPECT_EQ(MetaString(p->document(), "creationTimestamp"), "2023-11-14T22:13:20Z");
  const std::string uid = p->uid();
  EXPECT_EQ(uid.size(), 36u);
  EXPECT_EQ(uid[14], '4') << "UUID version 4";
  // Same seed, same sequence: the simulator replays uids exactly.
  auto twin = OpenStore();
  EXPECT_EQ(MetaString((*twin->Create(Pods(), testing::Pod("p1")))->document(), "uid"), uid);
  StoreOptions other;
  other.seed = 99;
  auto different = OpenStore(other);
  EXPECT_NE(MetaString((*different->Create(Pods(), testing::Pod("p1")))->document(), "uid"), uid);
}

TEST_F(StoreWriteTest, AlreadyExists) {
  MustCreate(Pods(), testing::Pod("p1"));
  auto again = store_->Create(Pods(), testing::Pod("p1"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), Code::kAlreadyExists);
  EXPECT_EQ(again.status().message(), "pods \"p1\" already exists");
  EXPECT_TRUE(store_->Create(Pods(), testing::Pod("p1", "other")).ok()) << "other namespace";
  MustCreate(Lws(), testing::LeaderWorkerSet("l1"));
  EXPECT_EQ(store_->Create(Lws(), testing::LeaderWorkerSet("l1")).status().message(),
            "leaderworkersets.leaderworkerset.x-k8s.io \"l1\" already exists");
}

TEST_F(StoreWriteTest, GenerateName) {
  Json pod = testing::Pod("");
  pod["metadata"]["generateName"] = "web-";
  std::set<std::string> names;
  for (int i = 0; i < 50; ++i) {
    ObjectPtr p = MustCreate(Pods(), pod);
    const std::string name = p->name().name;
    ASSERT_EQ(name.size(), 9u);
    EXPECT_EQ(name.substr(0, 4), "web-");
    for (char c : name.substr(4)) EXPECT_NE(kGeneratedNameAlphabet.find(c), std::string::npos);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 50u);
}

TEST_F(StoreWriteTest, GenerateNameRetriesOnCollision) {
  // A twin store with the same seed generates the same names; pre-create the first one.
  auto twin = OpenStore();
  Json pod = testing::Pod("");
  pod["metadata"]["generateName"] = "w-";
  const std::string first = MetaString((*twin->Create(Pods(), pod))->document(), "name");
  MustCreate(Pods(), testing::Pod(first));
  ObjectPtr p = MustCreate(Pods(), pod);
  EXPECT_NE(p->name().name, first);
}

TEST_F(StoreWriteTest, UpdateConflictsOnStaleResourceVersion) {
  ObjectPtr p = MustCreate(Pods(), testing::Pod("p1"));
  Json first = p->document(), second = p->document();
  first["metadata"]["labels"] = {{"v", "1"}};
  second["metadata"]["labels"] = {{"v", "2"}};
  ASSERT_TRUE(store_->Update(Pods(), first).ok());
  auto stale = store_->Update(Pods(), second);
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().code(), Code::kConflict);
  EXPECT_EQ(stale.status().http_code(), 409);
  // Without a resourceVersion a built-in is updated unconditionally ...
  second["metadata"].erase("resourceVersion");
  EXPECT_TRUE(store_->Update(Pods(), second).ok());
  // ... but a custom resource is not.
  Json lws = MustCreate(Lws(), testing::LeaderWorkerSet("l1"))->document();
  lws["metadata"].erase("resourceVersion");
  EXPECT_EQ(store_->Update(Lws(), lws).status().code(), Code::kInvalid);
}

TEST_F(StoreWriteTest, UpdateOfMissingObjectIsNotFound) {
  auto missing = store_->Update(Pods(), testing::Pod("nosuch"));
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_EQ(missing.status().message(), "pods \"nosuch\" not found");
  EXPECT_EQ(store_->Get(Pods(), "default", "nosuch").status().code(), Code::kNotFound);
  EXPECT_EQ(store_->Delete(Pods(), "default", "nosuch").status().code(), Code::kNotFound);
}

TEST_F(StoreWriteTest, NoOpWriteKeepsResourceVersionAndEmitsNothing) {
  ObjectPtr p = MustCreate(StatefulSets(), testing::StatefulSet("s1"));
  auto watch = store_->Watch(StatefulSets(), testing::WatchFrom(1));
  ASSERT_TRUE(watch.ok());
  auto same = store_->Update(StatefulSets(), p->document());
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, p) << "the stored version itself comes back";
  auto same_status = store_->UpdateStatus(StatefulSets(), p->document());
  EXPECT_EQ(*same_status, p);
  EXPECT_EQ(store_->CurrentResourceVersion(), 1u);
  EXPECT_TRUE(Drain(*watch).empty());
}

TEST_F(StoreWriteTest, StatusIsolationThroughTheStore) {
  ObjectPtr s = MustCreate(StatefulSets(), testing::StatefulSet("s1", 1));
  EXPECT_EQ(s->document()["metadata"]["generation"], 1);
  Json with_status = s->document();
  with_status["status"] = {{"replicas", 1}, {"observedGeneration", 1}};
  with_status["spec"]["replicas"] = 9;
  ObjectPtr after_status = *store_->UpdateStatus(StatefulSets(), with_status);
  EXPECT_EQ(after_status->document()["status"]["replicas"], 1);
  EXPECT_EQ(after_status->document()["spec"]["replicas"], 1);
  EXPECT_EQ(after_status->document()["metadata"]["generation"], 1);

  Json spec_change = after_status->document();
  spec_change["spec"]["replicas"] = 3;
  spec_change["status"] = {{"replicas", 42}};
  ObjectPtr after_spec = *store_->Update(StatefulSets(), spec_change);
  EXPECT_EQ(after_spec->document()["spec"]["replicas"], 3);
  EXPECT_EQ(after_spec->document()["status"]["replicas"], 1);
  EXPECT_EQ(after_spec->document()["metadata"]["generation"], 2);
  EXPECT_EQ(store_->UpdateStatus(ConfigMaps(), testing::ConfigMap("c")).status().code(),
            Code::kNotFound);
}

TEST_F(StoreWriteTest, AWriteWithStatusChangesSpecAndStatusAtOnce) {
  ObjectPtr s = MustCreate(StatefulSets(), testing::StatefulSet("s1", 1));
  Json both = s->document();
  both["spec"]["replicas"] = 2;
  both["status"] = {{"replicas", 7}};
  UpdateOptions with_status;
  with_status.with_status = true;
  ObjectPtr after = *store_->Update(StatefulSets(), both, with_status);
  EXPECT_EQ(after->document()["spec"]["replicas"], 2);
  EXPECT_EQ(after->document()["status"]["replicas"], 7);
  EXPECT_EQ(after->document()["metadata"]["generation"], 2);
  EXPECT_EQ(after->resource_version(), s->resource_version() + 1);
  // Without a status in the update, the write leaves none.
  Json no_status = after->document();
  no_status.erase("status");
  EXPECT_FALSE(
      (*store_->Update(StatefulSets(), no_status, with_status))->document().contains("status"));
}

// Issue 31 item 7: upstream's podStatusStrategy resets the spec, deletionTimestamp and
// ownerReferences; labels and annotations written through pods/status are kept.
TEST_F(StoreWriteTest, PodStatusWriteKeepsSpecAndOwnersButTakesLabels) {
  Json pod = testing::Pod("p");
  pod["metadata"]["managedFields"] = Json::array({{{"manager", "a"}}});
  pod["metadata"]["labels"] = {{"x", "1"}};
  pod["metadata"]["ownerReferences"] =
      Json::array({{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", "n"}, {"uid", "u"}}});
  ObjectPtr p = MustCreate(Pods(), pod);
  Json update = p->document();
  update["status"] = {{"phase", "Running"}};
  update["metadata"]["labels"] = {{"x", "changed"}};
  update["metadata"]["ownerReferences"] = Json::array();
  update["spec"]["nodeName"] = "elsewhere";
  ObjectPtr status = *store_->UpdateStatus(Pods(), update);
  EXPECT_EQ(status->document()["status"]["phase"], "Running");
  EXPECT_EQ(status->document()["metadata"]["labels"]["x"], "changed");
  EXPECT_EQ(status->document()["metadata"]["ownerReferences"], pod["metadata"]["ownerReferences"]);
  EXPECT_EQ(status->document()["spec"], p->document()["spec"]);
  EXPECT_NE(status->body_rv(), p->body_rv()) << "more than the status changed";
  Json status_only = status->document();
  status_only["status"]["phase"] = "Succeeded";
  ObjectPtr next = *store_->UpdateStatus(Pods(), status_only);
  EXPECT_EQ(next->body_rv(), status->body_rv()) << "only the status changed";
}

TEST_F(StoreWriteTest, StatusWriteKeepsEverythingButStatusAndManagedFields) {
  Json lws = testing::LeaderWorkerSet("l");
  lws["metadata"]["managedFields"] = Json::array({{{"manager", "a"}}});
  lws["metadata"]["labels"] = {{"x", "1"}};
  ObjectPtr p = MustCreate(Lws(), lws);
  Json update = p->document();
  update["status"] = {{"replicas", 2}};
  update["metadata"]["labels"] = {{"x", "changed"}};
  ObjectPtr status = *store_->UpdateStatus(Lws(), update);
  EXPECT_EQ(status->document()["status"]["replicas"], 2);
  EXPECT_EQ(status->document()["metadata"]["labels"]["x"], "1")
      << "a custom resource's status write";
  // The store keeps them apart from the object (StoredObject::managed_fields).
  EXPECT_FALSE(status->document()["metadata"].contains("managedFields"));
  EXPECT_EQ(ManagedFieldsJson(*status), Json::array({{{"manager", "a"}}}));
  update = status->document();
  update["metadata"]["managedFields"] = Json::array({{{"manager", "b"}}});
  update.erase("status");
  ObjectPtr managed = *store_->UpdateStatus(Lws(), update);
  EXPECT_EQ(ManagedFieldsJson(*managed), Json::array({{{"manager", "b"}}}));
  EXPECT_FALSE(managed->document().contains("status"));
  EXPECT_EQ(managed->document()["metadata"]["labels"]["x"], "1");
}

// managedFields live beside the object (StoredObject::managed_fields): served with it, shared
// by the versions a write leaves them unchanged in, replaced by a body that carries its own.
TEST_F(StoreWriteTest, ManagedFieldsAreKeptApartAndSharedByVersionsThatKeepThem) {
  Json pod = testing::Pod("p");
  pod["metadata"]["managedFields"] = Json::array({{{"manager", "a"}}});
  pod["spec"]["nodeName"] = "n1";  // a graceful deletion waits for its kubelet
  ObjectPtr created = MustCreate(Pods(), pod);
  ASSERT_EQ(created->managed_fields().size(), 1u);
  EXPECT_FALSE(created->document()["metadata"].contains("managedFields"));
  const Json served = Json::parse(created->bytes());
  EXPECT_EQ(served["metadata"]["managedFields"], Json::array({{{"manager", "a"}}}));
  EXPECT_EQ(created->FullJson(), served);

  Json status = created->document();
  status["status"] = {{"phase", "Running"}};
  ObjectPtr running = *store_->UpdateStatus(Pods(), status);
  ASSERT_EQ(running->managed_fields().size(), 1u);
  EXPECT_EQ(running->managed_fields()[0], created->managed_fields()[0]) << "shared, not copied";

  DeleteOptions graceful;
  graceful.grace_period_seconds = 30;
  ObjectPtr marked = store_->Delete(Pods(), "default", "p", graceful)->object;
  ASSERT_EQ(marked->managed_fields().size(), 1u);
  EXPECT_EQ(marked->managed_fields()[0], created->managed_fields()[0]);

  // A main-resource update stores what its body holds: none here, as before the split.
  Json update = marked->document();
  update["metadata"]["labels"] = {{"x", "1"}};
  ObjectPtr updated = *store_->Update(Pods(), update);
  EXPECT_TRUE(updated->managed_fields().empty());
  EXPECT_FALSE(Json::parse(updated->bytes())["metadata"].contains("managedFields"));

  // Entries given apart replace the body's; the same entries again make no new version.
  UpdateOptions given;
  given.managed_fields = ManagedEntries{std::make_shared<const Json>(Json{{"manager", "c"}})};
  ObjectPtr with_given = *store_->Update(Pods(), updated->document(), given);
  EXPECT_EQ(ManagedFieldsJson(*with_given), Json::array({{{"manager", "c"}}}));
  given.managed_fields = ManagedEntries{std::make_shared<const Json>(Json{{"manager", "c"}})};
  EXPECT_EQ(*store_->Update(Pods(), with_given->document(), given), with_given) << "a no-op";
}

// Equal entries of different objects are stored once (store/entry_pool.h), spelled as written.
TEST_F(StoreWriteTest, EqualManagedFieldsEntriesOfDifferentObjectsAreStoredOnce) {
  auto with_entry = [](const std::string& name, Json entry) {
    Json pod = testing::Pod(name);
    pod["metadata"]["managedFields"] = Json::array({std::move(entry)});
    return pod;
  };
  const Json entry = {{"manager", "m"}, {"fieldsV1", {{"f:spec", Json::object()}}}};
  ObjectPtr a = MustCreate(Pods(), with_entry("a", entry));
  ObjectPtr b = MustCreate(Pods(), with_entry("b", entry));
  ASSERT_EQ(b->managed_fields().size(), 1u);
  EXPECT_EQ(a->managed_fields()[0], b->managed_fields()[0]);

  ObjectPtr one = MustCreate(Pods(), with_entry("one", {{"manager", "n"}, {"x", 1}}));
  ObjectPtr one_point_zero =
      MustCreate(Pods(), with_entry("one-point-zero", {{"manager", "n"}, {"x", 1.0}}));
  EXPECT_NE(one->managed_fields()[0], one_point_zero->managed_fields()[0]);
  EXPECT_NE(one_point_zero->bytes().find("\"x\":1.0"), std::string::npos)
      << one_point_zero->bytes();
}

// bytes() writes the entries into metadata without copying the object: the same text as
// serialising the whole object, wherever "managedFields" sorts among the metadata keys.
// Deferred entries (StoredObject::DeferManagedFields) through the store: made once, by the first
// reader on any thread, from the version's own object; a status write and a deletion mark that
// keep them defer to them; the no-op check makes them to compare.
TEST_F(StoreWriteTest, DeferredManagedFieldsAreMadeOnceByTheFirstReader) {
  std::atomic<int> made{0};
  auto maker = [&made](const std::string& manager) {
    return DeferredEntries{
        [&made, manager](const Json& object) {
          ++made;
          Json entry = {{"manager", manager}, {"name", MetaString(object, "name")}};
          return ManagedEntries{std::make_shared<const Json>(std::move(entry))};
        },
        1};
  };
  Json pod = testing::Pod("p");
  pod["spec"]["nodeName"] = "n1";  // a graceful deletion waits for its kubelet
  CreateOptions create;
  create.managed_fields = maker("creator");
  ObjectPtr created = *store_->Create(Pods(), pod, create);
  EXPECT_EQ(created->deferred_depth(), 1);

  Json status = created->document();
  status["status"] = {{"phase", "Running"}};
  ObjectPtr running = *store_->UpdateStatus(Pods(), status);  // keeps the live entries
  EXPECT_EQ(running->deferred_depth(), 2);
  DeleteOptions graceful;
  graceful.grace_period_seconds = 30;
  ObjectPtr marked = store_->Delete(Pods(), "default", "p", graceful)->object;
  EXPECT_EQ(marked->deferred_depth(), 3);
  EXPECT_EQ(made, 0) << "nothing read yet";

  // Readers race for the last version's bytes and the others' entries.
  std::vector<std::thread> readers;
  std::vector<std::string> bytes(4);
  for (int i = 0; i < 4; ++i) {
    readers.emplace_back([&, i] {
      bytes[i] = marked->bytes();
      (void)running->managed_fields();
    });
  }
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(made, 1) << "one maker, run once, shared by the versions that keep its entries";
  for (const std::string& text : bytes) EXPECT_EQ(text, bytes[0]);
  EXPECT_EQ(Json::parse(bytes[0])["metadata"]["managedFields"],
            Json::parse(R"([{"manager":"creator","name":"p"}])"));
  EXPECT_EQ(marked->managed_fields()[0], created->managed_fields()[0]);

  // A write whose object is unchanged is a no-op only if its entries are the same: the check
  // makes them.
  UpdateOptions same;
  same.managed_fields = maker("creator");
  EXPECT_EQ(*store_->Update(Pods(), marked->document(), same), marked);
  EXPECT_EQ(made, 2);
  UpdateOptions other;
  other.managed_fields = maker("other");
  ObjectPtr taken = *store_->Update(Pods(), marked->document(), other);
  EXPECT_NE(taken, marked);
  EXPECT_EQ(ManagedFieldsJson(*taken), Json::parse(R"([{"manager":"other","name":"p"}])"));
}

// body_rv names the write that last changed anything but the status: status writes keep it,
// every other write (a binding's with_status update, a deletion mark) starts a new one.
TEST_F(StoreWriteTest, StatusWritesKeepTheBodyResourceVersion) {
  Json pod = testing::Pod("p");
  pod["spec"]["nodeName"] = "n1";  // a graceful deletion waits for its kubelet
  ObjectPtr created = MustCreate(Pods(), pod);
  EXPECT_EQ(created->body_rv(), created->resource_version());
  Json status = created->document();
  status["status"] = {{"phase", "Running"}};
  ObjectPtr running = *store_->UpdateStatus(Pods(), status);
  status = running->document();
  status["status"]["phase"] = "Succeeded";
  status["spec"]["nodeName"] = "elsewhere";  // ignored by a status write
  ObjectPtr done = *store_->UpdateStatus(Pods(), status);
  EXPECT_EQ(running->body_rv(), created->body_rv());
  EXPECT_EQ(done->body_rv(), created->body_rv());
  EXPECT_GT(done->resource_version(), running->resource_version());

  Json labelled = done->document();
  labelled["metadata"]["labels"] = {{"a", "b"}};
  ObjectPtr updated = *store_->Update(Pods(), labelled);
  EXPECT_EQ(updated->body_rv(), updated->resource_version());
  DeleteOptions graceful;
  graceful.grace_period_seconds = 30;
  ObjectPtr marked = store_->Delete(Pods(), "default", "p", graceful)->object;
  EXPECT_EQ(marked->body_rv(), marked->resource_version());
}

TEST(StoredObjectTest, AnyNestingIsFreedWithoutExhaustingTheStack) {
  // The version frees its members depth first up to a bound, and leaves deeper nodes to
  // nlohmann's iterative destructor: a body nested 400,000 levels deep (an object in an array,
  // 200,000 times) must not overflow the stack.
  Json deep = Json::array();
  Json* at = &deep;
  for (int i = 0; i < 200'000; ++i) {
    at->push_back(Json::object());
    at = &(*at)[0];
    (*at)["k"] = Json::array();
    at = &(*at)["k"];
  }
  Json object = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}};
  object["data"] = std::move(deep);  // a copy would recurse
  ObjectPtr version = MakeStoredObject(std::move(object), 3);
  EXPECT_EQ(version->document()["data"][0]["k"].size(), 1u);
  version.reset();  // freed here
}

TEST(StoredObjectTest, BytesWithEntriesApartMatchTheWholeObject) {
  const ManagedEntries entries = {
      std::make_shared<const Json>(
          Json{{"manager", "a\u00e9\"q"}, {"fieldsV1", {{"f:x", Json::object()}}}}),
      std::make_shared<const Json>(Json{{"manager", "b"}})};
  const std::vector<Json> metadatas = {
      Json::object(),
      {{"name", "n"}},
      {{"labels", {{"k", "v"}}}},
      {{"labels", {{"k", "v"}}}, {"name", "n"}, {"uid", "u"}},
      {{"a\"b", 1}, {"managedFieldsX", 2}, {"managedField", 3}},
  };
  for (const Json& metadata : metadatas) {
    Json object = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", metadata}, {"z", {1, 2}}};
    ObjectPtr version = MakeStoredObject(object, 7, entries);
    EXPECT_EQ(version->bytes(), Serialize(version->FullJson())) << metadata.dump();
    EXPECT_EQ(Json::parse(version->bytes())["metadata"]["managedFields"].size(), 2u);
  }
}

TEST_F(StoreWriteTest, StatusClearedOnCreate) {
  Json lws = testing::LeaderWorkerSet("l1");
  lws["status"] = {{"replicas", 5}};
  EXPECT_FALSE(MustCreate(Lws(), lws)->document().contains("status"));
}

TEST_F(StoreWriteTest, FinalizerFlow) {
  Json cm = testing::ConfigMap("c1");
  cm["metadata"]["finalizers"] = {"example.com/a", "example.com/b"};
  MustCreate(ConfigMaps(), cm);
  auto watch = *store_->Watch(ConfigMaps(), testing::WatchFrom(1));

  auto deleting = store_->Delete(ConfigMaps(), "default", "c1");
  ASSERT_TRUE(deleting.ok());
  EXPECT_FALSE(deleting->deleted);
  EXPECT_EQ(MetaString(deleting->object->document(), "deletionTimestamp"),
            FormatRfc3339(clock_.Now()));
  EXPECT_EQ(DeleteResponseBody(ConfigMaps(), *deleting), deleting->object->document());
  // Idempotent: a second DELETE changes nothing.
  auto again = store_->Delete(ConfigMaps(), "default", "c1");
  EXPECT_EQ(again->object, deleting->object);

  Json one_left = deleting->object->document();
  one_left["metadata"]["finalizers"] = {"example.com/b"};
  ObjectPtr kept = *store_->Update(ConfigMaps(), one_left);
  Json none_left = kept->document();
  none_left["metadata"]["finalizers"] = Json::array();
  ASSERT_TRUE(store_->Update(ConfigMaps(), none_left).ok());
  EXPECT_EQ(store_->Get(ConfigMaps(), "default", "c1").status().code(), Code::kNotFound);
  EXPECT_EQ(Describe(Drain(watch)),
            (std::vector<std::string>{"MODIFIED c1 2", "MODIFIED c1 3", "DELETED c1 4"}));
}

TEST_F(StoreWriteTest, ForegroundAndOrphanDeletionAddTheirFinalizers) {
  MustCreate(StatefulSets(), testing::StatefulSet("fg"));
  MustCreate(StatefulSets(), testing::StatefulSet("or"));
  DeleteOptions foreground, orphan;
  foreground.propagation_policy = "Foreground";
  orphan.propagation_policy = "Orphan";
  auto fg = *store_->Delete(StatefulSets(), "default", "fg", foreground);
  auto orp = *store_->Delete(StatefulSets(), "default", "or", orphan);
  EXPECT_EQ(fg.object->document()["metadata"]["finalizers"], Json({"foregroundDeletion"}));
  EXPECT_EQ(orp.object->document()["metadata"]["finalizers"], Json({"orphan"}));
  EXPECT_EQ(fg.object->document()["metadata"]["generation"], 2);
  // The garbage collector finishes by removing its finalizer.
  Json done = fg.object->document();
  done["metadata"].erase("finalizers");
  ASSERT_TRUE(store_->Update(StatefulSets(), done).ok());
  EXPECT_FALSE(store_->Get(StatefulSets(), "default", "fg").ok());
}

TEST_F(StoreWriteTest, GracefulPodDeletion) {
  Json pod = testing::Pod("p1");
  pod["spec"]["nodeName"] = "n1";
  MustCreate(Pods(), pod);
  MustCreate(Pods(), testing::Pod("unbound"));
  auto graceful = *store_->Delete(Pods(), "default", "p1");
  EXPECT_FALSE(graceful.deleted);
  EXPECT_EQ(MetaString(graceful.object->document(), "deletionTimestamp"),
            FormatRfc3339(clock_.Now() + std::chrono::seconds(30)));
  EXPECT_TRUE(store_->Get(Pods(), "default", "p1").ok());
  clock_.Advance(std::chrono::seconds(3));
  EXPECT_EQ(store_->Delete(Pods(), "default", "p1")->object, graceful.object) << "still pending";
  DeleteOptions now;
  now.grace_period_seconds = 0;
  auto gone = *store_->Delete(Pods(), "default", "p1", now);
  EXPECT_TRUE(gone.deleted);
  EXPECT_FALSE(store_->Get(Pods(), "default", "p1").ok());
  EXPECT_EQ(DeleteResponseBody(Pods(), gone), gone.object->document()) << "pods return the object";

  auto unbound = *store_->Delete(Pods(), "default", "unbound");
  EXPECT_TRUE(unbound.deleted);
}

TEST_F(StoreWriteTest, DeleteResponseIsAStatusForMostBuiltins) {
  ObjectPtr c = MustCreate(ConfigMaps(), testing::ConfigMap("c1"));
  auto result = *store_->Delete(ConfigMaps(), "default", "c1");
  EXPECT_EQ(DeleteResponseBody(ConfigMaps(), result),
            Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",
                "details":{"name":"c1","kind":"configmaps","uid":")" +
                        c->uid() + R"("}})"));
  MustCreate(StatefulSets(), testing::StatefulSet("s1"));
  auto sts = *store_->Delete(StatefulSets(), "default", "s1");
  EXPECT_EQ(DeleteResponseBody(StatefulSets(), sts)["details"]["group"], "apps");
}

TEST_F(StoreWriteTest, DryRunChangesNothing) {
  CreateOptions dry_create;
  dry_create.dry_run = true;
  auto created = store_->Create(Pods(), testing::Pod("p1"), dry_create);
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(Rv(*created), "");
  EXPECT_FALSE((*created)->uid().empty());
  EXPECT_FALSE(store_->Get(Pods(), "default", "p1").ok());
  ObjectPtr real = MustCreate(Pods(), testing::Pod("p1"));
  Json change = real->document();
  change["metadata"]["labels"] = {{"x", "y"}};
  UpdateOptions dry_update;
  dry_update.dry_run = true;
  auto updated = store_->Update(Pods(), change, dry_update);
  EXPECT_EQ((*updated)->document()["metadata"]["labels"]["x"], "y");
  DeleteOptions dry;
  dry.dry_run = true;
  EXPECT_TRUE(store_->Delete(Pods(), "default", "p1", dry)->deleted);
  EXPECT_EQ(*store_->Get(Pods(), "default", "p1"), real);
  EXPECT_EQ(store_->CurrentResourceVersion(), 1u);
}

TEST_F(StoreWriteTest, ClusterScopedKeysIgnoreNamespaces) {
  ASSERT_TRUE(store_->Create(testing::Nodes(), {{"metadata", {{"name", "n1"}}}}).ok());
  EXPECT_TRUE(store_->Get(testing::Nodes(), "", "n1").ok());
  EXPECT_TRUE(store_->Get(testing::Nodes(), "ignored", "n1").ok());
}

TEST_F(StoreWriteTest, ConcurrentWritersGetDistinctResourceVersions) {
  constexpr int kThreads = 4, kPerThread = 200;
  std::vector<std::thread> threads;
  std::vector<std::vector<std::uint64_t>> seen(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto p = store_->Create(Pods(),
                                testing::Pod("p-" + std::to_string(t) + "-" + std::to_string(i)));
        if (p.ok()) seen[t].push_back((*p)->resource_version());
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<std::uint64_t> all;
  for (const auto& v : seen) {
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
    all.insert(v.begin(), v.end());
  }
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kPerThread));
  EXPECT_EQ(*all.rbegin(), static_cast<std::uint64_t>(kThreads * kPerThread));
}

TEST(ParseResourceVersionTest, Table) {
  EXPECT_EQ(*ParseResourceVersion(""), 0u);
  EXPECT_EQ(*ParseResourceVersion("0"), 0u);
  EXPECT_EQ(*ParseResourceVersion("1234"), 1234u);
  EXPECT_EQ(ParseResourceVersion("12a").status().code(), Code::kBadRequest);
  EXPECT_EQ(ParseResourceVersion("-1").status().code(), Code::kBadRequest);
}

}  // namespace
}  // namespace lws::store
