// File: apiserver/rbac_rules.h
//
// RBAC's vocabulary: who asks (UserInfo, as an authenticator found it), what
// they ask (AuthorizationAttributes, derived from the request as
// kube-apiserver's RequestInfoFactory does), and whether one PolicyRule of a
// Role or ClusterRole allows it (rbac/v1's evaluation helpers: "*" for every
// verb, group and resource, "*/status" for a subresource of any resource,
// resourceNames narrowing by name, nonResourceURLs with a trailing "*" as a
// prefix). Pure functions; rbac_policy.h resolves which rules apply to a user.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "admission/user_info.h"
#include "api/field.h"
#include "apiserver/request_target.h"

namespace lws::apiserver {

using Json = api::Json;

// authorizer.Attributes: a resource request names a verb, group, resource,
// subresource, namespace and name; a non-resource request a verb and a path.
struct AuthorizationAttributes {
  admission::UserInfo user;
  std::string verb;
  bool resource_request = false;
  std::string namespace_;
  std::string api_group;
  std::string api_version;
  std::string resource;
  std::string subresource;
  std::string name;
  std::string path;  // non-resource requests
};

// The attributes of an HTTP request with `method` on `target`, as
// RequestInfoFactory derives them: GET of a collection is list (watch with
// ?watch), GET of an object get, POST create, PUT update, PATCH patch, DELETE
// of a collection deletecollection; a path outside the resource layout is a
// non-resource request whose verb is the method in lower case. The namespace
// object itself (/api/v1/namespaces/x) is the resource "namespaces" in the
// namespace "x", as upstream.
AuthorizationAttributes AttributesFor(std::string_view method, const RequestTarget& target);

// rbac/v1 PolicyRule.
struct PolicyRule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
  std::vector<std::string> non_resource_urls;
  bool operator==(const PolicyRule&) const = default;
};

// The rules of a Role or ClusterRole's "rules" (absent or null: none). Members
// that are not lists of strings are skipped: validation refused them at write
// time.
std::vector<PolicyRule> ParseRules(const Json* rules);
Json PolicyRuleJson(const PolicyRule& rule);

bool VerbMatches(const PolicyRule& rule, std::string_view verb);
bool ApiGroupMatches(const PolicyRule& rule, std::string_view group);
// `combined` is "resource" or "resource/subresource".
bool ResourceMatches(const PolicyRule& rule, std::string_view combined,
                     std::string_view subresource);
bool ResourceNameMatches(const PolicyRule& rule, std::string_view name);
bool NonResourceUrlMatches(const PolicyRule& rule, std::string_view url);
bool RuleAllows(const AuthorizationAttributes& attributes, const PolicyRule& rule);

// kube-apiserver's words for a refusal: `User "u" cannot list resource "pods"
// in API group "" in the namespace "ns"`, `... at the cluster scope`, or `User
// "u" cannot get path "/x"`.
std::string ForbiddenMessage(const AuthorizationAttributes& attributes);

}  // namespace lws::apiserver
