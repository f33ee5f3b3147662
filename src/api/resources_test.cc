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
