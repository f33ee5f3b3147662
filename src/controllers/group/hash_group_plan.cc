// File: controllers/group/hash_group_plan.cc
#include "controllers/group/hash_group_plan.h"

#include <fmt/format.h>

#include "api/codec.h"
#include "api/group_identity.h"
#include "controllers/group/group_replacement.h"
#include "controllers/group/worker_statefulset.h"

namespace lws::controllers {

std::string GroupReplacementDeferredNote(const std::string& leader, int tearing_down) {
  return fmt::format(
      "Leader pod {} waits for {} terminating group(s) to be removed before scheduling", leader,
      tearing_down);
}

std::string GroupReplacementAdmittedNote(const std::string& leader) {
  return "Leader pod " + leader + " admitted for scheduling";
}

bool PlanReplacementGate(const GroupSnapshot& s, GroupPlan& plan) {
  const api::Pod& leader = *s.pod;
  if (!api::IsHashIdentity(*s.lws) || !HasSchedulingGate(leader, api::kGroupReplacementGate)) {
    return false;
  }
  const GateDecision decision = DecideGroupReplacement(*s.lws, s.lws_pods, leader);
  if (!decision.admit) {
    plan.actions.push_back(
        {GroupActionKind::kNormalEvent, api::kGroupReplacementDeferred,
         GroupReplacementDeferredNote(leader.metadata.name, decision.tearing_down), api::Json(),
         ""});
    plan.requeue_after_ms = kGroupReplacementRequeueMs;
    return true;
  }
  // Only this gate goes; a gate someone else set stays. No gate left: the field goes.
  api::Json gates = GatesWithoutGroupReplacement(leader);
  if (gates.empty()) gates = nullptr;
  plan.actions.push_back({GroupActionKind::kPatchLeader,
                          api::kGroupReplacementAdmitted,
                          GroupReplacementAdmittedNote(leader.metadata.name),
                          {{"spec", {{"schedulingGates", std::move(gates)}}}},
                          leader.metadata.name});
  return false;
}

bool LeaderReadyForWorkers(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  if (!api::IsHashIdentity(lws)) return PodReady(leader);
  const api::PodCondition* ready = leader.status.FindCondition("ContainersReady");
  return ready != nullptr && ready->status == "True";
}

Status CheckHashLeaderAddress(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  if (!api::IsHashIdentity(lws)) return Status::Ok();
  if (!leader.spec.hostname.empty() && !leader.spec.subdomain.empty()) return Status::Ok();
  return Status::Internal("leader pod " + leader.metadata.namespace_ + "/" + leader.metadata.name +
                          " has no hostname or subdomain");
}

Status CheckWorkerStatefulSetOwner(const GroupSnapshot& s, GroupPlan& plan) {
  const api::StatefulSet* sts = s.worker_statefulset;
  if (sts == nullptr || !api::IsHashIdentity(*s.lws)) return Status::Ok();
  const api::OwnerReference* owner = sts->metadata.ControllerRef();
  const api::ObjectMeta& leader = s.pod->metadata;
  if (owner != nullptr && owner->kind == "Pod" && owner->uid == leader.uid) return Status::Ok();
  const std::string note = "worker statefulset " + sts->metadata.namespace_ + "/" +
                           sts->metadata.name + " is not controlled by leader pod " + leader.name;
  plan.actions.push_back({GroupActionKind::kWarning, kReasonFailedCreate, note, api::Json(), ""});
  return Status::Internal(note);
}

void PlanGroupReady(const GroupSnapshot& s, const std::string& now, GroupPlan& plan) {
  if (!api::IsHashIdentity(*s.lws)) return;
  // A StatefulSet created by this plan is not ready yet, as upstream counts it.
  const bool ready = s.worker_statefulset != nullptr && StatefulSetReady(*s.worker_statefulset);
  if (!GroupReadyConditionChanged(*s.pod, ready)) return;
  api::Json condition = api::Encode(GroupReadyCondition(ready, now));
  plan.actions.push_back({GroupActionKind::kPatchLeaderStatus,
                          "",
                          "",
                          {{"status", {{"conditions", api::Json::array({std::move(condition)})}}}},
                          s.pod->metadata.name});
}

}  // namespace lws::controllers
