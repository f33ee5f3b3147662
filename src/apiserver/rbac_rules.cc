// File: apiserver/rbac_rules.cc
#include "apiserver/rbac_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "api/string_list.h"

namespace lws::apiserver {
namespace {

bool Has(const std::vector<std::string>& set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

// The name a list or watch narrows itself to with fieldSelector=metadata.name=x
// (client-go's informer for one object does), as RequestInfoFactory reads it:
// the one exact requirement.
std::string NameFromFieldSelector(const std::string& selector) {
  std::string_view rest = selector;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view term = rest.substr(0, comma);
    for (std::string_view prefix : {"metadata.name==", "metadata.name="}) {
      if (term.substr(0, prefix.size()) == prefix) return std::string(term.substr(prefix.size()));
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return "";
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

AuthorizationAttributes AttributesFor(std::string_view method, const RequestTarget& target) {
  AuthorizationAttributes a;
  if (target.kind != TargetKind::kResource) {
    a.verb = Lower(method);
    a.path = target.path;
    return a;
  }
  a.resource_request = true;
  a.api_group = target.group;
  a.api_version = target.version;
  a.resource = target.resource;
  a.subresource = target.subresource;
  a.name = target.name;
  a.namespace_ = target.namespace_;
  // The namespace object is addressed in its own namespace.
  if (target.group.empty() && target.resource == "namespaces" && !target.name.empty()) {
    a.namespace_ = target.name;
  }
  if (method == "GET" || method == "HEAD") {
    a.verb = "get";
  } else if (method == "POST") {
    a.verb = "create";
  } else if (method == "PUT") {
    a.verb = "update";
  } else if (method == "PATCH") {
    a.verb = "patch";
  } else if (method == "DELETE") {
    a.verb = "delete";
  } else {
    a.verb = "";
  }
  if (a.name.empty() && a.verb == "get") {
    a.verb = target.query.GetBool("watch") ? "watch" : "list";
    a.name = NameFromFieldSelector(target.query.Get("fieldSelector"));
  }
  if (a.name.empty() && a.verb == "delete") a.verb = "deletecollection";
  return a;
}

std::vector<PolicyRule> ParseRules(const Json* rules) {
  std::vector<PolicyRule> out;
  if (rules == nullptr || !rules->is_array()) return out;
  for (const Json& rule : *rules) {
    if (!rule.is_object()) continue;
    out.push_back({api::StringList(rule, "verbs"), api::StringList(rule, "apiGroups"),
                   api::StringList(rule, "resources"), api::StringList(rule, "resourceNames"),
                   api::StringList(rule, "nonResourceURLs")});
  }
  return out;
}

Json PolicyRuleJson(const PolicyRule& rule) {
  Json out = {{"verbs", rule.verbs}};
  if (!rule.api_groups.empty()) out["apiGroups"] = rule.api_groups;
  if (!rule.resources.empty()) out["resources"] = rule.resources;
  if (!rule.resource_names.empty()) out["resourceNames"] = rule.resource_names;
  if (!rule.non_resource_urls.empty()) out["nonResourceURLs"] = rule.non_resource_urls;
  return out;
}

bool VerbMatches(const PolicyRule& rule, std::string_view verb) {
  return Has(rule.verbs, "*") || Has(rule.verbs, verb);
}

bool ApiGroupMatches(const PolicyRule& rule, std::string_view group) {
  return Has(rule.api_groups, "*") || Has(rule.api_groups, group);
}

bool ResourceMatches(const PolicyRule& rule, std::string_view combined,
                     std::string_view subresource) {
  for (const std::string& resource : rule.resources) {
    if (resource == "*" || resource == combined) return true;
    // "*/scale" names that subresource of every resource.
    if (!subresource.empty() && resource.size() == subresource.size() + 2 &&
        resource.compare(0, 2, "*/") == 0 &&
        resource.compare(2, std::string::npos, subresource) == 0) {
      return true;
    }
  }
  return false;
}

bool ResourceNameMatches(const PolicyRule& rule, std::string_view name) {
  return rule.resource_names.empty() || Has(rule.resource_names, name);
}

bool NonResourceUrlMatches(const PolicyRule& rule, std::string_view url) {
  for (const std::string& allowed : rule.non_resource_urls) {
    if (allowed == "*" || allowed == url) return true;
    if (!allowed.empty() && allowed.back() == '*') {
      std::string_view prefix(allowed);
      while (!prefix.empty() && prefix.back() == '*') prefix.remove_suffix(1);
      if (url.substr(0, prefix.size()) == prefix) return true;
    }
  }
  return false;
}

bool RuleAllows(const AuthorizationAttributes& a, const PolicyRule& rule) {
  if (!a.resource_request) return VerbMatches(rule, a.verb) && NonResourceUrlMatches(rule, a.path);
  std::string combined = a.resource;
  if (!a.subresource.empty()) combined += "/" + a.subresource;
  return VerbMatches(rule, a.verb) && ApiGroupMatches(rule, a.api_group) &&
         ResourceMatches(rule, combined, a.subresource) && ResourceNameMatches(rule, a.name);
}

std::string ForbiddenMessage(const AuthorizationAttributes& a) {
  const std::string user = api::GoQuote(a.user.name);
  if (!a.resource_request) {
    return fmt::format("User {} cannot {} path {}", user, a.verb, api::GoQuote(a.path));
  }
  std::string resource = a.resource;
  if (!a.subresource.empty()) resource += "/" + a.subresource;
  std::string head = fmt::format("User {} cannot {} resource {} in API group {}", user, a.verb,
                                 api::GoQuote(resource), api::GoQuote(a.api_group));
  if (!a.namespace_.empty()) return head + " in the namespace " + api::GoQuote(a.namespace_);
  return head + " at the cluster scope";
}

}  // namespace lws::apiserver
