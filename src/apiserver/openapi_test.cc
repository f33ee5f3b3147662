#include "apiserver/openapi.h"

#include <gtest/gtest.h>

#include "api/lws_crd.h"
#include "apiserver/golden_testing.h"

namespace lws::apiserver {
namespace {

using testing::ExpectGolden;

class OpenApiTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(registry_.AddCustomResource(api::LwsCrd()).ok()); }
  api::ResourceRegistry registry_ = api::ResourceRegistry::WithBuiltins();
};

TEST_F(OpenApiTest, RootListsEveryGroupVersionWithItsHash) {
  std::vector<OpenApiDocument> docs = OpenApiDocuments(registry_);
  std::vector<std::string> paths;
  for (const auto& d : docs) paths.push_back(d.path);
  EXPECT_EQ(paths,
            (std::vector<std::string>{
                "api/v1", "apis/apps/v1", "apis/events.k8s.io/v1", "apis/authentication.k8s.io/v1",
                "apis/authorization.k8s.io/v1", "apis/batch/v1", "apis/policy/v1",
                "apis/rbac.authorization.k8s.io/v1", "apis/admissionregistration.k8s.io/v1",
                "apis/apiextensions.k8s.io/v1", "apis/scheduling.k8s.io/v1",
                "apis/coordination.k8s.io/v1", "apis/leaderworkerset.x-k8s.io/v1"}));
  Json root = OpenApiRoot(docs);
  EXPECT_EQ(root["paths"].size(), docs.size());
  for (const auto& d : docs) {
    EXPECT_EQ(d.hash, Sha512Hex(d.document.dump()));
    EXPECT_EQ(d.hash.size(), 128u);
    EXPECT_EQ(root["paths"][d.path]["serverRelativeURL"],
              "/openapi/v3/" + d.path + "?hash=" + d.hash);
  }
}

TEST_F(OpenApiTest, HashChangesWithTheDocument) {
  std::string before = OpenApiDocumentFor(registry_, "leaderworkerset.x-k8s.io", "v1")->hash;
  std::string core_before = OpenApiDocumentFor(registry_, "", "v1")->hash;
  Json crd = api::LwsCrd();
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["description"] = "changed";
  ASSERT_TRUE(registry_.AddCustomResource(crd).ok());
  EXPECT_NE(OpenApiDocumentFor(registry_, "leaderworkerset.x-k8s.io", "v1")->hash, before);
  EXPECT_EQ(OpenApiDocumentFor(registry_, "", "v1")->hash, core_before);
}

// What kubectl's query_param_verifier_v3 looks for: for every served kind, a PATCH operation
// with its GVK and a fieldValidation parameter.
TEST_F(OpenApiTest, EveryKindHasAPatchWithFieldValidation) {
  for (const api::ResourceInfo* r : registry_.All()) {
    Result<OpenApiDocument> doc = OpenApiDocumentFor(registry_, r->group, r->version);
    ASSERT_TRUE(doc.ok());
    bool found = false;
    for (const auto& [path, item] : doc->document["paths"].items()) {
      if (!item.contains("patch")) continue;
      const Json& patch = item["patch"];
      if (patch["x-kubernetes-group-version-kind"] !=
          Json{{"group", r->group}, {"version", r->version}, {"kind", r->kind}}) {
        continue;
      }
      for (const Json& p : patch["parameters"]) found |= p["name"] == "fieldValidation";
    }
    EXPECT_TRUE(found) << r->GroupResource();
  }
}

TEST_F(OpenApiTest, CoreDocumentMatchesGolden) {
  ExpectGolden("openapi_api_v1.json", OpenApiDocumentFor(registry_, "", "v1")->document);
}

TEST_F(OpenApiTest, CustomResourceSchemaIsServedForExplain) {
  Json doc = OpenApiDocumentFor(registry_, "leaderworkerset.x-k8s.io", "v1")->document;
  const Json& schema = doc["components"]["schemas"]["io.x-k8s.leaderworkerset.v1.LeaderWorkerSet"];
  EXPECT_EQ(schema["x-kubernetes-group-version-kind"], Json::parse(R"(
      [{"group":"leaderworkerset.x-k8s.io","version":"v1","kind":"LeaderWorkerSet"}])"));
  EXPECT_TRUE(schema["properties"]["spec"]["properties"].contains("leaderWorkerTemplate"));
  EXPECT_EQ(schema["description"], api::LwsOpenApiSchema()["description"]);
  const Json& patch =
      doc["paths"]
         ["/apis/leaderworkerset.x-k8s.io/v1/namespaces/{namespace}/leaderworkersets/{name}"]
         ["patch"];
  EXPECT_EQ(patch["operationId"], "patchLeaderworkersetXK8sIoV1NamespacedLeaderWorkerSet");
  EXPECT_FALSE(patch["requestBody"]["content"].contains("application/strategic-merge-patch+json"));
  EXPECT_EQ(patch["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/io.x-k8s.leaderworkerset.v1.LeaderWorkerSet");
}

TEST_F(OpenApiTest, PathsFollowScope) {
  Json core = OpenApiDocumentFor(registry_, "", "v1")->document;
  EXPECT_TRUE(core["paths"].contains("/api/v1/nodes/{name}"));
  EXPECT_TRUE(core["paths"].contains("/api/v1/namespaces/{namespace}/pods/{name}"));
  EXPECT_EQ(core["paths"]["/api/v1/nodes/{name}"]["patch"]["operationId"], "patchCoreV1Node");
  Json coordination = OpenApiDocumentFor(registry_, "coordination.k8s.io", "v1")->document;
  EXPECT_EQ(
      coordination["paths"]["/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}"]
                  ["patch"]["operationId"],
      "patchCoordinationV1NamespacedLease");
  EXPECT_EQ(OpenApiDocumentFor(registry_, "apps", "v2").status().code(), Code::kNotFound);
}

TEST(OpenApiSchemaNameTest, ReversesTheGroup) {
  EXPECT_EQ(OpenApiSchemaName("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet"),
            "io.x-k8s.leaderworkerset.v1.LeaderWorkerSet");
  EXPECT_EQ(OpenApiSchemaName("example.com", "v1beta1", "Widget"), "com.example.v1beta1.Widget");
  EXPECT_EQ(OpenApiSchemaName("", "v1", "Pod"), "v1.Pod");
}

TEST(Sha512HexTest, KnownDigest) {
  EXPECT_EQ(Sha512Hex("abc").substr(0, 32), "DDAF35A193617ABACC417349AE204131");
}

}  // namespace
}  // namespace lws::apiserver
