#include "apiserver/fields_v1_edit.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace lws::apiserver {
namespace {

PathElement F(std::string name) { return PathElement::Field(std::move(name)); }
PathElement K(const char* json) { return PathElement::Key(Json::parse(json)); }

FieldSet SetOf(std::initializer_list<Path> paths) {
  FieldSet s;
  for (const Path& p : paths) s.Insert(p);
  return s;
}

// A random set of field-name paths (one spelling each) over a small alphabet, so that two
// sets often share paths and prefixes.
FieldSet RandomFieldSet() {
  FieldSet set;
  const int count = *rc::gen::inRange(0, 6);
  for (int i = 0; i < count; ++i) {
    Path path;
    const int depth = *rc::gen::inRange(1, 4);
    for (int d = 0; d < depth; ++d) {
      path.push_back(F(std::string(1, static_cast<char>('a' + *rc::gen::inRange(0, 3)))));
    }
    set.Insert(path);
  }
  return set;
}

bool SharesAPath(const FieldSet& a, const FieldSet& b) { return !a.Intersection(b).empty(); }

// Editing the JSON gives what editing the decoded set and encoding it gives.
RC_GTEST_PROP(FieldsV1EditTest, RemoveThenAddIsTheSetDifferenceThenUnion, ()) {
  const FieldSet owned = RandomFieldSet();
  const FieldSet removed = RandomFieldSet();
  const FieldSet added = RandomFieldSet();
  Json edited = owned.ToFieldsV1();
  RC_ASSERT(RemoveFieldsV1(edited, removed));
  RC_ASSERT(AddFieldsV1(edited, added));
  FieldSet expected = owned;
  expected.Subtract(removed);
  expected.Add(added);
  RC_LOG() << owned.ToFieldsV1().dump() << " - " << removed.ToFieldsV1().dump() << " + "
           << added.ToFieldsV1().dump() << " gave " << edited.dump() << "\n";
  RC_ASSERT(edited == expected.ToFieldsV1());
}

RC_GTEST_PROP(FieldsV1EditTest, OwnsAllIsInclusionAndMayShareNeverMissesASharedPath, ()) {
  const FieldSet owned = RandomFieldSet();
  const FieldSet set = RandomFieldSet();
  const Json fields = owned.ToFieldsV1();
  RC_ASSERT(OwnsAll(fields, set) == (set.Difference(owned).empty()));
  if (SharesAPath(owned, set)) RC_ASSERT(MayShare(fields, set));
}

TEST(FieldsV1EditTest, DisjointFieldsProvablyShareNothing) {
  const Json fields = SetOf({{F("spec"), F("replicas")}}).ToFieldsV1();
  EXPECT_FALSE(MayShare(fields, SetOf({{F("status"), F("replicas")}})));
  EXPECT_FALSE(MayShare(fields, SetOf({{F("spec"), F("template")}})));
  EXPECT_TRUE(MayShare(fields, SetOf({{F("spec"), F("replicas")}})));
}

TEST(FieldsV1EditTest, AKeySpelledAnotherWayMakesThemUnsure) {
  // The stored entry spells the key with its fields in another order than Serialize does.
  const Json fields =
      Json::parse(R"({"f:spec":{"f:ports":{"k:{\"protocol\":\"TCP\",\"port\":80}":{".":{}}}}})");
  const FieldSet port = SetOf({{F("spec"), F("ports"), K(R"({"port":80,"protocol":"TCP"})")}});
  EXPECT_TRUE(MayShare(fields, port));
  EXPECT_FALSE(OwnsAll(fields, port));
  Json edited = fields;
  EXPECT_FALSE(RemoveFieldsV1(edited, port));
  edited = fields;
  EXPECT_FALSE(AddFieldsV1(edited, port));
}

// The case the property found: the entry owns `b` itself, with nothing below it written, and
// the write removed a path below `b`. `b` stays a member.
TEST(FieldsV1EditTest, RemovingBelowAMemberKeepsTheMember) {
  Json edited = SetOf({{F("b")}}).ToFieldsV1();
  ASSERT_TRUE(RemoveFieldsV1(edited, SetOf({{F("b"), F("a")}})));
  EXPECT_EQ(edited, SetOf({{F("b")}}).ToFieldsV1());
}

TEST(FieldsV1EditTest, RemovingAMemberKeepsWhatLiesBelowIt) {
  FieldSet owned = SetOf({{F("metadata"), F("labels")}, {F("metadata"), F("labels"), F("app")}});
  Json edited = owned.ToFieldsV1();
  ASSERT_TRUE(RemoveFieldsV1(edited, SetOf({{F("metadata"), F("labels")}})));
  EXPECT_EQ(edited, SetOf({{F("metadata"), F("labels"), F("app")}}).ToFieldsV1());
}

}  // namespace
}  // namespace lws::apiserver
