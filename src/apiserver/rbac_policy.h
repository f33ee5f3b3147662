// File: apiserver/rbac_policy.h
//
// One immutable snapshot of the cluster's RBAC objects (Roles, ClusterRoles,
// RoleBindings, ClusterRoleBindings) and the decisions made from it, as
// kube-apiserver's RBAC authorizer and its DefaultRuleResolver make them: the
// rules of every ClusterRoleBinding whose subjects include the user, then, for
// a namespaced request, those of the RoleBindings in that namespace (a
// RoleBinding may name a ClusterRole: its rules then hold in that namespace
// only). RBAC only adds: a request is allowed when one rule allows it, else
// refused.
//
// Aggregated ClusterRoles (aggregationRule.clusterRoleSelectors) get the rules
// of every ClusterRole their selectors match, resolved when the snapshot is
// built; kube-controller-manager writes them into the object instead, which the
// snapshot does not need (docs/security.md).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apiserver/rbac_rules.h"

namespace lws::apiserver {

// rbac/v1 Subject.
struct RbacSubject {
  std::string kind;  // User, Group, ServiceAccount
  std::string name;
  std::string namespace_;  // ServiceAccount only
};

// A RoleBinding (namespace set) or ClusterRoleBinding.
struct RbacBinding {
  std::string name;
  std::string namespace_;
  std::string role_kind;  // Role or ClusterRole
  std::string role_name;
  std::vector<RbacSubject> subjects;
};

struct AuthorizationDecision {
  bool allowed = false;
  // Allowed: `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to
  // Group "z"`. Refused: the bindings whose role is missing (`RBAC:
  // clusterrole.rbac... "y" not found`), or "".
  std::string reason;
};

// The stored objects a snapshot is built from (their JSON as stored).
struct RbacObjects {
  std::vector<const Json*> roles;
  std::vector<const Json*> cluster_roles;
  std::vector<const Json*> role_bindings;
  std::vector<const Json*> cluster_role_bindings;
};

// The ServiceAccount user name: system:serviceaccount:{namespace}:{name}.
std::string ServiceAccountUserName(std::string_view namespace_, std::string_view name);

class RbacPolicy {
 public:
  static std::shared_ptr<const RbacPolicy> Build(const RbacObjects& objects);

  AuthorizationDecision Authorize(const AuthorizationAttributes& attributes) const;
  // Every rule that holds for `user` in `namespace_` ("" : the cluster-wide
  // ones only).
  std::vector<PolicyRule> RulesFor(const admission::UserInfo& user,
                                   std::string_view namespace_) const;
  // The rules of a binding's role reference, or NotFound with kube-apiserver's
  // message.
  Result<std::vector<PolicyRule>> RoleRules(std::string_view kind, std::string_view name,
                                            std::string_view binding_namespace) const;

 private:
  // Calls `visit(source, rule)` for every rule that applies; stops when it
  // returns false. Missing roles are reported through `missing`.
  using Visitor = std::function<bool(const std::string& source, const PolicyRule& rule)>;
  void VisitRulesFor(const admission::UserInfo& user, std::string_view namespace_,
                     const Visitor& visit, std::vector<std::string>* missing) const;
  bool VisitBinding(const RbacBinding& binding, const admission::UserInfo& user,
                    const Visitor& visit, std::vector<std::string>* missing) const;

  std::map<std::pair<std::string, std::string>, std::vector<PolicyRule>> roles_;  // (ns, name)
  std::map<std::string, std::vector<PolicyRule>, std::less<>> cluster_roles_;
  std::vector<RbacBinding> cluster_role_bindings_;
  std::map<std::string, std::vector<RbacBinding>, std::less<>> role_bindings_;  // by namespace
};

}  // namespace lws::apiserver
