#include "apiserver/discovery.h"

#include <gtest/gtest.h>

#include "api/lws_crd.h"
#include "apiserver/golden_testing.h"

namespace lws::apiserver {
namespace {

using testing::ExpectGolden;

class DiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(registry_.AddCustomResource(api::LwsCrd()).ok()); }
  api::ResourceRegistry registry_ = api::ResourceRegistry::WithBuiltins();
};

TEST_F(DiscoveryTest, VersionPicksKubectl132) {
  Json version = VersionDocument();
  EXPECT_EQ(version["major"], "1");
  EXPECT_EQ(version["minor"], "32");
  EXPECT_EQ(version["gitVersion"], "v1.32.0");
  ExpectGolden("version.json", version);
}

TEST_F(DiscoveryTest, LegacyDocumentsMatchGoldens) {
  ExpectGolden("discovery_api.json", CoreVersions(registry_, "127.0.0.1:6443"));
  ExpectGolden("discovery_apis.json", GroupList(registry_));
  ExpectGolden("discovery_apis_apps.json", *Group(registry_, "apps"));
  ExpectGolden("discovery_api_v1.json", *ResourceList(registry_, "", "v1"));
  ExpectGolden("discovery_apis_apps_v1.json", *ResourceList(registry_, "apps", "v1"));
  ExpectGolden("discovery_apis_lws_v1.json",
               *ResourceList(registry_, "leaderworkerset.x-k8s.io", "v1"));
}

TEST_F(DiscoveryTest, AggregatedDocumentsMatchGoldens) {
  ExpectGolden("discovery_aggregated_api.json", AggregatedDiscovery(registry_, true));
  ExpectGolden("discovery_aggregated_apis.json", AggregatedDiscovery(registry_, false));
  EXPECT_EQ(AggregatedDiscovery(registry_, false, AggregatedVersion::kV2Beta1)["apiVersion"],
            "apidiscovery.k8s.io/v2beta1");
}

// The facts kubectl-compat.md section 2.1 lists as required, checked directly.
TEST_F(DiscoveryTest, AggregatedEntriesCarryWhatClientsNeed) {
  Json core = AggregatedDiscovery(registry_, true);
  ASSERT_EQ(core["items"].size(), 1u);
  EXPECT_FALSE(core["items"][0]["metadata"].contains("name"));
  // Held in a variable: a range-for over a member of a temporary reads a freed document.
  const Json groups = AggregatedDiscovery(registry_, false);
  for (const Json& group : groups["items"]) {
    for (const Json& version : group["versions"]) {
      EXPECT_EQ(version["freshness"], "Current");
      for (const Json& resource : version["resources"]) {
        EXPECT_TRUE(resource.contains("responseKind")) << resource;
        EXPECT_FALSE(resource["verbs"].empty()) << resource;
      }
    }
  }
  Json apis = AggregatedDiscovery(registry_, false);
  const Json* lws = nullptr;
  for (const Json& group : apis["items"]) {
    if (group["metadata"]["name"] == "leaderworkerset.x-k8s.io") lws = &group;
  }
  ASSERT_NE(lws, nullptr);
  const Json& resource = (*lws)["versions"][0]["resources"][0];
  EXPECT_EQ(resource["shortNames"], Json::array({"lws"}));
  EXPECT_EQ(resource["subresources"][0]["subresource"], "scale");
  EXPECT_EQ(resource["subresources"][0]["responseKind"],
            Json::parse(R"({"group":"autoscaling","version":"v1","kind":"Scale"})"));
}

TEST_F(DiscoveryTest, GroupsComeInServerOrder) {
  EXPECT_EQ(GroupsInDiscoveryOrder(registry_),
            (std::vector<std::string>{"", "apps", "events.k8s.io", "authentication.k8s.io",
                                      "authorization.k8s.io", "batch", "policy",
                                      "rbac.authorization.k8s.io", "admissionregistration.k8s.io",
                                      "apiextensions.k8s.io", "scheduling.k8s.io",
                                      "coordination.k8s.io", "leaderworkerset.x-k8s.io"}));
}

