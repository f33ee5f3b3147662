#include "api/resources.h"

#include <gtest/gtest.h>

#include "api/lws_crd.h"

namespace lws::api {
namespace {

TEST(ResourceRegistryTest, BuiltinsHaveTheFactsKubectlNeeds) {
  auto registry = ResourceRegistry::WithBuiltins();
  const ResourceInfo* pods = registry.Find("", "v1", "pods");
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(pods->kind, "Pod");
  EXPECT_EQ(pods->short_names, std::vector<std::string>{"po"});
  EXPECT_TRUE(pods->has_status);
  EXPECT_TRUE(pods->graceful_delete);
  EXPECT_FALSE(pods->tracks_generation);
  const ResourceInfo* sts = registry.Find("apps", "v1", "statefulsets");
  ASSERT_NE(sts, nullptr);
  EXPECT_TRUE(sts->tracks_generation);
  ASSERT_TRUE(sts->scale.has_value());
  EXPECT_EQ(sts->GroupResource(), "statefulsets.apps");
  EXPECT_EQ(sts->ApiVersion(), "apps/v1");
  const ResourceInfo* nodes = registry.Find("", "v1", "nodes");
  ASSERT_NE(nodes, nullptr);
  EXPECT_FALSE(nodes->namespaced);
  EXPECT_EQ(registry.Find("", "v1", "nosuch"), nullptr);
  EXPECT_EQ(registry.FindByKind("coordination.k8s.io/v1", "Lease")->resource, "leases");
}

// The kinds of the operator's manifests (deploy/), with kube-apiserver's scope, short names
// and categories.
TEST(ResourceRegistryTest, OperatorManifestKinds) {
  auto registry = ResourceRegistry::WithBuiltins();
  struct Want {
    std::string api_version, kind, resource;
    bool namespaced;
    std::vector<std::string> short_names, categories;
  };
  const std::vector<Want> want = {
      {"apps/v1", "Deployment", "deployments", true, {"deploy"}, {"all"}},
      {"rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", false, {}, {}},
      {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings", false, {}, {}},
      {"rbac.authorization.k8s.io/v1", "Role", "roles", true, {}, {}},
      {"rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", true, {}, {}},
      {"admissionregistration.k8s.io/v1",
       "MutatingWebhookConfiguration",
       "mutatingwebhookconfigurations",
       false,
       {},
       {"api-extensions"}},
      {"admissionregistration.k8s.io/v1",
       "ValidatingWebhookConfiguration",
       "validatingwebhookconfigurations",
       false,
       {},
       {"api-extensions"}},
  };
  for (const Want& w : want) {
    const ResourceInfo* r = registry.FindByKind(w.api_version, w.kind);
    ASSERT_NE(r, nullptr) << w.kind;
    EXPECT_EQ(r->resource, w.resource);
    EXPECT_EQ(r->list_kind, w.kind + "List");
    EXPECT_EQ(r->namespaced, w.namespaced) << w.kind;
    EXPECT_EQ(r->short_names, w.short_names) << w.kind;
    EXPECT_EQ(r->categories, w.categories) << w.kind;
  }
  const ResourceInfo* deployments = registry.Find("apps", "v1", "deployments");
  EXPECT_TRUE(deployments->has_status);
  EXPECT_TRUE(deployments->tracks_generation);
  EXPECT_TRUE(deployments->scale.has_value());
}

TEST(ResourceRegistryTest, LeaderWorkerSetFromTheUpstreamCrd) {
  auto registry = ResourceRegistry::WithBuiltins();
  ASSERT_TRUE(registry.AddCustomResource(LwsCrd()).ok());
  const ResourceInfo* lws = registry.Find("leaderworkerset.x-k8s.io", "v1", "leaderworkersets");
  ASSERT_NE(lws, nullptr);
  EXPECT_TRUE(lws->custom);
  EXPECT_TRUE(lws->namespaced);
  EXPECT_TRUE(lws->has_status);
  EXPECT_TRUE(lws->tracks_generation);
  EXPECT_EQ(lws->short_names, std::vector<std::string>{"lws"});
  ASSERT_TRUE(lws->scale.has_value());
  EXPECT_EQ(lws->scale->label_selector_path, ".status.hpaPodSelector");
  std::vector<std::string> columns;
  for (const auto& c : lws->printer_columns) columns.push_back(c.name);
  EXPECT_EQ(columns, (std::vector<std::string>{"Ready", "Desired", "Up-to-date", "Age"}));
  EXPECT_TRUE(lws->openapi_schema.is_object());
  registry.RemoveCustomResource("leaderworkersets.leaderworkerset.x-k8s.io");
  EXPECT_EQ(registry.Find("leaderworkerset.x-k8s.io", "v1", "leaderworkersets"), nullptr);
}

TEST(ResourceRegistryTest, RejectsIncompleteCrds) {
  auto registry = ResourceRegistry::WithBuiltins();
  EXPECT_FALSE(registry.AddCustomResource(Json::parse(R"({"spec":{"group":"x"}})")).ok());
  EXPECT_FALSE(registry.AddCustomResource(Json::parse("[]")).ok());
}

}  // namespace
}  // namespace lws::api
