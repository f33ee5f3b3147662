// Deferred managedFields recording (RecordOrDeferManagedFields) against recording at once: for
// random live objects, writes and write kinds, the entries a deferred version makes from what
// the store stores are exactly the ones RecordManagedFields gives, and where the write may not
// be deferred nothing is. Also the live-entries shortcuts against recording in full.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "apiserver/apply.h"
#include "apiserver/apply_testing.h"
#include "apiserver/managed_fields.h"
#include "store/object_rules.h"
#include "store/store_testing.h"

namespace lws::apiserver {
namespace {

Json GenContainers() {
  Json containers = Json::array();
  for (const char* name : {"c", "d"}) {
    if (!*rc::gen::arbitrary<bool>()) continue;
    Json c = {{"name", name}, {"image", *rc::gen::element<std::string>("i1", "i2")}};
    if (*rc::gen::arbitrary<bool>()) c["env"] = {{{"name", "A"}, {"value", "1"}}};
    containers.push_back(std::move(c));
  }
  return containers;
}

Json GenStatus() {
  Json status = {{"replicas", *rc::gen::inRange(0, 3)}};
  Json conditions = Json::array();
  for (const char* type : {"Ready", "Progressing"}) {
    if (!*rc::gen::arbitrary<bool>()) continue;
    Json c = {{"type", type}, {"status", *rc::gen::element<std::string>("True", "False")}};
    if (*rc::gen::arbitrary<bool>()) c["reason"] = "R";
    conditions.push_back(std::move(c));
  }
  if (!conditions.empty()) status["conditions"] = conditions;
  return status;
}

// A StatefulSet as a client writes it: labels, containers, status, deletion fields.
Json GenObject() {
  Json object = testing::StatefulSet(*rc::gen::inRange(0, 3));
  object["spec"]["template"]["spec"]["containers"] = GenContainers();
  if (*rc::gen::arbitrary<bool>()) object["metadata"]["labels"]["a"] = "1";
  if (*rc::gen::arbitrary<bool>()) object["status"] = GenStatus();
  if (*rc::gen::inRange(0, 4) == 0) object["metadata"]["deletionGracePeriodSeconds"] = 30;
  return object;
}

// The live version: created by one manager, maybe updated by a second and its status written
// by a third, each recorded at once.
store::ObjectPtr GenLive() {
  Json live = UpdateManagedFields(Json(), GenObject(), testing::Scope("creator", 0));
  if (*rc::gen::arbitrary<bool>()) {
    live = UpdateManagedFields(live, GenObject(), testing::Scope("editor", 1));
  }
  if (*rc::gen::arbitrary<bool>()) {
    Json written = live;
    written["status"] = GenStatus();
    live = UpdateManagedFields(live, written, testing::Scope("status-writer", 2, "status"));
  }
  live["metadata"]["uid"] = "u";
  return store::MakeStoredObject(std::move(live), 7);
}

// The entries as text, which a failing assertion shows.
std::string EntriesJson(const store::ManagedEntries& entries) {
  return store::ManagedEntriesJson(entries).dump();
}

RC_GTEST_PROP(ManagedFieldsDeferProperty, DeferredEntriesAreTheImmediateOnes, ()) {
  const bool create = *rc::gen::inRange(0, 4) == 0;
  const store::ObjectPtr current = create ? nullptr : GenLive();
  const std::string subresource = create ? "" : *rc::gen::element<std::string>("", "status");
  const FieldManagerScope scope = testing::Scope(
      *rc::gen::element<std::string>("creator", "editor", "status-writer", "new"), 5, subresource);
  // A new object, or the live one edited as a controller edits what it read.
  Json body = GenObject();
  if (current != nullptr && *rc::gen::arbitrary<bool>()) {
    Json edited = current->document();
    if (*rc::gen::arbitrary<bool>()) edited["spec"] = body["spec"];
    if (*rc::gen::arbitrary<bool>()) edited["status"] = GenStatus();
    if (*rc::gen::arbitrary<bool>()) edited["metadata"]["labels"]["b"] = "2";
    body = std::move(edited);
  }
  // As RequestHandler::StoresOnlyUntracked allows it: the store keeps or removes the deletion
  // fields, which a main-resource write tracks, and so does a StatefulSet's status write, which
  // takes the body's metadata (api::StatusWriteOf).
  static const Json kNone;
  const Json& live_meta = current ? current->document()["metadata"] : kNone;
  const bool same_deletion = api::ChildOrNull(body["metadata"], "deletionGracePeriodSeconds") ==
                             api::ChildOrNull(live_meta, "deletionGracePeriodSeconds");
  const bool may_defer = *rc::gen::arbitrary<bool>() && same_deletion;

  Json now_body = body;
  store::ManagedEntries now = RecordManagedFields(
      current ? current->document() : kNone,
      current ? LiveEntries::Of(*current) : LiveEntries(kNone), &now_body, scope);
  // RequestHandler::Update: a status write left with no entries keeps the live ones.
  if (subresource == "status" && now.empty()) now = current->managed_fields();

  Json later_body = body;
  store::NewEntries later = RecordOrDeferManagedFields(current, &later_body, scope, may_defer);
  RC_ASSERT(later_body.dump() == now_body.dump());  // the body is left the same either way
  if (!later.deferred) {
    store::ManagedEntries made = later.made;
    if (subresource == "status" && made.empty()) made = current->managed_fields();
    RC_ASSERT(EntriesJson(made) == EntriesJson(now));
    return;
  }
  RC_ASSERT(may_defer);
  RC_TAG(subresource.empty() ? (create ? "create" : "update") : "status");
  // What the store makes of the body.
  const api::ResourceInfo& info = store::testing::StatefulSets();
  Json stored;
  if (create) {
    Result<Json> prepared = store::PrepareForCreate(info, later_body, testing::At(5), "u", {});
    RC_ASSERT(prepared.ok());
    stored = std::move(*prepared);
  } else {
    Result<Json> prepared =
        store::PrepareForUpdate(info, current->document(), later_body, subresource == "status");
    RC_ASSERT(prepared.ok());
    stored = std::move(*prepared);
  }
  stored["metadata"]["resourceVersion"] = "8";
  RC_ASSERT(EntriesJson(later.deferred->maker(stored)) == EntriesJson(now));
}

// A write whose body carries no managedFields (and every subresource write) starts from the
// live entries and takes shortcuts: it edits only the entries the write touches, as JSON
// (RecordUpdateOnLive, fields_v1_edit.h), and retimes the writer's entry without decoding it
// when it already owns what the write changes. The reference decodes every entry into a FieldSet
// and records the write with RecordUpdate. Both must give the same entries.
RC_GTEST_PROP(ManagedFieldsDeferProperty, TheLiveShortcutsRecordWhatRecordUpdateRecords, ()) {
  const store::ObjectPtr current = GenLive();
  const std::string subresource = *rc::gen::element<std::string>("", "status");
  const FieldManagerScope scope = testing::Scope(
      *rc::gen::element<std::string>("creator", "editor", "status-writer", "new"), 5, subresource);
  Json body = current->document();
  const Json generated = GenObject();
  if (*rc::gen::arbitrary<bool>()) body["spec"] = generated["spec"];
  if (*rc::gen::arbitrary<bool>()) body["status"] = GenStatus();
  if (*rc::gen::arbitrary<bool>()) body["metadata"]["labels"]["b"] = "2";
  if (*rc::gen::arbitrary<bool>()) body["metadata"].erase("labels");
  if (*rc::gen::arbitrary<bool>()) body["metadata"]["labels"] = Json::object();  // emptied
  RC_TAG(subresource.empty() ? "update" : "status");

  Json shortcut = body;
  const store::ManagedEntries via_live =
      RecordManagedFields(current->document(), LiveEntries::Of(*current), &shortcut, scope);
  const ManagedFieldSets reference =
      RecordUpdate(current->document(), body,
                   ManagedFieldsForWrite(LiveEntries::Of(*current), body, subresource), scope);
  RC_LOG() << "live " << current->document().dump() << "\nbody " << body.dump() << "\nshortcut "
           << EntriesJson(via_live) << "\nreference " << EncodeManagedFields(reference).dump()
           << "\n";
  RC_ASSERT(store::ManagedEntriesJson(via_live) == EncodeManagedFields(reference));
}

TEST(ManagedFieldsDeferTest, ChainsAreCutAtTheirBound) {
  // Each deferred write over a deferred version reaches one further; past the bound the
  // recording runs at once, making the versions behind it.
  Json body = testing::StatefulSet(1);
  store::NewEntries first =
      RecordOrDeferManagedFields(nullptr, &body, testing::Scope("m", 0), true);
  ASSERT_TRUE(first.deferred);
  store::ObjectPtr version = store::MakeStoredObject(body, 1, std::move(*first.deferred));
  for (int rv = 2; rv <= store::kMaxDeferredDepth + 1; ++rv) {
    Json next = version->document();
    next["spec"]["replicas"] = rv;
    store::NewEntries entries =
        RecordOrDeferManagedFields(version, &next, testing::Scope("m", rv), true);
    if (rv <= store::kMaxDeferredDepth) {
      ASSERT_TRUE(entries.deferred) << rv;
      EXPECT_EQ(entries.deferred->depth, rv);
      version = store::MakeStoredObject(next, rv, std::move(*entries.deferred));
    } else {
      EXPECT_FALSE(entries.deferred) << "made at once past the bound";
      ASSERT_EQ(entries.made.size(), 1u);
      EXPECT_EQ((*entries.made[0])["time"], "2025-01-01T00:00:09Z");
    }
  }
}

TEST(ManagedFieldsDeferTest, BodyEntriesAreRecordedAtOnce) {
  // A body with managedFields of its own replaces the live ones: nothing to defer.
  Json live = UpdateManagedFields(Json(), testing::StatefulSet(1), testing::Scope("a", 0));
  store::ObjectPtr current = store::MakeStoredObject(live, 3);
  Json body = live;
  body["spec"]["replicas"] = 2;
  store::NewEntries entries =
      RecordOrDeferManagedFields(current, &body, testing::Scope("b", 1), true);
  EXPECT_FALSE(entries.deferred);
  EXPECT_FALSE(body["metadata"].contains("managedFields"));
}

}  // namespace
}  // namespace lws::apiserver
