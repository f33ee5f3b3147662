// The arithmetic and comparisons of upstream's deployment_util.go and progress.go
// (deployment_plan.h); the sync itself is deployment_plan.cc.
#include <cmath>

#include "api/codec.h"
#include "api/identical_json.h"
#include "api/revision.h"
#include "cluster/deployment_internal.h"
#include "cluster/deployment_plan.h"

namespace lws::cluster {

namespace {

bool IsRollingUpdate(const api::Deployment& d) {
  return d.spec.strategy.type == api::kRollingUpdateDeployment;
}

const api::RollingUpdateDeployment kNoRollingUpdate;

const api::RollingUpdateDeployment& RollingOf(const api::Deployment& d) {
  return d.spec.strategy.rolling_update ? *d.spec.strategy.rolling_update : kNoRollingUpdate;
}

}  // namespace

Result<Fenceposts> ResolveFenceposts(const std::optional<api::IntOrString>& max_surge,
                                     const std::optional<api::IntOrString>& max_unavailable,
                                     std::int32_t desired) {
  const api::IntOrString zero = api::IntOrString::FromInt(0);
  ASSIGN_OR_RETURN(std::int64_t surge,
                   api::GetScaledValueFromIntOrPercent(max_surge.value_or(zero), desired, true));
  ASSIGN_OR_RETURN(std::int64_t unavailable, api::GetScaledValueFromIntOrPercent(
                                                 max_unavailable.value_or(zero), desired, false));
  if (surge == 0 && unavailable == 0) unavailable = 1;
  return Fenceposts{static_cast<std::int32_t>(surge), static_cast<std::int32_t>(unavailable)};
}

Result<std::int32_t> MaxSurge(const api::Deployment& d) {
  if (!IsRollingUpdate(d)) return 0;
  const api::RollingUpdateDeployment& rolling = RollingOf(d);
  ASSIGN_OR_RETURN(Fenceposts f, ResolveFenceposts(rolling.max_surge, rolling.max_unavailable,
                                                   d.spec.replicas.value_or(1)));
  return f.surge;
}

Result<std::int32_t> MaxUnavailable(const api::Deployment& d) {
  const std::int32_t replicas = d.spec.replicas.value_or(1);
  if (!IsRollingUpdate(d) || replicas == 0) return 0;
  const api::RollingUpdateDeployment& rolling = RollingOf(d);
  ASSIGN_OR_RETURN(Fenceposts f,
                   ResolveFenceposts(rolling.max_surge, rolling.max_unavailable, replicas));
  return std::min(f.unavailable, replicas);
}

Result<std::int32_t> NewRSNewReplicas(const api::Deployment& d,
                                      const std::vector<const api::ReplicaSet*>& all,
                                      const api::ReplicaSet& new_set) {
  const std::int32_t replicas = d.spec.replicas.value_or(1);
  if (!IsRollingUpdate(d)) return replicas;  // Recreate
  const api::IntOrString zero = api::IntOrString::FromInt(0);
  // Resolved on its own, without the both-zero fencepost.
  ASSIGN_OR_RETURN(std::int64_t surge, api::GetScaledValueFromIntOrPercent(
                                           RollingOf(d).max_surge.value_or(zero), replicas, true));
  const std::int64_t current = SpecReplicas(all);
  const std::int64_t max_total = replicas + surge;
  const std::int32_t now = new_set.spec.replicas.value_or(1);
  if (current >= max_total) return now;
  const std::int64_t up = std::min<std::int64_t>(max_total - current, replicas - now);
  return static_cast<std::int32_t>(now + up);
}

std::int32_t ReplicaSetFraction(const api::ReplicaSet& set, const api::Deployment& d,
                                std::int32_t max_surge) {
  const std::int32_t set_replicas = set.spec.replicas.value_or(1);
  const std::int32_t replicas = d.spec.replicas.value_or(1);
  if (replicas == 0) return -set_replicas;
  const std::int64_t deployment_replicas = static_cast<std::int64_t>(replicas) + max_surge;
  std::optional<std::int32_t> annotated = IntAnnotation(set.metadata, kMaxReplicasAnnotation);
  std::int64_t max = annotated.value_or(0);
  if (max == 0) {
    // An unsynced set: the Deployment's last seen size stands in.
    max = d.status.replicas;
    if (max == 0) return 0;
  }
  const double scaled =
      static_cast<double>(static_cast<std::int64_t>(set_replicas) * deployment_replicas) /
      static_cast<double>(max);
  return static_cast<std::int32_t>(std::round(scaled)) - set_replicas;  // halves away from 0
}

bool DeploymentComplete(const api::Deployment& d, const api::DeploymentStatus& status) {
  const std::int32_t replicas = d.spec.replicas.value_or(1);
  return status.updated_replicas == replicas && status.replicas == replicas &&
         status.available_replicas == replicas &&
         status.observed_generation >= d.metadata.generation;
}

bool DeploymentProgressing(const api::Deployment& d, const api::DeploymentStatus& status) {
  const api::DeploymentStatus& old = d.status;
  const std::int32_t old_old = old.replicas - old.updated_replicas;
  const std::int32_t new_old = status.replicas - status.updated_replicas;
  return status.updated_replicas > old.updated_replicas || new_old < old_old ||
         status.ready_replicas > old.ready_replicas ||
         status.available_replicas > old.available_replicas;
}

bool DeploymentTimedOut(const api::Deployment& d, const api::DeploymentStatus& status, Time now) {
  if (!HasProgressDeadline(d)) return false;
  const api::WorkloadCondition* progressing = api::FindCondition(status.conditions, "Progressing");
  if (progressing == nullptr || progressing->reason == kNewRSAvailableReason) return false;
  if (progressing->reason == kTimedOutReason) return true;
  Result<Time> from = ParseRfc3339(progressing->last_update_time);
  if (!from.ok()) return false;
  return *from + std::chrono::seconds(*d.spec.progress_deadline_seconds) < now;
}

bool EqualIgnoreHash(const api::PodTemplateSpec& a, const api::PodTemplateSpec& b) {
  api::PodTemplateSpec x = a, y = b;
  x.metadata.labels.erase(std::string(kPodTemplateHashLabel));
  y.metadata.labels.erase(std::string(kPodTemplateHashLabel));
  return api::NormalizedForCompare(api::Encode(x)) == api::NormalizedForCompare(api::Encode(y));
}

std::string PodTemplateHash(const api::PodTemplateSpec& tmpl,
                            std::optional<std::int32_t> collision_count) {
  std::string bytes = api::PatchBytes(api::Encode(tmpl));
  if (collision_count) bytes += "/" + std::to_string(*collision_count);
  return api::RevisionHash(bytes);
}

// ---- deployment_internal.h ----------------------------------------------------------------

bool HasProgressDeadline(const api::Deployment& d) {
  return d.spec.progress_deadline_seconds.has_value() &&
         *d.spec.progress_deadline_seconds != INT32_MAX;
}

std::int64_t SpecReplicas(const std::vector<const api::ReplicaSet*>& sets) {
  std::int64_t total = 0;
  for (const api::ReplicaSet* set : sets) total += set->spec.replicas.value_or(1);
  return total;
}

std::optional<std::int32_t> IntAnnotation(const api::ObjectMeta& meta, std::string_view key) {
  auto it = meta.annotations.find(std::string(key));
  if (it == meta.annotations.end()) return std::nullopt;
  Result<std::int64_t> value = api::GoAtoi(it->second);
  if (!value.ok() || *value < 0 || *value > INT32_MAX) return std::nullopt;
  return static_cast<std::int32_t>(*value);
}

std::int64_t RevisionOf(const api::ReplicaSet& set) {
  auto it = set.metadata.annotations.find(std::string(kRevisionAnnotation));
  if (it == set.metadata.annotations.end()) return 0;
  Result<std::int64_t> value = api::GoAtoi(it->second);
  return value.ok() ? *value : 0;
}

void SetCondition(std::vector<api::WorkloadCondition>& conditions, api::WorkloadCondition c) {
  for (auto it = conditions.begin(); it != conditions.end(); ++it) {
    if (it->type != c.type) continue;
    if (it->status == c.status && it->reason == c.reason) return;
    if (it->status == c.status) c.last_transition_time = it->last_transition_time;
    conditions.erase(it);
    break;
  }
  conditions.push_back(std::move(c));
}

api::WorkloadCondition NewCondition(std::string type, std::string status, std::string reason,
                                    std::string message, Time now) {
  api::WorkloadCondition c;
  c.type = std::move(type);
  c.status = std::move(status);
  c.reason = std::move(reason);
  c.message = std::move(message);
  c.last_update_time = c.last_transition_time = FormatRfc3339(now);
  return c;
}

void AppendRevisionHistory(std::string& history, const std::string& revision, std::size_t limit) {
  if (history.empty()) {
    history = revision;
    return;
  }
  std::vector<std::string> entries;
  for (std::size_t start = 0;;) {
    std::size_t comma = history.find(',', start);
    entries.push_back(history.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  entries.push_back(revision);
  std::size_t first = 0, length = history.size() + 1 + revision.size();
  while (length > limit && first + 1 < entries.size()) length -= entries[first++].size() + 1;
  if (length > limit) return;
  history.clear();
  for (std::size_t i = first; i < entries.size(); ++i)
    history += (i > first ? "," : "") + entries[i];
}

bool OlderFirst(const api::ReplicaSet* a, const api::ReplicaSet* b) {
  return api::CreatedBefore(a->metadata, b->metadata);
}

}  // namespace lws::cluster
