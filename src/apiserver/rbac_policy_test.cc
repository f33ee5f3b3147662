// Which rules apply to whom. The TestAuthorizer cases are ported from
// kubernetes plugin/pkg/auth/authorizer/rbac/rbac_test.go; the bootstrap cases
// check the roles of bootstrappolicy as kube-apiserver seeds them.
#include "apiserver/rbac_policy.h"

#include <gtest/gtest.h>

#include "apiserver/rbac_bootstrap.h"

namespace lws::apiserver {
namespace {

Json Rule(std::vector<std::string> verbs, std::vector<std::string> groups,
          std::vector<std::string> resources) {
  return {{"verbs", verbs}, {"apiGroups", groups}, {"resources", resources}};
}

Json Role(const std::string& name, const std::string& ns, Json rules) {
  Json role = {{"metadata", {{"name", name}}}, {"rules", std::move(rules)}};
  if (!ns.empty()) role["metadata"]["namespace"] = ns;
  return role;
}

// "User:admin", "Group:admins", "ServiceAccount:ns/name" (or
// "ServiceAccount:name").
Json Binding(const std::string& name, const std::string& ns, const std::string& role_kind,
             const std::string& role, std::vector<std::string> subjects) {
  Json out = {
      {"metadata", {{"name", name}}},
      {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role}}},
      {"subjects", Json::array()}};
  if (!ns.empty()) out["metadata"]["namespace"] = ns;
  for (const std::string& s : subjects) {
    const std::size_t colon = s.find(':');
    Json subject = {{"kind", s.substr(0, colon)}, {"name", s.substr(colon + 1)}};
    const std::size_t slash = s.find('/');
    if (slash != std::string::npos) {
      subject["namespace"] = s.substr(colon + 1, slash - colon - 1);
      subject["name"] = s.substr(slash + 1);
    }
    out["subjects"].push_back(subject);
  }
  return out;
}

struct Objects {
  std::vector<Json> roles, cluster_roles, role_bindings, cluster_role_bindings;
  std::shared_ptr<const RbacPolicy> Build() const {
    RbacObjects o;
    for (const Json& j : roles) o.roles.push_back(&j);
    for (const Json& j : cluster_roles) o.cluster_roles.push_back(&j);
    for (const Json& j : role_bindings) o.role_bindings.push_back(&j);
    for (const Json& j : cluster_role_bindings) o.cluster_role_bindings.push_back(&j);
    return RbacPolicy::Build(o);
  }
};

AuthorizationAttributes Ask(std::string user, std::vector<std::string> groups, std::string verb,
                            std::string resource, std::string ns, std::string subresource = "") {
  return {.user = {.name = std::move(user), .groups = std::move(groups)},
          .verb = std::move(verb),
          .resource_request = true,
          .namespace_ = std::move(ns),
          .resource = std::move(resource),
          .subresource = std::move(subresource)};
}

TEST(RbacPolicyTest, RoleBindingToAClusterRoleHoldsInItsNamespaceOnly) {
  Objects o;
  o.cluster_roles = {Role("admin", "", {Rule({"*"}, {"*"}, {"*"})})};
  o.role_bindings = {Binding("b", "ns1", "ClusterRole", "admin", {"User:admin", "Group:admins"})};
  auto policy = o.Build();
  EXPECT_TRUE(policy->Authorize(Ask("admin", {}, "get", "Pods", "ns1")).allowed);
  EXPECT_TRUE(policy->Authorize(Ask("admin", {"group1"}, "watch", "Foobar", "ns1")).allowed);
  EXPECT_TRUE(policy->Authorize(Ask("joe", {"admins"}, "watch", "Foobar", "ns1")).allowed);
  EXPECT_TRUE(
      policy->Authorize(Ask("joe", {"group1", "admins"}, "watch", "Foobar", "ns1")).allowed);
  EXPECT_FALSE(policy->Authorize(Ask("admin", {}, "GET", "Pods", "ns2")).allowed);
  EXPECT_FALSE(policy->Authorize(Ask("admin", {}, "GET", "Nodes", "")).allowed);
  EXPECT_FALSE(policy->Authorize(Ask("admin", {"admins"}, "GET", "Pods", "ns2")).allowed);
}

