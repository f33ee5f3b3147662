#include "controllers/group/restart_policy.h"

#include "api/pod_names.h"

namespace lws::controllers {
namespace {

bool AnyRestarts(const std::vector<api::ContainerStatus>& statuses) {
  for (const auto& status : statuses) {
    if (status.restart_count > 0) return true;
  }
  return false;
}

bool PolicyRecreatesGroups(const std::string& policy) {
  return policy == api::kRecreateGroupOnPodRestart || policy == api::kRecreateGroupAfterStart;
}

// True while the group has not fully come up: some pod is missing or still Pending.
bool GroupPending(const RestartInputs& in) {
  if (static_cast<std::int64_t>(in.group_pods.size()) != in.lws->Size()) return true;
  for (const api::Pod* pod : in.group_pods) {
    if (pod->status.phase == "Pending") return true;
  }
  return false;
}

bool WaitsForGroupStart(const api::LeaderWorkerSet& lws) {
  return lws.spec.leader_worker_template.restart_policy == api::kRecreateGroupAfterStart ||
         lws.metadata.annotations.count(api::kRecreateGroupAfterStartAnnotation) > 0;
}

// True iff `worker` belongs to the current incarnation of `leader`: it is controlled by the
// leader pod itself, or by the StatefulSet that the leader (same name and UID) controls now.
bool OwnedByCurrentGroup(const api::Pod& worker, const api::Pod& leader,
                         const api::StatefulSet* owner_sts) {
  const api::OwnerReference* ref = worker.metadata.ControllerRef();
  if (ref == nullptr) return false;
  if (ref->kind == "Pod") {
    return ref->name == leader.metadata.name && ref->uid == leader.metadata.uid;
  }
  if (ref->kind != "StatefulSet" || owner_sts == nullptr) return false;
  if (owner_sts->metadata.name != ref->name || owner_sts->metadata.uid != ref->uid) return false;
  const api::OwnerReference* sts_ref = owner_sts->metadata.ControllerRef();
  return sts_ref != nullptr && sts_ref->kind == "Pod" && sts_ref->name == leader.metadata.name &&
         sts_ref->uid == leader.metadata.uid;
}

}  // namespace

bool IsLeaderPod(const api::Pod& pod) { return pod.metadata.Label(api::kWorkerIndexLabel) == "0"; }

bool ContainerRestarted(const api::Pod& pod) {
  const std::string& phase = pod.status.phase;
  if (phase != "Running" && phase != "Pending") return false;
  return AnyRestarts(pod.status.init_container_statuses) ||
         AnyRestarts(pod.status.container_statuses);
}

bool PodDeletedOrRestarted(const api::Pod& pod) {
  return pod.metadata.IsDeleting() || ContainerRestarted(pod);
}

Result<std::string> LeaderNameOfWorker(const api::Pod& worker) {
  // A Hash group's workers are named after the leader's hostname, not its pod name.
  const std::string& annotated = worker.metadata.Annotation(api::kLeaderPodNameAnnotation);
  if (!annotated.empty()) return annotated;
  auto [parent, ordinal] = api::GetParentNameAndOrdinal(worker.metadata.name);
  if (ordinal == -1) return Status::Internal("parsing pod name for pod " + worker.metadata.name);
  return parent;
}

Result<RestartDecision> DecideRestart(const RestartInputs& in) {
  const api::LeaderWorkerSet& lws = *in.lws;
  const api::Pod& pod = *in.pod;
  RestartDecision none;
  if (!PolicyRecreatesGroups(lws.spec.leader_worker_template.restart_policy)) return none;
  if (!PodDeletedOrRestarted(pod)) return none;
  if (WaitsForGroupStart(lws) && GroupPending(in)) return none;

  const api::Pod* leader = &pod;
  if (!IsLeaderPod(pod)) {
    ASSIGN_OR_RETURN(std::string leader_name, LeaderNameOfWorker(pod));
    leader = in.leader;
    // A leader of another name is not this worker's leader: treat it as not found.
    if (leader == nullptr || leader->metadata.name != leader_name) return none;
    // A worker of another revision is about to be replaced by one matching its leader.
    if (leader->metadata.Label(api::kRevisionLabel) != pod.metadata.Label(api::kRevisionLabel)) {
      return none;
    }
    if (!OwnedByCurrentGroup(pod, *leader, in.owner_statefulset)) return none;
  }
  if (leader->metadata.IsDeleting()) {
    return RestartDecision{RestartVerdict::kLeaderAlreadyDeleting, ""};
  }
  return RestartDecision{RestartVerdict::kDeleteLeader,
                         "Worker pod " + pod.metadata.name + " failed, deleted leader pod " +
                             leader->metadata.name + " to recreate group " +
                             leader->metadata.Label(api::kGroupIndexLabel)};
}

}  // namespace lws::controllers
