#include "apiserver/apply_schema.h"

#include <gtest/gtest.h>

#include "api/lws_crd.h"

namespace lws::apiserver {
namespace {

SchemaPath Split(std::string_view dotted) {
  SchemaPath out;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    std::size_t dot = dotted.find('.', start);
    if (dot == std::string_view::npos) dot = dotted.size();
    out.emplace_back(dotted.substr(start, dot - start));
    start = dot + 1;
  }
  return out;
}

TEST(FromOpenApiSchemaTest, ReadsListTypesOfTheLwsCrd) {
  ListTypeProvider p = FromOpenApiSchema(api::LwsOpenApiSchema());
  const std::string pod = "spec.leaderWorkerTemplate.leaderTemplate.spec.";
  struct Case {
    std::string path;
    ListSchema want;
  };
  std::vector<Case> cases = {
      {pod + "containers", MapList({"name"})},
      {pod + "containers.ports", MapList({"containerPort", "protocol"}, {{"protocol", "TCP"}})},
      {pod + "containers.env", MapList({"name"})},
      {pod + "containers.args", ListSchema{}},
      {pod + "volumes", MapList({"name"})},
      {pod + "containers.restartPolicyRules.exitCodes.values", SetList()},
      {"spec.replicas", ListSchema{}},
      {"spec.nosuchfield", ListSchema{}},
      {"metadata.finalizers", SetList()},  // ObjectMeta, for every kind
      {"metadata.ownerReferences", MapList({"uid"})},
  };
  for (const Case& c : cases) EXPECT_EQ(p.ListAt(Split(c.path)), c.want) << c.path;
  EXPECT_TRUE(p.AtomicMapAt(
      Split(pod + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution")));
  EXPECT_FALSE(p.AtomicMapAt(Split(pod + "affinity.nodeAffinity")));
  EXPECT_FALSE(p.AtomicMapAt(Split("metadata.labels")));
}

TEST(FromOpenApiSchemaTest, FollowsAdditionalPropertiesAndNestedArrays) {
  Json schema = Json::parse(R"({"type":"object","properties":{"spec":{"type":"object",
    "additionalProperties":{"type":"object","properties":{"items":{"type":"array",
      "x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["id"],
      "items":{"type":"object","x-kubernetes-map-type":"atomic"}}}}}}})");
  ListTypeProvider p = FromOpenApiSchema(schema);
  EXPECT_EQ(p.ListAt({"spec", "anykey", "items"}), MapList({"id"}));
  EXPECT_TRUE(p.AtomicMapAt({"spec", "anykey", "items"}));  // the items' object schema
  EXPECT_EQ(p.ListAt({"status", "items"}), ListSchema{});
}

TEST(FromMergeKeysTest, LooksUpDottedPaths) {
  ListTypeProvider p = FromMergeKeys([](std::string_view path) -> std::optional<ListSchema> {
    if (path == "spec.template.spec.containers") return MapList({"name"});
    return std::nullopt;
  });
  EXPECT_EQ(p.ListAt({"spec", "template", "spec", "containers"}), MapList({"name"}));
  EXPECT_EQ(p.ListAt({"spec", "template", "spec", "volumes"}), ListSchema{});
  EXPECT_FALSE(p.AtomicMapAt({"spec"}));
}

TEST(ListItemElementTest, KeysAndErrors) {
  ListSchema ports = MapList({"containerPort", "protocol"}, {{"protocol", "TCP"}});
  auto pe = ListItemElement(ports, Json{{"containerPort", 80}});
  ASSERT_TRUE(pe.ok());
  EXPECT_EQ(pe->Serialize(), R"(k:{"containerPort":80,"protocol":"TCP"})");
  struct Case {
    ListSchema list;
    Json item;
    std::string error;
  };
  std::vector<Case> cases = {
      {MapList({"name"}), Json{{"image", "x"}},
       R"(associative list with keys has an element that omits key field "name" (and doesn't have default value))"},
      {MapList({"name"}), Json(), "associative list with keys may not have a null element"},
      {MapList({"name"}), "c", "associative list with keys may not have non-map elements"},
      {SetList(), Json::object(), "associative list without keys has an element that's a map type"},
      {SetList(), Json::array(), "not supported: associative list with lists as elements"},
      {SetList(), Json(), "associative list without keys has an element that's an explicit null"},
  };
  for (const Case& c : cases) {
    auto got = ListItemElement(c.list, c.item);
    ASSERT_FALSE(got.ok()) << c.item;
    EXPECT_EQ(got.status().message(), c.error);
  }
}

TEST(ValidateShapeTest, ReportsLikeStructuredMergeDiff) {
  ListTypeProvider p = FromMergeKeys([](std::string_view path) -> std::optional<ListSchema> {
    if (path == "spec.containers") return MapList({"name"});
    if (path == "spec.containers.ports") return MapList({"containerPort", "protocol"});
    return std::nullopt;
  });
  Json obj = Json::parse(R"({"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]},
      {"name":"c"}],"args":[1,1]}})");
  std::vector<ShapeError> errors = ValidateShape(obj, p, false);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(
      ShapeErrorsText(errors),
      "errors:\n"
      R"(  .spec.containers[name="c"].ports: element 0: associative list with keys has an element that omits key field "protocol" (and doesn't have default value))"
      "\n"
      R"(  .spec.containers: duplicate entries for key [name="c"])");
  EXPECT_EQ(ValidateShape(obj, p, true).size(), 1u);
  Json deep = Json::array();
  for (int i = 0; i < 2000; ++i) deep = Json::array({deep});
  EXPECT_EQ(ValidateShape(Json{{"spec", deep}}, p, true).size(), 1u);
}

}  // namespace
}  // namespace lws::apiserver
