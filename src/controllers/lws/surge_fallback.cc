#include "controllers/lws/surge_fallback.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/go_duration.h"
#include "controllers/lws/own_conditions.h"

namespace lws::controllers {
namespace {

// Since when the scheduler has found no place for `pod` (PodScheduled=False, Unschedulable).
std::optional<std::pair<Time, std::string>> UnschedulableSince(const api::Pod& pod) {
  if (!pod.spec.node_name.empty()) return std::nullopt;
  for (const api::PodCondition& c : pod.status.conditions) {
    if (c.type != "PodScheduled" || c.status != "False" || c.reason != "Unschedulable") continue;
    Result<Time> since = ParseRfc3339(c.last_transition_time);
    if (since.ok()) return std::make_pair(*since, c.message);
  }
  return std::nullopt;
}

bool Placed(const api::LeaderWorkerSet& lws, const SurgeGroup& group) {
  if (static_cast<std::int64_t>(group.pods.size()) < lws.Size()) return false;
  return std::all_of(group.pods.begin(), group.pods.end(),
                     [](const api::Pod* p) { return !p->spec.node_name.empty(); });
}

std::string Settings(std::int32_t max_surge, std::int32_t max_unavailable) {
  return fmt::format("maxSurge {} and maxUnavailable {}", max_surge, max_unavailable);
}

}  // namespace

SurgeFallbackDecision DecideSurgeFallback(const SurgeFallbackInputs& in) {
  SurgeFallbackDecision d;
  d.effective = in.settings;
  const api::LeaderWorkerSet& lws = *in.lws;
  if (auto state = api::ReadSurgeFallbackState(lws.metadata);
      state && state->revision == in.revision_key) {
    d.effective.max_surge = std::min(in.settings.max_surge, state->max_surge);
    d.effective.max_unavailable = state->max_unavailable;
    return d;
  }
  const api::RolloutBehaviours behaviours = api::ReadRolloutBehaviours(lws.metadata);
  if (!behaviours.surge_fallback_after || !in.update_in_progress || in.settings.max_surge == 0) {
    return d;
  }
  const Duration after = *behaviours.surge_fallback_after;
  std::optional<std::string> stuck;  // the first stuck group's pod and the scheduler's words
  std::int32_t stuck_index = 0;
  std::int32_t placed = 0;
  for (const SurgeGroup& group : in.surge) {
    if (Placed(lws, group)) ++placed;
    for (const api::Pod* pod : group.pods) {
      auto since = UnschedulableSince(*pod);
      if (!since) continue;
      if (since->first + after <= in.now) {
        if (!stuck) {
          stuck = "pod " + pod->metadata.name + ": " + since->second;
          stuck_index = group.index;
        }
      } else {
        const Duration left = since->first + after - in.now;
        d.recheck_after = d.recheck_after ? std::min(*d.recheck_after, left) : left;
      }
    }
  }
  if (!stuck) return d;
  std::int32_t max_unavailable = in.settings.max_unavailable;
  const std::string waited = fmt::format("surge group {} unschedulable for {} ({})", stuck_index,
                                         api::FormatGoDuration(after), *stuck);
  if (max_unavailable == 0 && placed == 0) {
    if (!behaviours.surge_fallback_release) {
      d.blocked = waited + ": no surge group runs and maxUnavailable is 0, so the rollout waits; " +
                  "set " + api::kSurgeFallbackReleaseAnnotation +
                  ": \"true\" to release one group at a time";
      return d;
    }
    max_unavailable = 1;
  }
  d.recheck_after.reset();
  d.effective.max_surge = placed;
  d.effective.max_unavailable = max_unavailable;
  d.engage = api::SurgeFallbackState{
      in.revision_key, placed, max_unavailable,
      waited + ": rolling out with " + Settings(placed, max_unavailable) + " instead of " +
          Settings(in.settings.max_surge, in.settings.max_unavailable)};
  return d;
}

bool SetSurgeFallbackCondition(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                               std::vector<api::Condition>* conditions, const std::string& now) {
  auto state = api::ReadSurgeFallbackState(lws.metadata);
  const std::int64_t generation = lws.metadata.generation;
  if (!state || state->revision != revision_key) {
    return SetOwnCondition(
        conditions,
        OwnCondition(kConditionSurgeFallback, false, "NoSurgeFallback",
                     "The rollout uses the LeaderWorkerSet's maxSurge and maxUnavailable",
                     generation, now));
  }
  return SetOwnCondition(conditions,
                         OwnCondition(kConditionSurgeFallback, true, kReasonSurgeUnschedulable,
                                      state->reason, generation, now));
}

}  // namespace lws::controllers
