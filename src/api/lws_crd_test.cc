// The embedded CRD is the upstream one: names, printer columns, subresources and schema.
#include "api/lws_crd.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/yaml.h"
#include "testdata/testdata_dir.h"

namespace lws::api {
namespace {

TEST(LwsCrdTest, NamesAndGroup) {
  const Json& crd = LwsCrd();
  EXPECT_EQ(crd["kind"], "CustomResourceDefinition");
  EXPECT_EQ(crd["metadata"]["name"], "leaderworkersets.leaderworkerset.x-k8s.io");
  EXPECT_EQ(crd["spec"]["group"], "leaderworkerset.x-k8s.io");
  EXPECT_EQ(crd["spec"]["names"]["kind"], "LeaderWorkerSet");
  EXPECT_EQ(crd["spec"]["names"]["plural"], "leaderworkersets");
  EXPECT_EQ(crd["spec"]["names"]["shortNames"], Json::array({"lws"}));
  EXPECT_EQ(crd["spec"]["scope"], "Namespaced");
}

TEST(LwsCrdTest, PrinterColumnsAndSubresources) {
  const Json& v1 = LwsCrd()["spec"]["versions"][0];
  EXPECT_EQ(v1["name"], "v1");
  std::vector<std::string> names;
  for (const Json& c : v1["additionalPrinterColumns"]) names.push_back(c["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"Ready", "Desired", "Up-to-date", "Age"}));
  EXPECT_EQ(v1["additionalPrinterColumns"][1]["jsonPath"], ".spec.replicas");
  EXPECT_EQ(v1["additionalPrinterColumns"][3]["type"], "date");
  const Json& scale = v1["subresources"]["scale"];
  EXPECT_EQ(scale["specReplicasPath"], ".spec.replicas");
  EXPECT_EQ(scale["statusReplicasPath"], ".status.replicas");
  EXPECT_EQ(scale["labelSelectorPath"], ".status.hpaPodSelector");
  EXPECT_EQ(v1["subresources"]["status"], Json::object());
}

TEST(LwsCrdTest, OpenApiSchemaIsTheV1Schema) {
  const Json& schema = LwsOpenApiSchema();
  EXPECT_EQ(schema["type"], "object");
  const Json& replicas = schema["properties"]["spec"]["properties"]["replicas"];
  EXPECT_EQ(replicas["default"], 1);
  EXPECT_EQ(replicas["maximum"], 1000000);
  EXPECT_EQ(&LwsOpenApiSchema(), &schema);  // parsed once
}

TEST(LwsCrdTest, EmbeddedJsonMatchesTheYamlSource) {
  std::ifstream in(TestdataDir() + "/../deploy/crd/leaderworkerset.x-k8s.io_leaderworkersets.yaml");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  auto from_yaml = LoadYaml(ss.str());
  ASSERT_TRUE(from_yaml.ok()) << from_yaml.status().ToString();
  EXPECT_EQ(*from_yaml, LwsCrd());
  EXPECT_EQ(LwsCrdJsonText().front(), '{');
}

}  // namespace
}  // namespace lws::api
