// File: apiserver/rbac_bootstrap.cc
//
// The rules are upstream's (bootstrappolicy/testdata/cluster-roles.yaml), for
// the resources this server serves and the ones a user's manifests name.
#include "apiserver/rbac_bootstrap.h"

#include <string>

namespace lws::apiserver {
namespace {

using Json = api::Json;
using Strings = std::vector<std::string>;

const Strings kRead = {"get", "list", "watch"};
const Strings kWrite = {"create", "delete", "deletecollection", "patch", "update"};
const Strings kReadWrite = {"create", "delete", "deletecollection", "get",
                            "list",   "patch",  "update",           "watch"};

Json Rule(Strings groups, Strings resources, Strings verbs) {
  return {{"apiGroups", std::move(groups)},
          {"resources", std::move(resources)},
          {"verbs", std::move(verbs)}};
}

Json UrlRule(Strings urls, Strings verbs) {
  return {{"nonResourceURLs", std::move(urls)}, {"verbs", std::move(verbs)}};
}

Json Meta(const std::string& name, Json labels = Json::object()) {
  labels["kubernetes.io/bootstrapping"] = "rbac-defaults";
  return {{"name", name},
          {"labels", std::move(labels)},
          {"annotations", {{"rbac.authorization.kubernetes.io/autoupdate", "true"}}}};
}

Json ClusterRole(const std::string& name, Json rules, Json labels = Json::object()) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRole"},
          {"metadata", Meta(name, std::move(labels))},
          {"rules", std::move(rules)}};
}

// A role whose rules are those of the roles labelled aggregate-to-{to}.
Json AggregatedRole(const std::string& name, const std::string& to, Json labels = Json::object()) {
  Json role = ClusterRole(name, Json::array(), std::move(labels));
  role["aggregationRule"] = {
      {"clusterRoleSelectors",
       {{{"matchLabels", {{"rbac.authorization.k8s.io/aggregate-to-" + to, "true"}}}}}}};
  return role;
}

Json AggregateTo(const std::string& to) {
  return {{"rbac.authorization.k8s.io/aggregate-to-" + to, "true"}};
}

Json ViewRules() {
  return {
      Rule({""},
           {"configmaps", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status",
            "pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts",
            "services", "services/status"},
           kRead),
      Rule({""},
           {"bindings", "events", "limitranges", "namespaces/status", "pods/log", "pods/status",
            "replicationcontrollers/status", "resourcequotas", "resourcequotas/status"},
           kRead),
      Rule({""}, {"namespaces"}, kRead),
      Rule({"discovery.k8s.io"}, {"endpointslices"}, kRead),
      Rule({"apps"},
           {"controllerrevisions", "daemonsets", "daemonsets/status", "deployments",
            "deployments/scale", "deployments/status", "replicasets", "replicasets/scale",
            "replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status"},
           kRead),
      Rule({"autoscaling"}, {"horizontalpodautoscalers", "horizontalpodautoscalers/status"}, kRead),
      Rule({"batch"}, {"cronjobs", "cronjobs/status", "jobs", "jobs/status"}, kRead),
      Rule({"policy"}, {"poddisruptionbudgets", "poddisruptionbudgets/status"}, kRead),
      Rule({"networking.k8s.io"}, {"ingresses", "ingresses/status", "networkpolicies"}, kRead),
  };
}

Json EditRules() {
  return {
      Rule({""},
           {"pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets",
            "services/proxy"},
           kRead),
      Rule({""}, {"serviceaccounts"}, {"impersonate"}),
      Rule({""}, {"pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"}, kWrite),
      Rule({""}, {"pods/eviction"}, {"create"}),
      Rule({""},
           {"configmaps", "events", "persistentvolumeclaims", "replicationcontrollers",
            "replicationcontrollers/scale", "secrets", "serviceaccounts", "services",
            "services/proxy"},
           kWrite),
      Rule({""}, {"serviceaccounts/token"}, {"create"}),
      Rule({"apps"},
           {"daemonsets", "deployments", "deployments/rollback", "deployments/scale", "replicasets",
            "replicasets/scale", "statefulsets", "statefulsets/scale"},
           kWrite),
      Rule({"autoscaling"}, {"horizontalpodautoscalers"}, kWrite),
      Rule({"batch"}, {"cronjobs", "jobs"}, kWrite),
      Rule({"policy"}, {"poddisruptionbudgets"}, kWrite),
      Rule({"networking.k8s.io"}, {"ingresses", "networkpolicies"}, kWrite),
      Rule({"coordination.k8s.io"}, {"leases"}, kReadWrite),
  };
}

Json AdminRules() {
  return {Rule({"authorization.k8s.io"}, {"localsubjectaccessreviews"}, {"create"}),
          Rule({"rbac.authorization.k8s.io"}, {"rolebindings", "roles"}, kReadWrite)};
}

Json Binding(const std::string& role, const Strings& groups) {
  Json subjects = Json::array();
  for (const std::string& group : groups) {
    subjects.push_back(
        {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Group"}, {"name", group}});
  }
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRoleBinding"},
          {"metadata", Meta(role)},
          {"roleRef",
           {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", role}}},
          {"subjects", std::move(subjects)}};
}

}  // namespace

std::vector<Json> BootstrapClusterRoles() {
  return {
      ClusterRole("cluster-admin", {Rule({"*"}, {"*"}, {"*"}), UrlRule({"*"}, {"*"})}),
      AggregatedRole("admin", "admin"),
      AggregatedRole("edit", "edit", AggregateTo("admin")),
      AggregatedRole("view", "view", AggregateTo("edit")),
      ClusterRole("system:aggregate-to-admin", AdminRules(), AggregateTo("admin")),
      ClusterRole("system:aggregate-to-edit", EditRules(), AggregateTo("edit")),
      ClusterRole("system:aggregate-to-view", ViewRules(), AggregateTo("view")),
      ClusterRole("system:auth-delegator",
                  {Rule({"authentication.k8s.io"}, {"tokenreviews"}, {"create"}),
                   Rule({"authorization.k8s.io"}, {"subjectaccessreviews"}, {"create"})}),
      ClusterRole("system:basic-user",
                  {Rule({"authorization.k8s.io"},
                        {"selfsubjectaccessreviews", "selfsubjectrulesreviews"}, {"create"}),
                   Rule({"authentication.k8s.io"}, {"selfsubjectreviews"}, {"create"})}),
      ClusterRole("system:discovery",
                  {UrlRule({"/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi",
                            "/openapi/*", "/readyz", "/version", "/version/"},
                           {"get"})}),
      ClusterRole("system:public-info-viewer",
                  {UrlRule({"/healthz", "/livez", "/readyz", "/version", "/version/"}, {"get"})}),
  };
}

std::vector<Json> BootstrapClusterRoleBindings() {
  return {
      Binding("cluster-admin", {"system:masters"}),
      Binding("system:basic-user", {"system:authenticated"}),
      Binding("system:discovery", {"system:authenticated"}),
      Binding("system:public-info-viewer", {"system:authenticated", "system:unauthenticated"}),
  };
}

}  // namespace lws::apiserver
