// The ReplicaSet controller's decisions (replicaset_plan.h).
#include "cluster/replicaset_plan.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "api/codec.h"
#include "cluster/owner_controller.h"
#include "cluster/pod_availability.h"

namespace lws::cluster {

namespace {

using Kind = ReplicaSetActionKind;

int PhaseOrdinal(const std::string& phase) {
  if (phase == "Pending") return 0;
  if (phase == "Unknown") return 1;
  if (phase == "Running") return 2;
  return 3;  // upstream's map gives other phases 0; active pods are never Succeeded/Failed
}

bool IsReady(const api::Pod& pod) {
  const api::PodCondition* ready = pod.status.FindCondition("Ready");
  return ready != nullptr && ready->status == "True";
}

std::optional<Time> ReadyTime(const api::Pod& pod) {
  if (!IsReady(pod)) return std::nullopt;
  const api::PodCondition* ready = pod.status.FindCondition("Ready");
  Result<Time> since = ParseRfc3339(ready->last_transition_time);
  return since.ok() ? std::optional<Time>(*since) : std::nullopt;
}

std::optional<Time> CreationTime(const api::Pod& pod) {
  Result<Time> created = ParseRfc3339(pod.metadata.creation_timestamp);
  return created.ok() ? std::optional<Time>(*created) : std::nullopt;
}

// helper.GetDeletionCostFromPodAnnotations: 0 when absent or not an int32.
std::int64_t DeletionCost(const api::Pod& pod) {
  auto it = pod.metadata.annotations.find(std::string(kPodDeletionCostAnnotation));
  if (it == pod.metadata.annotations.end()) return 0;
  Result<std::int64_t> cost = api::GoAtoi(it->second);
  if (!cost.ok() || *cost < INT32_MIN || *cost > INT32_MAX) return 0;
  return *cost;
}

// The highest restart count of the pod's containers (upstream maxContainerRestarts).
std::int32_t MaxRestarts(const api::Pod& pod) {
  std::int32_t most = 0;
  for (const api::ContainerStatus& c : pod.status.container_statuses) {
    most = std::max(most, c.restart_count);
  }
  return most;
}

// afterOrZero: a zero time sorts first, then the later time.
bool AfterOrZero(const std::optional<Time>& a, const std::optional<Time>& b) {
  if (!a || !b) return !a;
  return *a > *b;
}

// logarithmicRankDiff: the difference of floor(log2(age in ns)) of two times at `now`.
int LogRank(Time t, Time now) {
  auto age = std::chrono::duration_cast<std::chrono::nanoseconds>(now - t).count();
  if (age <= 0) return -1;
  return static_cast<int>(std::log2(static_cast<double>(age)));
}

// Newer (or more recently Ready) first, in log2 buckets; a tie is broken by uid.
std::optional<bool> CompareAges(const std::optional<Time>& a, const std::optional<Time>& b,
                                const api::Pod& pa, const api::Pod& pb, Time now) {
  if (a == b) return std::nullopt;
  if (!a || !b) return AfterOrZero(a, b);
  int diff = LogRank(*a, now) - LogRank(*b, now);
  if (diff == 0) return pa.metadata.uid < pb.metadata.uid;
  return diff < 0;
}

bool FullyLabeled(const api::Pod& pod, const api::StringMap& template_labels) {
  for (const auto& [key, value] : template_labels) {
    auto it = pod.metadata.labels.find(key);
    if (it == pod.metadata.labels.end() || it->second != value) return false;
  }
  return true;
}

api::ReplicaSetStatus Status(const ReplicaSetSnapshot& snap,
                             const std::vector<const api::Pod*>& active) {
  const api::ReplicaSet& set = snap.set;
  api::ReplicaSetStatus status;
  status.observed_generation = set.metadata.generation;
  status.replicas = static_cast<std::int32_t>(active.size());
  for (const api::Pod* pod : active) {
    if (FullyLabeled(*pod, set.spec.template_.metadata.labels)) ++status.fully_labeled_replicas;
    if (IsReady(*pod)) {
      ++status.ready_replicas;
      if (IsPodAvailable(*pod, set.spec.min_ready_seconds, snap.now)) ++status.available_replicas;
    }
  }
  // A condition other than ReplicaFailure is someone else's: kept.
  for (const api::WorkloadCondition& c : set.status.conditions) {
    if (c.type != "ReplicaFailure") status.conditions.push_back(c);
  }
  status.rest = set.status.rest;
  return status;
}

// Active pods ranked for deletion, the first `count` of them.
std::vector<const api::Pod*> PodsToDelete(const ReplicaSetSnapshot& snap,
                                          std::vector<const api::Pod*> active, std::size_t count) {
  if (count < active.size()) {
    std::map<std::string, int> on_node;
    const auto& related = snap.related.empty() ? snap.pods : snap.related;
    for (const auto& pod : related) {
      if (IsPodActive(*pod) && !pod->spec.node_name.empty()) ++on_node[pod->spec.node_name];
    }
    auto rank = [&](const api::Pod* pod) {
      auto it = on_node.find(pod->spec.node_name);
      return it == on_node.end() ? 0 : it->second;
    };
    // Go's sort.Sort is not stable; ranking pods by name first makes ties deterministic here.
    std::sort(active.begin(), active.end(), [](const api::Pod* a, const api::Pod* b) {
      return a->metadata.name < b->metadata.name;
    });
    std::stable_sort(active.begin(), active.end(), [&](const api::Pod* a, const api::Pod* b) {
      return ComparePodsToDelete(*a, rank(a), *b, rank(b), snap.now);
    });
  }
  active.resize(std::min(count, active.size()));
  return active;
}

}  // namespace

bool ComparePodsToDelete(const api::Pod& a, int rank_a, const api::Pod& b, int rank_b, Time now) {
  const std::string& node_a = a.spec.node_name;
  const std::string& node_b = b.spec.node_name;
  if (node_a != node_b && (node_a.empty() || node_b.empty())) return node_a.empty();
  int phase_a = PhaseOrdinal(a.status.phase), phase_b = PhaseOrdinal(b.status.phase);
  if (phase_a != phase_b) return phase_a < phase_b;
  if (IsReady(a) != IsReady(b)) return !IsReady(a);
  if (DeletionCost(a) != DeletionCost(b)) return DeletionCost(a) < DeletionCost(b);
  if (rank_a != rank_b) return rank_a > rank_b;
  if (IsReady(a) && IsReady(b)) {
    if (std::optional<bool> by_ready = CompareAges(ReadyTime(a), ReadyTime(b), a, b, now)) {
      return *by_ready;
    }
  }
  if (MaxRestarts(a) != MaxRestarts(b)) return MaxRestarts(a) > MaxRestarts(b);
  if (std::optional<bool> by_age = CompareAges(CreationTime(a), CreationTime(b), a, b, now)) {
    return *by_age;
  }
  return false;
}

bool RanksPodsToDelete(const ReplicaSetSnapshot& snap) {
  if (snap.set.metadata.IsDeleting()) return false;
  const auto active = std::count_if(snap.pods.begin(), snap.pods.end(),
                                    [](const auto& pod) { return IsPodActive(*pod); });
  const auto excess = std::min<long>(active - snap.set.spec.replicas.value_or(1), kBurstReplicas);
  return excess > 0 && excess < active;
}

api::Pod NewReplicaSetPod(const api::ReplicaSet& set) {
  api::Pod pod;
  const api::PodTemplateSpec& tmpl = set.spec.template_;
  pod.metadata.generate_name = set.metadata.name + "-";
  pod.metadata.namespace_ = set.metadata.namespace_;
  pod.metadata.labels = tmpl.metadata.labels;
  pod.metadata.annotations = tmpl.metadata.annotations;
  pod.metadata.finalizers = tmpl.metadata.finalizers;
  pod.metadata.owner_references.push_back(AppsControllerRef("ReplicaSet", set.metadata));
  pod.spec = tmpl.spec;
  return pod;
}

api::ReplicaSetStatus WithReplicaFailure(api::ReplicaSetStatus status, const std::string& reason,
                                         const std::string& message, Time now) {
  for (api::WorkloadCondition& c : status.conditions) {
    if (c.type != "ReplicaFailure") continue;
    if (c.status == "True" && c.reason == reason && c.message == message) return status;
  }
  std::erase_if(status.conditions,
                [](const api::WorkloadCondition& c) { return c.type == "ReplicaFailure"; });
  api::WorkloadCondition failure;
  failure.type = "ReplicaFailure";
  failure.status = "True";
  failure.last_transition_time = FormatRfc3339(now);
  failure.reason = reason;
  failure.message = message;
  status.conditions.push_back(std::move(failure));
  return status;
}

ReplicaSetPlan PlanReplicaSet(const ReplicaSetSnapshot& snap) {
  const api::ReplicaSet& set = snap.set;
  ReplicaSetPlan plan;
  std::vector<const api::Pod*> active;
  for (const auto& pod : snap.pods) {
    if (IsPodActive(*pod)) active.push_back(pod.get());
  }
  const int want = set.spec.replicas.value_or(1);
  const int have = static_cast<int>(active.size());
  if (!set.metadata.IsDeleting() && have < want) {
    api::Pod pod = NewReplicaSetPod(set);
    for (int i = 0; i < std::min(want - have, kBurstReplicas); ++i) {
      plan.actions.push_back(
          {.kind = Kind::kCreatePod, .name = pod.metadata.generate_name, .pod = pod});
    }
  } else if (!set.metadata.IsDeleting() && have > want) {
    for (const api::Pod* pod : PodsToDelete(snap, active, std::min(have - want, kBurstReplicas))) {
      plan.actions.push_back(
          {.kind = Kind::kDeletePod, .name = pod->metadata.name, .uid = pod->metadata.uid});
    }
  }
  plan.status = Status(snap, active);
  // A failure of this sync's writes is added by the reconciler; a plan assumes none.
  if (api::Encode(plan.status) != api::Encode(set.status)) {
    plan.actions.push_back({.kind = Kind::kUpdateStatus, .name = set.metadata.name});
  }
  std::vector<std::shared_ptr<const api::Pod>> waiting;
  for (const auto& pod : snap.pods) {
    if (IsPodActive(*pod)) waiting.push_back(pod);
  }
  if (std::optional<Duration> wait = AvailableWait(waiting, set.spec.min_ready_seconds, snap.now)) {
    plan.actions.push_back(
        {.kind = Kind::kRequeueAfter, .name = set.metadata.name, .requeue_after = *wait});
  }
  return plan;
}

}  // namespace lws::cluster
