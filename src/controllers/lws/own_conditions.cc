#include "controllers/lws/own_conditions.h"

#include <algorithm>

#include "api/rollout_annotations.h"

namespace lws::controllers {

bool SetOwnCondition(std::vector<api::Condition>* conditions, api::Condition wanted) {
  auto found = std::find_if(conditions->begin(), conditions->end(),
                            [&](const api::Condition& c) { return c.type == wanted.type; });
  if (found == conditions->end()) {
    if (wanted.status != "True") return false;
    conditions->push_back(std::move(wanted));
    return true;
  }
  if (found->status == wanted.status && found->reason == wanted.reason &&
      found->message == wanted.message) {
    return false;
  }
  if (found->status == wanted.status) wanted.last_transition_time = found->last_transition_time;
  *found = std::move(wanted);
  return true;
}

api::Condition OwnCondition(const std::string& type, bool status, const std::string& reason,
                            const std::string& message, std::int64_t generation,
                            const std::string& now) {
  api::Condition c;
  c.type = type;
  c.status = status ? "True" : "False";
  c.reason = reason;
  c.message = message;
  c.observed_generation = generation;
  c.last_transition_time = now;
  return c;
}

bool SetPausedCondition(const api::LeaderWorkerSet& lws, std::vector<api::Condition>* conditions,
                        const std::string& now) {
  const bool paused = api::AnnotationFlag(lws.metadata, api::kPausedAnnotation);
  // Never paused: nothing to show, and no words to build on every reconcile.
  if (!paused && api::FindCondition(*conditions, kConditionPaused) == nullptr) return false;
  const std::int64_t generation = lws.metadata.generation;
  if (paused) {
    return SetOwnCondition(
        conditions,
        OwnCondition(kConditionPaused, true, "RolloutPaused",
                     "The rollout is paused (" + api::kPausedAnnotation +
                         "): no further group is replaced; resume it with kubectl lws rollout "
                         "resume " +
                         lws.metadata.name,
                     generation, now));
  }
  return SetOwnCondition(conditions, OwnCondition(kConditionPaused, false, "RolloutResumed",
                                                  "The rollout is not paused", generation, now));
}

}  // namespace lws::controllers
