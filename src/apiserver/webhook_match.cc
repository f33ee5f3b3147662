// File: apiserver/webhook_match.cc
#include "apiserver/webhook_match.h"

#include <algorithm>

#include "api/base64.h"
#include "api/codec.h"
#include "api/string_list.h"
#include "apiserver/admission_review.h"

namespace lws::apiserver {
namespace {

// clientConfig.url, or the service reference as the API server's service resolver spells it.
WebhookEndpoint EndpointOf(const Json& client_config) {
  WebhookEndpoint endpoint;
  if (!client_config.is_object()) return endpoint;
  std::string ca = api::StringMember(client_config, "caBundle");
  if (!ca.empty()) {
    Result<std::string> pem = api::Base64Decode(ca);
    if (!pem.ok()) return endpoint;  // the url stays "": every call fails
    endpoint.ca_bundle_pem = *pem;
  }
  std::string url = api::StringMember(client_config, "url");
  auto service = client_config.find("service");
  if (url.empty() && service != client_config.end() && service->is_object()) {
    std::int64_t port = 443;
    // JSON numbers from YAML or a client may arrive as floats; the port is an int32.
    if (auto p = service->find("port"); p != service->end() && p->is_number()) {
      port = static_cast<std::int64_t>(p->get<double>());
    }
    url = "https://" + api::StringMember(*service, "name") + "." +
          api::StringMember(*service, "namespace") + ".svc:" + std::to_string(port) +
          api::StringMember(*service, "path");
  }
  endpoint.url = std::move(url);
  return endpoint;
}

// A selector field: absent or null selects everything (the v1 default is {}).
api::Selector SelectorOf(const Json& hook, std::string_view key, Status* error) {
  auto it = hook.find(key);
  if (it == hook.end() || it->is_null()) return api::Selector::Everything();
  api::LabelSelector selector;
  api::ErrorList decode_errors = api::DecodeInto(*it, &selector, api::FieldPath(std::string(key)));
  if (!decode_errors.empty()) {
    *error = Status::Internal(api::AggregateMessage(decode_errors));
    return api::Selector::Nothing();
  }
  Result<api::Selector> parsed = api::Selector::FromLabelSelector(&selector);
  if (!parsed.ok()) {
    *error = Status::Internal(parsed.status().message());
    return api::Selector::Nothing();
  }
  return *parsed;
}

Webhook ParseWebhook(const Json& hook, WebhookType type, const std::string& configuration) {
  Webhook webhook;
  webhook.type = type;
  webhook.configuration = configuration;
  webhook.name = api::StringMember(hook, "name");
  webhook.endpoint = EndpointOf(hook.value("clientConfig", Json::object()));
  for (const Json& rule : hook.value("rules", Json::array())) {
    if (!rule.is_object()) continue;
    WebhookRule parsed;
    parsed.operations = api::StringList(rule, "operations");
    parsed.api_groups = api::StringList(rule, "apiGroups");
    parsed.api_versions = api::StringList(rule, "apiVersions");
    parsed.resources = api::StringList(rule, "resources");
    std::string scope = api::StringMember(rule, "scope");
    if (!scope.empty()) parsed.scope = scope;
    webhook.rules.push_back(std::move(parsed));
  }
  webhook.namespace_selector = SelectorOf(hook, "namespaceSelector", &webhook.selector_error);
  webhook.object_selector = SelectorOf(hook, "objectSelector", &webhook.selector_error);
  webhook.fail_open = api::StringMember(hook, "failurePolicy") == "Ignore";
  webhook.side_effects = api::StringMember(hook, "sideEffects");
  if (auto t = hook.find("timeoutSeconds"); t != hook.end() && t->is_number()) {
    webhook.timeout = std::chrono::seconds(static_cast<std::int64_t>(t->get<double>()));
  }
  webhook.admission_review_versions = api::StringList(hook, "admissionReviewVersions");
  return webhook;
}

bool ExactOrWildcard(const std::vector<std::string>& items, std::string_view requested) {
  return std::any_of(items.begin(), items.end(),
                     [&](const std::string& item) { return item == "*" || item == requested; });
}

bool IsNamespaceObject(std::string_view group, std::string_view resource) {
  return group.empty() && resource == "namespaces";
}

bool ScopeMatches(const std::string& scope, const WebhookMatchRequest& request) {
  if (scope == "*") return true;
  // A Namespace is cluster-scoped, whatever name the request carries.
  const bool cluster =
      IsNamespaceObject(request.group, request.resource) || request.namespace_.empty();
  if (scope == "Namespaced") return !cluster;
  if (scope == "Cluster") return cluster;
  return false;
}

bool ResourceMatches(const std::vector<std::string>& resources, std::string_view resource,
                     std::string_view subresource) {
  for (const std::string& entry : resources) {
    std::size_t slash = entry.find('/');
    std::string_view res = std::string_view(entry).substr(0, slash);
    std::string_view sub =
        slash == std::string::npos ? std::string_view() : std::string_view(entry).substr(slash + 1);
    if ((res == "*" || res == resource) && (sub == "*" || sub == subresource)) return true;
  }
  return false;
}

bool ObjectSelectorMatches(const api::Selector& selector, const WebhookMatchRequest& request) {
  if (selector.Empty()) return true;
  auto matches = [&](const Json* object) {
    return object != nullptr && selector.Matches(ObjectLabels(object));
  };
  return matches(request.object) || matches(request.old_object);
}

bool NamespaceSelectorMatches(const api::Selector& selector, const WebhookMatchRequest& request,
                              const api::StringMap* namespace_labels) {
  if (selector.Empty()) return true;
  if (IsNamespaceObject(request.group, request.resource) && request.subresource.empty()) {
    // A Namespace being written is judged by its own labels; a deleted one by the stored ones.
    return selector.Matches(
        ObjectLabels(request.object != nullptr ? request.object : request.old_object));
  }
  if (request.namespace_.empty()) return true;  // cluster-scoped: never exempted
  return namespace_labels != nullptr && selector.Matches(*namespace_labels);
}

}  // namespace

std::vector<Webhook> ParseWebhookConfiguration(const Json& configuration, WebhookType type) {
  std::vector<Webhook> out;
  if (!configuration.is_object()) return out;
  std::string name = api::StringMember(configuration.value("metadata", Json::object()), "name");
  for (const Json& hook : configuration.value("webhooks", Json::array())) {
    if (hook.is_object()) out.push_back(ParseWebhook(hook, type, name));
  }
  return out;
}

api::StringMap ObjectLabels(const Json* object) {
  api::StringMap labels;
  if (object == nullptr || !object->is_object()) return labels;
  auto metadata = object->find("metadata");
  if (metadata == object->end() || !metadata->is_object()) return labels;
  auto found = metadata->find("labels");
  if (found == metadata->end() || !found->is_object()) return labels;
  for (const auto& [key, value] : found->items()) {
    if (value.is_string()) labels[key] = value.get<std::string>();
  }
  return labels;
}

bool RuleMatches(const WebhookRule& rule, const WebhookMatchRequest& request) {
  return ScopeMatches(rule.scope, request) && ExactOrWildcard(rule.operations, request.operation) &&
         ExactOrWildcard(rule.api_groups, request.group) &&
         ExactOrWildcard(rule.api_versions, request.version) &&
         ResourceMatches(rule.resources, request.resource, request.subresource);
}

bool WebhookMayHandle(const Webhook& webhook, std::string_view group, std::string_view version,
                      std::string_view resource, std::string_view subresource) {
  return std::any_of(webhook.rules.begin(), webhook.rules.end(), [&](const WebhookRule& rule) {
    return ExactOrWildcard(rule.api_groups, group) && ExactOrWildcard(rule.api_versions, version) &&
           ResourceMatches(rule.resources, resource, subresource);
  });
}

bool IsExemptFromWebhooks(std::string_view group, std::string_view kind) {
  return group == "admissionregistration.k8s.io" &&
         (kind == "ValidatingWebhookConfiguration" || kind == "MutatingWebhookConfiguration" ||
          kind == "ValidatingAdmissionPolicy" || kind == "ValidatingAdmissionPolicyBinding" ||
          kind == "MutatingAdmissionPolicy" || kind == "MutatingAdmissionPolicyBinding");
}

bool NeedsNamespaceLabels(const Webhook& webhook, const WebhookMatchRequest& request) {
  return !webhook.namespace_selector.Empty() && !request.namespace_.empty() &&
         !IsNamespaceObject(request.group, request.resource);
}

Result<bool> ShouldCallWebhook(const Webhook& webhook, const WebhookMatchRequest& request,
                               const api::StringMap* namespace_labels) {
  if (IsExemptFromWebhooks(request.group, request.kind)) return false;
  // Upstream evaluates the selectors first, but reports their errors only for a webhook whose
  // rules select the request.
  if (webhook.selector_error.ok()) {
    if (!NamespaceSelectorMatches(webhook.namespace_selector, request, namespace_labels)) {
      return false;
    }
    if (!ObjectSelectorMatches(webhook.object_selector, request)) return false;
  }
  bool selected = std::any_of(webhook.rules.begin(), webhook.rules.end(),
                              [&](const WebhookRule& rule) { return RuleMatches(rule, request); });
  if (!selected) return false;
  if (!webhook.selector_error.ok()) return webhook.selector_error;
  return true;
}

}  // namespace lws::apiserver
