#include "apiserver/managed_fields.h"

#include <gtest/gtest.h>

#include "apiserver/apply_testing.h"

namespace lws::apiserver {
namespace {

using testing::Scope;
using testing::StatefulSet;

Json J(const char* text) { return Json::parse(text); }

TEST(ManagedFieldsEntryTest, IdentifierAndDescription) {
  ManagedFieldsEntry apply{"kubectl", "Apply", "apps/v1", "", "", {}};
  EXPECT_EQ(apply.Identifier(), R"({"manager":"kubectl","operation":"Apply"})");
  EXPECT_EQ(apply.Describe(), "\"kubectl\"");
  ManagedFieldsEntry status{"kcm", "Update", "apps/v1", "", "status", {}};
  EXPECT_EQ(
      status.Identifier(),
      R"({"manager":"kcm","operation":"Update","apiVersion":"apps/v1","subresource":"status"})");
  EXPECT_EQ(status.Describe(), "\"kcm\" with subresource \"status\" using apps/v1");
}

TEST(ManagedFieldsCodecTest, DecodesEncodesAndSorts) {
  Json wire = J(R"([
    {"manager":"z","operation":"Update","apiVersion":"v1","time":"2025-01-01T00:00:09Z",
     "fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}},
    {"manager":"y","operation":"Update","apiVersion":"v1","time":"2025-01-01T00:00:01Z",
     "fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:b":{}}},"subresource":"status"},
    {"manager":"x","operation":"Apply","apiVersion":"v1","time":"2025-01-01T00:00:05Z",
     "fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:c":{}}}}])");
  Result<ManagedFieldSets> decoded = DecodeManagedFields(wire);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->size(), 3u);
  Json encoded = EncodeManagedFields(*decoded);
  // Apply before Update, then by time.
  EXPECT_EQ(encoded, Json::array({wire[2], wire[1], wire[0]}));
}

TEST(ManagedFieldsCodecTest, RejectsMalformedEntries) {
  struct Case {
    const char* entries;
    const char* message;
  };
  std::vector<Case> cases = {
      {R"([{"manager":"m","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1"}])",
       "operation must be `Apply` or `Update`"},
      {R"([{"manager":"m","operation":"Apply","fieldsType":"FieldsV1"}])",
       "apiVersion must not be empty"},
      {R"([{"manager":"m","operation":"Apply","apiVersion":"v1"}])",
       "missing fieldsType in managed fields entry 0"},
      {R"([{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV2"}])",
       "invalid fieldsType \"FieldsV2\" in managed fields entry 0"},
  };
  for (const Case& c : cases) {
    Result<ManagedFieldSets> r = DecodeManagedFields(J(c.entries));
    ASSERT_FALSE(r.ok()) << c.entries;
    EXPECT_EQ(r.status().message(), c.message);
  }
  EXPECT_FALSE(DecodeManagedFields(J(R"({"a":1})")).ok());
  EXPECT_TRUE(DecodeManagedFields(Json())->empty());
}

