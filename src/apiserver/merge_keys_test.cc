#include "apiserver/merge_keys.h"

#include <gtest/gtest.h>

#include <string>

namespace lws::apiserver {
namespace {

struct Case {
  std::string kind;
  std::string path;
  PatchStrategy strategy;
  std::string merge_key;
  bool retain_keys = false;
};

// The struct tags of k8s.io/api core/v1, apps/v1 and meta/v1 for the served kinds.
TEST(MergeKeysTest, TagsOfServedKinds) {
  const Case cases[] = {
      {"Pod", "metadata.finalizers", PatchStrategy::kMerge, ""},
      {"Pod", "metadata.ownerReferences", PatchStrategy::kMerge, "uid"},
      {"Pod", "spec.containers", PatchStrategy::kMerge, "name"},
      {"Pod", "spec.initContainers", PatchStrategy::kMerge, "name"},
      {"Pod", "spec.ephemeralContainers", PatchStrategy::kMerge, "name"},
      {"Pod", "spec.containers.env", PatchStrategy::kMerge, "name"},
      {"Pod", "spec.initContainers.ports", PatchStrategy::kMerge, "containerPort"},
      {"Pod", "spec.ephemeralContainers.volumeMounts", PatchStrategy::kMerge, "mountPath"},
      {"Pod", "spec.containers.volumeDevices", PatchStrategy::kMerge, "devicePath"},
      {"Pod", "spec.volumes", PatchStrategy::kMerge, "name", true},
      {"Pod", "spec.imagePullSecrets", PatchStrategy::kMerge, "name"},
      {"Pod", "spec.hostAliases", PatchStrategy::kMerge, "ip"},
      {"Pod", "spec.topologySpreadConstraints", PatchStrategy::kMerge, "topologyKey"},
      {"Pod", "spec.schedulingGates", PatchStrategy::kMerge, "name"},
      {"Pod", "spec.resourceClaims", PatchStrategy::kMerge, "name", true},
      {"Pod", "status.conditions", PatchStrategy::kMerge, "type"},
      {"Pod", "status.podIPs", PatchStrategy::kMerge, "ip"},
      {"Pod", "status.hostIPs", PatchStrategy::kMerge, "ip"},
      {"StatefulSet", "spec.template.spec.containers", PatchStrategy::kMerge, "name"},
      {"StatefulSet", "spec.template.spec.containers.env", PatchStrategy::kMerge, "name"},
      {"StatefulSet", "spec.template.metadata.finalizers", PatchStrategy::kMerge, ""},
      {"StatefulSet", "status.conditions", PatchStrategy::kMerge, "type"},
      {"MutatingWebhookConfiguration", "webhooks", PatchStrategy::kMerge, "name"},
      {"ValidatingWebhookConfiguration", "webhooks", PatchStrategy::kMerge, "name"},
      {"Deployment", "spec.strategy", PatchStrategy::kNone, "", true},
      {"Service", "spec.ports", PatchStrategy::kMerge, "port"},
      {"Service", "status.conditions", PatchStrategy::kMerge, "type"},
      {"Node", "spec.podCIDRs", PatchStrategy::kMerge, ""},
      {"Node", "status.addresses", PatchStrategy::kMerge, "type"},
      {"Node", "status.conditions", PatchStrategy::kMerge, "type"},
      {"Namespace", "status.conditions", PatchStrategy::kMerge, "type"},
      {"PersistentVolumeClaim", "status.conditions", PatchStrategy::kMerge, "type"},
      {"ServiceAccount", "secrets", PatchStrategy::kMerge, "name"},
      {"ConfigMap", "metadata.ownerReferences", PatchStrategy::kMerge, "uid"},
      {"Lease", "metadata.finalizers", PatchStrategy::kMerge, ""},
      {"SomethingNew", "metadata.ownerReferences", PatchStrategy::kMerge, "uid"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.kind + " " + c.path);
    FieldPatchMeta meta = LookupPatchMeta(c.kind, c.path);
    EXPECT_EQ(meta.strategy, c.strategy);
    EXPECT_EQ(meta.merge_key, c.merge_key);
    EXPECT_EQ(meta.retain_keys, c.retain_keys);
  }
}

// Atomic lists, maps and unmodelled fields have no metadata: lists are replaced whole.
TEST(MergeKeysTest, UntaggedFieldsHaveNoMetadata) {
  const std::pair<std::string, std::string> cases[] = {
      {"Pod", "spec.tolerations"},
      {"Pod", "spec.readinessGates"},
      {"Pod", "spec.containers.args"},
      {"Pod", "spec.containers.envFrom"},
      {"Pod", "metadata.labels"},
      {"Pod", "metadata.managedFields"},
      {"Pod", "status.containerStatuses"},
      {"StatefulSet", "spec.volumeClaimTemplates"},
      {"StatefulSet", "spec.updateStrategy"},
      {"Node", "spec.taints"},
      {"ServiceAccount", "imagePullSecrets"},
      {"ConfigMap", "data"},
      {"Pod", "spec.nosuchfield.containers"},
      {"Pod", "metadata.finalizers.deeper"},
  };
  for (const auto& [kind, path] : cases) {
    SCOPED_TRACE(kind + " " + path);
    EXPECT_EQ(LookupPatchMeta(kind, path), FieldPatchMeta{});
  }
}

TEST(MergeKeysTest, SchemasLinkToElementTypes) {
  const PatchSchema& pod = PatchSchemaForKind("Pod");
  const FieldPatchMeta& spec = pod.Lookup("spec");
  ASSERT_NE(spec.type, nullptr);
  const FieldPatchMeta& containers = spec.type->Lookup("containers");
  ASSERT_NE(containers.type, nullptr);
  EXPECT_EQ(containers.type->Lookup("env").merge_key, "name");
  // Containers, init containers and ephemeral containers share one element schema.
  EXPECT_EQ(spec.type->Lookup("initContainers").type, containers.type);
  EXPECT_EQ(LookupField(nullptr, "anything"), FieldPatchMeta{});
}

}  // namespace
}  // namespace lws::apiserver
