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
  RevisionStep step;
  {
    std::lock_guard<std::mutex> lock(match_cache_mu_);
    step = PlanRevision(lws, deployment != nullptr ? &deployment->metadata : nullptr, revisions,
                        &match_cache_);
  }
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
    store::ObjectPtr stored = caches_->sets.GetStored(key.namespace_, key.name);
    api::Json object = stored->json;
    object["status"] = api::Encode(plan.status);
    auto written = client_->UpdateStatus(client::kLeaderWorkerSets, std::move(object));
    if (!written.ok()) {
      // Someone wrote the LWS after our cache saw it: plan again on the newer version.
      if (written.status().code() == Code::kConflict) return ReconcileResult::After(Duration{0});
      return ReconcileResult::Error(written.status());
    }
    Expect(key, caches_->sets.informer(), (*written)->json);
  }
  if (plan.update_done) TruncateRevisions(lws, revisions, step.key);
  return ReconcileResult::Done();
}

Status LwsController::ApplyLeaderDeployment(const runtime::Key& key,
                                            const api::LeaderWorkerSet& lws, bool exists,
                                            const std::string& revision_key) {
  api::Json body = LeaderDeploymentApply(lws, revision_key);
  // The same apply to the version the last one left changes nothing (applied_leader_sets.h).
  const store::ObjectPtr live = caches_->deployments.GetStored(key.namespace_, key.name);
  if (applied_leader_sets_.Unchanged(key, body, live.get())) return Status::Ok();
  auto applied = client_->Patch(client::kDeployments, key.namespace_, key.name,
                                apiserver::PatchType::kApply, body);
  if (!applied.ok()) {
    const std::string error = applied.status().message();
    if (!exists) {
      Event(lws, "Warning", "FailedCreate",
            FailedCreateLeaderNote(key.name, error, kLeaderDeployment), "Create");
    } else {
      Event(lws, "Warning", "FailedUpdate",
            FailedUpdateLeaderNote(key.name, error, kLeaderDeployment), "Update");
    }
    return applied.status();
  }
  if (!exists) {
    Event(lws, "Normal", "GroupsProgressing",
          CreatedLeaderStatefulSetNote(key.name, kLeaderDeployment), "Create");
  }
  Expect(key, caches_->deployments.informer(), (*applied)->json);
  applied_leader_sets_.Remember(key, std::move(body), *applied);
  return Status::Ok();
}

}  // namespace lws::controllers
