#include "controllers/lws/lws_controller.h"

#include <algorithm>

#include "api/codec.h"
#include "api/group_identity.h"
#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "controllers/group/headless_service.h"
#include "controllers/lws/leader_statefulset.h"
#include "controllers/lws/lws_events.h"
#include "controllers/lws/lws_status.h"
#include "controllers/lws/revision_step.h"

namespace lws::controllers {

namespace {

using runtime::ReconcileResult;

// Upstream requeues a reconcile that finds its leader StatefulSet being deleted after 5 s.
constexpr Duration kDeletingStatefulSetRetry = std::chrono::seconds(5);

const api::OwnerReference* LwsOwner(const api::ObjectMeta& meta) {
  const api::OwnerReference* owner = meta.ControllerRef();
  if (owner == nullptr || owner->kind != api::kLwsKind) return nullptr;
  return owner;
}

// An LWS reconciles at most every 100 ms: during a rollout of a large set every pod's readiness
// changes a worker StatefulSet's status, and each reconcile reads every group, so without it the
// work grows with groups x pods. Changes arriving meanwhile share the next reconcile, as they do in
// controller-runtime's queue while a reconcile is in flight.
runtime::WorkQueueOptions QueueOptions(runtime::WorkQueueOptions options) {
  options.min_interval = std::chrono::milliseconds(100);
  return options;
}

}  // namespace

LeaderSetState LeaderSetStateOf(const api::StatefulSet& sts) {
  LeaderSetState state;
  state.replicas = sts.spec.replicas.value_or(1);
  const auto& rolling = sts.spec.update_strategy.rolling_update;
  state.partition = rolling ? rolling->partition.value_or(0) : 0;
  std::string text;
  auto it = sts.metadata.annotations.find(api::kReplicasAnnotation);
  if (it != sts.metadata.annotations.end()) text = it->second;
  Result<std::int64_t> replicas = api::GoAtoi(text);
  if (replicas.ok()) {
    state.replicas_annotation = static_cast<std::int32_t>(*replicas);
  } else {
    state.replicas_annotation = replicas.status();
  }
  return state;
}

LwsController::LwsController(EventLoop* loop, const client::Client* client, Caches* caches,
                             client::EventRecorder* recorder, runtime::WorkQueueOptions queue)
    : loop_(loop),
      client_(client),
      caches_(caches),
      recorder_(recorder),
      queue_(
          loop, "leaderworkerset", [this](const runtime::Key& key) { return Reconcile(key); },
          QueueOptions(queue)) {}

void LwsController::Register() {
  caches_->sets.AddHandler(
      [this](const api::LeaderWorkerSet* old, const api::LeaderWorkerSet* now) {
        const api::ObjectMeta& meta = (now != nullptr ? now : old)->metadata;
        if (now == nullptr) expectations_.Forget({meta.namespace_, meta.name});
        queue_.Add({meta.namespace_, meta.name});
      });
  // Objects the LWS controls concern it.
  auto enqueue_owner = [this](const auto* old, const auto* now) {
    EnqueueOwner((now != nullptr ? now : old)->metadata);
  };
  caches_->statefulsets.AddHandler(
      [this](const api::StatefulSet* old, const api::StatefulSet* now) {
        const api::ObjectMeta& meta = (now != nullptr ? now : old)->metadata;
        EnqueueOwner(meta);
        EnqueueNamed(meta);
      });
  caches_->services.AddHandler(enqueue_owner);
  caches_->deployments.AddHandler(enqueue_owner);
  caches_->revisions.AddHandler(enqueue_owner);
  caches_->pods.AddHandler([this](const api::Pod* old, const api::Pod* now) {
    const api::ObjectMeta& meta = (now != nullptr ? now : old)->metadata;
    if (meta.Label(api::kWorkerIndexLabel) == "0") EnqueueNamed(meta);
  });
}

void LwsController::EnqueueOwner(const api::ObjectMeta& meta) {
  if (const api::OwnerReference* owner = LwsOwner(meta)) queue_.Add({meta.namespace_, owner->name});
}

// Objects labelled with an LWS name concern that LWS (upstream's enqueueLWSRequests).
void LwsController::EnqueueNamed(const api::ObjectMeta& meta) {
  std::string name = meta.Label(api::kSetNameLabel);
  if (!name.empty()) queue_.Add({meta.namespace_, name});
}

ReconcileResult LwsController::Reconcile(const runtime::Key& key) {
  const api::LeaderWorkerSet* lws = caches_->sets.Get(key.namespace_, key.name);
  if (lws == nullptr || lws->metadata.IsDeleting()) {
    expectations_.Forget(key);
    applied_leader_sets_.Forget(key);
    Remember(key, std::nullopt);
    return ReconcileResult::Done();
  }
  const Time now = loop_->clock().Now();
  if (!expectations_.Satisfied(key, now)) {
    // Our last writes have not reached the caches; their events enqueue the LWS again.
    std::optional<Time> deadline = expectations_.Deadline(key);
    return ReconcileResult::After(deadline ? *deadline - now : expectations_.timeout());
  }
  if (api::IsHashIdentity(*lws)) return ReconcileHash(key, *lws);
  const api::StatefulSet* sts = caches_->statefulsets.Get(key.namespace_, key.name);
  if (sts != nullptr && sts->metadata.IsDeleting()) {
    return ReconcileResult::After(kDeletingStatefulSetRetry);
  }
  const api::RevisionRefs revisions = caches_->Revisions(key.namespace_, key.name);
  std::optional<Duration> surge_recheck;
  auto step = ReconcileLeaderStatefulSet(key, *lws, sts, revisions, &surge_recheck);
  if (!step.ok()) return ReconcileResult::Error(step.status());
  const std::string& revision_key = step->revision_key;
  auto outcome = UpdateStatus(key, *lws, *step);
  // Someone wrote the LWS after our cache saw it: plan again on the newer version.
  auto conflict = [](const Status& s) { return s.code() == Code::kConflict; };
  if (!outcome.ok()) {
    if (conflict(outcome.status())) return ReconcileResult::After(Duration{0});
    return ReconcileResult::Error(outcome.status());
  }
  if (outcome->update_done) {
    Status truncated = TruncateRevisions(*lws, revisions, revision_key);
    if (!truncated.ok()) return ReconcileResult::Error(truncated);
  }
  if (!outcome->written) {
    Result<bool> cleared = ClearSurgeFallback(key, *lws, outcome->update_done);
    if (!cleared.ok()) {
      return conflict(cleared.status()) ? ReconcileResult::After(Duration{0})
                                        : ReconcileResult::Error(cleared.status());
    }
    if (*cleared) return ReconcileResult::Done();
    Status pruned = PruneGroupRestarts(key, *lws, revision_key, outcome->update_done);
    if (conflict(pruned)) return ReconcileResult::After(Duration{0});
    if (!pruned.ok()) return ReconcileResult::Error(pruned);
  }
  // The progress deadline's and the surge fallback's next look, whichever comes first.
  std::optional<Duration> recheck = outcome->recheck_after;
  if (surge_recheck) recheck = recheck ? std::min(*recheck, *surge_recheck) : *surge_recheck;
  if (recheck) return ReconcileResult::After(*recheck);
  return ReconcileResult::Done();
}

Result<LwsController::LeaderStep> LwsController::ReconcileLeaderStatefulSet(
    const runtime::Key& key, const api::LeaderWorkerSet& lws, const api::StatefulSet* sts,
    const api::RevisionRefs& revisions, std::optional<Duration>* recheck) {
  const RevisionStep step =
      PlanRevisionShared(lws, sts != nullptr ? &sts->metadata : nullptr, revisions);
  if (step.create) RETURN_IF_ERROR(CreateRevision(key, *step.create, step.event_note));

  ASSIGN_OR_RETURN(RolloutSettings settings, RolloutSettingsOf(lws));
  std::optional<LeaderSetState> current;
  std::vector<GroupState> states;
  if (sts != nullptr) {
    current = LeaderSetStateOf(*sts);
    states =
        GroupStates(lws, step.key, current->replicas, caches_->Leaders(key.namespace_, key.name),
                    caches_->StatefulSets(key.namespace_, key.name));
  }
  const std::optional<ScaleUpHold> hold = DecideScaleUpHold(
      api::AnnotationFlag(lws.metadata, api::kRolloutBeforeScaleUpAnnotation), lws.Replicas(),
      settings.partition, current ? &*current : nullptr, states, step.lws_updated);
  std::optional<std::int32_t> rollout_replicas;
  if (hold) {
    rollout_replicas = hold->groups;
    ASSIGN_OR_RETURN(settings, RolloutSettingsOf(lws, hold->groups));
  }
  // Some desired group is not on the revision: the opt-in behaviours act during a rollout.
  bool updating = false;
  for (std::size_t i = 0; i < states.size() && static_cast<std::int32_t>(i) < settings.replicas;
       ++i) {
    updating = updating || !states[i].updated;
  }
  ASSIGN_OR_RETURN(settings,
                   ApplySurgeFallback(key, lws, settings, step.key, states,
                                      sts != nullptr && !step.lws_updated, updating, recheck));
  ASSIGN_OR_RETURN(
      RolloutDecision decision,
      RollingUpdateParameters(settings, current ? &*current : nullptr, states, step.lws_updated));
  ASSIGN_OR_RETURN(FailureAction failure,
                   ApplyFailurePolicy(key, lws, step.key, static_cast<std::int32_t>(states.size()),
                                      updating, revisions));
  if (failure == FailureAction::kRolledBack) return LeaderStep{step.key, hold};  // rolled out next
  // Paused by the failure policy or by the user (`kubectl lws rollout pause`): no further group
  // is replaced.
  if (current && (failure == FailureAction::kPause ||
                  api::AnnotationFlag(lws.metadata, api::kPausedAnnotation))) {
    decision.partition = std::max(decision.partition, current->partition);
  }
  if (decision.deleting) {
    Event(lws, "Normal", "GroupsProgressing",
          DeletingSurgeNote(key.name, decision.deleting->from, decision.deleting->to + 1),
          "Delete");
  }
  RETURN_IF_ERROR(ApplyLeaderStatefulSet(key, lws, sts, step.key, decision, rollout_replicas));
  if (sts == nullptr) {
    Event(lws, "Normal", "GroupsProgressing", CreatedLeaderStatefulSetNote(key.name), "Create");
  } else if (!step.lws_updated && decision.partition != current->partition) {
    Event(lws, "Normal", "GroupsUpdating",
          GroupsUpdatingNote(decision.partition, current->partition), "Update");
  }
  RETURN_IF_ERROR(EnsureSharedService(lws));
  return LeaderStep{step.key, hold};
}

Status LwsController::CreateRevision(const runtime::Key& key,
                                     const api::ControllerRevision& revision,
                                     const std::string& note) {
  auto created = client_->Create(client::kControllerRevisions, api::Encode(revision));
  if (!created.ok()) return created.status();
  Expect(key, caches_->revisions.informer(), **created);
  const api::LeaderWorkerSet* lws = caches_->sets.Get(key.namespace_, key.name);
  if (lws != nullptr) Event(*lws, "Normal", "CreatingRevision", note, "Create");
  return Status::Ok();
}

Status LwsController::ApplyLeaderStatefulSet(const runtime::Key& key,
                                             const api::LeaderWorkerSet& lws,
                                             const api::StatefulSet* sts,
                                             const std::string& revision_key,
                                             const RolloutDecision& decision,
                                             std::optional<std::int32_t> rollout_replicas) {
  return ApplyLeaderSet(key, lws, client::kStatefulSets, caches_->statefulsets.informer(),
                        caches_->statefulsets.GetStored(key.namespace_, key.name),
                        LeaderStatefulSetApply(lws, revision_key, decision.partition,
                                               decision.replicas, rollout_replicas),
                        sts != nullptr, "statefulset");
}

RevisionStep LwsController::PlanRevisionShared(const api::LeaderWorkerSet& lws,
                                               const api::ObjectMeta* leader_set,
                                               const api::RevisionRefs& revisions) {
  MutexLock lock(&match_cache_mu_);  // shared by the workers
  return PlanRevision(lws, leader_set, revisions, &match_cache_);
}

Status LwsController::ApplyLeaderSet(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                                     const client::Resource& resource,
                                     const client::Informer& informer, const store::ObjectPtr& live,
                                     api::Json body, bool exists, std::string_view leaders) {
  // The same apply to the version the last one left changes nothing (applied_leader_sets.h).
  if (applied_leader_sets_.Unchanged(key, body, live.get())) return Status::Ok();
  auto applied =
      client_->Patch(resource, key.namespace_, key.name, client::PatchType::kApply, body);
  if (!applied.ok()) {
    const std::string error = applied.status().message();
    if (!exists) {
      Event(lws, "Warning", "FailedCreate", FailedCreateLeaderNote(key.name, error, leaders),
            "Create");
    } else {
      Event(lws, "Warning", "FailedUpdate", FailedUpdateLeaderNote(key.name, error, leaders),
            "Update");
    }
    return applied.status();
  }
  Expect(key, informer, **applied);
  applied_leader_sets_.Remember(key, std::move(body), *applied);
  return Status::Ok();
}

Status LwsController::EnsureSharedService(const api::LeaderWorkerSet& lws) {
  if (lws.UniquePerReplica()) return Status::Ok();
  if (caches_->services.Get(lws.metadata.namespace_, lws.metadata.name) != nullptr) {
    return Status::Ok();
  }
  auto created = client_->Create(client::kServices, api::Encode(SharedHeadlessService(lws)));
  if (created.ok() || created.status().code() == Code::kAlreadyExists) return Status::Ok();
  Event(lws, "Warning", "FailedCreate", FailedCreateServiceNote(created.status().message()),
        "Create");
  return created.status();
}

Result<LwsController::StatusOutcome> LwsController::UpdateStatus(const runtime::Key& key,
                                                                 const api::LeaderWorkerSet& lws,
                                                                 const LeaderStep& step) {
  const std::string& revision_key = step.revision_key;
  const api::StatefulSet* sts = caches_->statefulsets.Get(key.namespace_, key.name);
  auto worker_set = [&](const std::string& name) {
    return caches_->statefulsets.Get(key.namespace_, name);
  };
  const Time now = loop_->clock().Now();
  const std::string now_text = FormatRfc3339(now);
  std::optional<ProgressDeadlineInputs> progress;
  // A paused rollout makes no progress on purpose: its deadline counts again from the resume.
  const api::RolloutBehaviours behaviours = api::ReadRolloutBehaviours(lws.metadata);
  if (auto deadline = behaviours.progress_deadline; deadline && !behaviours.paused) {
    progress =
        ProgressDeadlineInputs{*deadline, Remembered(key), now, [&](const std::string& group) {
                                 return caches_->GroupPods(key.namespace_, key.name, group);
                               }};
  }
  ASSIGN_OR_RETURN(StatusPlan plan,
                   PlanStatus(lws, revision_key, sts != nullptr ? sts->status.replicas : 0,
                              caches_->Leaders(key.namespace_, key.name), worker_set, now_text,
                              progress ? &*progress : nullptr));
  Remember(key, plan.progress.mark);
  if (plan.event) Event(lws, "Normal", plan.event->first, plan.event->second, "Update");
  if (plan.stalled_event) {
    Event(lws, "Warning", kReasonProgressDeadlineExceeded, *plan.stalled_event, "Update");
  }
  std::optional<std::pair<std::string, std::string>> hold_event;
  plan.changed |=
      SetScaleUpHeldCondition(lws, step.hold, &plan.status.conditions, now_text, &hold_event);
  if (hold_event) Event(lws, "Normal", hold_event->first, hold_event->second, "Update");
  if (plan.changed) RETURN_IF_ERROR(WriteStatus(key, plan.status));
  return StatusOutcome{plan.update_done, plan.changed, plan.progress.recheck_after};
}

Status LwsController::WriteStatus(const runtime::Key& key,
                                  const api::LeaderWorkerSetStatus& status) {
  store::ObjectPtr stored = caches_->sets.GetStored(key.namespace_, key.name);
  api::Json object = stored->document();
  object["status"] = api::Encode(status);
  auto written = client_->UpdateStatus(client::kLeaderWorkerSets, std::move(object));
  if (!written.ok()) return written.status();
  Expect(key, caches_->sets.informer(), **written);
  return Status::Ok();
}

// A failed deletion fails the reconcile, which the queue retries, as upstream's
// TruncateRevisions error does: once the update is done nothing else enqueues the LWS, so a
// revision whose deletion was only logged stayed for good (the sweep's seed 2068, a 409 on the
// delete). One already gone is what was asked.
Status LwsController::TruncateRevisions(const api::LeaderWorkerSet& lws,
                                        const api::RevisionRefs& revisions,
                                        const std::string& revision_key) {
  const std::string& ns = lws.metadata.namespace_;
  for (const std::string& name : RevisionsToTruncate(lws, revisions, revision_key)) {
    auto deleted = client_->Delete(client::kControllerRevisions, ns, name);
    if (!deleted.ok() && deleted.status().code() != Code::kNotFound) return deleted.status();
  }
  return Status::Ok();
}

void LwsController::Event(const api::LeaderWorkerSet& lws, const std::string& type,
                          const std::string& reason, const std::string& note,
                          const std::string& action) {
  RecordOnLws(*caches_, recorder_, lws, type, reason, note, action);
}

void LwsController::Expect(const runtime::Key& key, const client::Informer& informer,
                           const store::StoredObject& answer) {
  expectations_.ExpectAnswer(key, &informer, answer, loop_->clock().Now());
}

}  // namespace lws::controllers
