// The DisaggregatedSet reconciler's writes (ds_controller.h): child LeaderWorkerSets, role
// scalers and the status.
#include <fmt/format.h>

#include "api/codec.h"
#include "base/log.h"
#include "client/resource.h"
#include "controllers/disaggregatedset/child_lws.h"
#include "controllers/disaggregatedset/ds_controller.h"
#include "controllers/disaggregatedset/ds_status.h"
#include "controllers/disaggregatedset/scalers.h"

namespace lws::disaggregatedset {
namespace {

using Kind = SliceAction::Kind;

bool Is(const Status& s, Code code) { return s.code() == code; }

std::string Now(const EventLoop* loop) { return FormatRfc3339(loop->clock().Now()); }

}  // namespace

Status DsController::Perform(const api::DisaggregatedSet& ds, const std::string& revision,
                             int slice, const SlicePlan& plan) {
  const std::string& ns = ds.metadata.namespace_;
  for (const SliceAction& a : plan.actions) {
    switch (a.kind) {
      case Kind::kDelete:
        RETURN_IF_ERROR(Delete(client::kLeaderWorkerSets, ds, a.lws));
        break;
      case Kind::kAnnotateInitial: {
        api::Json patch = {
            {"metadata",
             {{"annotations", {{api::kDsInitialReplicasAnnotation, std::to_string(a.replicas)}}}}}};
        auto patched =
            client_->Patch(client::kLeaderWorkerSets, ns, a.lws, api::PatchType::kMerge, patch);
        // Upstream only logs a failed annotation: the planner falls back to spec.replicas.
        if (!patched.ok()) {
          Logger("disaggregatedset")
              ->warn("{}/{}: failed to set initial-replicas annotation: {}", ns, a.lws,
                     patched.status().message());
        }
        break;
      }
      case Kind::kCreate:
        RETURN_IF_ERROR(CreateLws(ds, revision, slice, a));
        break;
      case Kind::kScale:
        RETURN_IF_ERROR(ScaleLws(ds, a.lws, a.replicas));
        break;
      case Kind::kEvent:
        Record(ds, "Normal", a.reason, a.action, a.note);
        break;
    }
  }
  return Status::Ok();
}

Status DsController::CreateLws(const api::DisaggregatedSet& ds, const std::string& revision,
                               int slice, const SliceAction& action) {
  const api::DisaggregatedRoleSpec* role = ds.FindRole(action.role);
  if (role == nullptr) return Status::Ok();
  Result<store::ObjectPtr> created =
      client_->Create(client::kLeaderWorkerSets,
                      api::Encode(ChildLws(ds, *role, slice, revision, action.replicas)));
  if (created.ok()) return Status::Ok();
  if (!Is(created.status(), Code::kAlreadyExists)) {
    return Status(created.status().code(),
                  "failed to create LWS " + action.lws + ": " + created.status().message());
  }
  // A stale cache's second create, or a name someone else took.
  const api::LeaderWorkerSet* existing = caches_->lws.Get(ds.metadata.namespace_, action.lws);
  if (existing != nullptr && !ControlledBy(existing->metadata, ds)) {
    return Status(Code::kAlreadyExists,
                  fmt::format("LeaderWorkerSet {} exists but is not controlled by "
                              "DisaggregatedSet {}; refusing to adopt it",
                              action.lws, ds.metadata.name));
  }
  return Status::Ok();
}

Status DsController::ScaleLws(const api::DisaggregatedSet& ds, const std::string& name,
                              int replicas) {
  const api::LeaderWorkerSet* existing = caches_->lws.Get(ds.metadata.namespace_, name);
  if (existing != nullptr && !ControlledBy(existing->metadata, ds)) {
    return Status(Code::kConflict, fmt::format("LeaderWorkerSet {} exists but is not controlled by "
                                               "DisaggregatedSet {}; refusing to scale it",
                                               name, ds.metadata.name));
  }
  api::Json patch = {{"spec", {{"replicas", replicas}}}};
  auto patched = client_->Patch(client::kLeaderWorkerSets, ds.metadata.namespace_, name,
                                api::PatchType::kMerge, patch);
  if (!patched.ok()) {
    return Status(patched.status().code(),
                  "failed to scale " + name + ": " + patched.status().message());
  }
  return Status::Ok();
}

Status DsController::Delete(const client::Resource& resource, const api::DisaggregatedSet& ds,
                            const std::string& name) {
  auto deleted = client_->Delete(resource, ds.metadata.namespace_, name);
  if (!deleted.ok() && !Is(deleted.status(), Code::kNotFound)) return deleted.status();
  return Status::Ok();
}

Result<ScalersByRole> DsController::ReconcileScalers(const api::DisaggregatedSet& ds,
                                                     const std::vector<OwnedLws>& owned) {
  const std::string& ns = ds.metadata.namespace_;
  ScalersByRole by_role;
  std::vector<OwnedScaler> controlled;
  for (const auto* scaler : caches_->Scalers(ns, ds.metadata.name)) {
    if (!ControlledBy(scaler->metadata, ds)) continue;
    OwnedScaler o{scaler->metadata.name, scaler->metadata.Label(api::kDsRoleLabel),
                  scaler->spec.replicas, scaler->metadata.generation};
    controlled.push_back(o);
    by_role[o.role] = o;
  }
  ScalerPlan plan = PlanScalers(ds, controlled, owned);
  for (const std::string& name : plan.delete_names) {
    if (Status deleted = Delete(kRoleScalers, ds, name); !deleted.ok()) {
      return Status(deleted.code(), "failed to reconcile scalers: " + deleted.message());
    }
    for (auto it = by_role.begin(); it != by_role.end(); ++it) {
      if (it->second.name != name) continue;
      Record(ds, "Normal", "ScalerDeleted", "Delete",
             fmt::format("Deleted scaler {} (role {} is no longer External)", name, it->first));
      by_role.erase(it);
      break;
    }
  }
  for (const api::DisaggregatedSetRoleScaler& scaler : plan.create) {
    const std::string& role = scaler.metadata.Label(api::kDsRoleLabel);
    auto created = client_->Create(kRoleScalers, api::Encode(scaler));
    if (created.ok()) {
      by_role[role] = {scaler.metadata.name, role, scaler.spec.replicas, 1};
      Record(ds, "Normal", "ScalerCreated", "Create",
             fmt::format("Created scaler {} for role {}", scaler.metadata.name, role));
      continue;
    }
    if (!Is(created.status(), Code::kAlreadyExists)) {
      return Status(created.status().code(),
                    "failed to reconcile scalers: " + created.status().message());
    }
    // Not ours (ours would be in the cache): the role has no scaler and holds its count.
    Record(ds, "Warning", "ScalerConflict", "Conflict",
           fmt::format("Scaler {} exists but is not controlled by this DisaggregatedSet; not "
                       "adopting",
                       scaler.metadata.name));
  }
  return by_role;
}

Status DsController::UpdateScalerStatus(const api::DisaggregatedSet& ds,
                                        const ScalersByRole& scalers,
                                        const std::vector<OwnedLws>& owned) {
  for (const auto& [role, scaler] : scalers) {
    const auto* cached = caches_->scalers.Get(ds.metadata.namespace_, scaler.name);
    if (cached == nullptr) continue;  // just created: its status follows on the next reconcile
    api::RoleScalerStatus status = ScalerStatus(ds, scaler, owned, cached->status, Now(loop_));
    if (SameScalerStatus(status, cached->status)) continue;
    api::Json patch = {{"status", api::Encode(status)}};
    auto patched = client_->Patch(kRoleScalers, ds.metadata.namespace_, scaler.name,
                                  api::PatchType::kMerge, patch, "status");
    if (!patched.ok() && !Is(patched.status(), Code::kNotFound)) {
      return Status(patched.status().code(),
                    "patch scaler " + scaler.name + " status: " + patched.status().message());
    }
  }
  return Status::Ok();
}

Status DsController::UpdateStatus(const api::DisaggregatedSet& ds, const std::string& revision,
                                  const std::vector<OwnedLws>& owned,
                                  const ScalersByRole& scalers) {
  std::vector<api::RoleStatus> roles = RoleStatuses(ds, revision, owned);
  const bool available = AllRolesSatisfied(ds, roles, scalers);
  api::DisaggregatedSet updated = ds;
  if (!ApplyStatus(ds, std::move(roles), available, Now(loop_), &updated.status)) {
    return Status::Ok();
  }
  auto written = client_->UpdateStatus(kDisaggregatedSets, api::Encode(updated));
  // A Conflict is retried like any error, as upstream's reconcile returns it: the change that
  // made the cached set stale may have reached the cache before this reconcile began.
  return written.ok() ? Status::Ok() : written.status();
}

}  // namespace lws::disaggregatedset
