// File: controllers/lws/leader_deployment.cc
#include "controllers/lws/leader_deployment.h"

#include "api/codec.h"
#include "api/group_identity.h"
#include "api/rollout_annotations.h"
#include "controllers/lws/leader_statefulset.h"

namespace lws::controllers {

namespace {

using api::Json;

Json StringMapJson(const api::StringMap& map) {
  Json out = Json::object();
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

}  // namespace

Json LeaderDeploymentApply(const api::LeaderWorkerSet& lws, const std::string& revision_key) {
  const std::string& name = lws.metadata.name;
  api::StringMap labels = lws.metadata.labels;
  labels[api::kSetNameLabel] = name;
  labels[api::kRevisionLabel] = revision_key;
  labels[api::kRoleLabel] = api::kRoleLeader;
  api::StringMap annotations = lws.metadata.annotations;
  annotations[api::kReplicasAnnotation] = std::to_string(lws.Replicas());

  Json pod_template = LeaderPodTemplateJson(lws, revision_key);
  pod_template["metadata"]["annotations"][api::kGroupIdentityAnnotation] = api::kGroupIdentityHash;
  Json& pod_spec = pod_template["spec"];
  // A Deployment sets no subdomain as a StatefulSet does; admission replaces it per group under
  // UniquePerReplica.
  pod_spec["subdomain"] = name;
  if (lws.Size() > 1) {
    pod_spec["readinessGates"] = Json::array({{{"conditionType", api::kGroupReadyCondition}}});
  }

  const api::RollingUpdateConfiguration config =
      lws.spec.rollout_strategy.rolling_update_configuration.value_or(
          api::RollingUpdateConfiguration{});
  Json spec = {
      {"replicas", lws.Replicas()},
      {"selector",
       {{"matchLabels", {{api::kSetNameLabel, name}, {api::kWorkerIndexLabel, "0"}}}}},
      {"strategy",
       {{"type", "RollingUpdate"},
        {"rollingUpdate",
         {{"maxUnavailable", api::codec::EncodeValue(config.max_unavailable)},
          {"maxSurge", api::codec::EncodeValue(config.max_surge)}}}}},
      {"template", std::move(pod_template)},
  };
  // Ours: `kubectl lws rollout pause` pauses the Deployment, which then rolls no group (it
  // still scales). Omitted otherwise, so the apply gives the field up again on resume.
  if (api::AnnotationFlag(lws.metadata, api::kPausedAnnotation)) spec["paused"] = true;
  return Json{
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata",
       {{"name", name},
        {"namespace", lws.metadata.namespace_},
        {"labels", StringMapJson(labels)},
        {"annotations", StringMapJson(annotations)},
        {"ownerReferences", Json::array({LwsControllerReference(lws)})}}},
      {"spec", std::move(spec)},
  };
}

}  // namespace lws::controllers
