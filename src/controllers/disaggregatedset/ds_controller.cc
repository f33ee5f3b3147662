// The DisaggregatedSet reconciler (ds_controller.h): reads and the order of the steps.
#include "controllers/disaggregatedset/ds_controller.h"

#include <limits>

#include "api/codec.h"
#include "api/intstr.h"
#include "base/log.h"
#include "client/resource.h"
#include "controllers/disaggregatedset/child_lws.h"
#include "controllers/disaggregatedset/ds_status.h"
#include "controllers/disaggregatedset/naming.h"
#include "controllers/disaggregatedset/revision.h"
#include "controllers/disaggregatedset/scalers.h"

namespace lws::disaggregatedset {
namespace {

constexpr Duration kRequeueSoon = std::chrono::seconds(1);  // upstream's RequeueAfter: time.Second

// upstream GetInitialReplicas: ParseInt(value, 10, 32); missing, empty or unparsable is unset.
std::optional<int> InitialReplicas(const api::ObjectMeta& meta) {
  Result<std::int64_t> value =
      api::GoAtoi(api::ValueOf(meta.annotations, api::kDsInitialReplicasAnnotation));
  if (!value.ok() || *value < std::numeric_limits<std::int32_t>::min() ||
      *value > std::numeric_limits<std::int32_t>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*value);
}

std::vector<OwnedLws> OfSlice(const std::vector<OwnedLws>& owned, int slice) {
  std::vector<OwnedLws> out;
  for (const OwnedLws& l : owned) {
    if (l.slice == slice) out.push_back(l);
  }
  return out;
}

OwnedLws Observe(const api::LeaderWorkerSet& lws) {
  OwnedLws o;
  o.name = lws.metadata.name;
  o.role = lws.metadata.Label(api::kDsRoleLabel);
  o.revision = lws.metadata.Label(api::kDsRevisionLabel);
  o.slice = SliceOfLabels(lws.metadata.labels);
  o.slice_labelled = !lws.metadata.Label(api::kDsSliceLabel).empty();
  o.spec_replicas = lws.Replicas();
  o.status_replicas = lws.status.replicas;
  o.ready_replicas = lws.status.ready_replicas;
  o.updated_replicas = lws.status.updated_replicas;
  o.initial_replicas = InitialReplicas(lws.metadata);
  o.creation_timestamp = lws.metadata.creation_timestamp;
  return o;
}

}  // namespace

DsController::DsController(EventLoop* loop, const client::Client* client, DsCaches* caches,
                           client::EventRecorder* recorder)
    : loop_(loop),
      client_(client),
      caches_(caches),
      recorder_(recorder),
      queue_(loop, "disaggregatedset", [this](const runtime::Key& key) { return Reconcile(key); }) {
}

void DsController::Register() {
  caches_->sets.AddHandler(
      [this](const api::DisaggregatedSet* old, const api::DisaggregatedSet* now) {
        const api::ObjectMeta& meta = now != nullptr ? now->metadata : old->metadata;
        queue_.Add({meta.namespace_, meta.name});
      });
  // Owns(LeaderWorkerSet), Owns(DisaggregatedSetRoleScaler): the set their name label names.
  auto owner = [this](const api::ObjectMeta& meta) {
    const std::string& ds = meta.Label(api::kDsNameLabel);
    if (!ds.empty()) queue_.Add({meta.namespace_, ds});
  };
  caches_->lws.AddHandler(
      [owner](const api::LeaderWorkerSet* old, const api::LeaderWorkerSet* now) {
        owner(now != nullptr ? now->metadata : old->metadata);
      });
  caches_->scalers.AddHandler([owner](const api::DisaggregatedSetRoleScaler* old,
                                      const api::DisaggregatedSetRoleScaler* now) {
    owner(now != nullptr ? now->metadata : old->metadata);
  });
}

std::vector<OwnedLws> DsController::Owned(const api::DisaggregatedSet& ds) const {
  std::vector<OwnedLws> owned;
  for (const api::LeaderWorkerSet* lws : caches_->Lws(ds.metadata.namespace_, ds.metadata.name)) {
    if (ControlledBy(lws->metadata, ds)) owned.push_back(Observe(*lws));
  }
  return owned;
}

runtime::ReconcileResult DsController::Reconcile(const runtime::Key& key) {
  const api::DisaggregatedSet* cached = caches_->sets.Get(key.namespace_, key.name);
  if (cached == nullptr || cached->metadata.deletion_timestamp)
    return runtime::ReconcileResult::Done();
  // A copy: the writes below may be answered before this returns, and the cache moves on.
  const api::DisaggregatedSet ds = *cached;
  Result<std::string> revision = ComputeRevision(ds);
  if (!revision.ok()) return runtime::ReconcileResult::Error(revision.status());

  // Read once: the caches change only between reconciles (their events are loop tasks, as this
  // reconcile is), so what this reconcile writes is seen by the next one, as upstream's is.
  const std::vector<OwnedLws> owned = Owned(ds);
  const std::vector<OwnedService> services = Services(ds);
  if (Status s = DeleteRemovedSlices(ds, owned, services); !s.ok()) {
    return runtime::ReconcileResult::Error(s);
  }
  Result<ScalersByRole> scalers = ReconcileScalers(ds, owned);
  if (!scalers.ok()) return runtime::ReconcileResult::Error(scalers.status());

  Status failed = Status::Ok();
  bool requeue = false;
  for (int slice = 0; slice < ds.Slices(); ++slice) {
    SliceInput in{&ds, *revision, slice, OfSlice(owned, slice), &*scalers};
    SlicePlan plan = PlanSlice(in);
    if (!plan.log.empty()) {
      Logger("disaggregatedset")
          ->debug("{}/{} slice {}: {}", key.namespace_, key.name, slice, plan.log);
    }
    requeue = requeue || plan.requeue_soon;
    Status s = Perform(ds, *revision, slice, plan);
    if (s.ok()) s = ReconcileServices(ds, *revision, slice, in.lws, services);
    if (!s.ok() && failed.ok()) {
      failed = Status(s.code(), "slice " + std::to_string(slice) + ": " + s.message());
    }
  }
  if (Status s = UpdateScalerStatus(ds, *scalers, owned); !s.ok() && failed.ok()) failed = s;
  if (Status s = UpdateStatus(ds, *revision, owned, *scalers); !s.ok()) {
    return runtime::ReconcileResult::Error(
        Status(s.code(), "failed to update DisaggregatedSet status: " + s.message()));
  }
  if (!failed.ok()) return runtime::ReconcileResult::Error(failed);
  if (requeue) return runtime::ReconcileResult::After(kRequeueSoon);
  return runtime::ReconcileResult::Done();
}

Status DsController::DeleteRemovedSlices(const api::DisaggregatedSet& ds,
                                         const std::vector<OwnedLws>& owned,
                                         const std::vector<OwnedService>& services) {
  for (const OwnedLws& l : owned) {
    // Objects made before slices (no label) are slice 0 and never removed here.
    if (!l.slice_labelled || l.slice < ds.Slices()) continue;
    RETURN_IF_ERROR(Delete(client::kLeaderWorkerSets, ds, l.name));
    Record(ds, "Normal", "LWSDeleted", "Delete",
           "Deleted LWS " + l.name + " for removed slice " + std::to_string(l.slice));
  }
  for (const OwnedService& service : services) {
    if (service.slice >= ds.Slices()) RETURN_IF_ERROR(Delete(client::kServices, ds, service.name));
  }
  return Status::Ok();
}

std::vector<OwnedService> DsController::Services(const api::DisaggregatedSet& ds) const {
  std::vector<OwnedService> out;
  for (const api::Service* s : caches_->Services(ds.metadata.namespace_, ds.metadata.name)) {
    out.push_back({s->metadata.name, s->metadata.Label(api::kDsRevisionLabel),
                   SliceOfLabels(s->metadata.labels)});
  }
  return out;
}

Status DsController::ReconcileServices(const api::DisaggregatedSet& ds, const std::string& revision,
                                       int slice, const std::vector<OwnedLws>& slice_lws,
                                       const std::vector<OwnedService>& services) {
  ServicePlan plan = PlanServices(ds, slice, revision, slice_lws, services);
  for (const api::Service& service : plan.create) {
    auto created = client_->Create(client::kServices, api::Encode(service));
    if (!created.ok() && created.status().code() != Code::kAlreadyExists) {
      return Status(created.status().code(),
                    "failed to reconcile services: " + created.status().message());
    }
  }
  for (const std::string& name : plan.delete_names) {
    if (Status deleted = Delete(client::kServices, ds, name); !deleted.ok()) {
      return Status(deleted.code(), "failed to reconcile services: " + deleted.message());
    }
  }
  return Status::Ok();
}

void DsController::Record(const api::DisaggregatedSet& ds, const std::string& type,
                          const std::string& reason, const std::string& action,
                          const std::string& note) {
  store::ObjectPtr stored = caches_->sets.GetStored(ds.metadata.namespace_, ds.metadata.name);
  if (stored != nullptr) recorder_->Record(*stored, type, reason, note, action);
}

}  // namespace lws::disaggregatedset
