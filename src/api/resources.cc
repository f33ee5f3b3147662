#include "api/resources.h"

#include <tuple>

#include "api/string_list.h"

namespace lws::api {

namespace {

std::string Key(const std::string& group, const std::string& version, const std::string& resource) {
  return group + "/" + version + "/" + resource;
}

ResourceInfo Builtin(std::string group, std::string resource, std::string singular,
                     std::string kind, bool namespaced, std::vector<std::string> short_names) {
  ResourceInfo r;
  r.group = std::move(group);
  r.version = "v1";
  r.resource = std::move(resource);
  r.singular = std::move(singular);
  r.kind = std::move(kind);
  r.list_kind = r.kind + "List";
  r.namespaced = namespaced;
  r.short_names = std::move(short_names);
  return r;
}

// Beyond the list in resources.h: apps/v1 deployments and the RBAC and admission-registration
// kinds, so that the operator's manifests (deploy/) apply here as on a real cluster.
std::vector<ResourceInfo> BuiltinResources() {
  std::vector<ResourceInfo> all;

  ResourceInfo pods = Builtin("", "pods", "pod", "Pod", true, {"po"});
  pods.categories = {"all"};
  pods.has_status = true;
  pods.graceful_delete = true;
  pods.field_labels = {{"spec.nodeName", ".spec.nodeName"},
                       {"spec.restartPolicy", ".spec.restartPolicy"},
                       {"spec.schedulerName", ".spec.schedulerName"},
                       {"spec.serviceAccountName", ".spec.serviceAccountName"},
                       {"spec.hostNetwork", ".spec.hostNetwork"},
                       {"status.phase", ".status.phase"},
                       {"status.podIP", ".status.podIP"},
                       {"status.nominatedNodeName", ".status.nominatedNodeName"}};
  all.push_back(pods);

  ResourceInfo services = Builtin("", "services", "service", "Service", true, {"svc"});
  services.categories = {"all"};
  services.has_status = true;
  all.push_back(services);

  ResourceInfo nodes = Builtin("", "nodes", "node", "Node", false, {"no"});
  nodes.has_status = true;
  nodes.field_labels = {{"spec.unschedulable", ".spec.unschedulable"}};
  all.push_back(nodes);

  ResourceInfo namespaces = Builtin("", "namespaces", "namespace", "Namespace", false, {"ns"});
  namespaces.has_status = true;
  namespaces.field_labels = {{"status.phase", ".status.phase"}};
  all.push_back(namespaces);

  ResourceInfo events = Builtin("", "events", "event", "Event", true, {"ev"});
  events.field_labels = {{"involvedObject.kind", ".involvedObject.kind"},
                         {"involvedObject.namespace", ".involvedObject.namespace"},
                         {"involvedObject.name", ".involvedObject.name"},
                         {"involvedObject.uid", ".involvedObject.uid"},
                         {"involvedObject.apiVersion", ".involvedObject.apiVersion"},
                         {"involvedObject.resourceVersion", ".involvedObject.resourceVersion"},
                         {"involvedObject.fieldPath", ".involvedObject.fieldPath"},
                         {"reason", ".reason"},
                         {"reportingComponent", ".reportingComponent"},
                         {"source", ".source.component"},
                         {"type", ".type"}};
  all.push_back(events);

  all.push_back(Builtin("", "configmaps", "configmap", "ConfigMap", true, {"cm"}));
  all.push_back(Builtin("", "secrets", "secret", "Secret", true, {}));
  // Object-count quotas (apiserver/quota_admission.h): status.hard and status.used are the
  // server's.
  ResourceInfo quotas =
      Builtin("", "resourcequotas", "resourcequota", "ResourceQuota", true, {"quota"});
  quotas.has_status = true;
  all.push_back(quotas);
  all.push_back(Builtin("", "serviceaccounts", "serviceaccount", "ServiceAccount", true, {"sa"}));
  ResourceInfo pvcs = Builtin("", "persistentvolumeclaims", "persistentvolumeclaim",
                              "PersistentVolumeClaim", true, {"pvc"});
  pvcs.has_status = true;
  all.push_back(pvcs);

  ResourceInfo sts = Builtin("apps", "statefulsets", "statefulset", "StatefulSet", true, {"sts"});
  sts.categories = {"all"};
  sts.has_status = true;
  sts.tracks_generation = true;
  sts.scale = ScaleInfo{".spec.replicas", ".status.replicas", ""};
  all.push_back(sts);

  all.push_back(
      Builtin("apps", "controllerrevisions", "controllerrevision", "ControllerRevision", true, {}));

  // Run by cluster/deployment_controller.h and cluster/replicaset_controller.h in `lws up`.
  ResourceInfo replicasets =
      Builtin("apps", "replicasets", "replicaset", "ReplicaSet", true, {"rs"});
  replicasets.categories = {"all"};
  replicasets.has_status = true;
  replicasets.tracks_generation = true;
  replicasets.scale = ScaleInfo{".spec.replicas", ".status.replicas", ""};
  all.push_back(replicasets);

  ResourceInfo deployments =
      Builtin("apps", "deployments", "deployment", "Deployment", true, {"deploy"});
  deployments.categories = {"all"};
  deployments.has_status = true;
  deployments.tracks_generation = true;
  deployments.scale = ScaleInfo{".spec.replicas", ".status.replicas", ""};
  all.push_back(deployments);

  // Run by cluster/daemonset_controller.h and cluster/job_controller.h in `lws up`.
  ResourceInfo daemonsets = Builtin("apps", "daemonsets", "daemonset", "DaemonSet", true, {"ds"});
  daemonsets.categories = {"all"};
  daemonsets.has_status = true;
  daemonsets.tracks_generation = true;
  all.push_back(daemonsets);

  ResourceInfo jobs = Builtin("batch", "jobs", "job", "Job", true, {});
  jobs.categories = {"all"};
  jobs.has_status = true;
  jobs.tracks_generation = true;
  all.push_back(jobs);

  // RBAC: no short names, no categories; the cluster-wide kinds are cluster-scoped.
  const std::string rbac = "rbac.authorization.k8s.io";
  all.push_back(Builtin(rbac, "clusterroles", "clusterrole", "ClusterRole", false, {}));
  all.push_back(
      Builtin(rbac, "clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", false, {}));
  all.push_back(Builtin(rbac, "roles", "role", "Role", true, {}));
  all.push_back(Builtin(rbac, "rolebindings", "rolebinding", "RoleBinding", true, {}));

  // Admission webhook registrations: cluster-scoped, in kube-apiserver's "api-extensions" category.
  for (auto [resource, singular, kind] :
       {std::tuple{"mutatingwebhookconfigurations", "mutatingwebhookconfiguration",
                   "MutatingWebhookConfiguration"},
        std::tuple{"validatingwebhookconfigurations", "validatingwebhookconfiguration",
                   "ValidatingWebhookConfiguration"}}) {
    ResourceInfo webhooks =
        Builtin("admissionregistration.k8s.io", resource, singular, kind, false, {});
    webhooks.categories = {"api-extensions"};
    all.push_back(webhooks);
  }
  all.push_back(Builtin("coordination.k8s.io", "leases", "lease", "Lease", true, {}));
  // Budgets that pods/eviction honours; cluster/disruption_controller.h keeps their status.
  ResourceInfo budgets = Builtin("policy", "poddisruptionbudgets", "poddisruptionbudget",
                                 "PodDisruptionBudget", true, {"pdb"});
  budgets.has_status = true;
  budgets.tracks_generation = true;
  all.push_back(budgets);
  // Cluster-scoped; the server creates the two system classes at start (api/priority_class.h).
  all.push_back(Builtin("scheduling.k8s.io", "priorityclasses", "priorityclass", "PriorityClass",
                        false, {"pc"}));

  // The reviews a metrics endpoint delegates authentication and authorization to (the operator's
  // --metrics-bind-address filter) and kubectl's auth can-i --list and auth whoami: create-only,
  // answered and never stored.
  for (auto [group, resource, singular, kind] :
       {std::tuple{"authentication.k8s.io", "tokenreviews", "tokenreview", "TokenReview"},
        std::tuple{"authorization.k8s.io", "subjectaccessreviews", "subjectaccessreview",
                   "SubjectAccessReview"},
        std::tuple{"authorization.k8s.io", "selfsubjectaccessreviews", "selfsubjectaccessreview",
                   "SelfSubjectAccessReview"},
        std::tuple{"authorization.k8s.io", "selfsubjectrulesreviews", "selfsubjectrulesreview",
                   "SelfSubjectRulesReview"},
        std::tuple{"authentication.k8s.io", "selfsubjectreviews", "selfsubjectreview",
                   "SelfSubjectReview"}}) {
    ResourceInfo review = Builtin(group, resource, singular, kind, false, {});
    review.create_only = true;
    all.push_back(review);
  }

  ResourceInfo events_v1 = Builtin("events.k8s.io", "events", "event", "Event", true, {"ev"});
  events_v1.field_labels = {{"regarding.kind", ".regarding.kind"},
                            {"regarding.namespace", ".regarding.namespace"},
                            {"regarding.name", ".regarding.name"},
                            {"regarding.uid", ".regarding.uid"},
                            {"reason", ".reason"},
                            {"reportingController", ".reportingController"},
                            {"type", ".type"}};
  all.push_back(events_v1);

  ResourceInfo crds =
      Builtin("apiextensions.k8s.io", "customresourcedefinitions", "customresourcedefinition",
              "CustomResourceDefinition", false, {"crd", "crds"});
  crds.has_status = true;
  crds.tracks_generation = true;
  all.push_back(crds);
  return all;
}

}  // namespace

StatusWrite StatusWriteOf(const ResourceInfo& info) {
  if (info.custom) return StatusWrite::kOnlyStatus;
  if (info.group.empty() && info.resource == "pods") return StatusWrite::kAllButSpecAndOwners;
  return StatusWrite::kAllButSpec;
}

ResourceRegistry ResourceRegistry::WithBuiltins() {
  ResourceRegistry registry;
  for (auto& r : BuiltinResources()) {
    std::string key = Key(r.group, r.version, r.resource);
    registry.by_key_.emplace(std::move(key), std::move(r));
  }
  return registry;
}

Status ResourceRegistry::AddCustomResource(const Json& crd) {
  if (!crd.is_object() || !crd.contains("spec") || !crd["spec"].is_object()) {
    return Status::BadRequest("CustomResourceDefinition has no spec");
  }
  const Json& spec = crd["spec"];
  const Json names = spec.value("names", Json::object());
  ResourceInfo base;
  base.group = StringMember(spec, "group");
  base.resource = StringMember(names, "plural");
  base.kind = StringMember(names, "kind");
  base.singular = StringMember(names, "singular");
  if (base.singular.empty()) {
    base.singular = base.kind;
    for (auto& c : base.singular)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  base.list_kind = StringMember(names, "listKind");
  if (base.list_kind.empty()) base.list_kind = base.kind + "List";
  base.short_names = StringList(names, "shortNames");
  base.categories = StringList(names, "categories");
  base.namespaced = StringMember(spec, "scope") != "Cluster";
  base.custom = true;
  base.tracks_generation = true;  // Custom resources always track generation.
  if (base.group.empty() || base.resource.empty() || base.kind.empty()) {
    return Status::BadRequest(
        "CustomResourceDefinition needs spec.group, spec.names.plural and spec.names.kind");
  }
  RemoveCustomResource(base.resource + "." + base.group);
  for (const auto& v : spec.value("versions", Json::array())) {
    if (!v.is_object() || !v.value("served", true)) continue;
    ResourceInfo r = base;
    r.version = StringMember(v, "name");
    const Json subresources = v.value("subresources", Json::object());
    r.has_status = subresources.contains("status");
    if (subresources.contains("scale") && subresources["scale"].is_object()) {
      const Json& s = subresources["scale"];
      r.scale =
          ScaleInfo{StringMember(s, "specReplicasPath"), StringMember(s, "statusReplicasPath"),
                    StringMember(s, "labelSelectorPath")};
    }
    for (const auto& c : v.value("additionalPrinterColumns", Json::array())) {
      if (!c.is_object()) continue;
      PrinterColumn col;
      col.name = StringMember(c, "name");
      col.type = StringMember(c, "type");
      col.format = StringMember(c, "format");
      col.description = StringMember(c, "description");
      col.json_path = StringMember(c, "jsonPath");
      col.priority = c.value("priority", 0);
      r.printer_columns.push_back(std::move(col));
    }
    if (v.contains("schema") && v["schema"].is_object()) {
      r.openapi_schema = v["schema"].value("openAPIV3Schema", Json());
    }
    if (r.version.empty()) continue;
    by_key_[Key(r.group, r.version, r.resource)] = std::move(r);
  }
  return Status::Ok();
}

void ResourceRegistry::RemoveCustomResource(const std::string& crd_name) {
  for (auto it = by_key_.begin(); it != by_key_.end();) {
    if (it->second.custom && it->second.GroupResource() == crd_name) {
      it = by_key_.erase(it);
    } else {
      ++it;
    }
  }
}

const ResourceInfo* ResourceRegistry::Find(const std::string& group, const std::string& version,
                                           const std::string& resource) const {
  auto it = by_key_.find(Key(group, version, resource));
  return it == by_key_.end() ? nullptr : &it->second;
}

const ResourceInfo* ResourceRegistry::FindByKind(const std::string& api_version,
                                                 const std::string& kind) const {
  for (const auto& [key, r] : by_key_) {
    if (r.kind == kind && r.ApiVersion() == api_version) return &r;
  }
  return nullptr;
}

std::vector<const ResourceInfo*> ResourceRegistry::All() const {
  std::vector<const ResourceInfo*> out;
  for (const auto& [key, r] : by_key_) out.push_back(&r);
  return out;
}

}  // namespace lws::api
