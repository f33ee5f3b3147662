// Covers, as k8s.io/component-helpers/auth/rbac/validation/policy_comparator_test.go checks it
// (TestCoversExactMatch, TestCoversSubresourceWildcard, TestCoversResourceNameEmptyMatch,
// TestCoversNonResourceURLs and their refusals), and the compact form of what is missing.
#include "apiserver/rbac_escalation.h"

#include <gtest/gtest.h>

namespace lws::apiserver {
namespace {

PolicyRule R(std::vector<std::string> verbs, std::vector<std::string> groups,
             std::vector<std::string> resources, std::vector<std::string> names = {}) {
  return {.verbs = std::move(verbs),
          .api_groups = std::move(groups),
          .resources = std::move(resources),
          .resource_names = std::move(names)};
}

bool Covers(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& wanted) {
  return UncoveredRules(owner, wanted).empty();
}

TEST(CoversTest, UpstreamCases) {
  EXPECT_TRUE(Covers({R({"get"}, {"v1"}, {"builds"})}, {R({"get"}, {"v1"}, {"builds"})}));
  EXPECT_TRUE(
      Covers({R({"*"}, {"*"}, {"*/scale"})}, {R({"get"}, {"extensions"}, {"deployments/scale"})}));
  EXPECT_FALSE(
      Covers({R({"*"}, {"*"}, {"*/scale"})}, {R({"get"}, {"extensions"}, {"deployments"})}));
  EXPECT_TRUE(Covers({R({"get"}, {"v1"}, {"builds"})}, {R({"get"}, {"v1"}, {"builds"}, {"foo"})}));
  EXPECT_FALSE(Covers({R({"get"}, {"v1"}, {"builds"}, {"foo"})}, {R({"get"}, {"v1"}, {"builds"})}));
  EXPECT_FALSE(
      Covers({R({"get"}, {"v1"}, {"builds"}, {"foo"})}, {R({"get"}, {"v1"}, {"builds"}, {"bar"})}));
  EXPECT_TRUE(Covers({R({"*"}, {"*"}, {"*"})}, {R({"delete"}, {"apps"}, {"statefulsets/status"})}));
  EXPECT_FALSE(Covers({R({"get"}, {"v1"}, {"builds"})}, {R({"get", "list"}, {"v1"}, {"builds"})}));
  PolicyRule urls{.verbs = {"get"}, .non_resource_urls = {"/apis/*"}};
  EXPECT_TRUE(Covers({urls}, {{.verbs = {"get"}, .non_resource_urls = {"/apis/v1/foo"}}}));
  EXPECT_FALSE(Covers({urls}, {{.verbs = {"get"}, .non_resource_urls = {"/api"}}}));
  EXPECT_FALSE(
      Covers({R({"*"}, {"*"}, {"*"})}, {{.verbs = {"get"}, .non_resource_urls = {"/metrics"}}}));
}

TEST(CoversTest, MissingRulesAreCompactedByResource) {
  std::vector<PolicyRule> missing = UncoveredRules(
      {R({"get"}, {""}, {"pods"})}, {R({"get", "list", "watch"}, {""}, {"pods", "nodes"})});
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(CompactString(missing[0]),
            "{APIGroups:[\"\"], Resources:[\"nodes\"], Verbs:[\"get\" \"list\" \"watch\"]}");
  EXPECT_EQ(CompactString(missing[1]),
            "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"list\" \"watch\"]}");
  EXPECT_EQ(CompactString({.verbs = {"get"}, .non_resource_urls = {"/metrics"}}),
            "{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}");
}

}  // namespace
}  // namespace lws::apiserver
