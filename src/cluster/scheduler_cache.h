// File: cluster/scheduler_cache.h
//
// What the scheduler knows about the cluster between two informer events: every node, and every
// pod that holds resources on a node, kept as the `std::vector<NodeInfo>` the pure core
// (scheduler_plan.h) reads, so a scheduling attempt costs no copy of the cluster.
//
// A pod holds its node's resources from the moment the scheduler binds it ("assumed", as
// kube-scheduler's cache assumes a pod before the binding is confirmed, so two pods of one batch
// are never placed on the same free GPU) until it is gone or has finished (phase Succeeded or
// Failed). A terminating pod still holds them: its containers run until the grace period ends.
// A pod bound to a node the cache does not know (yet, or any more) is kept and counted once the
// node appears.
//
// Each NodeInfo carries its NodeTotals (requests summed, the pods with anti-affinity), updated as
// pods come and go, so the filters and the score of one attempt cost O(nodes), not O(pods).
//
// Pointers in nodes() stay valid until the next call that changes the cache.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/core.h"
#include "api/pod.h"
#include "cluster/scheduler_plan.h"
#include "store/object.h"

namespace lws::cluster {

class SchedulerCache {
 public:
  struct CachedPod {
    std::shared_ptr<const api::Pod> pod;  // spec.nodeName set
    std::string uid;
    // The informer's version the pod was decoded from; null while the pod is only assumed.
    store::ObjectPtr source;
  };

  // Adds the node or replaces the cached one.
  void SetNode(api::Node node);
  void RemoveNode(const std::string& name);
  bool HasNode(const std::string& name) const { return nodes_.contains(name); }

  // Records `pod` as holding resources on the node its spec.nodeName names, replacing any
  // earlier entry for `key`. `source` is null for a pod this scheduler has just bound.
  void SetPod(const store::ObjectName& key, std::shared_ptr<const api::Pod> pod,
              store::ObjectPtr source);
  // Keeps the decoded pod but remembers a newer informer version of it (nothing the scheduler
  // reads changed).
  void RefreshSource(const store::ObjectName& key, store::ObjectPtr source);
  // Returns true iff the pod was held (its resources are now free).
  bool RemovePod(const store::ObjectName& key);
  // The entry for `key`, or null.
  const CachedPod* FindPod(const store::ObjectName& key) const;

  // The snapshot the pure core reads: one entry per node, sorted by name.
  const std::vector<NodeInfo>& nodes() const { return infos_; }
  std::size_t pod_count() const { return pods_.size(); }

 private:
  void Attach(const api::Pod* pod);
  void Detach(const api::Pod* pod);
  // `infos_` is sorted by node name, so a node is found by binary search. A name-to-position
  // map had to be rebuilt for every node added or removed: O(nodes log nodes) each, which made
  // starting a cluster of thousands of nodes quadratic.
  std::vector<NodeInfo>::iterator LowerBound(const std::string& name);
  NodeInfo* FindInfo(const std::string& name);  // null when the cache has no such node

  std::map<std::string, std::unique_ptr<api::Node>> nodes_;
  std::map<store::ObjectName, CachedPod> pods_;
  std::vector<NodeInfo> infos_;  // sorted by node name
};

}  // namespace lws::cluster
