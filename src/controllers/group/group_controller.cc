#include "controllers/group/group_controller.h"

#include "api/group_identity.h"
#include "api/revision.h"
#include "base/log.h"
#include "client/resource.h"
#include "controllers/group/group_replacement.h"
#include "controllers/group/headless_service.h"
#include "controllers/group/restart_policy.h"
#include "controllers/group/worker_statefulset.h"

namespace lws::controllers {

namespace {

bool IsLwsPod(const api::Pod* pod) {
  return pod != nullptr && !pod->metadata.Label(api::kSetNameLabel).empty();
}

bool IsAlreadyExists(const Status& s) { return s.code() == Code::kAlreadyExists; }

}  // namespace

GroupController::GroupController(EventLoop* loop, const client::Client* client, Caches* caches,
                                 client::EventRecorder* recorder, runtime::WorkQueueOptions queue,
                                 GangProvider gang)
    : loop_(loop),
      client_(client),
      caches_(caches),
      recorder_(recorder),
      gang_(gang),
      queue_(
          loop, "pod", [this](const runtime::Key& key) { return Reconcile(key); }, queue) {}

void GroupController::Register() {
  caches_->pods.AddHandler([this](const api::Pod* old, const api::Pod* now) {
    const api::Pod* pod = now != nullptr ? now : old;
    if (!IsLwsPod(pod)) return;
    if (now == nullptr) {
      expectations_.Forget({pod->metadata.namespace_, pod->metadata.name});
      EnqueueGatedLeaders(*pod);
    }
    queue_.Add({pod->metadata.namespace_, pod->metadata.name});
  });
  caches_->statefulsets.AddHandler(
      [this](const api::StatefulSet* old, const api::StatefulSet* now) {
        EnqueueController((now != nullptr ? now : old)->metadata);
      });
  caches_->services.AddHandler([this](const api::Service* old, const api::Service* now) {
    EnqueueController((now != nullptr ? now : old)->metadata);
  });
}

// A pod of a Hash LWS is gone: a group may have finished tearing down, so the leaders waiting
// for that look again (upstream enqueueGatedLeaders) instead of at their 10 s requeue. Only Hash
// pods: an Ordinal LWS has no gated leaders, and scanning its leaders on every pod deletion of
// a large rollout would cost groups x deletions.
void GroupController::EnqueueGatedLeaders(const api::Pod& gone) {
  if (!api::IsHashGroupPod(gone.metadata)) return;
  const std::string& ns = gone.metadata.namespace_;
  for (const api::Pod* leader : caches_->Leaders(ns, gone.metadata.Label(api::kSetNameLabel))) {
    if (HasSchedulingGate(*leader, api::kGroupReplacementGate)) {
      queue_.Add({ns, leader->metadata.name});
    }
  }
}

// Worker StatefulSets and per-group Services are controlled by their leader pod.
void GroupController::EnqueueController(const api::ObjectMeta& meta) {
  const api::OwnerReference* owner = meta.ControllerRef();
  if (owner == nullptr || owner->kind != "Pod" || owner->api_version != "v1") return;
  if (meta.Label(api::kSetNameLabel).empty()) return;
  queue_.Add({meta.namespace_, owner->name});
}

GroupSnapshot GroupController::Snapshot(const api::Pod& pod, const api::LeaderWorkerSet* lws,
                                        std::vector<const api::Pod*>* group_pods) const {
  const std::string& ns = pod.metadata.namespace_;
  const std::string lws_name = pod.metadata.Label(api::kSetNameLabel);
  GroupSnapshot s;
  s.lws = lws;
  s.pod = &pod;
  s.restart.lws = lws;
  s.restart.pod = &pod;
  *group_pods = caches_->GroupPods(ns, lws_name, pod.metadata.Label(api::kGroupIndexLabel));
  s.restart.group_pods = *group_pods;
  if (IsLeaderPod(pod)) {
    s.restart.leader = &pod;
  } else if (auto leader = LeaderNameOfWorker(pod); leader.ok()) {
    s.restart.leader = caches_->pods.Get(ns, *leader);
  }
  if (const api::OwnerReference* owner = pod.metadata.ControllerRef();
      owner != nullptr && owner->kind == "StatefulSet") {
    s.restart.owner_statefulset = caches_->statefulsets.Get(ns, owner->name);
  }
  if (lws != nullptr && IsLeaderPod(pod)) {
    s.worker_statefulset = caches_->statefulsets.Get(ns, WorkerStatefulSetName(*lws, pod));
    s.group_service = caches_->services.Get(ns, GroupServiceName(*lws, pod));
    if (api::IsHashIdentity(*lws) && HasSchedulingGate(pod, api::kGroupReplacementGate)) {
      s.lws_pods = caches_->Pods(ns, lws_name);
    }
  }
  if (!pod.spec.node_name.empty()) s.leader_node = caches_->nodes.Get("", pod.spec.node_name);
  return s;
}

runtime::ReconcileResult GroupController::Reconcile(const runtime::Key& key) {
  const bool conflicted = TakeConflict(key);
  const api::Pod* pod = caches_->pods.Get(key.namespace_, key.name);
  if (pod == nullptr) return runtime::ReconcileResult::Done();
  const Time now = loop_->clock().Now();
  if (!expectations_.Satisfied(key, now)) {
    // Our own deletion has not reached the cache yet; its event enqueues the pod again.
    return runtime::ReconcileResult::After(expectations_.timeout());
  }
  const std::string lws_name = pod->metadata.Label(api::kSetNameLabel);
  const api::LeaderWorkerSet* lws = caches_->sets.Get(key.namespace_, lws_name);
  std::vector<const api::Pod*> group_pods;
  GroupSnapshot snapshot = Snapshot(*pod, lws, &group_pods);
  // The revision lookup needs the LWS (ownership); the plan handles a missing one.
  api::RevisionRefs revisions;
  std::shared_ptr<const api::LeaderWorkerSet> revision_lws;  // held while the plan reads it
  if (lws != nullptr) {
    revisions = caches_->Revisions(key.namespace_, lws_name);
    snapshot.leader_revision =
        api::FindRevision(revisions, *lws, pod->metadata.Label(api::kRevisionLabel));
    if (snapshot.leader_revision != nullptr && IsLeaderPod(*pod)) {
      revision_lws = RevisionLws(*lws, *snapshot.leader_revision);
      snapshot.revision_lws = revision_lws.get();
    }
  } else {
    MutexLock lock(&applied_revisions_mu_);
    applied_revisions_.erase({key.namespace_, lws_name});
  }
  snapshot.gang = gang_;
  snapshot.now = now;
  if (gang_ != GangProvider::kNone && lws != nullptr && IsLeaderPod(*pod) &&
      !pod->metadata.IsDeleting()) {
    Result<bool> exists = PodGroupExists(*pod);
    if (!exists.ok()) return runtime::ReconcileResult::Error(exists.status());
    snapshot.pod_group_exists = *exists;
  }
  GroupPlan plan = PlanGroup(snapshot);
  for (const GroupAction& action : plan.actions) {
    Status applied = Apply(key, *lws, action);
    if (applied.code() == Code::kConflict && action.kind == GroupActionKind::kPatchLws) {
      return RetryAfterConflict(key, conflicted, applied);
    }
    if (!applied.ok()) return runtime::ReconcileResult::Error(applied);
  }
  if (!plan.error.ok()) return runtime::ReconcileResult::Error(plan.error);
  if (plan.requeue_after_ms) {
    return runtime::ReconcileResult::After(std::chrono::milliseconds(*plan.requeue_after_ms));
  }
  return runtime::ReconcileResult::Done();
}

bool GroupController::TakeConflict(const runtime::Key& key) {
  MutexLock lock(&conflicted_mu_);
  return conflicted_.erase(key) > 0;
}

// The restart counts raced another write of the LWS (often its status): plan again on the newer
// version, as the LWS reconciler does; nothing was acted on yet. At once the first time, since
// the newer version's event is normally in the cache by then. A second Conflict in a row means
// the cache lags behind the API (a slow watch): retrying at once would spin on the stale version
// (on the virtual clock, forever at one instant), so the queue's backoff spaces the retries until
// it catches up, as controller-runtime does with any error (the sweep's seed 21 with a slow watch
// found the spin).
runtime::ReconcileResult GroupController::RetryAfterConflict(const runtime::Key& key, bool again,
                                                             const Status& conflict) {
  {
    MutexLock lock(&conflicted_mu_);
    conflicted_.insert(key);
  }
  if (again) return runtime::ReconcileResult::Error(conflict);
  return runtime::ReconcileResult::After(Duration{0});
}

Result<bool> GroupController::PodGroupExists(const api::Pod& leader) const {
  const std::string name = leader.metadata.Annotation(api::kGangGroupNameAnnotation);
  if (name.empty()) return false;
  Result<store::ObjectPtr> found =
      client_->Get(client::kPodGroups, leader.metadata.namespace_, name);
  if (found.ok()) return true;
  if (found.status().code() == Code::kNotFound) return false;
  return found.status();
}

std::shared_ptr<const api::LeaderWorkerSet> GroupController::RevisionLws(
    const api::LeaderWorkerSet& lws, const api::ControllerRevision& revision) {
  MutexLock lock(&applied_revisions_mu_);
  AppliedRevisions& kept = applied_revisions_[{lws.metadata.namespace_, lws.metadata.name}];
  if (kept.lws_resource_version != lws.metadata.resource_version) {
    kept = {lws.metadata.resource_version, {}};
  }
  for (const AppliedRevision& applied : kept.revisions) {
    if (applied.revision_name == revision.metadata.name &&
        applied.revision_uid == revision.metadata.uid &&
        applied.revision_resource_version == revision.metadata.resource_version) {
      return applied.lws;
    }
  }
  Result<api::LeaderWorkerSet> applied = api::ApplyRevision(lws, revision);
  if (!applied.ok()) return nullptr;
  kept.revisions.push_back({revision.metadata.name, revision.metadata.uid,
                            revision.metadata.resource_version,
                            std::make_shared<const api::LeaderWorkerSet>(std::move(*applied))});
  return kept.revisions.back().lws;
}

Status GroupController::Apply(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                              const GroupAction& action) {
  store::ObjectPtr stored_lws = caches_->sets.GetStored(lws.metadata.namespace_, lws.metadata.name);
  auto record = [&](const std::string& type, const std::string& reason, const std::string& note,
                    const std::string& verb) {
    if (stored_lws != nullptr && !reason.empty()) {
      recorder_->Record(*stored_lws, type, reason, note, verb);
    }
  };
  switch (action.kind) {
    case GroupActionKind::kDeleteLeaderForeground: {
      client::DeleteOptions options;
      options.propagation_policy = "Foreground";
      auto deleted = client_->Delete(client::kPods, key.namespace_, action.target, options);
      if (!deleted.ok() && deleted.status().code() != Code::kNotFound) return deleted.status();
      if (deleted.ok()) {
        expectations_.ExpectAnswer(key, &caches_->pods.informer(), **deleted, loop_->clock().Now());
      }
      record("Normal", action.reason, action.note, "Delete");
      return Status::Ok();
    }
    case GroupActionKind::kCreateGroupService: {
      auto created = client_->Create(client::kServices, action.object);
      if (!created.ok() && !IsAlreadyExists(created.status())) return created.status();
      return Status::Ok();
    }
    case GroupActionKind::kCreateWorkerStatefulSet: {
      auto created = client_->Create(client::kStatefulSets, action.object);
      if (created.ok()) {
        record("Normal", action.reason, action.note, "Create");
        return Status::Ok();
      }
      if (IsAlreadyExists(created.status())) return Status::Ok();
      record("Warning", kReasonFailedCreate,
             FailedCreateWorkerStatefulSetNote(key.name, created.status()), "Create");
      return created.status();
    }
    case GroupActionKind::kCreatePodGroup: {
      auto created = client_->Create(client::kPodGroups, action.object);
      if (!created.ok() && !IsAlreadyExists(created.status())) return created.status();
      return Status::Ok();
    }
    case GroupActionKind::kWarning:
      record("Warning", action.reason, action.note, "Create");
      return Status::Ok();
    case GroupActionKind::kNormalEvent:
      record("Normal", action.reason, action.note, "Update");
      return Status::Ok();
    case GroupActionKind::kPatchLeader: {
      auto patched = client_->Patch(client::kPods, key.namespace_, action.target,
                                    client::PatchType::kMerge, action.object);
      if (!patched.ok()) return patched.status();
      record("Normal", action.reason, action.note, "Update");
      return Status::Ok();
    }
    case GroupActionKind::kPatchLeaderStatus: {
      // Strategic: the condition merges by type with the kubelet's, which this must not drop.
      auto patched = client_->Patch(client::kPods, key.namespace_, action.target,
                                    client::PatchType::kStrategic, action.object, "status");
      return patched.ok() ? Status::Ok() : patched.status();
    }
    case GroupActionKind::kPatchLws: {
      // Carries the resourceVersion the plan read: on a Conflict the reconcile plans again on
      // the newer LWS instead of overwriting counts another worker wrote.
      auto patched = client_->Patch(client::kLeaderWorkerSets, lws.metadata.namespace_,
                                    lws.metadata.name, client::PatchType::kMerge, action.object);
      return patched.ok() ? Status::Ok() : patched.status();
    }
  }
  return Status::Ok();
}

}  // namespace lws::controllers
