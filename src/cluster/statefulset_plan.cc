// One reconcile pass of the StatefulSet controller (rules in statefulset_plan.h).
#include "cluster/statefulset_plan.h"

#include <algorithm>

#include "api/intstr.h"

namespace lws::cluster {
namespace {

using Kind = StatefulSetActionKind;

bool IsFinished(const api::Pod& pod) { return pod.status.IsTerminal(); }
bool IsHealthy(const api::Pod& pod) {
  return pod.IsRunningAndReady() && !pod.metadata.IsDeleting();
}
const std::string& RevisionOf(const api::Pod& pod) {
  return pod.metadata.Label(kControllerRevisionHashLabel);
}

struct Revisions {
  const api::ControllerRevision* current = nullptr;
  const api::ControllerRevision* update = nullptr;
  std::int32_t collision_count = 0;
  std::optional<api::ControllerRevision> created;  // when `update` is new
};

// Rule 1. `update` may point into `out.created`, so `out` must not be copied afterwards.
void ResolveRevisions(const StatefulSetSnapshot& snap, Revisions& out) {
  const api::StatefulSet& set = snap.set;
  std::int64_t next = 1;
  for (const auto& r : snap.revisions) next = std::max(next, r->revision + 1);
  out.collision_count = set.status.collision_count.value_or(0);
  ProposedRevision made;
  const ProposedRevision* proposed = snap.proposed.get();
  if (proposed == nullptr || proposed->collision_count != out.collision_count) {
    made = ProposeStatefulSetRevision(set, out.collision_count);
    proposed = &made;
  }
  for (const auto& r : snap.revisions) {  // the highest-numbered equal revision wins
    if (r->data == proposed->revision.data &&
        (out.update == nullptr || r->revision >= out.update->revision)) {
      out.update = r.get();
    }
  }
  while (out.update == nullptr) {
    const std::string& name = proposed->revision.metadata.name;
    auto taken = std::find_if(snap.revisions.begin(), snap.revisions.end(),
                              [&](const auto& r) { return r->metadata.name == name; });
    if (taken == snap.revisions.end()) {
      out.created = proposed->revision;
      out.created->revision = next;
      out.update = &*out.created;
      break;
    }
    made = ProposeStatefulSetRevision(set, ++out.collision_count);
    proposed = &made;
  }
  for (const auto& r : snap.revisions) {
    if (r->metadata.name == set.status.current_revision) out.current = r.get();
  }
  if (out.current == nullptr) out.current = out.update;
}

// Rule 6: counts over the snapshot's pods (upstream computeReplicaStatus, completeRollingUpdate).
api::StatefulSetStatus ComputeStatus(const StatefulSetSnapshot& snap, const Revisions& revs,
                                     const std::vector<const api::Pod*>& members) {
  const api::StatefulSet& set = snap.set;
  api::StatefulSetStatus status;
  status.rest = set.status.rest;
  status.observed_generation = set.metadata.generation;
  status.current_revision = revs.current->metadata.name;
  status.update_revision = revs.update->metadata.name;
  status.collision_count = revs.collision_count;
  for (const api::Pod* pod : members) {
    ++status.replicas;
    if (pod->IsRunningAndReady()) {
      ++status.ready_replicas;
      if (IsPodAvailable(*pod, set.spec.min_ready_seconds, snap.now)) ++status.available_replicas;
    }
    if (pod->metadata.IsDeleting()) continue;
    if (RevisionOf(*pod) == status.current_revision) ++status.current_replicas;
    if (RevisionOf(*pod) == status.update_revision) ++status.updated_replicas;
  }
  if (set.spec.update_strategy.type == "RollingUpdate" &&
      status.updated_replicas == status.replicas && status.ready_replicas == status.replicas) {
    status.current_replicas = status.updated_replicas;
    status.current_revision = status.update_revision;
  }
  return status;
}

// The pass over one snapshot; fills `plan.actions` in order.
class Pass {
 public:
  Pass(const StatefulSetSnapshot& snap, const Revisions& revs, StatefulSetPlan& plan)
      : snap_(snap), set_(snap.set), revs_(revs), plan_(plan) {}

  Status Run(std::vector<const api::Pod*> slots, std::vector<const api::Pod*> condemned) {
    slots_ = std::move(slots);
    unavailable_.assign(slots_.size(), false);
    bool stopped = false;
    for (std::size_t i = 0; i < slots_.size() && !stopped; ++i) {
      ASSIGN_OR_RETURN(stopped, ProcessReplica(static_cast<int>(i)));
    }
    if (stopped) return Status::Ok();
    if (ProcessCondemned(condemned)) return Status::Ok();
    if (set_.spec.update_strategy.type == "OnDelete") return Status::Ok();
    return RollingUpdate();
  }

