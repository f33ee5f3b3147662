// File: cluster/gc_graph.h
//
// The garbage collector's picture of the cluster between passes, kept up to date from the
// store's change feed (Store::Changes) instead of listing every object on every pass, as
// kube-controller-manager's GraphBuilder keeps its graph from watches.
//
// Each pass plans (gc_plan.h) only for the objects whose verdict may have changed since the
// previous pass: the rules judge an object X on its own metadata, its owners' and its
// dependents', so X is *judged* again when X, one of its owners or one of its dependents
// changed in a way the rules read (anything of GcMeta but the resourceVersion). A judged object
// comes with its owners, and its dependents where the rules read them (ReadsDependents), as
// *context*: they are in the snapshot so that X is judged exactly as a plan over every object
// would judge it, but they get no actions.
// Objects that are not judged would get the verdict they got on the pass that last judged them,
// which that pass applied: a write changes its object, so it is judged again; a write that
// failed with NotFound or Conflict found it changed; any other failure makes the next pass
// judge everything (JudgeAll).
//
// Everything is judged on the first pass, when the store's history no longer reaches back to
// the last pass (then everything is read again), and when the served resources changed (an
// owner of a kind no longer served is absent).
//
// The feed is read at one instant, so every object of a snapshot is settled (gc_plan.h).
//
// Cost: a pass costs what changed, times the number of owners of what changed (and of
// dependents, for the few objects whose verdict reads them), instead of every object of the
// cluster (most of them Events, which take part in nothing). A leader StatefulSet judged
// because one leader pod changed does not bring its thousand other pods along.
// Memory: the current version of every object (shared with the store) and what the rules read
// from it.
//
// Threading: none; one graph serves one collector at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "api/resources.h"
#include "base/result.h"
#include "cluster/gc_plan.h"
#include "store/store.h"

namespace lws::cluster {

class GcGraph {
 public:
  // Reads the changes since the last call (everything on the first one, or when the history no
  // longer reaches back) and returns the next pass's snapshot: the objects to judge and their
  // context, with every resource as `registry` serves it now. Objects of resources it does not
  // serve are left out (absent).
  Result<GcSnapshot> NextSnapshot(const store::Store& store, const api::ResourceRegistry& registry);
  // The next snapshot judges every object (the last pass's writes did not all go through).
  void JudgeAll() { judge_all_ = true; }

  // Objects known, and how many times everything was read from the store (tests, docs).
  std::size_t size() const { return objects_.size(); }
  int full_reads() const { return full_reads_; }

 private:
  struct Key {
    std::string group_resource;
    store::ObjectName name;
    auto operator<=>(const Key&) const = default;
  };
  struct Entry {
    store::ObjectPtr object;
    std::shared_ptr<const GcMeta> meta;
  };
  using Objects = std::map<Key, Entry>;
  using Item = Objects::value_type;  // stays put while in the map, so indexes point at it

  Status CatchUp(const store::Store& store);
  void Apply(const store::StoreChange& change);
  void Insert(const Key& key, store::ObjectPtr object, std::shared_ptr<const GcMeta> meta);
  void Erase(Objects::iterator it);
  // Marks `key` and the owners and dependents of `meta` (its version before or after a change).
  void MarkAround(const Key& key, const GcMeta& meta);
  // The marked objects (judged: true) and their owners, and their dependents where the rules
  // read them, in key order.
  std::vector<std::pair<const Item*, bool>> MarkedAndContext() const;
  // Whether the rules read the dependents of an object with `meta` (gc_plan.h): rule 6 when it
  // waits for or orphans them, rule 4 when one of its owners waits (then whether it has any
  // decides how it is deleted). Any other verdict reads only the object and its owners.
  bool ReadsDependents(const GcMeta& meta) const;
  // The snapshot of the marked objects (or of all) and their context.
  GcSnapshot Build(const api::ResourceRegistry& registry);

  Objects objects_;
  // By uid, its object.
  std::unordered_map<std::string, const Item*> by_uid_;
  // By owner uid, the objects that refer to it. Only ever looked up, or iterated into sorted
  // containers, so the pointer order never shows.
  std::unordered_map<std::string, std::unordered_set<const Item*>> dependents_;
  std::set<Key> marked_;
  std::set<std::string> served_;  // the group resources of the last snapshot
  std::uint64_t cursor_ = 0;      // the feed was read up to here; 0: nothing read (all is read)
  bool judge_all_ = true;
  int full_reads_ = 0;
};

}  // namespace lws::cluster
