#include "apiserver/apply_value.h"

#include <gtest/gtest.h>

namespace lws::apiserver {
namespace {

ListTypeProvider Schema() {
  return FromMergeKeys([](std::string_view path) -> std::optional<ListSchema> {
    if (path == "spec.containers") return MapList({"name"});
    if (path == "spec.containers.ports")
      return MapList({"containerPort", "protocol"}, {{"protocol", "TCP"}});
    if (path == "spec.tags") return SetList();
    return std::nullopt;
  });
}

Json J(const char* text) { return Json::parse(text); }

std::vector<std::string> Strings(const FieldSet& s) {
  std::vector<std::string> out;
  for (const Path& p : s.Paths()) out.push_back(PathString(p));
  return out;
}

TEST(ToFieldSetTest, ClaimsLeavesAndListItems) {
  Json v = J(R"({"spec":{"replicas":1,"empty":{},"gone":null,"args":["a"],"tags":["x"],
      "containers":[{"name":"c","image":"i","ports":[{"containerPort":80}]}],"none":[]}})");
  EXPECT_EQ(
      Strings(ToFieldSet(v, Schema())),
      (std::vector<std::string>{
          ".spec.args", ".spec.empty", ".spec.gone", ".spec.none", ".spec.replicas",
          R"(.spec.containers[name="c"])", R"(.spec.containers[name="c"].image)",
          R"(.spec.containers[name="c"].name)",
          R"(.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"])",
          R"(.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].containerPort)",
          R"(.spec.tags[="x"])"}));
}

TEST(CompareTest, ReportsAddedRemovedModified) {
  Json before =
      J(R"({"spec":{"replicas":1,"tags":["x"],"containers":[{"name":"a","image":"1"}]}})");
  Json after = J(R"({"spec":{"replicas":2,"tags":["y"],"containers":[{"name":"b","image":"1"}],
      "labels":{"k":"v"}}})");
  Comparison c = Compare(before, after, Schema());
  EXPECT_EQ(Strings(c.modified), (std::vector<std::string>{".spec.replicas"}));
  EXPECT_EQ(
      Strings(c.added),
      (std::vector<std::string>{
          ".spec.labels", R"(.spec.containers[name="b"])", R"(.spec.containers[name="b"].image)",
          R"(.spec.containers[name="b"].name)", ".spec.labels.k", R"(.spec.tags[="y"])"}));
  EXPECT_EQ(Strings(c.removed),
            (std::vector<std::string>{
                R"(.spec.containers[name="a"])", R"(.spec.containers[name="a"].image)",
                R"(.spec.containers[name="a"].name)", R"(.spec.tags[="x"])"}));
  EXPECT_TRUE(Compare(after, after, Schema()).empty());
  // Null and {} differ; both empty, so the field is compared as a leaf.
  EXPECT_EQ(Strings(Compare(J(R"({"a":null})"), J(R"({"a":{}})"), Schema()).modified),
            (std::vector<std::string>{".a"}));
}

TEST(MergeTest, MapsRecurseAtomicListsReplaceSetsUnion) {
  Json live = J(R"({"spec":{"replicas":1,"keep":true,"args":["a","b"],"tags":["x","y"]}})");
  Json config = J(R"({"spec":{"replicas":2,"args":["c"],"tags":["z","x"]}})");
  EXPECT_EQ(Merge(live, config, Schema()),
            J(R"({"spec":{"replicas":2,"keep":true,"args":["c"],"tags":["z","x","y"]}})"));
}

TEST(MergeTest, MapListsMergeByKeyAndKeepOrder) {
  struct Case {
    const char* live;
    const char* config;
    const char* want;
  };
  // Names only; each item is {"name": n}. Live-only items stay next to their live neighbours;
  // config items come in config order.
  std::vector<Case> cases = {
      {"a b c", "b", "a b c"},   {"a b c", "d", "a b c d"}, {"a b c", "c a", "b c a"},
      {"a x b", "b a", "x b a"}, {"a b c", "a c", "a b c"}, {"", "a b", "a b"},
      {"a b", "", "a b"},
  };
  auto list = [](const char* names) {
    Json out = Json::array();
    std::string s = names;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != ' ') out.push_back(Json{{"name", std::string(1, s[i])}});
    }
    return out;
  };
  for (const Case& c : cases) {
    Json got = Merge(Json{{"spec", {{"containers", list(c.live)}}}},
                     Json{{"spec", {{"containers", list(c.config)}}}}, Schema());
    EXPECT_EQ(got["spec"]["containers"], list(c.want)) << c.live << " + " << c.config;
  }
  Json merged = Merge(J(R"({"spec":{"containers":[{"name":"c","image":"1","cpu":2}]}})"),
                      J(R"({"spec":{"containers":[{"name":"c","image":"2"}]}})"), Schema());
  EXPECT_EQ(merged, J(R"({"spec":{"containers":[{"name":"c","image":"2","cpu":2}]}})"));
}

TEST(RemoveItemsTest, RemovesMembersAndDropsEmptiedParents) {
  Json v = J(R"({"spec":{"replicas":1,"sub":{"x":1},"containers":[{"name":"a","image":"1"},
      {"name":"b"}],"tags":["x","y"]}})");
  FieldSet remove;
  remove.Insert({PathElement::Field("spec"), PathElement::Field("sub"), PathElement::Field("x")});
  remove.Insert({PathElement::Field("spec"), PathElement::Field("containers"),
                 PathElement::Key(Json{{"name", "a"}})});
  remove.Insert({PathElement::Field("spec"), PathElement::Field("tags"), PathElement::Value("y")});
  EXPECT_EQ(RemoveItems(v, remove, Schema()),
            J(R"({"spec":{"replicas":1,"containers":[{"name":"b"}],"tags":["x"]}})"));
}

}  // namespace
}  // namespace lws::apiserver