TEST(RbacPolicyTest, NonResourceUrlBindings) {
  Objects o;
  o.cluster_roles = {Role("getter", "", {{{"verbs", {"get"}}, {"nonResourceURLs", {"/apis"}}}}),
                     Role("any", "", {{{"verbs", {"*"}}, {"nonResourceURLs", {"/apis"}}}}),
                     Role("prefix", "", {{{"verbs", {"get"}}, {"nonResourceURLs", {"/apis/*"}}}})};
  o.cluster_role_bindings = {Binding("b1", "", "ClusterRole", "getter", {"User:foo", "Group:bar"}),
                             Binding("b2", "", "ClusterRole", "any", {"User:admin"}),
                             Binding("b3", "", "ClusterRole", "prefix", {"User:prefixed"})};
  auto policy = o.Build();
  auto url = [](std::string user, std::vector<std::string> groups, std::string verb,
                std::string path) {
    return AuthorizationAttributes{.user = {.name = std::move(user), .groups = std::move(groups)},
                                   .verb = std::move(verb),
                                   .path = std::move(path)};
  };
  EXPECT_TRUE(policy->Authorize(url("foo", {}, "get", "/apis")).allowed);
  EXPECT_TRUE(policy->Authorize(url("", {"bar"}, "get", "/apis")).allowed);
  EXPECT_TRUE(policy->Authorize(url("admin", {}, "watch", "/apis")).allowed);
  EXPECT_TRUE(policy->Authorize(url("prefixed", {}, "get", "/apis/v1/foobar")).allowed);
  EXPECT_FALSE(policy->Authorize(url("foo", {}, "watch", "/apis")).allowed);
  EXPECT_FALSE(policy->Authorize(url("admin", {}, "get", "/api/v1")).allowed);
  EXPECT_FALSE(policy->Authorize(url("prefixed", {}, "get", "/api/v1")).allowed);
}

TEST(RbacPolicyTest, RolesServiceAccountsAndReasons) {
  Objects o;
  o.roles = {
      Role("leases", "lws-system", {Rule({"get", "update"}, {"coordination.k8s.io"}, {"leases"})})};
  o.role_bindings = {
      Binding("own-ns", "lws-system", "Role", "leases", {"ServiceAccount:lws-controller-manager"}),
      Binding("gone", "lws-system", "Role", "missing", {"ServiceAccount:lws-controller-manager"})};
  auto policy = o.Build();
  AuthorizationAttributes lease = Ask("system:serviceaccount:lws-system:lws-controller-manager", {},
                                      "update", "leases", "lws-system");
  lease.api_group = "coordination.k8s.io";
  AuthorizationDecision allowed = policy->Authorize(lease);
  EXPECT_TRUE(allowed.allowed);
  EXPECT_EQ(allowed.reason,
            "RBAC: allowed by RoleBinding \"own-ns/lws-system\" of Role "
            "\"leases\" to "
            "ServiceAccount \"lws-controller-manager/lws-system\"");
  // A subject without a namespace is the binding's namespace's account, nobody
  // else's.
  lease.user.name = "system:serviceaccount:default:lws-controller-manager";
  lease.namespace_ = "default";
  EXPECT_FALSE(policy->Authorize(lease).allowed);
  // A binding whose role is missing grants nothing and says why.
  lease.user.name = "system:serviceaccount:lws-system:lws-controller-manager";
  lease.namespace_ = "lws-system";
  lease.verb = "delete";
  AuthorizationDecision refused = policy->Authorize(lease);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.reason, "RBAC: role.rbac.authorization.k8s.io \"missing\" not found");
}

