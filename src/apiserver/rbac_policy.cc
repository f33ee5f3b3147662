// File: apiserver/rbac_policy.cc
#include "apiserver/rbac_policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "api/codec.h"
#include "api/meta.h"
#include "api/selector.h"
#include "store/object.h"

namespace lws::apiserver {
namespace {

RbacBinding ParseBinding(const Json& binding) {
  RbacBinding out;
  out.name = store::MetaString(binding, "name");
  out.namespace_ = store::MetaString(binding, "namespace");
  const Json& ref = api::ChildOrNull(binding, "roleRef");
  out.role_kind = api::StringMember(ref, "kind");
  out.role_name = api::StringMember(ref, "name");
  const Json& subjects = api::ChildOrNull(binding, "subjects");
  if (!subjects.is_array()) return out;
  for (const Json& s : subjects) {
    out.subjects.push_back({api::StringMember(s, "kind"), api::StringMember(s, "name"),
                            api::StringMember(s, "namespace")});
  }
  return out;
}

// appliesToUser: a ServiceAccount subject without a namespace means the
// binding's namespace.
bool Applies(const RbacSubject& subject, const admission::UserInfo& user,
             std::string_view binding_namespace) {
  if (subject.kind == "User") return user.name == subject.name;
  if (subject.kind == "Group") return user.InGroup(subject.name);
  if (subject.kind == "ServiceAccount") {
    std::string_view ns = subject.namespace_.empty() ? binding_namespace : subject.namespace_;
    return !ns.empty() && user.name == ServiceAccountUserName(ns, subject.name);
  }
  return false;
}

// describeSubject: `ServiceAccount "name/namespace"`, `User "u"`, `Group "g"`.
std::string DescribeSubject(const RbacSubject& s, std::string_view binding_namespace) {
  if (s.kind == "ServiceAccount") {
    std::string ns = s.namespace_.empty() ? std::string(binding_namespace) : s.namespace_;
    return s.kind + " " + api::GoQuote(s.name + "/" + ns);
  }
  return s.kind + " " + api::GoQuote(s.name);
}

// The selectors of an aggregated ClusterRole, or none when it is not one.
std::vector<api::Selector> AggregationSelectors(const Json& role) {
  std::vector<api::Selector> out;
  const Json& selectors =
      api::ChildOrNull(api::ChildOrNull(role, "aggregationRule"), "clusterRoleSelectors");
  if (!selectors.is_array()) return out;
  for (const Json& selector : selectors) {
    api::LabelSelector typed;
    if (!api::DecodeInto(selector, &typed).empty()) continue;
    Result<api::Selector> parsed = api::Selector::FromLabelSelector(&typed);
    if (parsed.ok()) out.push_back(std::move(*parsed));
  }
  return out;
}

void AddUnique(std::vector<PolicyRule>* rules, const std::vector<PolicyRule>& more) {
  for (const PolicyRule& rule : more) {
    if (std::find(rules->begin(), rules->end(), rule) == rules->end()) rules->push_back(rule);
  }
}

// Resolves aggregated ClusterRoles: the rules of the roles their selectors
// match, in name order (as the aggregation controller sorts them), an
// aggregated source contributing its own aggregation. `resolving` breaks
// cycles.
class Aggregator {
 public:
  explicit Aggregator(const std::vector<const Json*>& roles) {
    for (const Json* role : roles) by_name_[store::MetaString(*role, "name")] = role;
  }

  std::vector<PolicyRule> Rules(const std::string& name) {
    if (auto done = resolved_.find(name); done != resolved_.end()) return done->second;
    const Json& role = *by_name_.at(name);
    std::vector<PolicyRule> rules = ParseRules(&api::ChildOrNull(role, "rules"));
    std::vector<api::Selector> selectors = AggregationSelectors(role);
    if (!selectors.empty() && resolving_.insert(name).second) {
      rules.clear();  // the aggregation controller replaces the rules
      for (const auto& [other, json] : by_name_) {
        if (other == name || resolving_.count(other) != 0) continue;
        const api::StringMap labels = store::LabelsOf(*json);
        bool matched = std::any_of(selectors.begin(), selectors.end(),
                                   [&](const api::Selector& s) { return s.Matches(labels); });
        if (matched) AddUnique(&rules, Rules(other));
      }
      resolving_.erase(name);
    }
    resolved_[name] = rules;
    return rules;
  }

