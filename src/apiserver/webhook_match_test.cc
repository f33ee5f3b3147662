// File: apiserver/webhook_match_test.cc
//
// Parsing of webhook configurations (deploy/webhook, deploy/local) and kube-apiserver's decision
// whether to call a webhook: rules, scope, namespace and object selectors, exemptions.
#include "apiserver/webhook_match.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/yaml.h"
#include "apiserver/admission_review.h"
#include "testdata/testdata_dir.h"

namespace lws::apiserver {
namespace {

std::string ReadRepoFile(const std::string& relative) {
  std::ifstream in(TestdataDir() + "/../" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Json Config(const std::string& yaml) { return api::LoadYaml(yaml).value(); }

std::vector<Json> Documents(const std::string& relative) {
  std::vector<Json> out;
  std::vector<api::YamlDocument> docs = api::LoadYamlDocuments(ReadRepoFile(relative)).value();
  for (api::YamlDocument& doc : docs) {
    out.push_back(std::move(doc.value));
  }
  return out;
}

Json Pod(api::StringMap labels) {
  Json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}}};
  if (!labels.empty()) pod["metadata"]["labels"] = labels;
  return pod;
}

WebhookMatchRequest PodCreate(const Json* pod, std::string ns = "default") {
  WebhookMatchRequest r;
  r.operation = "CREATE";
  r.version = "v1";
  r.resource = "pods";
  r.kind = "Pod";
  r.namespace_ = std::move(ns);
  r.object = pod;
  return r;
}

Webhook OneWebhook(const std::string& yaml) {
  std::vector<Webhook> hooks = ParseWebhookConfiguration(Config(yaml), WebhookType::kValidating);
  EXPECT_EQ(hooks.size(), 1u);
  return hooks.empty() ? Webhook() : hooks[0];
}

bool Calls(const Webhook& hook, const WebhookMatchRequest& r,
           const api::StringMap* ns_labels = nullptr) {
  Result<bool> call = ShouldCallWebhook(hook, r, ns_labels);
  EXPECT_TRUE(call.ok()) << call.status().ToString();
  return call.ok() && *call;
}

TEST(WebhookMatch, ParsesTheLocalConfigurations) {
  std::vector<Json> docs = Documents("deploy/local/webhooks.yaml");
  ASSERT_EQ(docs.size(), 2u);
  std::vector<Webhook> mutating = ParseWebhookConfiguration(docs[0], WebhookType::kMutating);
  ASSERT_EQ(mutating.size(), 2u);
  EXPECT_EQ(mutating[0].name, "mleaderworkerset.kb.io");
  EXPECT_EQ(mutating[0].configuration, "lws-mutating-webhook-configuration");
  EXPECT_EQ(mutating[0].endpoint.url,
            "https://127.0.0.1:9443/mutate-leaderworkerset-x-k8s-io-v1-leaderworkerset");
  EXPECT_FALSE(mutating[0].fail_open);
  EXPECT_EQ(mutating[0].side_effects, "None");
  EXPECT_EQ(mutating[0].timeout, std::chrono::seconds(10));
  EXPECT_TRUE(mutating[0].object_selector.Empty());
  EXPECT_EQ(mutating[1].object_selector.String(), "leaderworkerset.sigs.k8s.io/name");

  Json lws_pod = Pod({{"leaderworkerset.sigs.k8s.io/name", "demo"}});
  Json plain_pod = Pod({{"app", "x"}});
  EXPECT_TRUE(Calls(mutating[1], PodCreate(&lws_pod)));
  EXPECT_FALSE(Calls(mutating[1], PodCreate(&plain_pod)));
  WebhookMatchRequest update = PodCreate(&lws_pod);
  update.operation = "UPDATE";
  EXPECT_FALSE(Calls(mutating[1], update)) << "mpod.kb.io is CREATE only";
}

TEST(WebhookMatch, ServiceReferenceBecomesClusterUrl) {
  std::vector<Json> docs = Documents("deploy/webhook/validating.yaml");
  ASSERT_EQ(docs.size(), 1u);
  std::vector<Webhook> hooks = ParseWebhookConfiguration(docs[0], WebhookType::kValidating);
  ASSERT_EQ(hooks.size(), 3u);
  EXPECT_EQ(hooks[1].endpoint.url,
            "https://lws-webhook-service.lws-system.svc:443/validate--v1-pod");
  EXPECT_EQ(hooks[2].endpoint.url,
            "https://lws-webhook-service.lws-system.svc:443/"
            "validate-disaggregatedset-x-k8s-io-v1-disaggregatedset");
  Webhook custom = OneWebhook(R"(
webhooks:
- name: a
  clientConfig: {service: {name: svc, namespace: team, port: 8443}, caBundle: Y2EtcGVt}
)");
  EXPECT_EQ(custom.endpoint.url, "https://svc.team.svc:8443");
  EXPECT_EQ(custom.endpoint.ca_bundle_pem, "ca-pem");
  Webhook bad_ca =
      OneWebhook("webhooks: [{name: a, clientConfig: {url: 'https://x', caBundle: '!!'}}]");
  EXPECT_EQ(bad_ca.endpoint.url, "") << "an unusable caBundle makes every call fail";
}

TEST(WebhookMatch, RulesWildcardsAndSubresources) {
  Json pod = Pod({});
  WebhookMatchRequest status = PodCreate(&pod);
  status.operation = "UPDATE";
  status.subresource = "status";
  auto rule = [](std::vector<std::string> resources, std::vector<std::string> operations = {"*"}) {
    WebhookRule r;
    r.operations = std::move(operations);
    r.api_groups = {""};
    r.api_versions = {"*"};
    r.resources = std::move(resources);
    return r;
  };
  EXPECT_FALSE(RuleMatches(rule({"pods"}), status)) << "main resource only";
  EXPECT_TRUE(RuleMatches(rule({"pods/status"}), status));
  EXPECT_TRUE(RuleMatches(rule({"*/status"}), status));
  EXPECT_TRUE(RuleMatches(rule({"pods/*"}), status));
  EXPECT_FALSE(RuleMatches(rule({"*"}), status)) << "\"*\" names main resources only";
  EXPECT_TRUE(RuleMatches(rule({"*/*"}), status));
  EXPECT_FALSE(RuleMatches(rule({"pods/status"}, {"CREATE"}), status));
  WebhookRule apps = rule({"*/*"});
  apps.api_groups = {"apps"};
  EXPECT_FALSE(RuleMatches(apps, status));
}

TEST(WebhookMatch, Scope) {
  WebhookRule rule{{"*"}, {"*"}, {"*"}, {"*"}, "Namespaced"};
  Json pod = Pod({});
  EXPECT_TRUE(RuleMatches(rule, PodCreate(&pod)));
  WebhookMatchRequest node = PodCreate(&pod, "");
  node.resource = "nodes";
  EXPECT_FALSE(RuleMatches(rule, node));
  rule.scope = "Cluster";
  EXPECT_TRUE(RuleMatches(rule, node));
  WebhookMatchRequest ns = node;
  ns.resource = "namespaces";
  ns.namespace_ = "team";  // a Namespace is cluster-scoped even when the request names it
  EXPECT_TRUE(RuleMatches(rule, ns));
}

TEST(WebhookMatch, NamespaceSelector) {
  Webhook hook = OneWebhook(R"(
webhooks:
- name: a
  clientConfig: {url: 'https://x'}
  namespaceSelector: {matchLabels: {team: ml}}
  rules: [{operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*']}]
)");
  Json pod = Pod({});
  WebhookMatchRequest r = PodCreate(&pod, "ml-ns");
  ASSERT_TRUE(NeedsNamespaceLabels(hook, r));
  api::StringMap ml = {{"team", "ml"}}, other = {{"team", "web"}};
  EXPECT_TRUE(Calls(hook, r, &ml));
  EXPECT_FALSE(Calls(hook, r, &other));
  WebhookMatchRequest node = PodCreate(&pod, "");
  node.resource = "nodes";
  EXPECT_FALSE(NeedsNamespaceLabels(hook, node));
  EXPECT_TRUE(Calls(hook, node)) << "cluster-scoped objects are never exempted";
  Json labelled_ns = {{"metadata", {{"name", "x"}, {"labels", {{"team", "ml"}}}}}};
  WebhookMatchRequest ns = PodCreate(&labelled_ns, "");
  ns.resource = "namespaces";
  ns.kind = "Namespace";
  EXPECT_TRUE(Calls(hook, ns)) << "a Namespace is judged by its own labels";
}

TEST(WebhookMatch, ObjectSelectorOldOrNew) {
  Webhook hook = OneWebhook(R"(
webhooks:
- name: a
  clientConfig: {url: 'https://x'}
  objectSelector: {matchExpressions: [{key: lws, operator: Exists}]}
  rules: [{operations: ['*'], apiGroups: [''], apiVersions: [v1], resources: [pods]}]
)");
  Json labelled = Pod({{"lws", "1"}}), plain = Pod({});
  WebhookMatchRequest update = PodCreate(&plain);
  update.operation = "UPDATE";
  update.old_object = &labelled;
  EXPECT_TRUE(Calls(hook, update)) << "the label removed by the update still selects";
  WebhookMatchRequest del = PodCreate(nullptr);
  del.operation = "DELETE";
  del.old_object = &labelled;
  EXPECT_TRUE(Calls(hook, del));
  del.old_object = &plain;
  EXPECT_FALSE(Calls(hook, del));
}

TEST(WebhookMatch, BadSelectorFailsOnlyMatchingRequests) {
  Webhook hook = OneWebhook(R"(
webhooks:
- name: a
  clientConfig: {url: 'https://x'}
  objectSelector: {matchExpressions: [{key: 'bad key!', operator: Exists}]}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}]
)");
  Json pod = Pod({});
  Result<bool> call = ShouldCallWebhook(hook, PodCreate(&pod), nullptr);
  ASSERT_FALSE(call.ok());
  EXPECT_EQ(call.status().code(), Code::kInternal);
  WebhookMatchRequest other = PodCreate(&pod);
  other.resource = "services";
  EXPECT_FALSE(Calls(hook, other));
}

TEST(WebhookMatch, ConfigurationsAreExempt) {
  Webhook hook = OneWebhook(R"(
webhooks:
- name: a
  clientConfig: {url: 'https://x'}
  rules: [{operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*']}]
)");
  Json config = Json::object();
  WebhookMatchRequest r = PodCreate(&config, "");
  r.group = "admissionregistration.k8s.io";
  r.resource = "validatingwebhookconfigurations";
  r.kind = "ValidatingWebhookConfiguration";
  EXPECT_FALSE(Calls(hook, r));
  EXPECT_TRUE(WebhookMayHandle(hook, "apps", "v1", "statefulsets", ""));
  EXPECT_FALSE(WebhookMayHandle(hook, "apps", "v1", "statefulsets", "status"));
}

}  // namespace
}  // namespace lws::apiserver