TEST_F(DiscoveryTest, CustomGroupVersionsArePreferredByKubernetesPriority) {
  Json crd = Json::parse(R"({"spec":{"group":"example.com","scope":"Namespaced",
    "names":{"plural":"widgets","kind":"Widget"},
    "versions":[{"name":"v1alpha1","served":true},{"name":"v2beta1","served":true},
                {"name":"v1","served":true},{"name":"v1beta2","served":true},
                {"name":"v3","served":false}]}})");
  ASSERT_TRUE(registry_.AddCustomResource(crd).ok());
  EXPECT_EQ(VersionsInDiscoveryOrder(registry_, "example.com"),
            (std::vector<std::string>{"v1", "v2beta1", "v1beta2", "v1alpha1"}));
  Json group = *Group(registry_, "example.com");
  EXPECT_EQ(group["preferredVersion"]["groupVersion"], "example.com/v1");
  EXPECT_EQ(group["versions"].size(), 4u);
}

TEST(VersionSortsBeforeTest, KubernetesVersionPriority) {
  EXPECT_TRUE(VersionSortsBefore("v2", "v1"));
  EXPECT_TRUE(VersionSortsBefore("v1", "v10beta1"));
  EXPECT_TRUE(VersionSortsBefore("v1beta2", "v1beta1"));
  EXPECT_TRUE(VersionSortsBefore("v2beta1", "v1beta2"));
  EXPECT_TRUE(VersionSortsBefore("v1beta1", "v1alpha1"));
  EXPECT_TRUE(VersionSortsBefore("v1alpha1", "foo"));
  EXPECT_TRUE(VersionSortsBefore("bar", "foo"));
  EXPECT_FALSE(VersionSortsBefore("v1", "v1"));
  EXPECT_FALSE(VersionSortsBefore("v1beta", "v1alpha1"));  // not a Kubernetes version
}

TEST_F(DiscoveryTest, UnknownGroupsAndVersionsAreNotFound) {
  EXPECT_EQ(Group(registry_, "nosuch.io").status().code(), Code::kNotFound);
  EXPECT_EQ(Group(registry_, "").status().code(), Code::kNotFound);
  EXPECT_EQ(ResourceList(registry_, "apps", "v2").status().code(), Code::kNotFound);
  EXPECT_EQ(ResourceList(registry_, "nosuch.io", "v1").status().message(),
            "the server could not find the requested resource");
}

struct NegotiationCase {
  const char* accept;
  bool aggregated;
  const char* content_type;
};

// Accept headers of kubectl-compat.md section 1, plus edge cases: never 406.
TEST(NegotiateDiscoveryTest, AggregatedOnlyWhenAsked) {
  const NegotiationCase cases[] = {
      {"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;"
       "g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
       true, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
      {"application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
       true, "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"},
      {"application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io", true,
       "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
      {"application/json, */*", false, "application/json"},
      {"application/json", false, "application/json"},
      {"", false, "application/json"},
      {"application/vnd.kubernetes.protobuf,application/json", false, "application/json"},
      {"application/vnd.kubernetes.protobuf", false, "application/json"},
      {"application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList", false,
       "application/json"},
      {"application/json;q=0.5,application/"
       "json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
       true, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
      {"application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
       false, "application/json"},
  };
  for (const NegotiationCase& c : cases) {
    DiscoveryRepresentation r = NegotiateDiscovery(c.accept);
    EXPECT_EQ(r.aggregated, c.aggregated) << c.accept;
    EXPECT_EQ(r.content_type, c.content_type) << c.accept;
  }
  EXPECT_EQ(NegotiateDiscovery("application/json;g=apidiscovery.k8s.io;v=v2beta1;"
                               "as=APIGroupDiscoveryList")
                .version,
            AggregatedVersion::kV2Beta1);
}

}  // namespace
}  // namespace lws::apiserver
