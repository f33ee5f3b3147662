#include "controllers/lws/scale_up_hold.h"

#include <algorithm>

#include "api/rollout_annotations.h"
#include "controllers/lws/own_conditions.h"

namespace lws::controllers {

namespace {

// Every group in [partition, groups) runs the current revision and is Ready.
bool ExistingGroupsDone(std::int32_t partition, std::int32_t groups,
                        const std::vector<GroupState>& states) {
  for (std::int32_t i = partition; i < groups; ++i) {
    if (i >= static_cast<std::int32_t>(states.size()) || !states[i].ready || !states[i].updated) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<ScaleUpHold> DecideScaleUpHold(bool enabled, std::int32_t replicas,
                                             std::int32_t partition, const LeaderSetState* sts,
                                             const std::vector<GroupState>& states,
                                             bool lws_updated) {
  if (!enabled || sts == nullptr) return std::nullopt;
  std::int32_t groups = 0;
  if (sts->replicas_annotation.ok()) {
    groups = *sts->replicas_annotation;
  } else if (lws_updated) {
    groups = sts->replicas;  // a set at rest, written without the annotation
  } else {
    return std::nullopt;  // upstream's path reports the annotation's error
  }
  // Not an increase, or no existing group that the rollout would replace.
  if (groups >= replicas || groups <= partition) return std::nullopt;
  if (ExistingGroupsDone(partition, groups, states)) return std::nullopt;
  return ScaleUpHold{groups, replicas};
}

bool SetScaleUpHeldCondition(const api::LeaderWorkerSet& lws,
                             const std::optional<ScaleUpHold>& hold,
                             std::vector<api::Condition>* conditions, const std::string& now,
                             std::optional<std::pair<std::string, std::string>>* event) {
  const std::int64_t generation = lws.metadata.generation;
  const api::Condition* found = api::FindCondition(*conditions, kConditionScaleUpHeld);
  if (!hold && found == nullptr) return false;  // never held: nothing to show (every reconcile)
  const std::string before = found != nullptr ? found->status : "";
  if (hold) {
    const std::string message =
        "Scaling up from " + std::to_string(hold->groups) + " to " + std::to_string(hold->wanted) +
        " groups waits until the existing groups run the current revision and are Ready (" +
        api::kRolloutBeforeScaleUpAnnotation + ")";
    if (before != "True") *event = std::make_pair(kReasonRolloutBeforeScaleUp, message);
    return SetOwnCondition(
        conditions, OwnCondition(kConditionScaleUpHeld, true, kReasonRolloutBeforeScaleUp, message,
                                 generation, now));
  }
  if (before == "True") {
    *event = std::make_pair(kReasonScaleUpReleased, "Scaling to " + std::to_string(lws.Replicas()) +
                                                        " groups no longer waits for the rollout");
  }
  return SetOwnCondition(conditions,
                         OwnCondition(kConditionScaleUpHeld, false, kReasonScaleUpReleased,
                                      "No scale-up waits for a rollout", generation, now));
}

}  // namespace lws::controllers