TEST(UpdateManagedFieldsTest, CreateOwnsEverythingButServerMetadata) {
  Json obj = StatefulSet(1);
  obj["metadata"]["labels"] = {{"app", "x"}};
  obj["metadata"]["uid"] = "u";
  obj["metadata"]["resourceVersion"] = "5";
  Json out = UpdateManagedFields(Json(), obj, Scope("kubectl-create", 3));
  Json want = J(R"([{"manager":"kubectl-create","operation":"Update","apiVersion":"apps/v1",
      "time":"2025-01-01T00:00:03Z","fieldsType":"FieldsV1","fieldsV1":{
      "f:metadata":{"f:labels":{".":{},"f:app":{}}},
      "f:spec":{".":{},"f:replicas":{},"f:template":{".":{},"f:spec":{".":{},"f:containers":{
        ".":{},"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{}}}}}}}}])");
  EXPECT_EQ(ManagedFieldsOf(out), want);
}

TEST(UpdateManagedFieldsTest, WritersTakeWhatTheyChange) {
  Json obj = UpdateManagedFields(Json(), StatefulSet(1), Scope("creator", 0));
  Json edited = obj;
  edited["spec"]["replicas"] = 2;
  edited["spec"]["template"]["spec"]["containers"][0].erase("image");
  obj = UpdateManagedFields(obj, edited, Scope("editor", 7));
  Result<ManagedFieldSets> managed = DecodeManagedFields(ManagedFieldsOf(obj));
  ASSERT_TRUE(managed.ok());
  const ManagedFieldsEntry& editor =
      managed->at(R"({"manager":"editor","operation":"Update","apiVersion":"apps/v1"})");
  EXPECT_EQ(editor.fields.ToFieldsV1(), J(R"({"f:spec":{"f:replicas":{}}})"));
  EXPECT_EQ(editor.time, "2025-01-01T00:00:07Z");
  const ManagedFieldsEntry& creator =
      managed->at(R"({"manager":"creator","operation":"Update","apiVersion":"apps/v1"})");
  EXPECT_FALSE(creator.fields.ToFieldsV1()["f:spec"].contains("f:replicas"));
  EXPECT_FALSE(creator.fields.ToFieldsV1().dump().find("f:image") != std::string::npos);

  // A write that changes nothing leaves the entries, and their times, alone.
  EXPECT_EQ(UpdateManagedFields(obj, obj, Scope("editor", 99)), obj);
  // An entry that loses its last field disappears.
  Json reverted = obj;
  reverted["spec"]["replicas"] = 3;
  obj = UpdateManagedFields(obj, reverted, Scope("third", 8));
  EXPECT_EQ(ManagedFieldsOf(obj).size(), 2u);
}

// The writer's entry owns `labels` itself (it wrote an empty map); another manager added a
// label, which the writer's next write removes. Removing a path below a field the entry owns
// leaves the field owned, as the FieldSet difference does (the entry is edited as JSON here).
TEST(UpdateManagedFieldsTest, RemovingBelowAnOwnedFieldKeepsIt) {
  Json obj = StatefulSet(1);
  obj["metadata"]["labels"] = Json::object();
  obj = UpdateManagedFields(Json(), obj, Scope("creator", 0));
  ASSERT_EQ(ManagedFieldsOf(obj)[0]["fieldsV1"]["f:metadata"], J(R"({"f:labels":{}})"));
  Json labelled = obj;
  labelled["metadata"]["labels"]["a"] = "1";
  obj = UpdateManagedFields(obj, labelled, Scope("other", 1));
  Json written = obj;
  written["metadata"].erase("managedFields");
  written["metadata"]["labels"] = Json::object();
  written["spec"]["replicas"] = 2;
  obj = UpdateManagedFields(obj, written, Scope("creator", 2));
  Json creator;
  for (const Json& entry : ManagedFieldsOf(obj)) {
    if (entry["manager"] == "creator") creator = entry["fieldsV1"];
  }
  EXPECT_EQ(creator["f:metadata"], J(R"({"f:labels":{}})")) << ManagedFieldsOf(obj).dump();
  EXPECT_TRUE(creator["f:spec"].contains("f:replicas"));
}

TEST(UpdateManagedFieldsTest, StatusIsolation) {
  Json obj = UpdateManagedFields(Json(), StatefulSet(1), Scope("creator"));
  Json with_status = obj;
  with_status["status"] = {{"replicas", 1}};
  with_status["spec"]["replicas"] = 9;  // a status write cannot take spec
  Json out = UpdateManagedFields(obj, with_status, Scope("kcm", 1, "status"));
  Json entry = ManagedFieldsOf(out)[1];
  EXPECT_EQ(entry["subresource"], "status");
  EXPECT_EQ(entry["fieldsV1"], J(R"({"f:status":{".":{},"f:replicas":{}}})"));
  // And the main resource does not track status.
  Json main = obj;
  main["status"] = {{"replicas", 4}};
  EXPECT_EQ(ManagedFieldsOf(UpdateManagedFields(obj, main, Scope("x"))).size(), 1u);
}

TEST(UpdateManagedFieldsTest, ManagedFieldsInTheBodyReplaceTheStoredOnes) {
  Json obj = UpdateManagedFields(Json(), StatefulSet(1), Scope("creator"));
  Json body = obj;
  body["metadata"]["managedFields"] = J(R"([{"manager":"someone","operation":"Apply",
      "apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}])");
  Json out = UpdateManagedFields(obj, body, Scope("writer"));
  EXPECT_EQ(ManagedFieldsOf(out), body["metadata"]["managedFields"]);
  // [] clears them; the write itself changed nothing, so none remain.
  body["metadata"]["managedFields"] = Json::array();
  EXPECT_FALSE(
      UpdateManagedFields(obj, body, Scope("writer"))["metadata"].contains("managedFields"));
  // Absent, or not decodable: the stored ones stay.
  body["metadata"].erase("managedFields");
  EXPECT_EQ(ManagedFieldsOf(UpdateManagedFields(obj, body, Scope("w"))), ManagedFieldsOf(obj));
  body["metadata"]["managedFields"] = J(R"([{"operation":"Bogus"}])");
  EXPECT_EQ(ManagedFieldsOf(UpdateManagedFields(obj, body, Scope("w"))), ManagedFieldsOf(obj));
  // A subresource write never takes them from the body.
  body["metadata"]["managedFields"] = Json::array();
  EXPECT_EQ(ManagedFieldsOf(UpdateManagedFields(obj, body, Scope("w", 0, "status"))),
            ManagedFieldsOf(obj));
}

TEST(UpdateManagedFieldsTest, DropsManagedFieldsWhenKeysAreMissing) {
  Json obj = UpdateManagedFields(Json(), StatefulSet(1), Scope("creator"));
  Json broken = obj;
  broken["spec"]["template"]["spec"]["containers"].push_back({{"image", "no-name"}});
  Json out = UpdateManagedFields(obj, broken, Scope("writer"));
  EXPECT_FALSE(out["metadata"].contains("managedFields"));
  EXPECT_EQ(out["spec"], broken["spec"]);
}

}  // namespace
}  // namespace lws::apiserver
