#include "controllers/disaggregatedset/scalers.h"

#include <set>
#include <utility>

#include "base/assert.h"

namespace lws::disaggregatedset {
namespace {

const std::string kReasonBound = "Bound";
const std::string kMessageBound = "Scaler bound to a live DisaggregatedSet role";

// The scaler of `role` as upstream ScalerManager.create builds it.
api::DisaggregatedSetRoleScaler NewScaler(const api::DisaggregatedSet& ds, const std::string& role,
                                          int seed) {
  api::DisaggregatedSetRoleScaler scaler;
  scaler.metadata.name = ScalerName(ds.metadata.name, role);
  scaler.metadata.namespace_ = ds.metadata.namespace_;
  scaler.metadata.labels[api::kDsNameLabel] = ds.metadata.name;
  scaler.metadata.labels[api::kDsRoleLabel] = role;
  api::OwnerReference& owner = scaler.metadata.owner_references.emplace_back();
  owner.api_version = api::kDsApiVersion;
  owner.kind = api::kDsKind;
  owner.name = ds.metadata.name;
  owner.uid = ds.metadata.uid;
  owner.controller = true;
  owner.block_owner_deletion = true;
  scaler.spec.replicas = seed;
  return scaler;
}

// apimachinery meta.SetStatusCondition: lastTransitionTime moves only with the status.
void SetStatusCondition(std::vector<api::Condition>* conditions, api::Condition wanted,
                        const std::string& now) {
  for (api::Condition& current : *conditions) {
    if (current.type != wanted.type) continue;
    if (current.status != wanted.status) {
      current.status = wanted.status;
      current.last_transition_time = now;
    }
    current.reason = wanted.reason;
    current.message = wanted.message;
    current.observed_generation = wanted.observed_generation;
    return;
  }
  wanted.last_transition_time = now;
  conditions->push_back(std::move(wanted));
}

bool SameCondition(const api::Condition& a, const api::Condition& b) {
  return a.type == b.type && a.status == b.status &&
         a.observed_generation == b.observed_generation &&
         a.last_transition_time == b.last_transition_time && a.reason == b.reason &&
         a.message == b.message;
}

}  // namespace

int TargetReplicas(const api::DisaggregatedRoleSpec* role, const ScalersByRole& scalers,
                   int current_new) {
  if (role == nullptr) return 1;
  if (!role->IsExternal()) return role->Replicas();
  auto scaler = scalers.find(role->name);
  return scaler == scalers.end() ? current_new : scaler->second.spec_replicas;
}

int SeedForRole(const std::string& role, const std::vector<OwnedLws>& owned) {
  bool seen = false;
  int sum = 0;
  for (const OwnedLws& lws : owned) {
    if (lws.role != role) continue;
    seen = true;
    sum += lws.spec_replicas;
  }
  return seen ? sum : 1;
}

std::string ScalerName(const std::string& ds, const std::string& role) { return ds + "-" + role; }

std::string ScalerSelector(const std::string& ds, const std::string& role) {
  return api::kDsNameLabel + "=" + ds + "," + api::kDsRoleLabel + "=" + role + "," +
         api::kWorkerIndexLabel + "=0";
}

ScalerPlan PlanScalers(const api::DisaggregatedSet& ds, const std::vector<OwnedScaler>& controlled,
                       const std::vector<OwnedLws>& owned) {
  std::set<std::string> external;
  for (const api::DisaggregatedRoleSpec& role : ds.spec.roles) {
    if (role.IsExternal()) external.insert(role.name);
  }
  ScalerPlan plan;
  std::set<std::string> served;
  for (const OwnedScaler& scaler : controlled) {
    if (external.count(scaler.role) == 0) {
      plan.delete_names.push_back(scaler.name);
    } else {
      served.insert(scaler.role);
    }
  }
  // Spec order, where upstream ranges over a Go map: the same objects, in a stable order.
  for (const api::DisaggregatedRoleSpec& role : ds.spec.roles) {
    if (!role.IsExternal() || served.count(role.name) != 0) continue;
    plan.create.push_back(NewScaler(ds, role.name, SeedForRole(role.name, owned)));
  }
  LWS_ASSERT(plan.create.size() + served.size() >= external.size(),
             "every External role has a scaler or gets one");
  return plan;
}

api::RoleScalerStatus ScalerStatus(const api::DisaggregatedSet& ds, const OwnedScaler& scaler,
                                   const std::vector<OwnedLws>& owned,
                                   const api::RoleScalerStatus& current, const std::string& now) {
  api::RoleScalerStatus status = current;
  status.replicas = 0;
  for (const OwnedLws& lws : owned) {
    if (lws.role == scaler.role) status.replicas += lws.status_replicas;
  }
  status.selector = ScalerSelector(ds.metadata.name, scaler.role);
  status.observed_generation = scaler.generation;
  api::Condition ready;
  ready.type = api::kDsScalerReady;
  ready.status = "True";
  ready.observed_generation = scaler.generation;
  ready.reason = kReasonBound;
  ready.message = kMessageBound;
  SetStatusCondition(&status.conditions, std::move(ready), now);
  return status;
}

bool SameScalerStatus(const api::RoleScalerStatus& a, const api::RoleScalerStatus& b) {
  if (a.replicas != b.replicas || a.selector != b.selector ||
      a.observed_generation != b.observed_generation ||
      a.conditions.size() != b.conditions.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.conditions.size(); ++i) {
    if (!SameCondition(a.conditions[i], b.conditions[i])) return false;
  }
  return true;
}

}  // namespace lws::disaggregatedset
