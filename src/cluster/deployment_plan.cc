// One Deployment sync (deployment_plan.h): the sets, revisions, history and status. The
// strategies are deployment_rollout.cc.
#include "cluster/deployment_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/codec.h"
#include "cluster/deployment_sync.h"
#include "cluster/owner_controller.h"

namespace lws::cluster {

namespace {

using Kind = DeploymentActionKind;

// Annotations never copied from a Deployment to its sets (annotationsToSkip).
bool SkippedAnnotation(const std::string& key) {
  return key == "kubectl.kubernetes.io/last-applied-configuration" || key == kRevisionAnnotation ||
         key == kRevisionHistoryAnnotation || key == kDesiredReplicasAnnotation ||
         key == kMaxReplicasAnnotation || key == "deprecated.deployment.rollback.to";
}

// SetNewReplicaSetAnnotations: the Deployment's annotations copied, the revision raised (a
// rollback to this set records the one it had in revision-history). Returns whether any changed.
bool SetNewSetAnnotations(const api::StringMap& from, api::ReplicaSet& set,
                          std::int64_t new_revision) {
  bool changed = false;
  auto& annotations = set.metadata.annotations;
  for (const auto& [key, value] : from) {
    if (SkippedAnnotation(key)) continue;
    auto it = annotations.find(key);
    if (it != annotations.end() && it->second == value) continue;
    annotations[key] = value;
    changed = true;
  }
  auto it = annotations.find(std::string(kRevisionAnnotation));
  const bool had = it != annotations.end();
  const std::string old_text = had ? it->second : "";
  Result<std::int64_t> old = old_text.empty() ? Result<std::int64_t>(0) : api::GoAtoi(old_text);
  if (!old.ok()) return false;  // upstream warns and gives up
  if (*old < new_revision) {
    annotations[std::string(kRevisionAnnotation)] = std::to_string(new_revision);
    changed = true;
    if (had) AppendRevisionHistory(annotations[std::string(kRevisionHistoryAnnotation)], old_text);
  }
  return changed;
}

void SetReplicasAnnotations(api::ReplicaSet& set, std::int32_t desired, std::int32_t max) {
  set.metadata.annotations[std::string(kDesiredReplicasAnnotation)] = std::to_string(desired);
  set.metadata.annotations[std::string(kMaxReplicasAnnotation)] = std::to_string(max);
}

}  // namespace

DeploymentSync::DeploymentSync(const DeploymentSnapshot& snapshot)
    : snap_(snapshot),
      d_(snapshot.deployment),
      replicas_(snapshot.deployment.spec.replicas.value_or(1)),
      conditions_(snapshot.deployment.status.conditions),
      annotations_(snapshot.deployment.metadata.annotations) {
  sets_.reserve(snapshot.replica_sets.size() + 1);
  sets_.assign(snapshot.replica_sets.begin(), snapshot.replica_sets.end());
}

std::vector<const api::ReplicaSet*> DeploymentSync::All() const {
  std::vector<const api::ReplicaSet*> all;
  for (const api::ReplicaSet& set : sets_) all.push_back(&set);
  return all;
}

std::vector<api::ReplicaSet*> DeploymentSync::Old() {
  std::vector<api::ReplicaSet*> old;
  for (std::size_t i = 0; i < sets_.size(); ++i) {
    if (i != new_index_) old.push_back(&sets_[i]);
  }
  std::sort(old.begin(), old.end(), OlderFirst);
  return old;
}

void DeploymentSync::FindSets() {
  std::vector<const api::ReplicaSet*> all = All();
  std::sort(all.begin(), all.end(), OlderFirst);
  for (const api::ReplicaSet* set : all) {
    if (EqualIgnoreHash(set->spec.template_, d_.spec.template_)) {
      new_index_ = static_cast<std::size_t>(set - sets_.data());
      return;
    }
  }
}

Status DeploymentSync::SyncRevision(bool create) {
  std::int64_t max_old = 0;
  for (const api::ReplicaSet* set : Old()) max_old = std::max(max_old, RevisionOf(*set));
  const std::int64_t revision = max_old + 1;
  if (api::ReplicaSet* set = New()) {
    bool changed = SetNewSetAnnotations(annotations_, *set, revision);
    if (changed || set->spec.min_ready_seconds != d_.spec.min_ready_seconds) {
      set->spec.min_ready_seconds = d_.spec.min_ready_seconds;
      plan_.actions.push_back(
          {.kind = Kind::kUpdateReplicaSet, .name = set->metadata.name, .replica_set = *set});
    }
    annotations_[std::string(kRevisionAnnotation)] =
        set->metadata.annotations[std::string(kRevisionAnnotation)];
    if (HasProgressDeadline(d_) && api::FindCondition(conditions_, "Progressing") == nullptr) {
      SetCondition(
          conditions_,
          NewCondition("Progressing", "True", "FoundNewReplicaSet",
                       fmt::format("Found new replica set \"{}\"", set->metadata.name), snap_.now));
    }
    return Status::Ok();
  }
  if (!create) return Status::Ok();
  annotations_[std::string(kRevisionAnnotation)] = std::to_string(revision);
  return CreateNewSet(revision);
}

Status DeploymentSync::CreateNewSet(std::int64_t revision) {
  const std::string hash = PodTemplateHash(d_.spec.template_, d_.status.collision_count);
  api::ReplicaSet set;
  set.metadata.name = d_.metadata.name + "-" + hash;
  set.metadata.namespace_ = d_.metadata.namespace_;
  set.metadata.owner_references.push_back(AppsControllerRef("Deployment", d_.metadata));
  set.spec.template_ = d_.spec.template_;
  set.spec.template_.metadata.labels[std::string(kPodTemplateHashLabel)] = hash;
  set.metadata.labels = set.spec.template_.metadata.labels;
  set.spec.selector = d_.spec.selector.value_or(api::LabelSelector());
  set.spec.selector->match_labels[std::string(kPodTemplateHashLabel)] = hash;
  set.spec.min_ready_seconds = d_.spec.min_ready_seconds;
  set.spec.replicas = 0;
  ASSIGN_OR_RETURN(std::int32_t max_surge, MaxSurge(d_));
  std::vector<const api::ReplicaSet*> all = All();
  all.push_back(&set);
  ASSIGN_OR_RETURN(std::int32_t size, NewRSNewReplicas(d_, all, set));
  set.spec.replicas = size;
  SetNewSetAnnotations(annotations_, set, revision);
  SetReplicasAnnotations(set, replicas_, replicas_ + max_surge);
  // A namesake with another template is a collision: count it, and hash again next time.
  for (const api::ReplicaSet& existing : sets_) {
    if (existing.metadata.name == set.metadata.name) {
      plan_.status = CalculateStatus();
      plan_.annotations = d_.metadata.annotations;
      plan_.status.collision_count = d_.status.collision_count.value_or(0) + 1;
      plan_.actions.push_back({.kind = Kind::kUpdateStatus, .name = d_.metadata.name});
      return Status(Code::kConflict, "hash collision: " + set.metadata.name);
    }
  }
  DeploymentAction create{
      .kind = Kind::kCreateReplicaSet, .name = set.metadata.name, .replica_set = set};
  if (size > 0) {
    create.event = DeploymentEvent{
        "Normal", "ScalingReplicaSet",
        fmt::format("Scaled up replica set {} from 0 to {}", set.metadata.name, size)};
  }
  plan_.actions.push_back(std::move(create));
  if (HasProgressDeadline(d_)) {
    SetCondition(
        conditions_,
        NewCondition("Progressing", "True", "NewReplicaSetCreated",
                     fmt::format("Created new replica set \"{}\"", set.metadata.name), snap_.now));
  }
  sets_.push_back(std::move(set));
  new_index_ = sets_.size() - 1;
  return Status::Ok();
}

bool DeploymentSync::IsScalingEvent() const {
  for (const api::ReplicaSet& set : sets_) {
    if (set.spec.replicas.value_or(1) <= 0) continue;
    std::optional<std::int32_t> desired = IntAnnotation(set.metadata, kDesiredReplicasAnnotation);
    if (desired && *desired != replicas_) return true;
  }
  return false;
}

api::DeploymentStatus DeploymentSync::CalculateStatus() const {
  api::DeploymentStatus status;
  std::int64_t spec_total = 0;
  for (const api::ReplicaSet& set : sets_) {
    spec_total += set.spec.replicas.value_or(1);
    status.replicas += set.status.replicas;
    status.ready_replicas += set.status.ready_replicas;
    status.available_replicas += set.status.available_replicas;
  }
  if (new_index_) status.updated_replicas = sets_[*new_index_].status.replicas;
  status.unavailable_replicas =
      static_cast<std::int32_t>(std::max<std::int64_t>(0, spec_total - status.available_replicas));
  status.observed_generation = d_.metadata.generation;
  status.collision_count = d_.status.collision_count;
  status.conditions = conditions_;
  status.rest = d_.status.rest;
  const std::int32_t max_unavailable = MaxUnavailable(d_).ok() ? *MaxUnavailable(d_) : 0;
  if (status.available_replicas >= replicas_ - max_unavailable) {
    SetCondition(status.conditions,
                 NewCondition("Available", "True", "MinimumReplicasAvailable",
                              "Deployment has minimum availability.", snap_.now));
  } else {
    SetCondition(status.conditions,
                 NewCondition("Available", "False", "MinimumReplicasUnavailable",
                              "Deployment does not have minimum availability.", snap_.now));
  }
  return status;
}

void DeploymentSync::SyncStatus() {
  plan_.status = CalculateStatus();
  plan_.annotations = annotations_;
  if (api::Encode(plan_.status) != api::Encode(d_.status) ||
      annotations_ != d_.metadata.annotations) {
    plan_.actions.push_back({.kind = Kind::kUpdateStatus, .name = d_.metadata.name});
  }
}

void DeploymentSync::CheckPausedConditions() {
  if (!HasProgressDeadline(d_)) return;
  const api::WorkloadCondition* c = api::FindCondition(conditions_, "Progressing");
  if (c != nullptr && c->reason == kTimedOutReason) return;
  const bool paused_condition = c != nullptr && c->reason == "DeploymentPaused";
  if (d_.spec.paused && !paused_condition) {
    SetCondition(conditions_, NewCondition("Progressing", "Unknown", "DeploymentPaused",
                                           "Deployment is paused", snap_.now));
  } else if (!d_.spec.paused && paused_condition) {
    SetCondition(conditions_, NewCondition("Progressing", "Unknown", "DeploymentResumed",
                                           "Deployment is resumed", snap_.now));
  }
}

void DeploymentSync::Cleanup(const std::vector<api::ReplicaSet>& sets) {
  if (!d_.spec.revision_history_limit || *d_.spec.revision_history_limit == INT32_MAX) return;
  std::vector<const api::ReplicaSet*> cleanable;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (i != new_index_ && !sets[i].metadata.IsDeleting()) cleanable.push_back(&sets[i]);
  }
  const long diff = static_cast<long>(cleanable.size()) - *d_.spec.revision_history_limit;
  if (diff <= 0) return;
  // ReplicaSetsByRevision: lowest revision first, then by age.
  std::stable_sort(cleanable.begin(), cleanable.end(),
                   [](const api::ReplicaSet* a, const api::ReplicaSet* b) {
                     if (RevisionOf(*a) != RevisionOf(*b)) return RevisionOf(*a) < RevisionOf(*b);
                     return OlderFirst(a, b);
                   });
  for (long i = 0; i < diff; ++i) {
    const api::ReplicaSet& set = *cleanable[static_cast<std::size_t>(i)];
    if (set.status.replicas != 0 || set.spec.replicas.value_or(1) != 0 ||
        set.metadata.generation > set.status.observed_generation) {
      continue;
    }
    plan_.actions.push_back(
        {.kind = Kind::kDeleteReplicaSet, .name = set.metadata.name, .uid = set.metadata.uid});
  }
}

Result<DeploymentPlan> DeploymentSync::Run() {
  FindSets();
  if (d_.metadata.IsDeleting()) {
    SyncStatus();
    return std::move(plan_);
  }
  CheckPausedConditions();
  Status s = Status::Ok();
  if (d_.spec.paused || IsScalingEvent()) {
    RETURN_IF_ERROR(SyncRevision(false));
    // Upstream cleans up with the sets as they were before the scale.
    const std::vector<api::ReplicaSet> before = sets_;
    RETURN_IF_ERROR(Scale());
    if (d_.spec.paused) Cleanup(before);
    SyncStatus();
  } else if (d_.spec.strategy.type == api::kRecreateDeployment) {
    s = RolloutRecreate();
  } else {
    s = RolloutRolling();
  }
  if (s.code() == Code::kConflict) return std::move(plan_);  // a hash collision, counted
  RETURN_IF_ERROR(s);
  return std::move(plan_);
}

Result<DeploymentPlan> PlanDeployment(const DeploymentSnapshot& snapshot) {
  return DeploymentSync(snapshot).Run();
}

}  // namespace lws::cluster
