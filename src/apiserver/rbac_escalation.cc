// File: apiserver/rbac_escalation.cc
//
// Covers and the rule breakdown follow k8s.io/component-helpers/auth/rbac/validation
// (policy_comparator.go); the plugin follows pkg/registry/rbac/{role,clusterrole,rolebinding,
// clusterrolebinding}/policybased.
#include "apiserver/rbac_escalation.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "store/object.h"

namespace lws::apiserver {
namespace {

const char kRbacGroup[] = "rbac.authorization.k8s.io";

bool Has(const std::vector<std::string>& set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

// One verb on one group/resource/name, or one verb on one URL.
std::vector<PolicyRule> Breakdown(const PolicyRule& rule) {
  std::vector<PolicyRule> out;
  for (const std::string& group : rule.api_groups) {
    for (const std::string& resource : rule.resources) {
      for (const std::string& verb : rule.verbs) {
        if (rule.resource_names.empty()) {
          out.push_back({.verbs = {verb}, .api_groups = {group}, .resources = {resource}});
        }
        for (const std::string& name : rule.resource_names) {
          out.push_back({.verbs = {verb},
                         .api_groups = {group},
                         .resources = {resource},
                         .resource_names = {name}});
        }
      }
    }
  }
  for (const std::string& url : rule.non_resource_urls) {
    for (const std::string& verb : rule.verbs) {
      out.push_back({.verbs = {verb}, .non_resource_urls = {url}});
    }
  }
  return out;
}

bool ResourceCovers(const std::vector<std::string>& owner, const std::string& resource) {
  if (Has(owner, "*") || Has(owner, resource)) return true;
  const std::size_t slash = resource.find('/');
  return slash != std::string::npos && Has(owner, "*/" + resource.substr(slash + 1));
}

bool UrlCovers(const std::vector<std::string>& owner, const std::string& url) {
  for (const std::string& allowed : owner) {
    if (allowed == url) return true;
    if (!allowed.empty() && allowed.back() == '*' &&
        url.compare(0, allowed.size() - 1, allowed, 0, allowed.size() - 1) == 0) {
      return true;
    }
  }
  return false;
}

// ruleCovers for an atomic `sub` (one verb and one of everything else).
bool Covers(const PolicyRule& owner, const PolicyRule& sub) {
  if (!Has(owner.verbs, "*") && !Has(owner.verbs, sub.verbs[0])) return false;
  if (!sub.non_resource_urls.empty())
    return UrlCovers(owner.non_resource_urls, sub.non_resource_urls[0]);
  if (!Has(owner.api_groups, "*") && !Has(owner.api_groups, sub.api_groups[0])) return false;
  if (!ResourceCovers(owner.resources, sub.resources[0])) return false;
  return owner.resource_names.empty() ||
         (!sub.resource_names.empty() && Has(owner.resource_names, sub.resource_names[0]));
}

std::string Quoted(const std::vector<std::string>& values) {
  std::vector<std::string> quoted;
  for (const std::string& v : values) quoted.push_back(api::GoQuote(v));
  return fmt::format("[{}]", fmt::join(quoted, " "));
}

}  // namespace

std::vector<PolicyRule> UncoveredRules(const std::vector<PolicyRule>& owner,
                                       const std::vector<PolicyRule>& wanted) {
  // CompactRules: the missing verbs of one group, resource and name (or one URL) together.
  std::map<std::tuple<std::string, std::string, std::string, std::string>, PolicyRule> missing;
  for (const PolicyRule& rule : wanted) {
    for (const PolicyRule& sub : Breakdown(rule)) {
      bool covered = std::any_of(owner.begin(), owner.end(),
                                 [&](const PolicyRule& o) { return Covers(o, sub); });
      if (covered) continue;
      auto first = [](const std::vector<std::string>& v) { return v.empty() ? "" : v[0]; };
      auto key = std::make_tuple(first(sub.api_groups), first(sub.resources),
                                 first(sub.resource_names), first(sub.non_resource_urls));
      auto [it, added] = missing.try_emplace(key, sub);
      if (!added && !Has(it->second.verbs, sub.verbs[0])) it->second.verbs.push_back(sub.verbs[0]);
    }
  }
  std::vector<PolicyRule> out;
  for (auto& [key, rule] : missing) out.push_back(std::move(rule));
  return out;
}

std::string CompactString(const PolicyRule& r) {
  std::vector<std::string> parts;
  if (!r.api_groups.empty()) parts.push_back("APIGroups:" + Quoted(r.api_groups));
  if (!r.resources.empty()) parts.push_back("Resources:" + Quoted(r.resources));
  if (!r.non_resource_urls.empty())
    parts.push_back("NonResourceURLs:" + Quoted(r.non_resource_urls));
  if (!r.resource_names.empty()) parts.push_back("ResourceNames:" + Quoted(r.resource_names));
  if (!r.verbs.empty()) parts.push_back("Verbs:" + Quoted(r.verbs));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

namespace {

class RbacEscalationAdmission final : public admission::AdmissionPlugin {
 public:
  explicit RbacEscalationAdmission(const Authorizer* authorizer) : authorizer_(authorizer) {}

  std::string_view Name() const override { return "RBACEscalation"; }

  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    return resource.group == kRbacGroup && subresource.empty();
  }

  Status Validate(const admission::AdmissionRequest& r) override {
    if (r.operation == admission::AdmissionOperation::kDelete || r.object == nullptr) {
      return Status::Ok();
    }
    const admission::UserInfo user = r.user != nullptr ? *r.user : admission::AdminUser();
    if (user.InGroup(admission::kMastersGroup)) return Status::Ok();
    const std::string& resource = r.resource->resource;
    std::shared_ptr<const RbacPolicy> policy = authorizer_->Policy();
    const std::vector<PolicyRule> owner = policy->RulesFor(user, r.namespace_);
    if (resource == "roles" || resource == "clusterroles") {
      if (MayUseVerb(user, "escalate", resource, r.namespace_, r.name)) return Status::Ok();
      RETURN_IF_ERROR(Confirm(user, owner, ParseRules(&api::ChildOrNull(*r.object, "rules")), r));
      if (resource == "clusterroles" &&
          api::ChildOrNull(*r.object, "aggregationRule").is_object()) {
        const std::vector<PolicyRule> everything = {
            {.verbs = {"*"}, .api_groups = {"*"}, .resources = {"*"}},
            {.verbs = {"*"}, .non_resource_urls = {"*"}}};
        if (!UncoveredRules(owner, everything).empty()) {
          return Forbidden(r, "must have cluster-admin privileges to use the aggregationRule");
        }
      }
      return Status::Ok();
    }
    const Json& ref = api::ChildOrNull(*r.object, "roleRef");
    const std::string kind = api::StringMember(ref, "kind");
    const std::string role = api::StringMember(ref, "name");
    const std::string role_resource = kind == "ClusterRole" ? "clusterroles" : "roles";
    if (MayUseVerb(user, "bind", role_resource, r.namespace_, role)) return Status::Ok();
    Result<std::vector<PolicyRule>> rules = policy->RoleRules(kind, role, r.namespace_);
    if (!rules.ok()) return Forbidden(r, std::string(rules.status().message()));
    return Confirm(user, owner, *rules, r);
  }

 private:
  bool MayUseVerb(const admission::UserInfo& user, const char* verb, const std::string& resource,
                  const std::string& namespace_, const std::string& name) const {
    AuthorizationAttributes a{.user = user,
                              .verb = verb,
                              .resource_request = true,
                              .namespace_ = namespace_,
                              .api_group = kRbacGroup,
                              .resource = resource,
                              .name = name};
    return authorizer_->Authorize(a).allowed;
  }

  static Status Confirm(const admission::UserInfo& user, const std::vector<PolicyRule>& owner,
                        const std::vector<PolicyRule>& wanted,
                        const admission::AdmissionRequest& r) {
    std::vector<PolicyRule> missing = UncoveredRules(owner, wanted);
    if (missing.empty()) return Status::Ok();
    std::set<std::string> lines;  // sets.NewString().List(): sorted, once each
    for (const PolicyRule& rule : missing) lines.insert(CompactString(rule));
    return Forbidden(
        r, fmt::format("user {} (groups={}) is attempting to grant RBAC permissions "
                       "not currently held:\n{}",
                       api::GoQuote(user.name), Quoted(user.groups), fmt::join(lines, "\n")));
  }

  // errors.NewForbidden(groupResource, name, err).
  static Status Forbidden(const admission::AdmissionRequest& r, const std::string& why) {
    return Status(Code::kForbidden, fmt::format("{}.{} {} is forbidden: {}", r.resource->resource,
                                                kRbacGroup, api::GoQuote(r.name), why));
  }

  const Authorizer* authorizer_;
};

}  // namespace

std::unique_ptr<admission::AdmissionPlugin> NewRbacEscalationAdmission(
    const Authorizer* authorizer) {
  return std::make_unique<RbacEscalationAdmission>(authorizer);
}

}  // namespace lws::apiserver