 private:
  std::map<std::string, const Json*> by_name_;
  std::map<std::string, std::vector<PolicyRule>> resolved_;
  std::set<std::string> resolving_;
};

}  // namespace

std::string ServiceAccountUserName(std::string_view namespace_, std::string_view name) {
  return fmt::format("system:serviceaccount:{}:{}", namespace_, name);
}

std::shared_ptr<const RbacPolicy> RbacPolicy::Build(const RbacObjects& objects) {
  auto policy = std::make_shared<RbacPolicy>();
  for (const Json* role : objects.roles) {
    policy->roles_[{store::MetaString(*role, "namespace"), store::MetaString(*role, "name")}] =
        ParseRules(&api::ChildOrNull(*role, "rules"));
  }
  Aggregator aggregator(objects.cluster_roles);
  for (const Json* role : objects.cluster_roles) {
    const std::string name = store::MetaString(*role, "name");
    policy->cluster_roles_[name] = aggregator.Rules(name);
  }
  for (const Json* binding : objects.cluster_role_bindings) {
    policy->cluster_role_bindings_.push_back(ParseBinding(*binding));
  }
  for (const Json* binding : objects.role_bindings) {
    RbacBinding parsed = ParseBinding(*binding);
    policy->role_bindings_[parsed.namespace_].push_back(std::move(parsed));
  }
  return policy;
}

Result<std::vector<PolicyRule>> RbacPolicy::RoleRules(std::string_view kind, std::string_view name,
                                                      std::string_view binding_namespace) const {
  if (kind == "ClusterRole") {
    auto it = cluster_roles_.find(name);
    if (it != cluster_roles_.end()) return it->second;
    return Status(Code::kNotFound, fmt::format("clusterrole.rbac.authorization.k8s.io {} not found",
                                               api::GoQuote(name)));
  }
  if (kind == "Role") {
    auto it = roles_.find({std::string(binding_namespace), std::string(name)});
    if (it != roles_.end()) return it->second;
    return Status(Code::kNotFound,
                  fmt::format("role.rbac.authorization.k8s.io {} not found", api::GoQuote(name)));
  }
  return Status(Code::kBadRequest,
                fmt::format("unsupported role reference kind: {}", api::GoQuote(kind)));
}

bool RbacPolicy::VisitBinding(const RbacBinding& binding, const admission::UserInfo& user,
                              const Visitor& visit, std::vector<std::string>* missing) const {
  auto subject =
      std::find_if(binding.subjects.begin(), binding.subjects.end(),
                   [&](const RbacSubject& s) { return Applies(s, user, binding.namespace_); });
  if (subject == binding.subjects.end()) return true;
  Result<std::vector<PolicyRule>> rules =
      RoleRules(binding.role_kind, binding.role_name, binding.namespace_);
  if (!rules.ok()) {
    if (missing != nullptr) missing->push_back(rules.status().message());
    return true;
  }
  const std::string source =
      binding.namespace_.empty()
          ? fmt::format("ClusterRoleBinding {} of {} {} to {}", api::GoQuote(binding.name),
                        binding.role_kind, api::GoQuote(binding.role_name),
                        DescribeSubject(*subject, ""))
          : fmt::format("RoleBinding {} of {} {} to {}",
                        api::GoQuote(binding.name + "/" + binding.namespace_), binding.role_kind,
                        api::GoQuote(binding.role_name),
                        DescribeSubject(*subject, binding.namespace_));
  for (const PolicyRule& rule : *rules) {
    if (!visit(source, rule)) return false;
  }
  return true;
}

void RbacPolicy::VisitRulesFor(const admission::UserInfo& user, std::string_view namespace_,
                               const Visitor& visit, std::vector<std::string>* missing) const {
  for (const RbacBinding& binding : cluster_role_bindings_) {
    if (!VisitBinding(binding, user, visit, missing)) return;
  }
  if (namespace_.empty()) return;
  auto it = role_bindings_.find(namespace_);
  if (it == role_bindings_.end()) return;
  for (const RbacBinding& binding : it->second) {
    if (!VisitBinding(binding, user, visit, missing)) return;
  }
}

AuthorizationDecision RbacPolicy::Authorize(const AuthorizationAttributes& attributes) const {
  AuthorizationDecision decision;
  std::vector<std::string> missing;
  VisitRulesFor(
      attributes.user, attributes.namespace_,
      [&](const std::string& source, const PolicyRule& rule) {
        if (!RuleAllows(attributes, rule)) return true;
        decision.allowed = true;
        decision.reason = "RBAC: allowed by " + source;
        return false;
      },
      &missing);
  if (!decision.allowed && !missing.empty()) {
    decision.reason = missing.size() == 1 ? "RBAC: " + missing[0]
                                          : fmt::format("RBAC: [{}]", fmt::join(missing, ", "));
  }
  return decision;
}

std::vector<PolicyRule> RbacPolicy::RulesFor(const admission::UserInfo& user,
                                             std::string_view namespace_) const {
  std::vector<PolicyRule> rules;
  VisitRulesFor(
      user, namespace_,
      [&](const std::string&, const PolicyRule& rule) {
        rules.push_back(rule);
        return true;
      },
      nullptr);
  return rules;
}

}  // namespace lws::apiserver