 private:
  int Start() const { return set_.spec.ordinals ? set_.spec.ordinals->start : 0; }
  bool Monotonic() const { return set_.spec.pod_management_policy != "Parallel"; }
  bool Available(const api::Pod& pod) const {
    return !pod.metadata.IsDeleting() &&
           IsPodAvailable(pod, set_.spec.min_ready_seconds, snap_.now);
  }

  void Delete(const api::Pod& pod, std::string reason) {
    StatefulSetAction a{.kind = Kind::kDeletePod, .name = pod.metadata.name};
    a.uid = pod.metadata.uid;
    a.reason = std::move(reason);
    plan_.actions.push_back(std::move(a));
  }

  // The decoded template of `revision`, decoded once per plan: a plan that creates every pod of
  // a new set (and, after a failed create, the next sync's plan again) decoded it per pod.
  Result<const api::PodTemplateSpec*> TemplateOf(const api::ControllerRevision& revision) {
    auto it = templates_.find(&revision);
    if (it == templates_.end()) {
      ASSIGN_OR_RETURN(api::PodTemplateSpec tmpl, RevisionTemplate(revision));
      it = templates_.emplace(&revision, std::move(tmpl)).first;
    }
    return &it->second;
  }

  // Upstream newVersionedStatefulSetPod: a partition keeps the ordinals below it on the current
  // revision (the Go condition's && / || precedence is kept: a rollingUpdate block decides alone).
  const api::ControllerRevision& RevisionFor(int ordinal) const {
    const auto& strategy = set_.spec.update_strategy;
    bool current = (strategy.type == "RollingUpdate" && !strategy.rolling_update.has_value() &&
                    ordinal < Start() + set_.status.current_replicas) ||
                   (strategy.rolling_update.has_value() &&
                    ordinal < Start() + strategy.rolling_update->partition.value_or(0));
    return current ? *revs_.current : *revs_.update;
  }

  // Upstream createMissingPersistentVolumeClaims: the claims of `ordinal` that do not exist.
  void CreateMissingClaims(int ordinal) {
    for (api::PersistentVolumeClaim& pvc : NewStatefulSetPvcs(set_, ordinal)) {
      bool exists = std::any_of(snap_.pvcs.begin(), snap_.pvcs.end(), [&](const auto& p) {
        return p.metadata.name == pvc.metadata.name;
      });
      if (exists) continue;
      StatefulSetAction a{.kind = Kind::kCreatePvc, .name = pvc.metadata.name};
      a.pvc = std::move(pvc);
      a.reason = "claim for " + StatefulSetPodName(set_, ordinal);
      plan_.actions.push_back(std::move(a));
    }
  }

  Status Create(int ordinal) {
    CreateMissingClaims(ordinal);
    const api::ControllerRevision& revision = RevisionFor(ordinal);
    ASSIGN_OR_RETURN(const api::PodTemplateSpec* tmpl, TemplateOf(revision));
    api::Pod pod = NewStatefulSetPod(set_, *tmpl, revision.metadata.name, ordinal);
    StatefulSetAction a{.kind = Kind::kCreatePod, .name = pod.metadata.name};
    a.pod = std::move(pod);
    a.reason = "create";
    plan_.actions.push_back(std::move(a));
    return Status::Ok();
  }

  // Rule 3; true when the pass stops.
  Result<bool> ProcessReplica(int i) {
    const api::Pod* pod = slots_[i];
    int ordinal = Start() + i;
    if (pod != nullptr && IsFinished(*pod) && !pod->metadata.IsDeleting()) {
      Delete(*pod, "recreate " + pod->status.phase);
      unavailable_[i] = true;
      return Monotonic();
    }
    if (pod == nullptr) {
      RETURN_IF_ERROR(Create(ordinal));
      unavailable_[i] = true;
      return Monotonic();
    }
    // A pending pod waits for its claims: one deleted since the pod was made is made again.
    if (pod->status.phase == "Pending") CreateMissingClaims(ordinal);
    unavailable_[i] = !Available(*pod);
    if (unavailable_[i] && Monotonic()) return true;
    if (!StatefulSetIdentityMatches(set_, *pod)) {
      api::Pod fixed = *pod;
      UpdateStatefulSetPodIdentity(set_, ordinal, fixed);
      StatefulSetAction a{.kind = Kind::kUpdatePod, .name = pod->metadata.name};
      a.pod = std::move(fixed);
      a.reason = "identity";
      plan_.actions.push_back(std::move(a));
    }
    return false;
  }

  // Rule 4; true when the pass stops. `condemned` is in ascending ordinal order.
  bool ProcessCondemned(const std::vector<const api::Pod*>& condemned) {
    const api::Pod* first_unhealthy = nullptr;
    for (const api::Pod* pod : condemned) {
      if (!IsHealthy(*pod)) {
        first_unhealthy = pod;
        break;
      }
    }
    for (auto it = condemned.rbegin(); it != condemned.rend(); ++it) {
      const api::Pod& pod = **it;
      if (pod.metadata.IsDeleting()) {
        if (Monotonic()) return true;
        continue;
      }
      if (Monotonic() && !Available(pod) && &pod != first_unhealthy) return true;
      Delete(pod, "scale down");
      if (Monotonic()) return true;
    }
    return false;
  }

