// The DaemonSet controller's decisions (daemonset_plan.h).
#include "cluster/daemonset_plan.h"

#include <algorithm>
#include <map>

#include "api/codec.h"
#include "api/intstr.h"
#include "api/revision.h"
#include "cluster/owner_controller.h"
#include "cluster/pod_availability.h"
#include "cluster/scheduler_filters.h"

namespace lws::cluster {

namespace {

using Kind = DaemonSetActionKind;

api::Toleration ExistsToleration(std::string key, std::string effect) {
  api::Toleration t;
  t.key = std::move(key);
  t.operator_ = "Exists";
  t.effect = std::move(effect);
  return t;
}

bool SameToleration(const api::Toleration& a, const api::Toleration& b) {
  return a.key == b.key && a.operator_ == b.operator_ && a.value == b.value &&
         a.effect == b.effect && a.toleration_seconds == b.toleration_seconds;
}

bool HostNetwork(const api::PodSpec& spec) {
  const api::Json& host = api::ChildOrNull(spec.rest, "hostNetwork");
  return host.is_boolean() && host.get<bool>();
}

void AddDaemonTolerations(api::PodSpec* spec) {
  for (api::Toleration& t : DaemonPodTolerations(HostNetwork(*spec))) {
    const bool present =
        std::any_of(spec->tolerations.begin(), spec->tolerations.end(),
                    [&](const api::Toleration& o) { return SameToleration(o, t); });
    if (!present) spec->tolerations.push_back(std::move(t));
  }
}

// The node an unbound pod is pinned to by its required affinity (util.GetTargetNodeName).
std::string TargetNode(const api::Pod& pod) {
  if (!pod.spec.node_name.empty()) return pod.spec.node_name;
  if (!pod.spec.affinity || !pod.spec.affinity->node_affinity ||
      !pod.spec.affinity->node_affinity->required) {
    return "";
  }
  for (const api::NodeSelectorTerm& term :
       pod.spec.affinity->node_affinity->required->node_selector_terms) {
    for (const api::NodeSelectorRequirement& r : term.match_fields) {
      if (r.key == "metadata.name" && r.operator_ == "In" && r.values.size() == 1)
        return r.values[0];
    }
  }
  return "";
}

// Oldest first (upstream's podByCreationTimestampAndPhase, phase aside).
void SortOldestFirst(std::vector<const api::Pod*>* pods) {
  std::stable_sort(pods->begin(), pods->end(), [](const api::Pod* a, const api::Pod* b) {
    if (a->metadata.creation_timestamp != b->metadata.creation_timestamp) {
      return a->metadata.creation_timestamp < b->metadata.creation_timestamp;
    }
    return a->metadata.name < b->metadata.name;
  });
}

bool IsReady(const api::Pod& pod) {
  const api::PodCondition* ready = pod.status.FindCondition("Ready");
  return ready != nullptr && ready->status == "True";
}

struct NodeState {
  NodeVerdict verdict;
  std::vector<const api::Pod*> pods;  // active daemon pods, oldest first
};

void Delete(const api::Pod& pod, DaemonSetPlan* plan) {
  plan->actions.push_back(
      {.kind = Kind::kDeletePod, .name = pod.metadata.name, .uid = pod.metadata.uid});
}

// maxUnavailable resolved against the number of nodes that should run the pod (at least 1:
// a surge-only setting is updated one node at a time here).
int MaxUnavailable(const api::DaemonSet& set, int desired) {
  const auto& rolling = set.spec.update_strategy.rolling_update;
  if (!rolling || !rolling->max_unavailable) return 1;
  Result<std::int64_t> value =
      api::GetScaledValueFromIntOrPercent(*rolling->max_unavailable, desired, true);
  return value.ok() ? std::max<int>(1, static_cast<int>(*value)) : 1;
}

// Step 4, RollingUpdate: which old pods go now.
void RollingUpdate(const DaemonSetSnapshot& snap, const std::map<std::string, NodeState>& nodes,
                   const std::string& hash, int desired, DaemonSetPlan* plan) {
  const api::DaemonSet& set = snap.set;
  int unavailable = 0;
  std::vector<const api::Pod*> old_available, old_unavailable;
  for (const auto& [name, state] : nodes) {
    if (!state.verdict.should_run) continue;
    const api::Pod* pod = state.pods.empty() ? nullptr : state.pods.front();
    const bool available =
        pod != nullptr && IsPodAvailable(*pod, set.spec.min_ready_seconds, snap.now);
    if (!available) ++unavailable;
    if (pod == nullptr || pod->metadata.Label(kControllerRevisionHashLabel) == hash) continue;
    (available ? old_available : old_unavailable).push_back(pod);
  }
  for (const api::Pod* pod : old_unavailable) Delete(*pod, plan);
  const int budget = MaxUnavailable(set, desired) - unavailable;
  for (int i = 0; i < budget && i < static_cast<int>(old_available.size()); ++i) {
    Delete(*old_available[i], plan);
  }
}

api::DaemonSetStatus StatusOf(const DaemonSetSnapshot& snap,
                              const std::map<std::string, NodeState>& nodes,
                              const std::string& hash) {
  const api::DaemonSet& set = snap.set;
  api::DaemonSetStatus status = set.status;
  status.desired_number_scheduled = status.current_number_scheduled = status.number_misscheduled =
      0;
  status.number_ready = status.number_available = status.updated_number_scheduled = 0;
  for (const auto& [name, state] : nodes) {
    const bool scheduled = !state.pods.empty();
    if (!state.verdict.should_run) {
      if (scheduled) ++status.number_misscheduled;
      continue;
    }
    ++status.desired_number_scheduled;
    if (!scheduled) continue;
    ++status.current_number_scheduled;
    const api::Pod& pod = *state.pods.front();
    if (IsReady(pod)) ++status.number_ready;
    if (IsPodAvailable(pod, set.spec.min_ready_seconds, snap.now)) ++status.number_available;
    if (pod.metadata.Label(kControllerRevisionHashLabel) == hash) ++status.updated_number_scheduled;
  }
  status.number_unavailable = status.desired_number_scheduled - status.number_available;
  status.observed_generation = set.metadata.generation;
  return status;
}

}  // namespace

std::vector<api::Toleration> DaemonPodTolerations(bool host_network) {
  std::vector<api::Toleration> out = {
      ExistsToleration("node.kubernetes.io/not-ready", "NoExecute"),
      ExistsToleration("node.kubernetes.io/unreachable", "NoExecute"),
      ExistsToleration("node.kubernetes.io/disk-pressure", "NoSchedule"),
      ExistsToleration("node.kubernetes.io/memory-pressure", "NoSchedule"),
      ExistsToleration("node.kubernetes.io/pid-pressure", "NoSchedule"),
      ExistsToleration("node.kubernetes.io/unschedulable", "NoSchedule")};
  if (host_network)
    out.push_back(ExistsToleration("node.kubernetes.io/network-unavailable", "NoSchedule"));
  return out;
}

std::string DaemonSetTemplateHash(const api::DaemonSet& set) {
  // As upstream's revision patch: the template, replaced whole.
  api::Json tmpl = api::Encode(set.spec.template_);
  tmpl["$patch"] = "replace";
  return api::RevisionHash(api::PatchBytes({{"spec", {{"template", std::move(tmpl)}}}}));
}

api::Pod NewDaemonPod(const api::DaemonSet& set, const std::string& node, const std::string& hash) {
  api::Pod pod;
  const api::PodTemplateSpec& tmpl = set.spec.template_;
  pod.metadata.generate_name = set.metadata.name + "-";
  pod.metadata.namespace_ = set.metadata.namespace_;
  pod.metadata.labels = tmpl.metadata.labels;
  pod.metadata.labels[std::string(kControllerRevisionHashLabel)] = hash;
  pod.metadata.labels[std::string(kPodTemplateGenerationLabel)] =
      std::to_string(set.metadata.generation);
  pod.metadata.annotations = tmpl.metadata.annotations;
  pod.metadata.finalizers = tmpl.metadata.finalizers;
  pod.metadata.owner_references.push_back(AppsControllerRef("DaemonSet", set.metadata));
  pod.spec = tmpl.spec;
  AddDaemonTolerations(&pod.spec);
  api::NodeSelectorRequirement pin;
  pin.key = "metadata.name";
  pin.operator_ = "In";
  pin.values = {node};
  api::NodeSelectorTerm term;
  term.match_fields.push_back(std::move(pin));
  if (!pod.spec.affinity) pod.spec.affinity.emplace();
  if (!pod.spec.affinity->node_affinity) pod.spec.affinity->node_affinity.emplace();
  pod.spec.affinity->node_affinity->required.emplace();
  pod.spec.affinity->node_affinity->required->node_selector_terms.push_back(std::move(term));
  return pod;
}

NodeVerdict NodeShouldRunDaemonPod(const api::Node& node, const api::DaemonSet& set) {
  api::Pod pod;
  pod.spec = set.spec.template_.spec;
  AddDaemonTolerations(&pod.spec);
  if (!pod.spec.node_name.empty() && pod.spec.node_name != node.metadata.name) return {};
  if (!scheduler::CheckNodeAffinity(pod, node).Passed()) return {};
  NodeVerdict verdict{true, true};
  for (const api::Taint& taint : node.spec.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (scheduler::Tolerates(pod.spec.tolerations, taint)) continue;
    verdict.should_run = false;
    if (taint.effect == "NoExecute") verdict.should_continue_running = false;
  }
  return verdict;
}

DaemonSetPlan PlanDaemonSet(const DaemonSetSnapshot& snap) {
  const api::DaemonSet& set = snap.set;
  DaemonSetPlan plan;
  const std::string hash = DaemonSetTemplateHash(set);
  std::map<std::string, NodeState> nodes;
  for (const auto& node : snap.nodes)
    nodes[node->metadata.name].verdict = NodeShouldRunDaemonPod(*node, set);
  std::vector<const api::Pod*> failed;
  for (const auto& pod : snap.pods) {
    if (pod->metadata.IsDeleting() || pod->status.phase == "Succeeded") continue;
    if (pod->status.phase == "Failed") {
      failed.push_back(pod.get());
      continue;
    }
    // A pod on a node that is gone counts under that name, whose verdict is "no".
    nodes[TargetNode(*pod)].pods.push_back(pod.get());
  }
  if (!set.metadata.IsDeleting()) {
    for (const api::Pod* pod : failed) Delete(*pod, &plan);
    for (auto& [name, state] : nodes) {
      SortOldestFirst(&state.pods);
      if (name.empty() || !state.verdict.should_continue_running) {
        for (const api::Pod* pod : state.pods) Delete(*pod, &plan);
        continue;
      }
      for (std::size_t i = 1; i < state.pods.size(); ++i) Delete(*state.pods[i], &plan);
      if (state.verdict.should_run && state.pods.empty()) {
        plan.actions.push_back(
            {.kind = Kind::kCreatePod, .name = name, .pod = NewDaemonPod(set, name, hash)});
      }
    }
  }
  plan.status = StatusOf(snap, nodes, hash);
  if (!set.metadata.IsDeleting() && set.spec.update_strategy.type == "RollingUpdate") {
    RollingUpdate(snap, nodes, hash, plan.status.desired_number_scheduled, &plan);
  }
  if (api::Encode(plan.status) != api::Encode(set.status)) {
    plan.actions.push_back({.kind = Kind::kUpdateStatus, .name = set.metadata.name});
  }
  std::vector<std::shared_ptr<const api::Pod>> waiting;
  for (const auto& pod : snap.pods) {
    if (IsPodActive(*pod)) waiting.push_back(pod);
  }
  if (std::optional<Duration> wait = AvailableWait(waiting, set.spec.min_ready_seconds, snap.now)) {
    plan.actions.push_back({.kind = Kind::kRequeueAfter, .requeue_after = *wait});
  }
  return plan;
}

}  // namespace lws::cluster
