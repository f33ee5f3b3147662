#include "api/lws_defaults.h"

namespace lws::api {

void DefaultLeaderWorkerSet(LeaderWorkerSet* lws) {
  auto& tmpl = lws->spec.leader_worker_template;
  if (tmpl.restart_policy.empty()) tmpl.restart_policy = kRecreateGroupOnPodRestart;
  if (tmpl.restart_policy == kRestartPolicyDefault) tmpl.restart_policy = kRestartPolicyNone;

  auto& rollout = lws->spec.rollout_strategy;
  if (rollout.type.empty()) rollout.type = kRollingUpdateStrategy;
  if (rollout.type == kRollingUpdateStrategy && !rollout.rolling_update_configuration) {
    RollingUpdateConfiguration config;
    config.max_unavailable = IntOrString::FromInt(1);
    config.max_surge = IntOrString::FromInt(0);
    config.partition = 0;
    rollout.rolling_update_configuration = std::move(config);
  }

  // Upstream's webhook defaults both KEP 898 fields, whatever the identity.
  if (lws->spec.group_identity.empty()) lws->spec.group_identity = kGroupIdentityOrdinal;
  if (lws->spec.group_replacement_policy.empty()) {
    lws->spec.group_replacement_policy = kGroupReplacementPostTermination;
  }

  auto& network = lws->spec.network_config;
  if (!network) network.emplace();
  if (!network->subdomain_policy) network->subdomain_policy = kSubdomainShared;
}

}  // namespace lws::api
