// File: api/resources.h
//
// What the API serves: one ResourceInfo per resource (pods, statefulsets.apps, ...) with the
// facts every layer above needs (scope, kind, short names, subresources, whether the server
// tracks metadata.generation, which field selectors it supports, printer columns of custom
// resources). The store uses it for identity rules, the API server for routing, discovery,
// OpenAPI and tables. Built-in resources are fixed; custom resources are added from their CRD.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/field.h"
#include "base/result.h"

namespace lws::api {

// A printer column (CRD additionalPrinterColumns or a built-in table column).
struct PrinterColumn {
  std::string name;    // "Ready"
  std::string type;    // integer, string, date, number, boolean
  std::string format;  // "name" for the name column, else usually ""
  std::string description;
  std::string json_path;  // ".status.readyReplicas"; empty for built-in computed columns
  int priority = 0;       // 1 = shown only with -o wide
};

// The scale subresource mapping of a resource (CRD spec.versions[].subresources.scale).
struct ScaleInfo {
  std::string spec_replicas_path;    // ".spec.replicas"
  std::string status_replicas_path;  // ".status.replicas"
  std::string label_selector_path;   // ".status.hpaPodSelector" (may be empty)
};

struct ResourceInfo {
  std::string group;      // "" for core, "apps", "leaderworkerset.x-k8s.io"
  std::string version;    // "v1"
  std::string resource;   // plural: "pods"
  std::string singular;   // "pod"
  std::string kind;       // "Pod"
  std::string list_kind;  // "PodList"
  bool namespaced = true;
  std::vector<std::string> short_names;  // {"po"}
  std::vector<std::string> categories;   // {"all"}
  bool has_status = false;               // serves /status with status isolation
  std::optional<ScaleInfo> scale;        // serves /scale
  bool tracks_generation = false;        // metadata.generation is maintained
  bool custom = false;                   // served from a CRD (unstructured, merge patch only)
  bool graceful_delete = false;          // pods: deletionTimestamp = now + grace period
  bool create_only = false;  // TokenReview, SubjectAccessReview: POST answers, nothing stored
  // Field selector labels beyond metadata.name / metadata.namespace, with their JSON paths:
  // {"spec.nodeName", ".spec.nodeName"}.
  std::vector<std::pair<std::string, std::string>> field_labels;
  std::vector<PrinterColumn> printer_columns;  // custom resources only; built-ins print in code
  Json openapi_schema;  // custom resources: the CRD's openAPIV3Schema; null for built-ins

  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  // "pods", "statefulsets.apps": the key the store and RBAC-style messages use.
  std::string GroupResource() const { return group.empty() ? resource : resource + "." + group; }
};

// What a write to the /status subresource of a resource takes from its body (upstream's status
// strategies, PrepareForUpdate and GetResetFields):
//   kOnlyStatus     custom resources: the status; everything else stays as stored;
//   kAllButSpec     built-in kinds: everything but the spec (labels, annotations, finalizers,
//                   ownerReferences included), the metadata the server owns excepted;
//   kAllButSpecAndOwners  pods: the same, and ownerReferences stay as stored (old kubelets
//                   corrupted them, so upstream ignores them on pods/status).
enum class StatusWrite { kOnlyStatus, kAllButSpec, kAllButSpecAndOwners };
StatusWrite StatusWriteOf(const ResourceInfo& info);

class ResourceRegistry {
 public:
  // The built-in resources of kubectl-compat.md section 2: core v1 (pods, services, nodes,
  // namespaces, events, configmaps, secrets, serviceaccounts, persistentvolumeclaims), apps/v1
  // (statefulsets, controllerrevisions), coordination.k8s.io/v1 leases, events.k8s.io/v1
  // events, apiextensions.k8s.io/v1 customresourcedefinitions.
  static ResourceRegistry WithBuiltins();

  // Adds or replaces the resources defined by a CustomResourceDefinition (every served version).
  Status AddCustomResource(const Json& crd);
  // Removes the resources of a CRD (by its metadata.name, "<plural>.<group>").
  void RemoveCustomResource(const std::string& crd_name);

  const ResourceInfo* Find(const std::string& group, const std::string& version,
                           const std::string& resource) const;
  const ResourceInfo* FindByKind(const std::string& api_version, const std::string& kind) const;
  // Every resource, ordered by (group, version, resource): discovery output is deterministic.
  std::vector<const ResourceInfo*> All() const;

 private:
  std::map<std::string, ResourceInfo> by_key_;  // key: group/version/resource
};

}  // namespace lws::api