  // Rule 5 (upstream updateStatefulSetAfterInvariantEstablished).
  Status RollingUpdate() {
    int replicas = static_cast<int>(slots_.size());
    int partition = 0;
    api::IntOrString max = api::IntOrString::FromInt(1);
    if (const auto& ru = set_.spec.update_strategy.rolling_update; ru.has_value()) {
      partition = ru->partition.value_or(0);
      if (ru->max_unavailable.has_value()) max = *ru->max_unavailable;
    }
    ASSIGN_OR_RETURN(std::int64_t max_unavailable,
                     api::GetScaledValueFromIntOrPercent(max, replicas, false));
    max_unavailable = std::max<std::int64_t>(max_unavailable, 1);
    std::int64_t unavailable = std::count(unavailable_.begin(), unavailable_.end(), true);
    for (int i = replicas - 1; i >= partition && unavailable < max_unavailable; --i) {
      const api::Pod* pod = slots_[i];
      if (pod == nullptr || pod->metadata.IsDeleting() || unavailable_[i]) continue;
      if (RevisionOf(*pod) == revs_.update->metadata.name) continue;
      Delete(*pod, "update");
      ++unavailable;
    }
    return Status::Ok();
  }

  const StatefulSetSnapshot& snap_;
  const api::StatefulSet& set_;
  const Revisions& revs_;
  std::map<const api::ControllerRevision*, api::PodTemplateSpec> templates_;
  StatefulSetPlan& plan_;
  std::vector<const api::Pod*> slots_;
  std::vector<bool> unavailable_;
};

}  // namespace

Result<StatefulSetPlan> PlanStatefulSet(const StatefulSetSnapshot& snapshot) {
  const api::StatefulSet& set = snapshot.set;
  StatefulSetPlan plan;
  Revisions revs;
  ResolveRevisions(snapshot, revs);
  if (revs.created) {
    StatefulSetAction a{.kind = Kind::kCreateRevision, .name = revs.created->metadata.name};
    a.revision = *revs.created;
    a.reason = "template changed";
    plan.actions.push_back(std::move(a));
  }

  int replicas = set.spec.replicas.value_or(1);
  int start = set.spec.ordinals ? set.spec.ordinals->start : 0;
  std::vector<const api::Pod*> slots(std::max(replicas, 0), nullptr);
  std::vector<std::pair<int, const api::Pod*>> condemned_by_ordinal;
  std::vector<const api::Pod*> members;
  for (const auto& shared : snapshot.pods) {
    const api::Pod& pod = *shared;
    int ordinal = StatefulSetPodOrdinal(set, pod.metadata.name);
    if (ordinal < 0) continue;
    members.push_back(&pod);
    if (ordinal >= start && ordinal < start + replicas) {
      slots[ordinal - start] = &pod;
    } else {
      condemned_by_ordinal.emplace_back(ordinal, &pod);
    }
  }
  std::sort(condemned_by_ordinal.begin(), condemned_by_ordinal.end());
  std::vector<const api::Pod*> condemned;
  for (const auto& [ordinal, pod] : condemned_by_ordinal) condemned.push_back(pod);

  plan.status = ComputeStatus(snapshot, revs, members);
  if (!set.metadata.IsDeleting()) {
    Pass pass(snapshot, revs, plan);
    RETURN_IF_ERROR(pass.Run(std::move(slots), std::move(condemned)));
  }
  if (api::Encode(plan.status) != api::Encode(set.status)) {
    StatefulSetAction a{.kind = Kind::kUpdateStatus, .name = set.metadata.name};
    a.reason = "status";
    plan.actions.push_back(std::move(a));
  }
  if (std::optional<Duration> wait =
          AvailableWait(snapshot.pods, set.spec.min_ready_seconds, snapshot.now)) {
    StatefulSetAction a{.kind = Kind::kRequeueAfter, .name = set.metadata.name};
    a.requeue_after = *wait;
    a.reason = "minReadySeconds";
    plan.actions.push_back(std::move(a));
  }
  return plan;
}

std::string ToString(const StatefulSetAction& action) {
  static constexpr std::string_view kNames[] = {"CreateRevision", "CreatePvc", "CreatePod",
                                                "DeletePod",      "UpdatePod", "UpdateStatus",
                                                "RequeueAfter"};
  std::string out(kNames[static_cast<int>(action.kind)]);
  out += " " + action.name;
  if (action.kind == Kind::kRequeueAfter) {
    out += " " +
           std::to_string(
               std::chrono::duration_cast<std::chrono::seconds>(action.requeue_after).count()) +
           "s";
  } else {
    out += " (" + action.reason + ")";
  }
  return out;
}

}  // namespace lws::cluster
