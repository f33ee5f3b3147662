// Built-in validation: one table of create and update cases per kind, each with the exact error
// strings a v1.32 server prints (field.Error.Error()).
#include "api/builtin_validation.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>

#include "api/builtin_defaults.h"
#include "api/builtin_status.h"
#include "api/builtin_testing.h"

namespace lws::api {
namespace {

using testing::ArbitraryShape;
using testing::Builtin;

struct Case {
  std::string name;
  std::function<void(Json&)> edit;      // applied to the valid base object
  std::function<void(Json&)> old_edit;  // when set: an update from base+old_edit to base+edit
  std::vector<std::string> want;
};

std::vector<std::string> Run(const ResourceInfo& info, const Json& base, const Case& c) {
  Json object = base;
  c.edit(object);
  ApplyBuiltinDefaults(info, &object);
  ErrorList errs;
  if (c.old_edit) {
    Json old = base;
    c.old_edit(old);
    ApplyBuiltinDefaults(info, &old);
    errs = ValidateBuiltin(info, object, &old);
  } else {
    errs = ValidateBuiltin(info, object, nullptr);
  }
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.Error());
  return out;
}

void RunTable(const ResourceInfo& info, const Json& base, const std::vector<Case>& cases) {
  for (const auto& c : cases) EXPECT_EQ(Run(info, base, c), c.want) << c.name;
}

auto Keep = [](Json&) {};

const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation "
    "is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation "
    "is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kPodUpdatePrefix =
    "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
    "additions to existing "
    "tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
    "previously negative)\n";

Json ValidPod() {
  return {{"metadata", {{"name", "web-0"}, {"namespace", "default"}}},
          {"spec",
           {{"containers",
             {{{"name", "web"}, {"image", "nginx:1.27"}, {"ports", {{{"containerPort", 80}}}}}}},
            {"tolerations", {{{"key", "a"}, {"operator", "Exists"}}}}}}};
}

void ManyTolerations(Json& pod, int n) {
  Json& list = pod["spec"]["tolerations"] = Json::array();
  for (int i = 0; i < n; ++i)
    list.push_back({{"key", "k" + std::to_string(i)}, {"operator", "Exists"}});
}

TEST(ValidateBuiltin, Pod) {
  RunTable(
      Builtin("", "pods"), ValidPod(),
      {
          {"valid", Keep, nullptr, {}},
          {"no name",
           [](Json& p) { p["metadata"].erase("name"); },
           nullptr,
           {"metadata.name: Required value: name or generateName is required"}},
          {"bad name",
           [](Json& p) { p["metadata"]["name"] = "Web_0"; },
           nullptr,
           {"metadata.name: Invalid value: \"Web_0\": " + kSubdomainMsg}},
          {"no namespace",
           [](Json& p) { p["metadata"].erase("namespace"); },
           nullptr,
           {"metadata.namespace: Required value"}},
          {"no containers",
           [](Json& p) { p["spec"]["containers"] = Json::array(); },
           nullptr,
           {"spec.containers: Required value"}},
          {"container name and image",
           [](Json& p) {
             p["spec"]["containers"][0]["name"] = "Web";
             p["spec"]["containers"][0].erase("image");
           },
           nullptr,
           {"spec.containers[0].name: Invalid value: \"Web\": " + kLabelMsg,
            "spec.containers[0].image: Required value"}},
          {"duplicate names across init and regular containers",
           [](Json& p) {
             p["spec"]["containers"].push_back({{"name", "web"}, {"image", "x"}});
             p["spec"]["initContainers"] = {{{"name", "web"}, {"image", "x"}}};
           },
           nullptr,
           {"spec.containers[1].name: Duplicate value: \"web\"",
            "spec.initContainers[0].name: Duplicate value: \"web\""}},
          {"restart policy",
           [](Json& p) { p["spec"]["restartPolicy"] = "Sometimes"; },
           nullptr,
           {"spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
            "\"OnFailure\", \"Never\""}},
          {"ports",
           [](Json& p) {
             p["spec"]["containers"][0]["ports"] = {
                 {{"containerPort", 70000}, {"protocol", "HTTP"}, {"name", "Http--x"}}};
           },
           nullptr,
           {"spec.containers[0].ports[0].name: Invalid value: \"Http--x\": must contain only "
            "alpha-numeric characters "
            "(a-z, 0-9), and hyphens (-)",
            "spec.containers[0].ports[0].name: Invalid value: \"Http--x\": must not contain "
            "consecutive hyphens",
            "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 "
            "and 65535, inclusive",
            "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: "
            "\"SCTP\", \"TCP\", "
            "\"UDP\""}},
          {"mount of an unknown volume",
           [](Json& p) {
             p["spec"]["containers"][0]["volumeMounts"] = {{{"name", "data"}, {"mountPath", "/d"}}};
           },
           nullptr,
           {"spec.containers[0].volumeMounts[0].name: Not found: \"data\""}},
          {"request above limit",
           [](Json& p) {
             p["spec"]["containers"][0]["resources"] = {{"requests", {{"cpu", "2"}}},
                                                        {"limits", {{"cpu", "1000m"}}}};
           },
           nullptr,
           {"spec.containers[0].resources.requests[cpu]: Invalid value: \"2\": must be less than "
            "or equal to cpu "
            "limit of 1"}},
          {"update: image may change",
           [](Json& p) { p["spec"]["containers"][0]["image"] = "nginx:1.28"; },
           Keep,
           {}},
          {"update: tolerations may be added",
           [](Json& p) {
             p["spec"]["tolerations"].push_back({{"key", "b"}, {"operator", "Exists"}});
           },
           Keep,
           {}},
          // A pod may carry thousands of tolerations; checking that none was removed must stay
          // linear (it was quadratic: a one-label patch of a pod with 20,000 took 83-108 s of CPU).
          {"update: 20,000 tolerations, one more added",
           [](Json& p) { ManyTolerations(p, 20001); },
           [](Json& p) { ManyTolerations(p, 20000); },
           {}},
          {"update: 20,000 tolerations, the last one removed",
           [](Json& p) { ManyTolerations(p, 19999); },
           [](Json& p) { ManyTolerations(p, 20000); },
           {"spec.tolerations: Forbidden: existing toleration can not be modified except its "
            "tolerationSeconds"}},
          {"update: tolerationSeconds may change",
           [](Json& p) {
             p["spec"]["tolerations"] = {{{"key", "a"},
                                          {"operator", "Exists"},
                                          {"effect", "NoExecute"},
                                          {"tolerationSeconds", 5}}};
           },
           [](Json& p) {
             p["spec"]["tolerations"] = {{{"key", "a"},
                                          {"operator", "Exists"},
                                          {"effect", "NoExecute"},
                                          {"tolerationSeconds", 9}}};
           },
           {}},
          {"update: tolerations may not be removed",
           [](Json& p) { p["spec"].erase("tolerations"); },
           Keep,
           {"spec.tolerations: Forbidden: existing toleration can not be modified except its "
            "tolerationSeconds"}},
          {"update: containers may not be added",
           [](Json& p) {
             p["spec"]["containers"].push_back({{"name", "b"}, {"image", "x"}});
           },
           Keep,
           {"spec.containers: Forbidden: pod updates may not add or remove containers"}},
          {"update: deadline may only shrink",
           [](Json& p) { p["spec"]["activeDeadlineSeconds"] = 20; },
           [](Json& p) { p["spec"]["activeDeadlineSeconds"] = 10; },
           {"spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous "
            "value"}},
          {"update: other fields are immutable",
           [](Json& p) { p["spec"]["containers"][0]["ports"][0]["containerPort"] = 8080; },
           Keep,
           {kPodUpdatePrefix + "- spec.containers[0].ports[0].containerPort: 80\n+ "
                               "spec.containers[0].ports[0].containerPort: 8080\n"}},
      });
}

Json ValidStatefulSet() {
  const Json labels = {{"app", "web"}};
  return {{"metadata", {{"name", "web"}, {"namespace", "default"}}},
          {"spec",
           {{"serviceName", "web"},
            {"selector", {{"matchLabels", labels}}},
            {"template",
             {{"metadata", {{"labels", labels}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "x"}}}}}}}}}}};
}

