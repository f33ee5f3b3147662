#include "apiserver/merge_keys.h"

#include <utility>

namespace lws::apiserver {

PatchSchema& PatchSchema::Set(std::string field, FieldPatchMeta meta) {
  fields_[std::move(field)] = std::move(meta);
  return *this;
}

const FieldPatchMeta& PatchSchema::Lookup(std::string_view field) const {
  static const FieldPatchMeta kNone;
  auto it = fields_.find(field);
  return it == fields_.end() ? kNone : it->second;
}

const FieldPatchMeta& LookupField(const PatchSchema* schema, std::string_view field) {
  static const FieldPatchMeta kNone;
  return schema == nullptr ? kNone : schema->Lookup(field);
}

namespace {

// Metadata builders named after the Go tags they stand for.
FieldPatchMeta Meta(PatchStrategy strategy, bool retain_keys, std::string merge_key,
                    const PatchSchema* type) {
  FieldPatchMeta meta;
  meta.strategy = strategy;
  meta.retain_keys = retain_keys;
  meta.merge_key = std::move(merge_key);
  meta.type = type;
  return meta;
}
FieldPatchMeta Struct(const PatchSchema& type) {
  return Meta(PatchStrategy::kNone, false, "", &type);
}
FieldPatchMeta RetainKeysStruct(const PatchSchema& type) {
  return Meta(PatchStrategy::kNone, true, "", &type);
}
FieldPatchMeta MergeBy(std::string key, const PatchSchema* type = nullptr) {
  return Meta(PatchStrategy::kMerge, false, std::move(key), type);
}
FieldPatchMeta MergeRetainKeysBy(std::string key) {
  return Meta(PatchStrategy::kMerge, true, std::move(key), nullptr);
}
FieldPatchMeta MergeSet() { return Meta(PatchStrategy::kMerge, false, "", nullptr); }

// Every schema of the built-in kinds, linked by address; built once and never changed.
struct BuiltinSchemas {
  PatchSchema object_meta;
  PatchSchema container;  // also EphemeralContainer: EphemeralContainerCommon has the same tags
  PatchSchema pod_spec, pod_status, pod, pod_template_spec;
  PatchSchema stateful_set_spec, stateful_set;
  PatchSchema deployment_strategy, deployment_spec, deployment;  // strategy: no tagged fields
  PatchSchema conditions_status;  // any status whose only metadata is conditions merged by type
  PatchSchema service_spec, service;
  PatchSchema node_spec, node_status, node;
  PatchSchema namespace_kind, persistent_volume_claim, service_account;
  PatchSchema webhook_configuration;  // Mutating- and ValidatingWebhookConfiguration
  PatchSchema meta_only;
  std::map<std::string, const PatchSchema*, std::less<>> by_kind;

