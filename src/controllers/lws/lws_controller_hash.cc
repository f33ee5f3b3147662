// File: controllers/lws/lws_controller_hash.cc
//
// The LeaderWorkerSet reconcile of groupIdentity Hash (upstream KEP 898, reconcileHash): the
// leaders run in a Deployment instead of a StatefulSet, and that Deployment's own rolling update
// (maxSurge, maxUnavailable) rolls the groups. Steps, in upstream's order:
//   1. the leader Deployment from the cache (a deleting one: retry in 5 s);
//   2. the current revision, as in Ordinal mode but keyed by the Deployment's revision label;
//   3. server-side apply of the Deployment (field manager "lws", forced);
//   4. the shared headless Service (created if missing);
//   5. the status from the Deployment's counts (hash_status.h); once Available, the old
//      revisions are deleted.
// No partition or replica arithmetic: the Deployment controller does it, and because a leader is
// Ready only with its whole group (the group-ready readiness gate) its budgets count groups.
#include "api/codec.h"
#include "client/resource.h"
#include "controllers/lws/hash_status.h"
#include "controllers/lws/leader_deployment.h"
#include "controllers/lws/lws_controller.h"
#include "controllers/lws/lws_events.h"
#include "controllers/lws/revision_step.h"

namespace lws::controllers {

namespace {

constexpr Duration kDeletingDeploymentRetry = std::chrono::seconds(5);
constexpr std::string_view kLeaderDeployment = "deployment";

}  // namespace

runtime::ReconcileResult LwsController::ReconcileHash(const runtime::Key& key,
                                                      const api::LeaderWorkerSet& lws) {
  using runtime::ReconcileResult;
  const api::Deployment* deployment = caches_->deployments.Get(key.namespace_, key.name);
  if (deployment != nullptr && deployment->metadata.IsDeleting()) {
    return ReconcileResult::After(kDeletingDeploymentRetry);
  }
  const api::RevisionRefs revisions = caches_->Revisions(key.namespace_, key.name);
  const RevisionStep step =
      PlanRevisionShared(lws, deployment != nullptr ? &deployment->metadata : nullptr, revisions);
  if (step.create) {
    Status created = CreateRevision(key, *step.create, step.event_note);
    if (!created.ok()) return ReconcileResult::Error(created);
  }
  Status applied = ApplyLeaderDeployment(key, lws, deployment != nullptr, step.key);
  if (!applied.ok()) return ReconcileResult::Error(applied);
  Status service = EnsureSharedService(lws);
  if (!service.ok()) return ReconcileResult::Error(service);

  StatusPlan plan = PlanHashStatus(lws, caches_->deployments.Get(key.namespace_, key.name),
                                   step.key, FormatRfc3339(loop_->clock().Now()));
  if (plan.event) Event(lws, "Normal", plan.event->first, plan.event->second, "Update");
  if (plan.changed) {
    Status written = WriteStatus(key, plan.status);
    // Someone wrote the LWS after our cache saw it: plan again on the newer version.
    if (written.code() == Code::kConflict) return ReconcileResult::After(Duration{0});
    if (!written.ok()) return ReconcileResult::Error(written);
  }
  if (plan.update_done) {
    Status truncated = TruncateRevisions(lws, revisions, step.key);
    if (!truncated.ok()) return ReconcileResult::Error(truncated);
  }
  return ReconcileResult::Done();
}

Status LwsController::ApplyLeaderDeployment(const runtime::Key& key,
                                            const api::LeaderWorkerSet& lws, bool exists,
                                            const std::string& revision_key) {
  RETURN_IF_ERROR(ApplyLeaderSet(key, lws, client::kDeployments, caches_->deployments.informer(),
                                 caches_->deployments.GetStored(key.namespace_, key.name),
                                 LeaderDeploymentApply(lws, revision_key), exists,
                                 kLeaderDeployment));
  if (!exists) {
    Event(lws, "Normal", "GroupsProgressing",
          CreatedLeaderStatefulSetNote(key.name, kLeaderDeployment), "Create");
  }
  return Status::Ok();
}

}  // namespace lws::controllers
