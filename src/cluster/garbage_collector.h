// File: cluster/garbage_collector.h
//
// The ownerReference garbage collector of the embedded cluster: the I/O half of gc_plan.h. A
// pass reads what changed since the last one from the store (GcGraph, gc_graph.h), plans on the
// objects whose verdict may have changed and applies the actions through its client, as
// kube-controller-manager's garbage collector does through the API (so admission sees them and
// managedFields name the collector, as for every other controller's writes):
//   - Delete: DELETE with the plan's propagationPolicy and uid + resourceVersion preconditions,
//     so an object recreated under the same name, or changed since it was judged, is left for
//     the next pass (upstream deleteObject passes the same preconditions).
//   - RemoveOwnerReferences / RemoveFinalizer: read the current object, drop the references or
//     the finalizer, update with the resourceVersion just read (the field goes away when its
//     list becomes empty). Removing those uids is right whatever else changed meanwhile: an
//     absent owner never comes back and a deletion is never undone.
// NotFound and Conflict answers are normal (someone else wrote first) and are not errors: the
// object changed, so the next pass judges it again from fresh data. Passes collect one level of
// an ownership tree each; RunUntilStable repeats them until nothing is left to do.
//
// Cost: a pass costs what changed since the last one and its owners and dependents (gc_graph.h),
// never a listing of every object: most objects (Events above all) take part in no ownership
// tree.
//
// Scheduling: the collector owns no thread, timer or clock. The caller (an event loop on the
// real clock, or the simulator) decides when to run a pass. Threading: the store and the client
// are thread-safe and the collector holds no lock of its own; one collector must not run two
// passes at once.
#pragma once

#include <vector>

#include "api/resources.h"
#include "base/result.h"
#include "client/client.h"
#include "cluster/gc_graph.h"
#include "cluster/gc_plan.h"
#include "store/store.h"

namespace lws::cluster {

class GarbageCollector {
 public:
  // The registry is a pointer because custom resources come and go at run time: each pass reads
  // its current resources. `store`: what the graph reads (its change log); `client`: every
  // write, an in-process client of the API server over that store. REQUIRES: all three outlive
  // the collector, and nobody changes the registry during a pass.
  // `graph`: kept by the caller from one collector to the next, so that a pass reads only what
  // changed (nullptr: this collector's own, which reads everything on its first pass).
  GarbageCollector(store::Store* store, const client::Client* client,
                   const api::ResourceRegistry* registry, GcGraph* graph = nullptr);

  // One pass. Returns the number of actions that changed the store; the first error other than
  // NotFound or Conflict, after attempting every action.
  Result<int> RunOnce();
  // Runs passes until one changes nothing or `max_passes` have run. Returns the total number of
  // actions; stops at the first error.
  Result<int> RunUntilStable(int max_passes);

  // A plan's input without the graph: every object of every group resource, read at one
  // instant, with the registry's first version of each resource, all judged.
  // ApplyPlan: the actions in order; returns how many changed the store, or the first error
  // other than NotFound/Conflict after trying them all.
  Result<GcSnapshot> Snapshot() const;
  Result<int> ApplyPlan(const std::vector<GcAction>& actions);

 private:
  // Returns true iff `action` changed the store.
  Result<bool> Apply(const GcAction& action);
  Result<bool> ApplyDelete(const GcAction& action);
  Result<bool> ApplyUpdate(const GcAction& action);

  store::Store* const store_;
  const client::Client* const client_;
  const api::ResourceRegistry* const registry_;
  GcGraph own_graph_;
  GcGraph* const graph_;
};

}  // namespace lws::cluster
