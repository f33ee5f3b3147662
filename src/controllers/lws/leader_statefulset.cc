// File: controllers/lws/leader_statefulset.cc
#include "controllers/lws/leader_statefulset.h"

#include <algorithm>

#include "api/intstr.h"
#include "controllers/group/worker_statefulset.h"

namespace lws::controllers {

namespace {

using api::Json;

// Go's conversion of the typed template into an apply configuration turns every null into an
// absent field; our codec keeps nulls it read (round-trip rule 2), so drop them here. Array
// elements are left alone: a typed Go slice element is never null.
void DropNullMembers(Json& json) {
  if (json.is_object()) {
    for (auto it = json.begin(); it != json.end();) {
      if (it->is_null()) {
        it = json.erase(it);
      } else {
        DropNullMembers(*it);
        ++it;
      }
    }
  } else if (json.is_array()) {
    for (Json& item : json) DropNullMembers(item);
  }
}

Json StringMapJson(const api::StringMap& map) {
  Json out = Json::object();
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

// The controller-owned annotations of the leader pod template (spec 8, `spec.template`).
api::StringMap LeaderPodAnnotations(const api::LeaderWorkerSet& lws) {
  api::StringMap annotations;
  annotations[api::kSizeAnnotation] = std::to_string(lws.Size());
  const std::string exclusive = lws.metadata.Annotation(api::kExclusiveKeyAnnotation);
  if (!exclusive.empty()) annotations[api::kExclusiveKeyAnnotation] = exclusive;
  if (const auto& policy = lws.spec.leader_worker_template.sub_group_policy) {
    // The CRD defaults the type; subGroupSize is required by validation (Q12), so an unset one
    // is left out rather than guessed.
    annotations[api::kSubGroupPolicyTypeAnnotation] =
        policy->type.value_or(api::kSubGroupLeaderWorker);
    if (policy->sub_group_size) {
      annotations[api::kSubGroupSizeAnnotation] = std::to_string(*policy->sub_group_size);
    }
    const std::string sub_exclusive = lws.metadata.Annotation(api::kSubGroupExclusiveKeyAnnotation);
    if (!sub_exclusive.empty()) {
      annotations[api::kSubGroupExclusiveKeyAnnotation] = sub_exclusive;
    }
  }
  if (lws.UniquePerReplica()) {
    annotations[api::kSubdomainPolicyAnnotation] = api::kSubdomainUniquePerReplica;
  }
  return annotations;
}

}  // namespace

Json LeaderPodTemplateJson(const api::LeaderWorkerSet& lws, const std::string& revision_key) {
  api::PodTemplateSpec pod_template = lws.LeaderTemplate();
  auto& labels = pod_template.metadata.labels;
  labels[api::kWorkerIndexLabel] = "0";
  labels[api::kSetNameLabel] = lws.metadata.name;
  labels[api::kRevisionLabel] = revision_key;
  for (auto& [key, value] : LeaderPodAnnotations(lws)) {
    pod_template.metadata.annotations[key] = std::move(value);
  }
  Json out = api::Encode(pod_template);
  DropNullMembers(out);
  return out;
}

Json LwsControllerReference(const api::LeaderWorkerSet& lws) {
  return Json{
      {"apiVersion", api::kLwsApiVersion}, {"kind", api::kLwsKind}, {"name", lws.metadata.name},
      {"uid", lws.metadata.uid},           {"controller", true},    {"blockOwnerDeletion", true}};
}

namespace {

std::int64_t ScaledOrZero(const api::IntOrString& value, std::int64_t total, bool round_up) {
  auto scaled = api::GetScaledValueFromIntOrPercent(value, total, round_up);
  return scaled.ok() ? *scaled : 0;
}

}  // namespace

std::int32_t LeaderStatefulSetMaxUnavailable(const api::LeaderWorkerSet& lws,
                                             std::optional<std::int32_t> rollout_replicas) {
  const std::int64_t replicas = rollout_replicas.value_or(lws.Replicas());
  const api::RollingUpdateConfiguration config =
      lws.spec.rollout_strategy.rolling_update_configuration.value_or(
          api::RollingUpdateConfiguration{});
  const std::int64_t max_unavailable = ScaledOrZero(config.max_unavailable, replicas, false);
  const std::int64_t max_surge = std::min(ScaledOrZero(config.max_surge, replicas, true), replicas);
  const std::int64_t sum = std::max<std::int64_t>(1, max_unavailable + max_surge);
  return static_cast<std::int32_t>(std::min<std::int64_t>(sum, INT32_MAX));
}

Json LeaderStatefulSetApply(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                            std::int32_t partition, std::int32_t replicas,
                            std::optional<std::int32_t> rollout_replicas) {
  const std::string& name = lws.metadata.name;

  // Defaulting always sets the rollout type; an unset one would make the apply invalid.
  const std::string& strategy_type = lws.spec.rollout_strategy.type.empty()
                                         ? api::kRollingUpdateStrategy
                                         : lws.spec.rollout_strategy.type;

  Json spec = {
      {"replicas", replicas},
      {"selector", {{"matchLabels", {{api::kSetNameLabel, name}, {api::kWorkerIndexLabel, "0"}}}}},
      {"template", LeaderPodTemplateJson(lws, revision_key)},
      {"serviceName", name},
      {"podManagementPolicy", "Parallel"},
      {"updateStrategy",
       {{"type", strategy_type},
        {"rollingUpdate",
         {{"partition", partition},
          {"maxUnavailable", LeaderStatefulSetMaxUnavailable(lws, rollout_replicas)}}}}},
  };
  // The same reduced claims the worker StatefulSets carry (spec 17).
  Json claims = Json::array();
  for (const api::PersistentVolumeClaim& claim : ReducedClaimTemplates(lws)) {
    claims.push_back(api::Encode(claim));
  }
  if (!claims.empty()) spec["volumeClaimTemplates"] = std::move(claims);
  if (const auto& retention =
          lws.spec.leader_worker_template.persistent_volume_claim_retention_policy) {
    spec["persistentVolumeClaimRetentionPolicy"] = {{"whenDeleted", retention->when_deleted},
                                                    {"whenScaled", retention->when_scaled}};
  }

  return LeaderSetApply(lws, "StatefulSet", revision_key, rollout_replicas.value_or(lws.Replicas()),
                        std::move(spec));
}

Json LeaderSetApply(const api::LeaderWorkerSet& lws, const std::string& kind,
                    const std::string& revision_key, std::int32_t replicas_annotation, Json spec) {
  // User labels and annotations first; the controller's keys win (spec 8, S157).
  api::StringMap labels = lws.metadata.labels;
  labels[api::kSetNameLabel] = lws.metadata.name;
  labels[api::kRevisionLabel] = revision_key;
  labels[api::kRoleLabel] = api::kRoleLeader;
  api::StringMap annotations = lws.metadata.annotations;
  annotations[api::kReplicasAnnotation] = std::to_string(replicas_annotation);
  return Json{
      {"apiVersion", "apps/v1"},
      {"kind", kind},
      {"metadata",
       {{"name", lws.metadata.name},
        {"namespace", lws.metadata.namespace_},
        {"labels", StringMapJson(labels)},
        {"annotations", StringMapJson(annotations)},
        {"ownerReferences", Json::array({LwsControllerReference(lws)})}}},
      {"spec", std::move(spec)},
  };
}

}  // namespace lws::controllers
