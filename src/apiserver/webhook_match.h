// File: apiserver/webhook_match.h
//
// The admission webhooks that MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// objects (admissionregistration.k8s.io/v1) register, and the decision kube-apiserver makes for
// each of them before calling it (webhook/generic ShouldCallHook), as pure functions:
//
//   1. namespaceSelector against the labels of the request's Namespace; a cluster-scoped object
//      other than a Namespace always matches; a Namespace is judged by its own labels.
//   2. objectSelector against the labels of the new object or of the old one (either matches).
//   3. rules: operations ("*" or CREATE/UPDATE/DELETE/CONNECT), apiGroups, apiVersions and
//      resources ("*", "pods", "pods/status", "*/status", "pods/*"), scope ("*", "Namespaced",
//      "Cluster").
//   A selector that does not parse fails the request with 500 only when the rules match.
//
// matchPolicy is treated as Equivalent and never widens the match: this server serves each
// resource in exactly one version, so there is no equivalent resource to convert to.
// matchConditions (CEL) are not evaluated: a webhook that has them is called as if they held.
// Webhook configurations themselves are never sent to webhooks (upstream's exemption), so a
// broken webhook can always be removed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/meta.h"
#include "api/selector.h"
#include "base/clock.h"
#include "base/result.h"

namespace lws::apiserver {

using Json = api::Json;

enum class WebhookType { kMutating, kValidating };

// Where a webhook is reached: clientConfig.url, or a service reference turned into
// https://<name>.<namespace>.svc:<port><path> (port 443 by default), and the PEM CA bundle
// (clientConfig.caBundle decoded; "" means the system roots).
struct WebhookEndpoint {
  std::string url;
  std::string ca_bundle_pem;
  bool operator==(const WebhookEndpoint&) const = default;
};

// One entry of a webhook's rules (admissionregistration/v1 RuleWithOperations).
struct WebhookRule {
  std::vector<std::string> operations;
  std::vector<std::string> api_groups;
  std::vector<std::string> api_versions;
  std::vector<std::string> resources;
  std::string scope = "*";  // "*", "Namespaced" or "Cluster"
};

// One webhook of a configuration, with the v1 defaults applied.
struct Webhook {
  WebhookType type = WebhookType::kValidating;
  std::string configuration;  // the configuration object's name
  std::string name;           // "vleaderworkerset.kb.io"
  WebhookEndpoint endpoint;
  std::vector<WebhookRule> rules;
  api::Selector namespace_selector;  // Everything() when absent
  api::Selector object_selector;
  Status selector_error;     // a selector that did not parse (500 when it matters)
  bool fail_open = false;    // failurePolicy Ignore (default Fail)
  std::string side_effects;  // "None", "NoneOnDryRun", "Some", "Unknown"; "" when absent
  Duration timeout = std::chrono::seconds(10);  // timeoutSeconds
  std::vector<std::string> admission_review_versions;
};

// The webhooks of one stored configuration object, in their order. A clientConfig that names
// neither url nor service, or a caBundle that is not base64, yields an endpoint whose url is ""
// (every call then fails as a call failure, subject to failurePolicy).
std::vector<Webhook> ParseWebhookConfiguration(const Json& configuration, WebhookType type);

// What a request looks like to the matcher (admission.Attributes).
struct WebhookMatchRequest {
  std::string operation;  // "CREATE", "UPDATE", "DELETE"
  std::string group;
  std::string version;
  std::string resource;
  std::string subresource;
  std::string kind;                  // for the configuration-kind exemption
  std::string namespace_;            // "" for cluster-scoped objects
  const Json* object = nullptr;      // null on delete
  const Json* old_object = nullptr;  // null on create
};

// metadata.labels of `object` (string values only); empty for null or a malformed object.
api::StringMap ObjectLabels(const Json* object);

// True iff `rule` selects the request (rules.Matcher.Matches).
bool RuleMatches(const WebhookRule& rule, const WebhookMatchRequest& request);

// True iff some rule of `webhook` names the request's group, version and resource/subresource,
// whatever the operation: whether the webhook could ever be called for that resource.
bool WebhookMayHandle(const Webhook& webhook, std::string_view group, std::string_view version,
                      std::string_view resource, std::string_view subresource);

// True iff kube-apiserver never sends requests for this kind to webhooks (webhook and admission
// policy configurations).
bool IsExemptFromWebhooks(std::string_view group, std::string_view kind);

// True iff the request needs the labels of its Namespace to decide on `webhook`.
bool NeedsNamespaceLabels(const Webhook& webhook, const WebhookMatchRequest& request);

// Whether `webhook` is called for `request` (ShouldCallHook). `namespace_labels` are the labels
// of the request's Namespace, required when NeedsNamespaceLabels. Errors: 500 InternalError for
// a selector that does not parse, when the rules select the request.
Result<bool> ShouldCallWebhook(const Webhook& webhook, const WebhookMatchRequest& request,
                               const api::StringMap* namespace_labels);

}  // namespace lws::apiserver
