// File: controllers/lws/hash_status.cc
#include "controllers/lws/hash_status.h"

#include "api/codec.h"
#include "controllers/lws/lws_events.h"

namespace lws::controllers {

StatusPlan PlanHashStatus(const api::LeaderWorkerSet& lws, const api::Deployment* deployment,
                          const std::string& revision_key, const std::string& now) {
  const std::int64_t generation = lws.metadata.generation;
  const std::int32_t desired = lws.Replicas();
  StatusPlan plan = StartStatusPlan(lws);
  api::LeaderWorkerSetStatus& status = plan.status;
  api::DeploymentStatus counts;
  bool observed = false;
  if (deployment != nullptr) {
    counts = deployment->status;
    observed = counts.observed_generation >= deployment->metadata.generation &&
               deployment->spec.template_.metadata.Label(api::kRevisionLabel) == revision_key;
  }
  status.replicas = counts.replicas;
  status.ready_replicas = counts.ready_replicas;
  status.updated_replicas = counts.updated_replicas;
  const std::vector<std::string> asserted = AssertedConditions(
      counts.updated_replicas < counts.replicas, observed && counts.replicas == desired &&
                                                     counts.ready_replicas == desired &&
                                                     counts.updated_replicas == desired);
  bool conditions_changed = false;
  for (const std::string& type : asserted) {
    conditions_changed |=
        SetCondition(&status.conditions, MakeCondition(type, generation, now), now);
  }
  for (api::Condition& c : status.conditions) c.observed_generation = generation;
  if (conditions_changed) {
    const api::Condition first = MakeCondition(asserted.front(), generation, now);
    plan.event = std::make_pair(first.reason,
                                ConditionEventNote(first.message, counts.ready_replicas, desired));
  }
  plan.changed = conditions_changed || api::Encode(status) != api::Encode(lws.status);
  plan.update_done = asserted.size() == 1 && asserted[0] == api::kConditionAvailable;
  return plan;
}

}  // namespace lws::controllers
