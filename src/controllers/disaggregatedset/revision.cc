#include "controllers/disaggregatedset/revision.h"

#include "api/codec.h"
#include "api/go_json.h"
#include "api/pod_names.h"
#include "api/protobuf/go_typed_json.h"

namespace lws::disaggregatedset {
namespace {

constexpr std::size_t kRevisionLength = 8;  // upstream revisionLength

Status AppendTyped(const api::Json& value, std::string_view type, std::string* out) {
  ASSIGN_OR_RETURN(std::string bytes, api::protobuf::MarshalGoTyped(value, type));
  *out += bytes;
  return Status::Ok();
}

void AppendKey(std::string_view key, bool* first, std::string* out) {
  if (!*first) *out += ',';
  *first = false;
  api::AppendGoJsonString(key, out);
  *out += ':';
}

// json.Marshal of an LWS LeaderWorkerTemplate, field by field in Go's declaration order
// (sigs.k8s.io/lws api/leaderworkerset/v1 LeaderWorkerTemplate): pointers and omitempty fields
// only when set, workerTemplate always.
Status AppendTemplate(const api::LeaderWorkerTemplate& t, std::string* out) {
  constexpr std::string_view kPodTemplateSpec = "k8s.io.api.core.v1.PodTemplateSpec";
  bool first = true;
  *out += '{';
  if (t.leader_template) {
    AppendKey("leaderTemplate", &first, out);
    RETURN_IF_ERROR(AppendTyped(api::Encode(*t.leader_template), kPodTemplateSpec, out));
  }
  AppendKey("workerTemplate", &first, out);
  RETURN_IF_ERROR(AppendTyped(api::Encode(t.worker_template), kPodTemplateSpec, out));
  if (t.size) {
    AppendKey("size", &first, out);
    *out += std::to_string(*t.size);
  }
  if (!t.restart_policy.empty()) {
    AppendKey("restartPolicy", &first, out);
    api::AppendGoJsonString(t.restart_policy, out);
  }
  if (t.sub_group_policy) {
    AppendKey("subGroupPolicy", &first, out);
    bool inner = true;
    *out += '{';
    if (t.sub_group_policy->type) {
      AppendKey("subGroupPolicyType", &inner, out);
      api::AppendGoJsonString(*t.sub_group_policy->type, out);
    }
    if (t.sub_group_policy->sub_group_size) {
      AppendKey("subGroupSize", &inner, out);
      *out += std::to_string(*t.sub_group_policy->sub_group_size);
    }
    *out += '}';
  }
  if (!t.volume_claim_templates.empty()) {
    AppendKey("volumeClaimTemplates", &first, out);
    *out += '[';
    for (std::size_t i = 0; i < t.volume_claim_templates.size(); ++i) {
      if (i > 0) *out += ',';
      RETURN_IF_ERROR(AppendTyped(api::Encode(t.volume_claim_templates[i]),
                                  "k8s.io.api.core.v1.PersistentVolumeClaim", out));
    }
    *out += ']';
  }
  if (t.persistent_volume_claim_retention_policy) {
    AppendKey("persistentVolumeClaimRetentionPolicy", &first, out);
    RETURN_IF_ERROR(
        AppendTyped(api::Encode(*t.persistent_volume_claim_retention_policy),
                    "k8s.io.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy", out));
  }
  *out += '}';
  return Status::Ok();
}

}  // namespace

Result<std::string> RevisionBytes(const api::DisaggregatedSet& ds) {
  std::string out = "[";
  for (std::size_t i = 0; i < ds.spec.roles.size(); ++i) {
    const api::DisaggregatedRoleSpec& role = ds.spec.roles[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    api::AppendGoJsonString(role.name, &out);
    out += ",\"template\":";
    RETURN_IF_ERROR(AppendTemplate(role.spec.leader_worker_template, &out));
    out += '}';
  }
  out += ']';
  return out;
}

Result<std::string> ComputeRevision(const api::DisaggregatedSet& ds) {
  ASSIGN_OR_RETURN(std::string bytes, RevisionBytes(ds));
  return api::Sha256Hex(bytes).substr(0, kRevisionLength);
}

}  // namespace lws::disaggregatedset