TEST(ValidateBuiltin, StatefulSet) {
  RunTable(
      Builtin("apps", "statefulsets"), ValidStatefulSet(),
      {
          {"valid", Keep, nullptr, {}},
          {"name must be a DNS label",
           [](Json& s) { s["metadata"]["name"] = "web.v1"; },
           nullptr,
           {"metadata.name: Invalid value: \"web.v1\": " + kLabelMsg}},
          {"name is not re-validated on update",
           [](Json& s) { s["metadata"]["name"] = "web.v1"; },
           [](Json& s) { s["metadata"]["name"] = "web.v1"; },
           {}},
          {"selector required",
           [](Json& s) { s["spec"].erase("selector"); },
           nullptr,
           {"spec.selector: Required value",
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: "
            "`selector` does not match "
            "template `labels`"}},
          {"selector must match",
           [](Json& s) { s["spec"]["template"]["metadata"]["labels"]["app"] = "db"; },
           nullptr,
           {"spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"db\"}: "
            "`selector` does not match "
            "template `labels`"}},
          {"empty selector",
           [](Json& s) { s["spec"]["selector"] = Json::object(); },
           nullptr,
           {"spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), "
            "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for "
            "statefulset"}},
          {"selector operator",
           [](Json& s) {
             s["spec"]["selector"]["matchExpressions"] = {{{"key", "tier"}, {"operator", "In"}}};
           },
           nullptr,
           // The selector also fails to convert (LabelSelectorAsSelector), reported with an empty
           // detail.
           {"spec.selector.matchExpressions[0].values: Required value: must be specified when "
            "`operator` is 'In' or "
            "'NotIn'",
            "spec.selector: Invalid value: "
            "v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\"}, "
            "MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"
            "\"tier\", "
            "Operator:\"In\", Values:[]string(nil)}}}"}},
          {"replicas and policy",
           [](Json& s) {
             s["spec"]["replicas"] = -1;
             s["spec"]["podManagementPolicy"] = "Fast";
           },
           nullptr,
           {"spec.podManagementPolicy: Invalid value: \"Fast\": must be 'OrderedReady' or "
            "'Parallel'",
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
          {"update strategy type",
           [](Json& s) {
             s["spec"]["updateStrategy"] = {{"type", "Fast"}};
           },
           nullptr,
           {"spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Fast\", "
            "RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' "
            "or 'OnDelete'"}},
          {"negative partition",
           [](Json& s) {
             s["spec"]["updateStrategy"] = {{"rollingUpdate", {{"partition", -2}}}};
           },
           nullptr,
           {"spec.updateStrategy.rollingUpdate.partition: Invalid value: -2: must be greater than "
            "or equal to 0"}},
          {"template restart policy",
           [](Json& s) { s["spec"]["template"]["spec"]["restartPolicy"] = "Never"; },
           nullptr,
           {"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: "
            "\"Always\""}},
          {"update: replicas, template and strategy may change",
           [](Json& s) {
             s["spec"]["replicas"] = 5;
             s["spec"]["template"]["spec"]["containers"][0]["image"] = "y";
             s["spec"]["updateStrategy"] = {{"type", "OnDelete"}};
           },
           Keep,
           {}},
          {"update: serviceName may not",
           [](Json& s) { s["spec"]["serviceName"] = "other"; },
           Keep,
           {"spec: Forbidden: updates to statefulset spec for fields other than 'replicas', "
            "'ordinals', 'template', "
            "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
            "forbidden"}},
      });
}

Json ValidService() {
  return {{"metadata", {{"name", "web"}, {"namespace", "default"}}},
          {"spec", {{"selector", {{"app", "web"}}}, {"ports", {{{"port", 80}}}}}}};
}

TEST(ValidateBuiltin, Service) {
  RunTable(
      Builtin("", "services"), ValidService(),
      {
          {"valid", Keep, nullptr, {}},
          {"headless without ports",
           [](Json& s) {
             s["spec"] = {{"clusterIP", "None"}};
           },
           nullptr,
           {}},
          {"ports required",
           [](Json& s) { s["spec"].erase("ports"); },
           nullptr,
           {"spec.ports: Required value"}},
          {"name is a DNS-1035 label",
           [](Json& s) { s["metadata"]["name"] = "1web"; },
           nullptr,
           {"metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case "
            "alphanumeric "
            "characters or '-', start with an alphabetic character, and end with an alphanumeric "
            "character (e.g. "
            "'my-name',  or 'abc-123', regex used for validation is "
            "'[a-z]([-a-z0-9]*[a-z0-9])?')"}},
          {"several ports need names, unique (protocol, port)",
           [](Json& s) {
             s["spec"]["ports"] = {{{"port", 80}}, {{"port", 80}}};
           },
           nullptr,
           {"spec.ports[0].name: Required value", "spec.ports[1].name: Required value",
            "spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", "
            "AppProtocol:(*string)(nil), "
            "Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}"}},
          {"duplicate port names",
           [](Json& s) {
             s["spec"]["ports"] = {{{"name", "http"}, {"port", 80}},
                                   {{"name", "http"}, {"port", 81}}};
           },
           nullptr,
           {"spec.ports[1].name: Duplicate value: \"http\""}},
          {"port range",
           [](Json& s) { s["spec"]["ports"][0]["port"] = 0; },
           nullptr,
           {"spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
            "spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive"}},
          {"type",
           [](Json& s) { s["spec"]["type"] = "Internal"; },
           nullptr,
           {"spec.type: Unsupported value: \"Internal\": supported values: \"ClusterIP\", "
            "\"ExternalName\", "
            "\"LoadBalancer\", \"NodePort\""}},
          {"dual stack on a single-stack cluster",
           [](Json& s) { s["spec"]["ipFamilyPolicy"] = "RequireDualStack"; },
           nullptr,
           {"spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this cluster is not "
            "configured for dual-stack "
            "services"}},
          {"update: cluster IP is immutable",
           [](Json& s) { s["spec"]["clusterIP"] = "10.96.0.2"; },
           [](Json& s) { s["spec"]["clusterIP"] = "10.96.0.1"; },
           {"spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.2\"}: may not change once set"}},
          {"update: same cluster IP",
           [](Json& s) { s["spec"]["clusterIP"] = "10.96.0.1"; },
           [](Json& s) { s["spec"]["clusterIP"] = "10.96.0.1"; },
           {}},
      });
}

TEST(ValidateBuiltin, NamespaceConfigMapSecret) {
  RunTable(Builtin("", "namespaces"), {{"metadata", {{"name", "team-a"}}}},
           {
               {"valid", Keep, nullptr, {}},
               {"label name",
                [](Json& n) { n["metadata"]["name"] = "team.a"; },
                nullptr,
                {"metadata.name: Invalid value: \"team.a\": " + kLabelMsg}},
               {"no namespace on cluster-scoped",
                [](Json& n) { n["metadata"]["namespace"] = "x"; },
                nullptr,
                {"metadata.namespace: Forbidden: not allowed on this type"}},
           });
  const Json config = {{"metadata", {{"name", "c"}, {"namespace", "default"}}},
                       {"data", {{"a.conf", "x"}}}};
  RunTable(Builtin("", "configmaps"), config,
           {
               {"valid", Keep, nullptr, {}},
               {"key",
                [](Json& c) { c["data"]["a/b"] = "x"; },
                nullptr,
                {"data[a/b]: Invalid value: \"a/b\": a valid config key must consist of "
                 "alphanumeric characters, '-', '_' or "
                 "'.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation "
                 "is '[-._a-zA-Z0-9]+')"}},
               {"dot-dot key",
                [](Json& c) {
                  c["binaryData"] = {{"..x", "eA=="}};
                },
                nullptr,
                {"binaryData[..x]: Invalid value: \"..x\": must not start with '..'"}},
               {"immutable",
                [](Json& c) {
                  c["data"]["a.conf"] = "y";
                  c["immutable"] = true;
                },
                [](Json& c) { c["immutable"] = true; },
                {"data: Forbidden: field is immutable when `immutable` is set"}},
           });
  const Json secret = {{"metadata", {{"name", "s"}, {"namespace", "default"}}},
                       {"stringData", {{"token", "x"}}}};
  RunTable(Builtin("", "secrets"), secret,
           {
               {"valid", Keep, nullptr, {}},
               {"stringData keys are data keys",
                [](Json& s) { s["stringData"]["bad key"] = "x"; },
                nullptr,
                {"data[bad key]: Invalid value: \"bad key\": a valid config key must consist of "
                 "alphanumeric characters, "
                 "'-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for "
                 "validation is "
                 "'[-._a-zA-Z0-9]+')"}},
               {"type is immutable",
                [](Json& s) { s["type"] = "kubernetes.io/tls"; },
                Keep,
                {"type: Invalid value: \"kubernetes.io/tls\": field is immutable"}},
           });
}

TEST(ValidateBuiltin, CustomResourcesAreNotValidatedHere) {
  ResourceInfo custom = Builtin("", "pods");
  custom.custom = true;
  EXPECT_TRUE(ValidateBuiltin(custom, Json::object(), nullptr).empty());
}

RC_GTEST_PROP(BuiltinValidationProperty, NeverThrowsOnArbitraryShapes, ()) {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"", "pods"},       {"", "services"},   {"apps", "statefulsets"},
      {"", "namespaces"}, {"", "configmaps"}, {"", "secrets"},
      {"", "nodes"}};
  const auto& [group, resource] = *rc::gen::elementOf(kinds);
  const ResourceInfo& info = Builtin(group, resource);
  auto arbitrary = [] {
    Json object = Json::object();
    for (const char* key : {"metadata", "spec", "data", "binaryData", "immutable", "type"}) {
      if (*rc::gen::arbitrary<bool>()) object[key] = ArbitraryShape(4);
    }
    return object;
  };
  Json object = arbitrary();
  Json old = arbitrary();
  ApplyBuiltinDefaults(info, &object);
  ApplyBuiltinDefaults(info, &old);
  ValidateBuiltin(info, object, nullptr);
  ValidateBuiltin(info, object, &old);
  InitialStatus(info, object);
  // Updating an object to itself never trips an immutability rule.
  for (const auto& e : ValidateBuiltin(info, object, &object)) {
    RC_ASSERT(e.field != "spec");
    RC_ASSERT(e.detail.find("may not change once set") == std::string::npos);
    RC_ASSERT(e.detail.find("may not add or remove") == std::string::npos);
    RC_ASSERT(e.detail.find("can not be modified") == std::string::npos);
    RC_ASSERT(e.detail.find("when `immutable` is set") == std::string::npos);
  }
}

}  // namespace
}  // namespace lws::api
