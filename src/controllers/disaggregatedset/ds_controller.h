// File: controllers/disaggregatedset/ds_controller.h
//
// Upstream's DisaggregatedSet reconciler (pkg/controllers/disaggregatedset/
// disaggregatedset_controller.go; docs/disaggregatedset-upstream.md section 5): the I/O half of
// slice_plan.h, scalers.h and ds_status.h. One reconcile of a set, in upstream's order:
//   1. the set from the cache, and its revision (revision.h);
//   2. LeaderWorkerSets and Services of slices the set no longer has are deleted (event
//      LWSDeleted);
//   3. the role scalers of External roles created, those of roles no longer External deleted;
//   4. each slice planned and its writes made in order (slice_plan.h), then its headless
//      Services (services.h); a failing slice does not stop the others;
//   5. the scalers' status (replicas, selector, Ready);
//   6. the set's status: per-role counts and the Available / Progressing conditions, written
//      only when they changed, even when a slice failed.
// The reconcile runs again in 1 s while a slice waits for its new revision (upstream's
// RequeueAfter), and otherwise on events: the set, and the LeaderWorkerSets and scalers that
// carry its name label.
//
// Stale caches are harmless here: every write names an absolute replica count, a create that
// finds the object (AlreadyExists) is what was wanted, and the planner derives its step from
// what it observes, so a step planned twice asks for the same counts twice.
//
// Threading: handlers and reconciles on the loop.
#pragma once

#include <cstdint>
#include <vector>

#include "client/client.h"
#include "client/event_recorder.h"
#include "controllers/disaggregatedset/ds_caches.h"
#include "controllers/disaggregatedset/observed.h"
#include "controllers/disaggregatedset/services.h"
#include "controllers/disaggregatedset/slice_plan.h"
#include "runtime/work_queue.h"

namespace lws::disaggregatedset {

class DsController {
 public:
  // REQUIRES: every argument outlives the controller.
  DsController(EventLoop* loop, const client::Client* client, DsCaches* caches,
               client::EventRecorder* recorder);
  DsController(const DsController&) = delete;
  DsController& operator=(const DsController&) = delete;

  void Register();
  void SetReady() { queue_.SetReady(true); }
  void Stop() { queue_.Stop(); }
  std::uint64_t reconciles() const { return queue_.runs(); }

 private:
  runtime::ReconcileResult Reconcile(const runtime::Key& key);
  // The set's LeaderWorkerSets (controlled by it, by uid) as the planner reads them.
  std::vector<OwnedLws> Owned(const api::DisaggregatedSet& ds) const;
  Status DeleteRemovedSlices(const api::DisaggregatedSet& ds, const std::vector<OwnedLws>& owned,
                             const std::vector<OwnedService>& services);
  Result<ScalersByRole> ReconcileScalers(const api::DisaggregatedSet& ds,
                                         const std::vector<OwnedLws>& owned);
  // The slice's headless Services (services.h), after its writes.
  Status ReconcileServices(const api::DisaggregatedSet& ds, const std::string& revision, int slice,
                           const std::vector<OwnedLws>& slice_lws,
                           const std::vector<OwnedService>& services);
  std::vector<OwnedService> Services(const api::DisaggregatedSet& ds) const;
  Status UpdateScalerStatus(const api::DisaggregatedSet& ds, const ScalersByRole& scalers,
                            const std::vector<OwnedLws>& owned);
  // Performs `plan` in order, stopping at the first failed write.
  Status Perform(const api::DisaggregatedSet& ds, const std::string& revision, int slice,
                 const SlicePlan& plan);
  Status CreateLws(const api::DisaggregatedSet& ds, const std::string& revision, int slice,
                   const SliceAction& action);
  Status ScaleLws(const api::DisaggregatedSet& ds, const std::string& name, int replicas);
  // Deletes `name` of `resource` in the set's namespace; one already gone is not an error.
  Status Delete(const client::Resource& resource, const api::DisaggregatedSet& ds,
                const std::string& name);
  Status UpdateStatus(const api::DisaggregatedSet& ds, const std::string& revision,
                      const std::vector<OwnedLws>& owned, const ScalersByRole& scalers);
  void Record(const api::DisaggregatedSet& ds, const std::string& type, const std::string& reason,
              const std::string& action, const std::string& note);

  EventLoop* loop_;
  const client::Client* client_;
  DsCaches* caches_;
  client::EventRecorder* recorder_;
  runtime::WorkQueue queue_;
};

}  // namespace lws::disaggregatedset
