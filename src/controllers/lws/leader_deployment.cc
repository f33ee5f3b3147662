// File: controllers/lws/leader_deployment.cc
#include "controllers/lws/leader_deployment.h"

#include "api/codec.h"
#include "api/group_identity.h"
#include "api/rollout_annotations.h"
#include "controllers/lws/leader_statefulset.h"

namespace lws::controllers {

using api::Json;

Json LeaderDeploymentApply(const api::LeaderWorkerSet& lws, const std::string& revision_key) {
  const std::string& name = lws.metadata.name;

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
      {"selector", {{"matchLabels", {{api::kSetNameLabel, name}, {api::kWorkerIndexLabel, "0"}}}}},
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
  return LeaderSetApply(lws, "Deployment", revision_key, lws.Replicas(), std::move(spec));
}

}  // namespace lws::controllers
