// The objects a StatefulSet makes: revisions, pods and PVCs (upstream stateful_set_utils.go).
#include <charconv>

#include "api/go_json.h"
#include "api/revision.h"
#include "cluster/owner_controller.h"
#include "cluster/statefulset_plan.h"

namespace lws::cluster {
namespace {

api::OwnerReference ControllerRefTo(const api::StatefulSet& set) {
  return AppsControllerRef("StatefulSet", set.metadata);
}

// The revision data for `set`: its template, marked to replace the live one when applied.
api::Json TemplatePatch(const api::StatefulSet& set) {
  api::Json tmpl = api::Encode(set.spec.template_);
  if (!tmpl.is_object()) tmpl = api::Json::object();
  tmpl["$patch"] = "replace";
  return api::Json{{"spec", api::Json{{"template", std::move(tmpl)}}}};
}

// Points the volume named after each claim template at that template's PVC for `ordinal`,
// replacing a template volume of the same name (upstream updateStorage).
void SetClaimVolumes(const api::StatefulSet& set, int ordinal, api::Pod& pod) {
  if (set.spec.volume_claim_templates.empty()) return;
  if (!pod.spec.rest.is_object()) pod.spec.rest = api::Json::object();
  api::Json& volumes = pod.spec.rest["volumes"];
  if (!volumes.is_array()) volumes = api::Json::array();
  for (const api::PersistentVolumeClaim& claim : set.spec.volume_claim_templates) {
    api::Json volume = {
        {"name", claim.metadata.name},
        {"persistentVolumeClaim", {{"claimName", StatefulSetPvcName(set, claim, ordinal)}}}};
    bool replaced = false;
    for (api::Json& existing : volumes) {
      if (existing.is_object() && existing.value("name", "") == claim.metadata.name) {
        existing = volume;
        replaced = true;
      }
    }
    if (!replaced) volumes.push_back(std::move(volume));
  }
}

// Upstream initIdentity: hostname and subdomain are immutable pod spec fields, so they are set
// here, when the pod is made, and never by an update (UpdateStatefulSetPodIdentity).
void InitIdentity(const api::StatefulSet& set, int ordinal, api::Pod& pod) {
  pod.metadata.name = StatefulSetPodName(set, ordinal);
  UpdateStatefulSetPodIdentity(set, ordinal, pod);
  pod.spec.hostname = pod.metadata.name;
  pod.spec.subdomain = set.spec.service_name;
}

}  // namespace

std::string StatefulSetPodName(const api::StatefulSet& set, int ordinal) {
  return set.metadata.name + "-" + std::to_string(ordinal);
}

int StatefulSetPodOrdinal(const api::StatefulSet& set, const std::string& pod_name) {
  const std::string& prefix = set.metadata.name;
  if (pod_name.size() < prefix.size() + 2 || pod_name.compare(0, prefix.size(), prefix) != 0 ||
      pod_name[prefix.size()] != '-') {
    return -1;
  }
  std::string_view digits = std::string_view(pod_name).substr(prefix.size() + 1);
  if (digits.size() > 1 && digits[0] == '0') return -1;
  int ordinal = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
  if (ec != std::errc() || end != digits.data() + digits.size() || ordinal < 0) return -1;
  return ordinal;
}

std::string StatefulSetPvcName(const api::StatefulSet& set, const api::PersistentVolumeClaim& claim,
                               int ordinal) {
  return claim.metadata.name + "-" + StatefulSetPodName(set, ordinal);
}

api::ControllerRevision NewStatefulSetRevision(const api::StatefulSet& set,
                                               std::int64_t revision_number,
                                               std::int32_t collision_count) {
  api::ControllerRevision revision;
  revision.data = TemplatePatch(set);
  std::string bytes = api::MarshalGoJson(revision.data);
  if (collision_count != 0) bytes += "/" + std::to_string(collision_count);
  std::string hash = api::RevisionHash(bytes);
  revision.metadata.name = set.metadata.name + "-" + hash;
  revision.metadata.namespace_ = set.metadata.namespace_;
  revision.metadata.labels = set.spec.template_.metadata.labels;
  revision.metadata.labels[std::string(kControllerRevisionHashLabel)] = hash;
  revision.metadata.owner_references.push_back(ControllerRefTo(set));
  revision.revision = revision_number;
  return revision;
}

ProposedRevision ProposeStatefulSetRevision(const api::StatefulSet& set,
                                            std::int32_t collision_count) {
  return {collision_count, NewStatefulSetRevision(set, 0, collision_count)};
}

Result<api::PodTemplateSpec> RevisionTemplate(const api::ControllerRevision& revision) {
  const api::Json* tmpl_json = nullptr;
  if (revision.data.is_object() && revision.data.contains("spec") &&
      revision.data["spec"].is_object() && revision.data["spec"].contains("template")) {
    tmpl_json = &revision.data["spec"]["template"];
  }
  if (tmpl_json == nullptr || !tmpl_json->is_object()) {
    return Status(Code::kBadRequest,
                  "controller revision " + revision.metadata.name + " holds no pod template");
  }
  api::Json stripped = *tmpl_json;
  stripped.erase("$patch");
  return api::Decode<api::PodTemplateSpec>(stripped);
}

api::Pod NewStatefulSetPod(const api::StatefulSet& set, api::PodTemplateSpec tmpl,
                           const std::string& revision_name, int ordinal) {
  api::Pod pod;
  pod.metadata.labels = std::move(tmpl.metadata.labels);
  pod.metadata.annotations = std::move(tmpl.metadata.annotations);
  pod.metadata.finalizers = std::move(tmpl.metadata.finalizers);
  pod.metadata.owner_references.push_back(ControllerRefTo(set));
  pod.spec = std::move(tmpl.spec);
  InitIdentity(set, ordinal, pod);
  pod.metadata.labels[std::string(kControllerRevisionHashLabel)] = revision_name;
  SetClaimVolumes(set, ordinal, pod);
  return pod;
}

std::vector<api::PersistentVolumeClaim> NewStatefulSetPvcs(const api::StatefulSet& set,
                                                           int ordinal) {
  std::vector<api::PersistentVolumeClaim> pvcs;
  const auto& policy = set.spec.persistent_volume_claim_retention_policy;
  bool owned = policy.has_value() && policy->when_deleted == "Delete";
  for (const api::PersistentVolumeClaim& claim : set.spec.volume_claim_templates) {
    api::PersistentVolumeClaim pvc = claim;
    pvc.api_version = "v1";
    pvc.kind = "PersistentVolumeClaim";
    pvc.metadata = api::ObjectMeta();
    pvc.metadata.name = StatefulSetPvcName(set, claim, ordinal);
    pvc.metadata.namespace_ = set.metadata.namespace_;
    pvc.metadata.labels = claim.metadata.labels;
    pvc.metadata.annotations = claim.metadata.annotations;
    if (set.spec.selector.has_value()) {
      for (const auto& [key, value] : set.spec.selector->match_labels) {
        pvc.metadata.labels[key] = value;
      }
    }
    if (owned) pvc.metadata.owner_references.push_back(ControllerRefTo(set));
    pvc.status = api::Json();
    pvcs.push_back(std::move(pvc));
  }
  return pvcs;
}

bool StatefulSetIdentityMatches(const api::StatefulSet& set, const api::Pod& pod) {
  int ordinal = StatefulSetPodOrdinal(set, pod.metadata.name);
  return ordinal >= 0 && pod.metadata.namespace_ == set.metadata.namespace_ &&
         pod.metadata.Label(std::string(kStatefulSetPodNameLabel)) == pod.metadata.name;
}

void UpdateStatefulSetPodIdentity(const api::StatefulSet& set, int ordinal, api::Pod& pod) {
  pod.metadata.namespace_ = set.metadata.namespace_;
  pod.metadata.labels[std::string(kStatefulSetPodNameLabel)] = pod.metadata.name;
  pod.metadata.labels[std::string(kPodIndexLabel)] = std::to_string(ordinal);
}

}  // namespace lws::cluster
