#include "apiserver/field_set.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace lws::apiserver {
namespace {

PathElement F(std::string name) { return PathElement::Field(std::move(name)); }
PathElement K(const char* json) { return PathElement::Key(Json::parse(json)); }
PathElement V(const char* json) { return PathElement::Value(Json::parse(json)); }

FieldSet SetOf(std::initializer_list<Path> paths) {
  FieldSet s;
  for (const Path& p : paths) s.Insert(p);
  return s;
}

TEST(PathElementTest, SerializesAsFieldsV1Keys) {
  EXPECT_EQ(F("replicas").Serialize(), "f:replicas");
  EXPECT_EQ(K(R"({"protocol":"TCP","containerPort":80})").Serialize(),
            R"(k:{"containerPort":80,"protocol":"TCP"})");
  EXPECT_EQ(V(R"("a<b")").Serialize(), R"(v:"a\u003cb")");
  EXPECT_EQ(V("1.5").Serialize(), "v:1.5");
  EXPECT_EQ(PathElement::Index(3).Serialize(), "i:3");
}

TEST(PathElementTest, StringsMatchConflictMessages) {
  Path p = {F("spec"), F("template"), F("spec"), F("containers"), K(R"({"name":"c"})"), F("image")};
  EXPECT_EQ(PathString(p), R"(.spec.template.spec.containers[name="c"].image)");
  EXPECT_EQ(PathString({F("spec"), F("ports"), K(R"({"containerPort":80,"protocol":"TCP"})")}),
            R"(.spec.ports[containerPort=80,protocol="TCP"])");
  EXPECT_EQ(PathString({F("metadata"), F("finalizers"), V(R"("x")")}),
            R"(.metadata.finalizers[="x"])");
  EXPECT_EQ(PathString({F("a"), PathElement::Index(2)}), ".a[2]");
  EXPECT_EQ(V("1000000.0").String(), "[=1e+06]");
  EXPECT_EQ(V("0.25").String(), "[=0.25]");
}

TEST(PathElementTest, OrdersFieldsBeforeKeysBeforeValuesBeforeIndexes) {
  std::vector<PathElement> sorted = {
      F("a"),  F("b"),      K(R"({"n":9})"), K(R"({"n":10})"), V("2"),
      V("10"), V(R"("a")"), V("true"),       V("null"),        PathElement::Index(0)};
  for (std::size_t i = 0; i + 1 < sorted.size(); ++i) {
    EXPECT_LT(sorted[i].Compare(sorted[i + 1]), 0) << i;
    EXPECT_GT(sorted[i + 1].Compare(sorted[i]), 0) << i;
  }
  EXPECT_EQ(V("1").Compare(V("1.0")), 0);  // ints and floats compare numerically
}

TEST(PathElementTest, ParsesKnownKindsAndSkipsUnknown) {
  auto pe = ParsePathElement(R"(k:{"name":"c"})");
  ASSERT_TRUE(pe.ok());
  EXPECT_EQ(**pe, K(R"({"name":"c"})"));
  EXPECT_FALSE(ParsePathElement("z:whatever")->has_value());
  EXPECT_FALSE(ParsePathElement("k:{bad").ok());
  EXPECT_FALSE(ParsePathElement("k:[1]").ok());
  EXPECT_FALSE(ParsePathElement("i:x").ok());
  EXPECT_FALSE(ParsePathElement("f").ok());
  EXPECT_FALSE(ParsePathElement("fx").ok());
}

TEST(FieldSetTest, SetOperations) {
  Path a = {F("spec"), F("replicas")}, b = {F("spec"), F("paused")}, c = {F("metadata")};
  FieldSet ab = SetOf({a, b}), bc = SetOf({b, c});
  EXPECT_EQ(ab.Union(bc), SetOf({a, b, c}));
  EXPECT_EQ(ab.Intersection(bc), SetOf({b}));
  EXPECT_EQ(ab.Difference(bc), SetOf({a}));
  // A member removes only itself with Difference, its whole subtree with RecursiveDifference.
  FieldSet spec = SetOf({{F("spec")}});
  EXPECT_EQ(ab.Difference(spec), ab);
  EXPECT_TRUE(ab.RecursiveDifference(spec).empty());
  EXPECT_TRUE(ab.Has(a));
  EXPECT_FALSE(ab.Has({F("spec")}));
  EXPECT_EQ(ab.WithFieldsAsMembers(), SetOf({a, b, {F("spec")}}));
  EXPECT_EQ(ab.size(), 2u);
}

TEST(FieldSetTest, PathsListMembersBeforeChildren) {
  FieldSet s = SetOf({{F("spec"), F("x"), F("y")}, {F("spec"), F("a")}, {F("kind")}});
  std::vector<std::string> got;
  for (const Path& p : s.Paths()) got.push_back(PathString(p));
  EXPECT_EQ(got, (std::vector<std::string>{".kind", ".spec.a", ".spec.x.y"}));
}

TEST(FieldSetTest, FieldsV1MarksElementsThatAreBothMemberAndParent) {
  Path item = {F("spec"), F("containers"), K(R"({"name":"c"})")};
  Path image = item;
  image.push_back(F("image"));
  FieldSet s = SetOf({item, image, {F("spec"), F("replicas")}});
  Json want = Json::parse(R"({"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},
      "f:image":{}}},"f:replicas":{}}})");
  EXPECT_EQ(s.ToFieldsV1(), want);
  auto back = FieldSet::FromFieldsV1(want);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, s);
}