TEST(RbacPolicyTest, AggregatedClusterRolesTakeTheRulesTheirSelectorsMatch) {
  Objects o;
  for (const Json& role : BootstrapClusterRoles()) o.cluster_roles.push_back(role);
  // A CRD's role joins edit (and so admin) by label, as upstream's LWS editor
  // role can.
  Json lws_editor =
      Role("lws-editor", "", {Rule({"*"}, {"leaderworkerset.x-k8s.io"}, {"leaderworkersets"})});
  lws_editor["metadata"]["labels"] = {{"rbac.authorization.k8s.io/aggregate-to-edit", "true"}};
  o.cluster_roles.push_back(lws_editor);
  o.role_bindings = {Binding("e", "team", "ClusterRole", "edit", {"User:editor"}),
                     Binding("v", "team", "ClusterRole", "view", {"User:viewer"}),
                     Binding("a", "team", "ClusterRole", "admin", {"User:admin"})};
  auto policy = o.Build();
  AuthorizationAttributes lws = Ask("editor", {}, "create", "leaderworkersets", "team");
  lws.api_group = "leaderworkerset.x-k8s.io";
  EXPECT_TRUE(policy->Authorize(lws).allowed);
  lws.user.name = "admin";
  EXPECT_TRUE(policy->Authorize(lws).allowed);  // admin aggregates edit
  lws.user.name = "viewer";
  EXPECT_FALSE(policy->Authorize(lws).allowed);
  EXPECT_TRUE(policy->Authorize(Ask("viewer", {}, "list", "pods", "team")).allowed);
  EXPECT_FALSE(policy->Authorize(Ask("viewer", {}, "get", "secrets", "team")).allowed);
  EXPECT_TRUE(policy->Authorize(Ask("editor", {}, "get", "secrets", "team")).allowed);
  AuthorizationAttributes roles = Ask("editor", {}, "create", "rolebindings", "team");
  roles.api_group = "rbac.authorization.k8s.io";
  EXPECT_FALSE(policy->Authorize(roles).allowed);
  roles.user.name = "admin";
  EXPECT_TRUE(policy->Authorize(roles).allowed);
}

TEST(RbacPolicyTest, BootstrapBindings) {
  Objects o;
  for (const Json& role : BootstrapClusterRoles()) o.cluster_roles.push_back(role);
  for (const Json& b : BootstrapClusterRoleBindings()) o.cluster_role_bindings.push_back(b);
  auto policy = o.Build();
  auto path = [&](std::string group, std::string p) {
    return policy
        ->Authorize({.user = {.name = "u", .groups = {std::move(group)}},
                     .verb = "get",
                     .path = std::move(p)})
        .allowed;
  };
  EXPECT_TRUE(path("system:unauthenticated", "/version"));
  EXPECT_TRUE(path("system:unauthenticated", "/healthz"));
  EXPECT_FALSE(path("system:unauthenticated", "/api"));
  EXPECT_TRUE(path("system:authenticated", "/apis/apps/v1"));
  EXPECT_TRUE(path("system:authenticated", "/openapi/v3"));
  EXPECT_FALSE(path("system:authenticated", "/metrics"));
  EXPECT_TRUE(
      policy->Authorize(Ask("root", {"system:masters"}, "delete", "namespaces", "kube-system"))
          .allowed);
  AuthorizationAttributes self =
      Ask("u", {"system:authenticated"}, "create", "selfsubjectaccessreviews", "");
  self.api_group = "authorization.k8s.io";
  EXPECT_TRUE(policy->Authorize(self).allowed);
  EXPECT_FALSE(
      policy->Authorize(Ask("u", {"system:authenticated"}, "list", "secrets", "default")).allowed);
  EXPECT_FALSE(
      policy->RulesFor({.name = "u", .groups = {"system:authenticated"}}, "default").empty());
}

}  // namespace
}  // namespace lws::apiserver
