// File: cluster/gc_plan.h
//
// The decisions of the ownerReference garbage collector (kube-controller-manager's
// garbagecollector), as one pure function: a snapshot of objects in (every object, or those to
// judge with their owners and dependents), the list of writes that moves the cluster one step
// towards the collected state out (kubectl-compat.md section 9.9). GarbageCollector
// (garbage_collector.h) takes the snapshot from GcGraph (gc_graph.h) and applies the actions;
// running plan + apply until no action is left collects whole trees, one level per pass.
//
// Vocabulary, for one ownerReference of a dependent D:
//   - The owner *resolves* when the snapshot holds an object with the reference's uid, name,
//     kind and API group (any version), and the scopes agree: a cluster-scoped owner may own
//     anything, a namespaced owner only objects of its own namespace. Upstream reads the owner by
//     (apiVersion, kind, namespace of D, name) and compares uids, which is the same test. An
//     owner that does not resolve is *absent*, and the reference *dangling*. An owner in the
//     middle of its deletion still resolves.
//   - An owner *waits for dependents* when it has a deletionTimestamp and the
//     `foregroundDeletion` finalizer, and *orphans* when it has a deletionTimestamp and the
//     `orphan` finalizer.
//   - The *dependents* of an owner are the objects with a reference that resolves to it; a
//     dependent *blocks* the owner when that reference has blockOwnerDeletion: true.
//
// Rules, per object X (upstream attemptToDeleteItem, processDeletingDependentsItem and
// attemptToOrphanWorker):
//   1. References to orphaning owners are removed from X (even while X is being deleted).
//   2. X with a deletionTimestamp is otherwise left alone: its deletion is under way.
//   3. If some owner of X resolves and neither waits nor is absent ("solid"; an orphaning owner
//      counts as solid), X stays and loses its dangling references and its references to
//      waiting owners (so those owners are not stuck).
//   4. Else if some owner waits for dependents and X has dependents itself, X is deleted with
//      propagationPolicy Foreground, so the wait reaches down the tree.
//   5. Else X (all references dangling or waiting) is deleted, with the policy its own
//      finalizers ask for (orphan -> Orphan, foregroundDeletion -> Foreground), else Background.
//   6. An owner waiting for dependents loses `foregroundDeletion` once no dependent blocks it;
//      an orphaning owner loses `orphan` once no dependent refers to it (so the references are
//      gone first, even when one of those updates failed).
// Objects without ownerReferences are never collected. References without a string uid are
// ignored: the API server's validation never lets them in.
//
// Reads of several resources are not one atomic read. An object written after the snapshot
// began (its resourceVersion is greater than GcSnapshot::resource_version) may refer to an owner
// created after that owner's resource was listed, which would look absent; so such an object is
// not judged as a dependent in this plan (rules 1-5), only on the next one. An object written
// before the snapshot began names only owners created before it, which the lists see unless
// they are really gone (uids are never reused).
//
// Determinism: the actions come in the order of the objects sorted by (group resource,
// namespace, name), whatever the snapshot's order; per object: RemoveOwnerReferences, Delete,
// RemoveFinalizer.
//
// Left out (upstream has it): the cycle breaker that turns blockOwnerDeletion off when a
// dependent and its owner both wait for dependents; and an owner kind the API does not serve
// is simply absent here, where upstream retries until its resource appears.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "api/resources.h"
#include "store/object.h"

namespace lws::cluster {

inline constexpr std::string_view kOrphanFinalizer = "orphan";
inline constexpr std::string_view kForegroundFinalizer = "foregroundDeletion";

// One ownerReference as the rules read it.
struct GcOwnerRef {
  std::string uid;
  std::string group;  // from apiVersion: "apps/v1" -> "apps", "v1" -> ""
  std::string kind;
  std::string name;
  bool blocks = false;  // blockOwnerDeletion: true
  bool operator==(const GcOwnerRef&) const = default;
};

// What the rules read from one object's metadata. A stored version never changes, so GcGraph
// (gc_graph.h) reads it once per version (store/object_meta.h), not once per pass.
struct GcMeta {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string resource_version;
  bool deleting = false;         // has a deletionTimestamp
  bool has_orphan = false;       // finalizer `orphan`
  bool has_foreground = false;   // finalizer `foregroundDeletion`
  std::vector<GcOwnerRef> refs;  // those with a uid, in order

  // The vocabulary above: an owner that waits for its dependents, or orphans them.
  bool WaitsForDependents() const { return deleting && has_foreground; }
  bool Orphans() const { return deleting && has_orphan; }
};
GcMeta ExtractGcMeta(const store::StoredObject& object);

// One object of the snapshot. `resource` is the ResourceInfo it was listed with (one per group
// resource); the stored version is shared with the store, so a snapshot copies no JSON.
struct GcObject {
  const api::ResourceInfo* resource = nullptr;  // never null
  store::ObjectPtr object;                      // never null
  std::shared_ptr<const GcMeta> meta;           // ExtractGcMeta(*object); null: the plan reads it
  // False for context: an owner or dependent of a judged object, there so that the rules see
  // all of the judged object's neighbours, that gets no actions itself (gc_graph.h).
  bool judged = true;
};

struct GcSnapshot {
  std::vector<GcObject> objects;  // any order
  // The store's resourceVersion before the first list; the maximum trusts every object.
  std::uint64_t resource_version = std::numeric_limits<std::uint64_t>::max();
};

enum class GcActionKind {
  kRemoveOwnerReferences,  // update: drop the ownerReferences with `owner_uids`
  kDelete,                 // DELETE with `propagation_policy` and uid/resourceVersion preconditions
  kRemoveFinalizer,        // update: drop `finalizer`
};

struct GcAction {
  GcActionKind kind = GcActionKind::kDelete;
  const api::ResourceInfo* resource = nullptr;
  std::string namespace_;
  std::string name;
  std::string uid;                 // precondition: the object the plan saw, not a namesake
  std::string resource_version;    // kDelete precondition: the version the decision was made on
  std::string propagation_policy;  // kDelete: "Background", "Foreground" or "Orphan"
  std::vector<std::string> owner_uids;  // kRemoveOwnerReferences: sorted, no duplicates
  std::string finalizer;                // kRemoveFinalizer
  bool operator==(const GcAction&) const = default;
};

// "Delete statefulsets.apps default/sts Background", "RemoveOwnerReferences pods default/p [u1
// u2]", "RemoveFinalizer leaderworkersets.leaderworkerset.x-k8s.io default/l foregroundDeletion":
// for test failures and logs.
std::string ToString(const GcAction& action);

// Returns the actions the rules above ask for on the judged objects of `snapshot`.
// REQUIRES: every GcObject has a resource and an object whose metadata holds its uid.
std::vector<GcAction> PlanGarbageCollection(const GcSnapshot& snapshot);

}  // namespace lws::cluster