  BuiltinSchemas() {
    // k8s.io/apimachinery meta/v1 ObjectMeta.
    object_meta.Set("finalizers", MergeSet()).Set("ownerReferences", MergeBy("uid"));
    meta_only.Set("metadata", Struct(object_meta));

    // core/v1 Container.
    container.Set("ports", MergeBy("containerPort"))
        .Set("env", MergeBy("name"))
        .Set("volumeMounts", MergeBy("mountPath"))
        .Set("volumeDevices", MergeBy("devicePath"));

    // core/v1 PodSpec and PodStatus. Tolerations, readinessGates and resourceClaims' sources
    // carry no tags and are replaced whole.
    pod_spec.Set("volumes", MergeRetainKeysBy("name"))
        .Set("initContainers", MergeBy("name", &container))
        .Set("containers", MergeBy("name", &container))
        .Set("ephemeralContainers", MergeBy("name", &container))
        .Set("imagePullSecrets", MergeBy("name"))
        .Set("hostAliases", MergeBy("ip"))
        .Set("topologySpreadConstraints", MergeBy("topologyKey"))
        .Set("schedulingGates", MergeBy("name"))
        .Set("resourceClaims", MergeRetainKeysBy("name"));
    pod_status.Set("conditions", MergeBy("type"))
        .Set("podIPs", MergeBy("ip"))
        .Set("hostIPs", MergeBy("ip"))
        .Set("resourceClaimStatuses", MergeRetainKeysBy("name"));
    pod.Set("metadata", Struct(object_meta))
        .Set("spec", Struct(pod_spec))
        .Set("status", Struct(pod_status));
    pod_template_spec.Set("metadata", Struct(object_meta)).Set("spec", Struct(pod_spec));

    // StatefulSet, Deployment and Namespace/PVC statuses: conditions merged by type.
    conditions_status.Set("conditions", MergeBy("type"));
    // apps/v1 StatefulSet: volumeClaimTemplates and updateStrategy carry no tags.
    stateful_set_spec.Set("template", Struct(pod_template_spec));
    stateful_set.Set("metadata", Struct(object_meta))
        .Set("spec", Struct(stateful_set_spec))
        .Set("status", Struct(conditions_status));
    // apps/v1 Deployment (not served today; its strategy is the retainKeys example upstream).
    deployment_spec.Set("template", Struct(pod_template_spec))
        .Set("strategy", RetainKeysStruct(deployment_strategy));
    deployment.Set("metadata", Struct(object_meta))
        .Set("spec", Struct(deployment_spec))
        .Set("status", Struct(conditions_status));

    // core/v1 Service: ports merge by port (not by the (port, protocol) list-map key).
    service_spec.Set("ports", MergeBy("port"));
    service.Set("metadata", Struct(object_meta))
        .Set("spec", Struct(service_spec))
        .Set("status", Struct(conditions_status));

    // core/v1 Node.
    node_spec.Set("podCIDRs", MergeSet());
    node_status.Set("conditions", MergeBy("type")).Set("addresses", MergeBy("type"));
    node.Set("metadata", Struct(object_meta))
        .Set("spec", Struct(node_spec))
        .Set("status", Struct(node_status));

    namespace_kind.Set("metadata", Struct(object_meta)).Set("status", Struct(conditions_status));
    persistent_volume_claim.Set("metadata", Struct(object_meta))
        .Set("status", Struct(conditions_status));
    // core/v1 ServiceAccount: secrets merge by name; imagePullSecrets carries no tags here.
    service_account.Set("metadata", Struct(object_meta)).Set("secrets", MergeBy("name"));

    // admissionregistration.k8s.io/v1: webhooks merge by name (kubectl apply sends
    // $setElementOrder/webhooks); RBAC kinds carry no tags and need no entry.
    webhook_configuration.Set("metadata", Struct(object_meta)).Set("webhooks", MergeBy("name"));

    by_kind = {{"Pod", &pod},
               {"StatefulSet", &stateful_set},
               // The other pod-template workloads: the same tags where our model has them
               // (DaemonSet's updateStrategy and Job's fields carry none of their own).
               {"ReplicaSet", &stateful_set},
               {"DaemonSet", &stateful_set},
               {"Job", &stateful_set},
               {"Deployment", &deployment},
               {"Service", &service},
               {"Node", &node},
               {"Namespace", &namespace_kind},
               {"PersistentVolumeClaim", &persistent_volume_claim},
               {"ServiceAccount", &service_account},
               {"MutatingWebhookConfiguration", &webhook_configuration},
               {"ValidatingWebhookConfiguration", &webhook_configuration}};
  }
};

const BuiltinSchemas& Builtins() {
  static const BuiltinSchemas kSchemas;
  return kSchemas;
}

}  // namespace

const PatchSchema& PatchSchemaForKind(std::string_view kind) {
  const BuiltinSchemas& b = Builtins();
  auto it = b.by_kind.find(kind);
  return it == b.by_kind.end() ? b.meta_only : *it->second;
}

FieldPatchMeta LookupPatchMeta(std::string_view kind, std::string_view path) {
  const PatchSchema* schema = &PatchSchemaForKind(kind);
  FieldPatchMeta meta;
  while (!path.empty()) {
    std::size_t dot = path.find('.');
    std::string_view step = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    if (schema == nullptr) return {};
    meta = schema->Lookup(step);
    schema = meta.type;
  }
  return meta;
}

}  // namespace lws::apiserver
