// File: cluster/garbage_collector.h
//
// The ownerReference garbage collector of the embedded cluster: the I/O half of gc_plan.h. A
// pass lists every resource of the registry from the store, plans on that snapshot and applies
// the actions through the store's ordinary writes, as kube-controller-manager's garbage collector
// does through the API:
//   - Delete: DELETE with the plan's propagationPolicy and uid + resourceVersion preconditions,
//     so an object recreated under the same name, or changed since it was judged, is left for
//     the next pass (upstream deleteObject passes the same preconditions).
//   - RemoveOwnerReferences / RemoveFinalizer: read the current object, drop the references or
//     the finalizer, update with the resourceVersion just read (the field goes away when its
//     list becomes empty). Removing those uids is right whatever else changed meanwhile: an
//     absent owner never comes back and a deletion is never undone.
// NotFound and Conflict answers are normal (someone else wrote first) and are not errors: the
// next pass plans again from fresh data. Passes collect one level of an ownership tree each;
// RunUntilStable repeats them until nothing is left to do.
//
// Cost: every pass lists every object, O(objects) time and a snapshot of shared pointers (the
// stored JSON is not copied). What the rules read from each object (GcMeta) is kept from one
// pass to the next by stored version, so only objects written since the last pass are read
// again: at 300 LWS groups (~15,000 objects, mostly events) that took GC from 14% to a few
// percent of a rollout. Upstream keeps an incremental graph fed by watches, which is the next
// step if passes show up in profiles again.
//
// Scheduling: the collector owns no thread, timer or clock. The caller (an event loop on the
// real clock, or the simulator) decides when to run a pass. Threading: the store is thread-safe
// and the collector holds no lock of its own; one collector must not run two passes at once.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>

#include "api/resources.h"
#include "base/result.h"
#include "cluster/gc_plan.h"
#include "store/store.h"

namespace lws::cluster {

// What the collector read from each stored version (GcMeta), kept across passes and across
// collectors: callers build a collector per pass, because the registry can change under them.
class GcMetaCache {
 public:
  // Sets every object's `meta`, from the cache where the stored version is the same; then keeps
  // the metas of this snapshot only (older versions are let go).
  void Attach(GcSnapshot* snapshot);
  // The number of versions cached: those of the last snapshot.
  std::size_t size() const { return metas_.size(); }

 private:
  struct Cached {
    store::ObjectPtr object;  // keeps the version, and so its address (the key), alive
    std::shared_ptr<const GcMeta> meta;
    std::uint64_t pass = 0;   // the last Attach that saw the version
  };
  // By stored version. Lookups only.
  std::unordered_map<const store::StoredObject*, Cached> metas_;
  std::uint64_t pass_ = 0;
};

class GarbageCollector {
 public:
  // The registry is a pointer because custom resources come and go at run time: each pass reads
  // its current resources. REQUIRES: `store` and `registry` outlive the collector, and nobody
  // changes the registry during a pass.
  // `cache`: kept by the caller from one collector to the next (nullptr: this collector's own).
  GarbageCollector(store::Store* store, const api::ResourceRegistry* registry,
                   GcMetaCache* cache = nullptr);

  // One pass. Returns the number of actions that changed the store; the first error other than
  // NotFound or Conflict, after attempting every action.
  Result<int> RunOnce();
  // Runs passes until one changes nothing or `max_passes` have run. Returns the total number of
  // actions; stops at the first error.
  Result<int> RunUntilStable(int max_passes);

  // The two halves of RunOnce. Snapshot: every object of every group resource (listed once,
  // with the registry's first version of it). ApplyPlan: the actions in order; returns how many
  // changed the store, or the first error other than NotFound/Conflict after trying them all.
  Result<GcSnapshot> Snapshot() const;
  Result<int> ApplyPlan(const std::vector<GcAction>& actions);

 private:
  // Returns true iff `action` changed the store.
  Result<bool> Apply(const GcAction& action);
  Result<bool> ApplyDelete(const GcAction& action);
  Result<bool> ApplyUpdate(const GcAction& action);

  store::Store* const store_;
  const api::ResourceRegistry* const registry_;
  GcMetaCache own_cache_;
  GcMetaCache* const cache_;
};

}  // namespace lws::cluster
