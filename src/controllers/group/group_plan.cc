#include "controllers/group/group_plan.h"

#include <utility>

#include "api/revision.h"
#include "controllers/group/hash_group_plan.h"
#include "controllers/group/headless_service.h"
#include "controllers/group/pod_group.h"
#include "controllers/group/worker_statefulset.h"

namespace lws::controllers {
namespace {

constexpr std::int64_t kMissingRevisionRequeueMs = 1000;

void AddEvent(const BudgetDecision& d, GroupPlan& plan) {
  const GroupActionKind kind =
      d.event_type == "Warning" ? GroupActionKind::kWarning : GroupActionKind::kNormalEvent;
  plan.actions.push_back({kind, d.reason, d.note, api::Json(), ""});
}

void AddCountsPatch(const GroupSnapshot& s, const BudgetDecision& d, GroupPlan& plan) {
  plan.actions.push_back({GroupActionKind::kPatchLws, "", "",
                          api::GroupRestartCountsPatch(*d.counts, s.lws->metadata.resource_version),
                          ""});
}

BudgetInputs BudgetInputsOf(const GroupSnapshot& s, const api::GroupRestartConfig& config,
                            const api::Pod& leader) {
  // Counts that do not parse (only an LWS stored before the webhook checked them) start over:
  // failing every reconcile on them would stop every group restart of the LWS.
  Result<api::GroupRestartCounts> counts = api::ReadGroupRestartCounts(s.lws->metadata);
  return BudgetInputs{config, counts.ok() ? *counts : api::GroupRestartCounts{}, &leader, s.now};
}

// Step 3 with the opt-in budget or backoff: count, wait, or keep the group as it is.
void PlanGatedRecreate(const GroupSnapshot& s, const api::GroupRestartConfig& config,
                       const api::Pod& leader, const std::string& recreate_note, GroupPlan& plan) {
  BudgetDecision d = GateRecreate(BudgetInputsOf(s, config, leader), s.pod->metadata.name);
  switch (d.verdict) {
    case BudgetVerdict::kKeep:
      return;
    case BudgetVerdict::kWait:
      plan.requeue_after_ms = std::chrono::ceil<std::chrono::milliseconds>(d.wait).count();
      AddEvent(d, plan);
      return;
    case BudgetVerdict::kExhaust:
      AddCountsPatch(s, d, plan);
      AddEvent(d, plan);
      return;
    case BudgetVerdict::kRecreate:
      AddCountsPatch(s, d, plan);
      plan.actions.push_back({GroupActionKind::kDeleteLeaderForeground, kReasonRecreateGroup,
                              recreate_note, api::Json(), leader.metadata.name});
      return;
  }
}

// Step 3a. True when the plan is complete.
bool PlanRecovery(const GroupSnapshot& s, const api::GroupRestartConfig& config, GroupPlan& plan) {
  if (!IsLeaderPod(*s.pod)) return false;
  std::optional<BudgetDecision> d = PlanRecover(BudgetInputsOf(s, config, *s.pod));
  if (!d) return false;
  AddCountsPatch(s, *d, plan);
  plan.actions.push_back({GroupActionKind::kDeleteLeaderForeground, d->reason, d->note, api::Json(),
                          s.pod->metadata.name});
  return true;
}

// Steps 1 and 3: the label check and the restart policy. True when the plan is complete.
bool PlanLabelsAndRestart(const GroupSnapshot& s, GroupPlan& plan) {
  const api::ObjectMeta& meta = s.pod->metadata;
  if (meta.Label(api::kSetNameLabel).empty()) {
    plan.error = Status::Internal("leaderworkerset.sigs.k8s.io/name label is unexpected missing");
    return true;
  }
  if (meta.labels.count(api::kWorkerIndexLabel) == 0) {
    plan.error =
        Status::Internal("leaderworkerset.sigs.k8s.io/worker-index label is unexpected missing");
    return true;
  }
  if (s.lws == nullptr) return true;
  const api::GroupRestartConfig config = api::ReadGroupRestartConfig(s.lws->metadata);
  if (config.enabled() && PlanRecovery(s, config, plan)) return true;
  Result<RestartDecision> decision = DecideRestart(s.restart);
  if (!decision.ok()) {
    plan.error = decision.status();
    return true;
  }
  switch (decision->verdict) {
    case RestartVerdict::kNone:
      return false;
    case RestartVerdict::kLeaderAlreadyDeleting:
      return true;
    case RestartVerdict::kDeleteLeader: {
      const api::Pod* leader = IsLeaderPod(*s.pod) ? s.pod : s.restart.leader;
      if (config.enabled()) {
        PlanGatedRecreate(s, config, *leader, decision->event_note, plan);
        return true;
      }
      plan.actions.push_back({GroupActionKind::kDeleteLeaderForeground, kReasonRecreateGroup,
                              decision->event_note, api::Json(), leader->metadata.name});
      return true;
    }
  }
  return false;
}

api::Json WithoutStatus(api::Json object) {
  object.erase("status");
  return object;
}

// Step 11: the worker StatefulSet for the leader, or why not (error, or nullopt to wait).
Result<std::optional<api::StatefulSet>> WorkerStatefulSetFor(const GroupSnapshot& s) {
  const api::LeaderWorkerSet& lws = *s.lws;
  const api::Pod& leader = *s.pod;
  std::optional<api::LeaderWorkerSet> made;
  const api::LeaderWorkerSet* revision_lws = s.revision_lws;
  if (revision_lws == nullptr) {
    ASSIGN_OR_RETURN(made, api::ApplyRevision(lws, *s.leader_revision));
    revision_lws = &*made;
  }
  api::StatefulSet sts = BuildWorkerStatefulSet(lws, *revision_lws, leader);
  auto exclusive = lws.metadata.annotations.find(api::kExclusiveKeyAnnotation);
  if (exclusive == lws.metadata.annotations.end()) return std::optional(std::move(sts));
  if (leader.spec.node_name.empty()) return std::optional<api::StatefulSet>();
  if (s.leader_node == nullptr) return NodeNotFound(leader.spec.node_name);
  RETURN_IF_ERROR(AddExclusiveNodeSelector(&sts, exclusive->second, *s.leader_node));
  return std::optional(std::move(sts));
}

}  // namespace

std::string MistakeAnnotationNote(const api::Pod& leader) {
  return "leader pod " + leader.metadata.namespace_ + "/" + leader.metadata.name +
         " contains mistake annotation '" + api::kLeaderPodNameAnnotation +
         "': requires Kubernetes \u2265v1.27 or v1.26 with StatefulSetStartOrdinal feature";
}

Status NodeNotFound(const std::string& node_name) {
  return Status::NotFound("getting node \"" + node_name + "\": nodes \"" + node_name +
                          "\" not found");
}

GroupPlan PlanGroup(const GroupSnapshot& s) {
  GroupPlan plan;
  if (PlanLabelsAndRestart(s, plan)) return plan;
  const api::LeaderWorkerSet& lws = *s.lws;
  const api::Pod& pod = *s.pod;
  if (!IsLeaderPod(pod)) return plan;
  if (!pod.metadata.Annotation(api::kLeaderPodNameAnnotation).empty()) {
    plan.actions.push_back({GroupActionKind::kWarning, kReasonFailedCreate,
                            MistakeAnnotationNote(pod), api::Json(), ""});
    return plan;
  }
  if (pod.metadata.IsDeleting()) return plan;
  if (lws.UniquePerReplica() && s.group_service == nullptr) {
    plan.actions.push_back({GroupActionKind::kCreateGroupService, "", "",
                            WithoutStatus(api::Encode(GroupHeadlessService(lws, pod))), ""});
  }
  if (s.gang == GangProvider::kVolcano && !s.pod_group_exists &&
      !pod.metadata.Annotation(api::kGangGroupNameAnnotation).empty()) {
    plan.actions.push_back({GroupActionKind::kCreatePodGroup, "", "", PodGroupFor(lws, pod), ""});
  }
  if (PlanReplacementGate(s, plan)) return plan;
  if (lws.Size() == 1) return plan;
  if (lws.spec.startup_policy == api::kLeaderReadyStartupPolicy &&
      !LeaderReadyForWorkers(lws, pod)) {
    return plan;
  }
  if (s.leader_revision == nullptr) {
    plan.requeue_after_ms = kMissingRevisionRequeueMs;
    return plan;
  }
  if (Status address = CheckHashLeaderAddress(lws, pod); !address.ok()) {
    plan.error = address;
    return plan;
  }
  Result<std::optional<api::StatefulSet>> sts = WorkerStatefulSetFor(s);
  if (!sts.ok()) {
    plan.error = sts.status();
    return plan;
  }
  if (!sts->has_value()) return plan;
  if (Status owner = CheckWorkerStatefulSetOwner(s, plan); !owner.ok()) {
    plan.error = owner;
    return plan;
  }
  if (s.worker_statefulset == nullptr) {
    plan.actions.push_back({GroupActionKind::kCreateWorkerStatefulSet, kReasonGroupsProgressing,
                            CreatedWorkerStatefulSetNote(pod.metadata.name),
                            WithoutStatus(api::Encode(**sts)), ""});
  }
  PlanGroupReady(s, FormatRfc3339(s.now), plan);
  return plan;
}

}  // namespace lws::controllers