TEST(FieldSetTest, FromFieldsV1DropsUnknownKindsAndRejectsGarbage) {
  auto s = FieldSet::FromFieldsV1(Json::parse(R"({"f:a":{},"x:b":{"f:c":{}}})"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, SetOf({{F("a")}}));
  EXPECT_FALSE(FieldSet::FromFieldsV1(Json::parse(R"({"f:a":1})")).ok());
  EXPECT_FALSE(FieldSet::FromFieldsV1(Json::parse(R"([1])")).ok());
  EXPECT_FALSE(FieldSet::FromFieldsV1(Json::parse(R"({"k:x":{}})")).ok());
  EXPECT_TRUE(FieldSet::FromFieldsV1(Json())->empty());
  Json deep = Json::object();
  for (int i = 0; i < 1500; ++i) deep = Json{{"f:a", deep}};
  EXPECT_FALSE(FieldSet::FromFieldsV1(deep).ok());
}

// Random sets of paths over a small alphabet, so that paths share prefixes.
rc::Gen<Path> GenPath() {
  auto element = rc::gen::oneOf(
      rc::gen::map(rc::gen::element<std::string>("a", "b", "spec", "x"), &PathElement::Field),
      rc::gen::map(rc::gen::inRange(0, 3),
                   [](int i) {
                     return PathElement::Key(Json{{"name", std::to_string(i)}});
                   }),
      rc::gen::map(rc::gen::element<std::string>("p", "q"),
                   [](const std::string& v) { return PathElement::Value(v); }),
      rc::gen::map(rc::gen::inRange(0, 2), &PathElement::Index));
  return rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<Path>(element)));
}

FieldSet GenSet() {
  FieldSet s;
  for (const Path& p : *rc::gen::container<std::vector<Path>>(GenPath())) s.Insert(p);
  return s;
}

RC_GTEST_PROP(FieldSetProperty, FieldsV1RoundTrips, ()) {
  FieldSet s = GenSet();
  auto back = FieldSet::FromFieldsV1(s.ToFieldsV1());
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == s);
  // Through text too, as the wire carries it.
  auto reparsed = FieldSet::FromFieldsV1(Json::parse(s.ToFieldsV1().dump()));
  RC_ASSERT(reparsed.ok() && *reparsed == s);
}

RC_GTEST_PROP(FieldSetProperty, OperationsAgreeWithPathMembership, ()) {
  FieldSet a = GenSet(), b = GenSet();
  FieldSet u = a.Union(b), i = a.Intersection(b), d = a.Difference(b);
  for (const Path& p : u.Paths()) RC_ASSERT(a.Has(p) || b.Has(p));
  for (const Path& p : a.Paths()) {
    RC_ASSERT(u.Has(p));
    RC_ASSERT(i.Has(p) == b.Has(p));
    RC_ASSERT(d.Has(p) == !b.Has(p));
  }
  RC_ASSERT(u.size() == a.size() + b.size() - i.size());
  RC_ASSERT(d.Union(i) == a);
}

// An Inserter starts each path where it leaves the previous one; in any order of paths, the set
// it builds is the one Insert builds from the root.
RC_GTEST_PROP(FieldSetProperty, InserterBuildsWhatInsertBuilds, ()) {
  const auto paths = *rc::gen::container<std::vector<Path>>(GenPath());
  FieldSet by_insert, by_inserter;
  FieldSet::Inserter inserter(&by_inserter);
  for (const Path& p : paths) {
    by_insert.Insert(p);
    inserter.Insert(p);
  }
  RC_ASSERT(by_inserter == by_insert);
}

}  // namespace
}  // namespace lws::apiserver
