#include "controllers/group/worker_statefulset.h"

#include <utility>

#include "api/group_identity.h"
#include "api/tpu_env.h"
#include "controllers/group/headless_service.h"

namespace lws::controllers {
namespace {

// Writes every entry of `overlay` into `base`; overlay values win, other base entries stay.
void Overlay(api::StringMap& base, const api::StringMap& overlay) {
  for (const auto& [key, value] : overlay) base[key] = value;
}

// The labels that tie the workers to their group; also the StatefulSet selector.
api::StringMap GroupSelector(const api::LeaderWorkerSet& live, const api::Pod& leader) {
  return {
      {api::kGroupIndexLabel, leader.metadata.Label(api::kGroupIndexLabel)},
      {api::kSetNameLabel, live.metadata.name},
      {api::kGroupUniqueHashLabel, leader.metadata.Label(api::kGroupUniqueHashLabel)},
  };
}

api::StringMap WorkerTemplateAnnotations(const api::LeaderWorkerSet& live,
                                         const api::LeaderWorkerSet& rl, const api::Pod& leader) {
  api::StringMap out = {
      {api::kSizeAnnotation, std::to_string(rl.Size())},
      {api::kLeaderPodNameAnnotation, leader.metadata.name},
  };
  std::string exclusive = live.metadata.Annotation(api::kExclusiveKeyAnnotation);
  if (!exclusive.empty()) out[api::kExclusiveKeyAnnotation] = exclusive;
  if (const auto& policy = rl.spec.leader_worker_template.sub_group_policy) {
    if (policy->type) out[api::kSubGroupPolicyTypeAnnotation] = *policy->type;
    // Validation requires subGroupSize with a subGroupPolicy; upstream would crash without it.
    if (policy->sub_group_size) {
      out[api::kSubGroupSizeAnnotation] = std::to_string(*policy->sub_group_size);
    }
    std::string sub_exclusive = live.metadata.Annotation(api::kSubGroupExclusiveKeyAnnotation);
    if (!sub_exclusive.empty()) out[api::kSubGroupExclusiveKeyAnnotation] = sub_exclusive;
  }
  // The webhook cannot see the leader when it admits a worker; this tells it whether the
  // leader is one of the TPU hosts.
  if (api::PodRequestsTpus(leader.spec)) out[api::kLeaderRequestsTpusAnnotation] = "true";
  // Hash workers cannot derive their leader's address from an ordinal: it is handed down.
  if (api::IsHashIdentity(live)) {
    out[api::kGroupIdentityAnnotation] = api::kGroupIdentityHash;
    out[api::kLeaderAddressAnnotation] =
        leader.spec.hostname + "." + leader.spec.subdomain + "." + leader.metadata.namespace_;
  }
  return out;
}

}  // namespace

std::string WorkerStatefulSetName(const api::LeaderWorkerSet& live, const api::Pod& leader) {
  if (api::IsHashIdentity(live) && !leader.spec.hostname.empty()) return leader.spec.hostname;
  return leader.metadata.name;
}

api::PodCondition GroupReadyCondition(bool workers_ready, const std::string& now) {
  api::PodCondition c;
  c.type = api::kGroupReadyCondition;
  c.status = workers_ready ? "True" : "False";
  c.reason = workers_ready ? api::kWorkerStatefulSetReady : api::kWorkerStatefulSetNotReady;
  c.last_transition_time = now;
  return c;
}

bool GroupReadyConditionChanged(const api::Pod& leader, bool workers_ready) {
  const api::PodCondition* c = leader.status.FindCondition(api::kGroupReadyCondition);
  return c == nullptr || c->status != (workers_ready ? "True" : "False");
}

std::vector<api::PersistentVolumeClaim> ReducedClaimTemplates(const api::LeaderWorkerSet& lws) {
  std::vector<api::PersistentVolumeClaim> out;
  for (const auto& claim : lws.spec.leader_worker_template.volume_claim_templates) {
    api::PersistentVolumeClaim reduced;
    reduced.api_version = "v1";
    reduced.kind = "PersistentVolumeClaim";
    reduced.metadata.name = claim.metadata.name;
    reduced.metadata.namespace_ = lws.metadata.namespace_;
    reduced.spec.access_modes = claim.spec.access_modes;
    reduced.spec.storage_class_name = claim.spec.storage_class_name;
    reduced.spec.volume_mode = claim.spec.volume_mode;
    reduced.spec.resources.requests = claim.spec.resources.requests;
    reduced.spec.resources.limits = claim.spec.resources.limits;
    out.push_back(std::move(reduced));
  }
  return out;
}

api::StatefulSet BuildWorkerStatefulSet(const api::LeaderWorkerSet& live,
                                        const api::LeaderWorkerSet& revision_lws,
                                        const api::Pod& leader) {
  const api::LeaderWorkerSet& rl = revision_lws;
  api::StringMap selector = GroupSelector(live, leader);
  api::StringMap labels = selector;
  labels[api::kRevisionLabel] = leader.metadata.Label(api::kRevisionLabel);

  api::StatefulSet sts;
  sts.metadata.name = WorkerStatefulSetName(live, leader);
  sts.metadata.namespace_ = leader.metadata.namespace_;
  sts.metadata.labels = live.metadata.labels;
  Overlay(sts.metadata.labels, labels);
  sts.metadata.labels[api::kRoleLabel] = api::kRoleWorker;  // the StatefulSet's, not the pods
  sts.metadata.annotations = live.metadata.annotations;
  sts.metadata.owner_references = {
      ControllerRefTo("v1", "Pod", leader.metadata.name, leader.metadata.uid)};

  api::StatefulSetSpec& spec = sts.spec;
  spec.replicas = rl.Size() - 1;
  spec.selector.emplace().match_labels = std::move(selector);
  spec.template_ = rl.spec.leader_worker_template.worker_template;
  Overlay(spec.template_.metadata.labels, labels);
  Overlay(spec.template_.metadata.annotations, WorkerTemplateAnnotations(live, rl, leader));
  if (api::IsHashIdentity(live)) {
    spec.service_name = leader.spec.subdomain;  // the LWS's Service, or the group's own
  } else {
    spec.service_name = rl.UniquePerReplica() ? leader.metadata.name : live.metadata.name;
  }
  spec.pod_management_policy = "Parallel";
  spec.ordinals.emplace().start = 1;
  spec.volume_claim_templates = ReducedClaimTemplates(rl);
  spec.persistent_volume_claim_retention_policy =
      rl.spec.leader_worker_template.persistent_volume_claim_retention_policy;
  return sts;
}

Status AddExclusiveNodeSelector(api::StatefulSet* sts, const std::string& topology_key,
                                const api::Node& node) {
  auto it = node.metadata.labels.find(topology_key);
  if (it == node.metadata.labels.end()) {
    // Upstream formats the looked-up value, which is always empty here.
    return Status::Internal("node does not have topology label: ");
  }
  sts->spec.template_.spec.node_selector[topology_key] = it->second;
  return Status::Ok();
}

bool StatefulSetReady(const api::StatefulSet& sts) {
  return sts.spec.replicas.value_or(1) == sts.status.available_replicas &&
         sts.status.current_revision == sts.status.update_revision;
}

bool PodRunningAndReady(const api::Pod& pod) { return pod.IsRunningAndReady(); }

bool PodReady(const api::Pod& pod) {
  const api::PodCondition* ready = pod.status.FindCondition("Ready");
  return ready != nullptr && ready->status == "True";
}

std::string CreatedWorkerStatefulSetNote(const std::string& leader_name) {
  return "Created worker statefulset for leader pod " + leader_name;
}

std::string FailedCreateWorkerStatefulSetNote(const std::string& leader_name, const Status& error) {
  return "Failed to create worker statefulset for leader pod " + leader_name + ": " +
         error.message();
}

}  // namespace lws::controllers
