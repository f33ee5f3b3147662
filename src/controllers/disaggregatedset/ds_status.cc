#include "controllers/disaggregatedset/ds_status.h"

#include <utility>

#include "base/assert.h"
#include "controllers/disaggregatedset/scalers.h"

namespace lws::disaggregatedset {
namespace {

// The DisaggregatedSet's Available and Progressing share the LeaderWorkerSet's type names.
using api::kConditionAvailable;
using api::kConditionProgressing;

const std::string kMessageAllRolesReady =
    "All roles have reached their desired replica count, ready and updated to the current "
    "revision";
const std::string kMessageRolloutInProgress =
    "Not all roles have reached their desired replica count, ready and updated to the current "
    "revision";

// Only Available and Progressing exclude each other (upstream exclusiveConditionTypes): a
// condition another writer adds must not be turned False because ours became True.
bool ExclusivePair(const std::string& a, const std::string& b) {
  return (a == kConditionAvailable && b == kConditionProgressing) ||
         (a == kConditionProgressing && b == kConditionAvailable);
}

// The condition of wanted's own type; true iff it changed.
bool UpdateSameType(api::Condition* current, api::Condition wanted, const std::string& now) {
  if (current->status != wanted.status) {
    wanted.last_transition_time = now;
    *current = std::move(wanted);
    return true;
  }
  // No transition, so clients must not see a new lastTransitionTime (metav1.Condition contract).
  if (current->observed_generation == wanted.observed_generation &&
      current->reason == wanted.reason && current->message == wanted.message) {
    return false;
  }
  current->observed_generation = wanted.observed_generation;
  current->reason = wanted.reason;
  current->message = wanted.message;
  return true;
}

// The other member of the pair; true iff it changed.
bool UpdateExcluded(api::Condition* current, const api::Condition& wanted, const std::string& now) {
  if (current->status == "True") {
    current->status = "False";
    current->last_transition_time = now;
    current->observed_generation = wanted.observed_generation;
    current->reason = wanted.reason;
    current->message = wanted.message;
    return true;
  }
  // Already False: its reason still says why it became False; only the generation catches up
  // (upstream's fix after the PR #980 review).
  if (current->observed_generation == wanted.observed_generation) return false;
  current->observed_generation = wanted.observed_generation;
  return true;
}

bool SameRoleStatuses(const std::vector<api::RoleStatus>& a,
                      const std::vector<api::RoleStatus>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].replicas != b[i].replicas ||
        a[i].ready_replicas != b[i].ready_replicas ||
        a[i].updated_replicas != b[i].updated_replicas) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<api::RoleStatus> RoleStatuses(const api::DisaggregatedSet& ds,
                                          const std::string& revision,
                                          const std::vector<OwnedLws>& owned) {
  std::vector<api::RoleStatus> statuses;
  statuses.reserve(ds.spec.roles.size());
  for (const api::DisaggregatedRoleSpec& role : ds.spec.roles) {
    api::RoleStatus& status = statuses.emplace_back();
    status.name = role.name;
    for (const OwnedLws& lws : owned) {
      if (lws.role != role.name) continue;
      status.replicas += lws.status_replicas;
      status.ready_replicas += lws.ready_replicas;
      // An old revision's LeaderWorkerSet is draining, so none of its replicas are updated.
      if (lws.revision == revision) status.updated_replicas += lws.updated_replicas;
    }
  }
  return statuses;
}

bool AllRolesSatisfied(const api::DisaggregatedSet& ds,
                       const std::vector<api::RoleStatus>& statuses, const ScalersByRole& scalers) {
  LWS_ASSERT(statuses.size() == ds.spec.roles.size(), "one role status per spec role");
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const api::DisaggregatedRoleSpec& role = ds.spec.roles[i];
    const api::RoleStatus& status = statuses[i];
    LWS_ASSERT(status.name == role.name, "role statuses are in spec order");
    if (role.IsExternal() && scalers.count(role.name) == 0) return false;
    const std::int64_t desired = std::int64_t{TargetReplicas(&role, scalers, 0)} * ds.Slices();
    if (status.replicas != desired || status.ready_replicas != desired ||
        status.updated_replicas != desired) {
      return false;
    }
  }
  return true;
}

api::Condition AvailabilityCondition(bool available, std::int64_t generation) {
  api::Condition condition;
  condition.type = available ? kConditionAvailable : kConditionProgressing;
  condition.status = "True";
  condition.observed_generation = generation;
  condition.reason = available ? api::kDsReasonAllRolesReady : api::kDsReasonRolloutInProgress;
  condition.message = available ? kMessageAllRolesReady : kMessageRolloutInProgress;
  return condition;
}

bool SetCondition(std::vector<api::Condition>* conditions, api::Condition wanted,
                  const std::string& now) {
  LWS_ASSERT(conditions != nullptr, "SetCondition needs a condition list");
  LWS_ASSERT(wanted.status == "True", "the controller asserts its condition True");
  bool changed = false;
  bool found = false;
  for (api::Condition& current : *conditions) {
    if (current.type == wanted.type) {
      found = true;
      changed |= UpdateSameType(&current, wanted, now);
    } else if (ExclusivePair(current.type, wanted.type)) {
      changed |= UpdateExcluded(&current, wanted, now);
    }
  }
  if (!found) {
    wanted.last_transition_time = now;
    conditions->push_back(std::move(wanted));
    changed = true;
  }
  return changed;
}

bool ApplyStatus(const api::DisaggregatedSet& ds, std::vector<api::RoleStatus> statuses,
                 bool available, const std::string& now, api::DisaggregatedSetStatus* status) {
  LWS_ASSERT(status != nullptr, "ApplyStatus needs a status");
  const std::int64_t generation = ds.metadata.generation;
  bool changed = false;
  if (!SameRoleStatuses(status->role_statuses, statuses)) {
    status->role_statuses = std::move(statuses);
    changed = true;
  }
  changed |= SetCondition(&status->conditions, AvailabilityCondition(available, generation), now);
  if (status->observed_generation != generation) {
    status->observed_generation = generation;
    changed = true;
  }
  return changed;
}

}  // namespace lws::disaggregatedset
