// Rule matching and request attributes. The matching cases are ported from
// kubernetes plugin/pkg/auth/authorizer/rbac/rbac_test.go (TestRuleMatches),
// the messages from apiserver/pkg/endpoints/handlers/responsewriters/errors.go
// (forbiddenMessage).
#include "apiserver/rbac_rules.h"

#include <gtest/gtest.h>

namespace lws::apiserver {
namespace {

PolicyRule ResourceRule(std::vector<std::string> verbs, std::vector<std::string> groups,
                        std::vector<std::string> resources) {
  return {.verbs = std::move(verbs),
          .api_groups = std::move(groups),
          .resources = std::move(resources)};
}

AuthorizationAttributes Resource(std::string verb, std::string group, std::string resource,
                                 std::string subresource = "") {
  return {.verb = std::move(verb),
          .resource_request = true,
          .api_group = std::move(group),
          .resource = std::move(resource),
          .subresource = std::move(subresource)};
}

AuthorizationAttributes Url(std::string verb, std::string path) {
  return {.verb = std::move(verb), .path = std::move(path)};
}

TEST(RuleMatchesTest, StarVerbExactMatchOther) {
  PolicyRule rule = ResourceRule({"*"}, {"group1"}, {"resource1"});
  EXPECT_TRUE(RuleAllows(Resource("verb1", "group1", "resource1"), rule));
  EXPECT_FALSE(RuleAllows(Resource("verb1", "group2", "resource1"), rule));
  EXPECT_FALSE(RuleAllows(Resource("verb1", "group1", "resource2"), rule));
  EXPECT_TRUE(RuleAllows(Resource("verb2", "group1", "resource1"), rule));
}

TEST(RuleMatchesTest, StarGroupAndStarResource) {
  PolicyRule groups = ResourceRule({"verb1"}, {"*"}, {"resource1"});
  EXPECT_TRUE(RuleAllows(Resource("verb1", "group2", "resource1"), groups));
  EXPECT_FALSE(RuleAllows(Resource("verb1", "group1", "resource2"), groups));
  EXPECT_FALSE(RuleAllows(Resource("verb2", "group1", "resource1"), groups));
  PolicyRule resources = ResourceRule({"verb1"}, {"group1"}, {"*"});
  EXPECT_TRUE(RuleAllows(Resource("verb1", "group1", "resource2"), resources));
  EXPECT_FALSE(RuleAllows(Resource("verb1", "group2", "resource1"), resources));
}

TEST(RuleMatchesTest, TupleExpansion) {
  PolicyRule rule =
      ResourceRule({"verb1", "verb2"}, {"group1", "group2"}, {"resource1", "resource2"});
  for (const char* verb : {"verb1", "verb2"}) {
    for (const char* group : {"group1", "group2"}) {
      for (const char* resource : {"resource1", "resource2"}) {
        EXPECT_TRUE(RuleAllows(Resource(verb, group, resource), rule)) << verb << group << resource;
      }
    }
  }
}

TEST(RuleMatchesTest, SubresourceExpansion) {
  PolicyRule rule = ResourceRule({"*"}, {"*"}, {"resource1/subresource1"});
  EXPECT_TRUE(RuleAllows(Resource("verb1", "group1", "resource1", "subresource1"), rule));
  EXPECT_FALSE(RuleAllows(Resource("verb1", "group2", "resource1", "subresource2"), rule));
  EXPECT_FALSE(RuleAllows(Resource("verb1", "group1", "resource2", "subresource1"), rule));
  // A rule for the resource alone does not cover its subresources, and the
  // reverse.
  EXPECT_FALSE(
      RuleAllows(Resource("get", "", "pods", "status"), ResourceRule({"*"}, {"*"}, {"pods"})));
  EXPECT_FALSE(
      RuleAllows(Resource("get", "", "pods"), ResourceRule({"*"}, {"*"}, {"pods/status"})));
  // "*/scale": that subresource of any resource.
  PolicyRule scale = ResourceRule({"get"}, {"*"}, {"*/scale"});
  EXPECT_TRUE(RuleAllows(Resource("get", "apps", "statefulsets", "scale"), scale));
  EXPECT_FALSE(RuleAllows(Resource("get", "apps", "statefulsets", "status"), scale));
  EXPECT_FALSE(RuleAllows(Resource("get", "apps", "statefulsets"), scale));
}

TEST(RuleMatchesTest, ResourceNames) {
  PolicyRule rule = ResourceRule({"get", "update"}, {"coordination.k8s.io"}, {"leases"});
  rule.resource_names = {"b8b2488c.x-k8s.io"};
  AuthorizationAttributes named = Resource("get", "coordination.k8s.io", "leases");
  named.name = "b8b2488c.x-k8s.io";
  EXPECT_TRUE(RuleAllows(named, rule));
  named.name = "other";
  EXPECT_FALSE(RuleAllows(named, rule));
  named.name = "";  // a list names nothing: a rule with names does not cover it
  EXPECT_FALSE(RuleAllows(named, rule));
}

TEST(RuleMatchesTest, NonResourceUrls) {
  PolicyRule star{.verbs = {"verb1"}, .non_resource_urls = {"*"}};
  EXPECT_TRUE(RuleAllows(Url("verb1", "/foo/bar/one"), star));
  EXPECT_FALSE(RuleAllows(Url("verb2", "/foo"), star));
  PolicyRule subpath{.verbs = {"verb1"}, .non_resource_urls = {"/foo/*"}};
  EXPECT_FALSE(RuleAllows(Url("verb1", "/foo"), subpath));
  EXPECT_TRUE(RuleAllows(Url("verb1", "/foo/bar"), subpath));
  EXPECT_TRUE(RuleAllows(Url("verb1", "/foo/baz/one"), subpath));
  EXPECT_FALSE(RuleAllows(Url("verb1", "/notfoo/bar"), subpath));
  PolicyRule exact{.verbs = {"*"}, .non_resource_urls = {"/foo", "/foo/bar/one"}};
  EXPECT_TRUE(RuleAllows(Url("verb2", "/foo"), exact));
  EXPECT_FALSE(RuleAllows(Url("verb1", "/foo/bar"), exact));
  EXPECT_TRUE(RuleAllows(Url("verb1", "/foo/bar/one"), exact));
  // A resource rule never covers a path, nor a path rule a resource.
  EXPECT_FALSE(RuleAllows(Url("get", "/api"), ResourceRule({"*"}, {"*"}, {"*"})));
  EXPECT_FALSE(RuleAllows(Resource("get", "", "pods"), star));
}

TEST(AttributesForTest, VerbsAsRequestInfoFactoryDerivesThem) {
  auto verb = [](std::string_view method, std::string_view target) {
    return AttributesFor(method, ParseRequestTarget(target).value()).verb;
  };
  EXPECT_EQ(verb("GET", "/api/v1/namespaces/ns/pods"), "list");
  EXPECT_EQ(verb("GET", "/api/v1/namespaces/ns/pods?watch=true"), "watch");
  EXPECT_EQ(verb("GET", "/api/v1/namespaces/ns/pods/p"), "get");
  EXPECT_EQ(verb("POST", "/api/v1/namespaces/ns/pods"), "create");
  EXPECT_EQ(verb("PUT", "/api/v1/namespaces/ns/pods/p"), "update");
  EXPECT_EQ(verb("PATCH", "/api/v1/namespaces/ns/pods/p/status"), "patch");
  EXPECT_EQ(verb("DELETE", "/api/v1/namespaces/ns/pods/p"), "delete");
  EXPECT_EQ(verb("DELETE", "/api/v1/namespaces/ns/pods"), "deletecollection");
  EXPECT_EQ(verb("GET", "/apis/apps/v1"), "get");
  EXPECT_EQ(verb("HEAD", "/healthz"), "head");
}

TEST(AttributesForTest, ResourcesNamesAndScopes) {
  AuthorizationAttributes sts = AttributesFor(
      "PUT", ParseRequestTarget("/apis/apps/v1/namespaces/ns/statefulsets/s/scale").value());
  EXPECT_TRUE(sts.resource_request);
  EXPECT_EQ(sts.api_group, "apps");
  EXPECT_EQ(sts.resource, "statefulsets");
  EXPECT_EQ(sts.subresource, "scale");
  EXPECT_EQ(sts.name, "s");
  EXPECT_EQ(sts.namespace_, "ns");
  // The namespace object is in its own namespace; the collection is
  // cluster-scoped.
  EXPECT_EQ(AttributesFor("GET", ParseRequestTarget("/api/v1/namespaces/ns").value()).namespace_,
            "ns");
  EXPECT_EQ(AttributesFor("GET", ParseRequestTarget("/api/v1/namespaces").value()).namespace_, "");
  // A list narrowed to one name by fieldSelector names it (resourceNames rules
  // then apply).
  AuthorizationAttributes one =
      AttributesFor("GET", ParseRequestTarget("/api/v1/namespaces/ns/"
                                              "configmaps?fieldSelector=metadata.name%3Dc&watch=1")
                               .value());
  EXPECT_EQ(one.verb, "watch");
  EXPECT_EQ(one.name, "c");
  AuthorizationAttributes path = AttributesFor("GET", ParseRequestTarget("/version?x=1").value());
  EXPECT_FALSE(path.resource_request);
  EXPECT_EQ(path.path, "/version");
}

TEST(ForbiddenMessageTest, KubeApiserverWords) {
  AuthorizationAttributes a = Resource("list", "", "pods");
  a.user.name = "system:serviceaccount:lws-system:lws-controller-manager";
  a.namespace_ = "default";
  EXPECT_EQ(ForbiddenMessage(a),
            "User \"system:serviceaccount:lws-system:lws-controller-manager\" "
            "cannot list resource "
            "\"pods\" in API group \"\" in the namespace \"default\"");
  AuthorizationAttributes status =
      Resource("update", "leaderworkerset.x-k8s.io", "leaderworkersets", "status");
  status.user.name = "u";
  EXPECT_EQ(ForbiddenMessage(status),
            "User \"u\" cannot update resource \"leaderworkersets/status\" in "
            "API group "
            "\"leaderworkerset.x-k8s.io\" at the cluster scope");
  AuthorizationAttributes url = Url("get", "/metrics");
  url.user.name = "system:anonymous";
  EXPECT_EQ(ForbiddenMessage(url), "User \"system:anonymous\" cannot get path \"/metrics\"");
}

TEST(ParseRulesTest, ReadsListsAndSkipsWhatIsNotOne) {
  Json rules = Json::parse(
      R"([{"verbs":["get"],"apiGroups":[""],"resources":["pods"],"resourceNames":["a"]},
                               {"verbs":["get"],"nonResourceURLs":["/healthz"]}, 3, {"verbs":"get"}])");
  std::vector<PolicyRule> parsed = ParseRules(&rules);
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed[0].resource_names, std::vector<std::string>{"a"});
  EXPECT_EQ(parsed[1].non_resource_urls, std::vector<std::string>{"/healthz"});
  EXPECT_TRUE(parsed[2].verbs.empty());
  EXPECT_EQ(PolicyRuleJson(parsed[0]), rules[0]);
  EXPECT_TRUE(ParseRules(nullptr).empty());
}

}  // namespace
}  // namespace lws::apiserver
