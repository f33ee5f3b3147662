#include "controllers/lws/rolling_update.h"

#include <algorithm>

#include "api/intstr.h"

namespace lws::controllers {

namespace {

std::int32_t NonNegative(std::int32_t v) { return std::max<std::int32_t>(0, v); }

}  // namespace

std::int32_t UserPartition(const api::LeaderWorkerSet& lws) {
  const auto& config = lws.spec.rollout_strategy.rolling_update_configuration;
  return config ? config->partition.value_or(0) : 0;
}

Result<RolloutSettings> RolloutSettingsOf(const api::LeaderWorkerSet& lws,
                                          std::optional<std::int32_t> replicas) {
  RolloutSettings settings;
  settings.replicas = replicas.value_or(lws.Replicas());
  const auto& config = lws.spec.rollout_strategy.rolling_update_configuration;
  if (!config) {
    // The webhook always fills the configuration; without it upstream's defaults apply.
    settings.max_unavailable = 1;
    return settings;
  }
  settings.partition = UserPartition(lws);
  ASSIGN_OR_RETURN(std::int64_t surge,
                   api::GetScaledValueFromIntOrPercent(config->max_surge, settings.replicas, true));
  ASSIGN_OR_RETURN(
      std::int64_t unavailable,
      api::GetScaledValueFromIntOrPercent(config->max_unavailable, settings.replicas, false));
  // No need to burst beyond a full second copy of the set.
  settings.max_surge = static_cast<std::int32_t>(std::min<std::int64_t>(surge, settings.replicas));
  settings.max_unavailable = static_cast<std::int32_t>(unavailable);
  return settings;
}

std::int32_t BurstReplicas(const RolloutSettings& settings) {
  return settings.replicas + settings.max_surge;
}

std::int32_t ContinuousReadyReplicas(const std::vector<GroupState>& states) {
  std::int32_t count = 0;
  for (auto it = states.rbegin(); it != states.rend() && it->ready && it->updated; ++it) ++count;
  return count;
}

std::int32_t LwsUnreadyReplicas(const std::vector<GroupState>& states, std::int32_t replicas) {
  std::int32_t unready = 0;
  for (std::int32_t i = 0; i < replicas; ++i) {
    if (i >= static_cast<std::int32_t>(states.size()) || !states[i].ready || !states[i].updated) {
      ++unready;
    }
  }
  return unready;
}

std::int32_t RollingUpdateReplicas(std::int32_t replicas, std::int32_t max_surge,
                                   std::int32_t max_unavailable, std::int32_t unready) {
  if (unready <= max_surge) return replicas + NonNegative(unready - max_unavailable);
  return replicas + max_surge;
}

std::int32_t RollingUpdatePartition(const std::vector<GroupState>& states,
                                    std::int32_t sts_replicas, std::int32_t step,
                                    std::int32_t current) {
  auto ready = [&](std::int32_t i) {
    return i < static_cast<std::int32_t>(states.size()) && states[i].ready;
  };
  auto updated = [&](std::int32_t i) {
    return i < static_cast<std::int32_t>(states.size()) && states[i].updated;
  };
  // Update up to `step` groups below the ready-and-updated top at once.
  const std::int32_t base = NonNegative(sts_replicas - ContinuousReadyReplicas(states) - step);
  // Groups below the base that are already down use up the same budget.
  std::int32_t partition = base;
  for (std::int32_t i = 0; i < base; ++i) {
    if (!ready(i)) ++partition;
  }
  // Groups that are down or done can be replaced for free: without this, a rollout that starts
  // with every group unready would never move.
  for (std::int32_t i = std::min(partition, sts_replicas - 1); i >= base; --i) {
    if (ready(i) && !updated(i)) break;
    partition = i;
  }
  return std::min(partition, current);
}

namespace {

// wantReplicas of spec 11.1, noting the groups a shrink removes.
std::int32_t WantReplicas(const RolloutSettings& s, std::int32_t sts_replicas, std::int32_t unready,
                          RolloutDecision* decision) {
  std::int32_t want = RollingUpdateReplicas(s.replicas, s.max_surge, s.max_unavailable, unready);
  if (want < sts_replicas) decision->deleting = SurgeDeletion{want, sts_replicas - 1};
  return want;
}

Result<RolloutDecision> Decide(const RolloutSettings& s, const LeaderSetState* sts,
                               const std::vector<GroupState>& states, bool lws_updated) {
  RolloutDecision d;
  if (sts == nullptr) {
    d.rule = 1;
    d.partition = 0;
    d.replicas = s.replicas;
    return d;
  }
  if (lws_updated) {
    d.rule = 2;
    if (sts->replicas < s.replicas) {
      // Grow first: the new groups are created from the new template, above the partition.
      d.partition = sts->replicas;
      d.replicas = s.replicas;
    } else {
      // Every desired group is assumed unready (Q17).
      d.partition = s.replicas;
      d.replicas = WantReplicas(s, sts->replicas, s.replicas, &d);
    }
    return d;
  }
  if (sts->partition == 0 && sts->replicas == s.replicas) {
    d.rule = 3;
    d.partition = 0;
    d.replicas = s.replicas;
    return d;
  }
  if (sts->replicas < s.replicas) {
    d.rule = 30;  // 3b: no surge while growing
    d.partition = sts->partition;
    d.replicas = s.replicas;
    return d;
  }
  const std::int32_t unready = LwsUnreadyReplicas(states, s.replicas);
  if (!sts->replicas_annotation.ok()) return sts->replicas_annotation.status();
  if (*sts->replicas_annotation != s.replicas) {
    d.rule = 4;
    d.partition = std::min(sts->partition, BurstReplicas(s));
    d.replicas = WantReplicas(s, sts->replicas, unready, &d);
    return d;
  }
  d.rule = 5;
  const std::int32_t step = s.max_unavailable + s.max_surge - (BurstReplicas(s) - sts->replicas);
  d.partition = RollingUpdatePartition(states, sts->replicas, step, sts->partition);
  d.replicas = WantReplicas(s, sts->replicas, unready, &d);
  return d;
}

}  // namespace

Result<RolloutDecision> RollingUpdateParameters(const RolloutSettings& settings,
                                                const LeaderSetState* sts,
                                                const std::vector<GroupState>& states,
                                                bool lws_updated) {
  ASSIGN_OR_RETURN(RolloutDecision decision, Decide(settings, sts, states, lws_updated));
  // Groups below the user's partition are never updated, whatever the arithmetic says.
  decision.partition = std::max(decision.partition, settings.partition);
  return decision;
}

}  // namespace lws::controllers
