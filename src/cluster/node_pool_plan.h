// File: cluster/node_pool_plan.h
//
// The scale-up decision of the simulated cluster-autoscaler, as one pure function over a
// snapshot: the nodes with their bound pods, the pools with what they are provisioning, and the
// pods the scheduler found unschedulable. NodePools (node_pools.h) does the I/O around it.
//
// Each pending pod, in the given order:
//   1. fits a registered node as the cluster stands (plus the pending pods placed before it):
//      the scheduler will bind it, nothing to do (upstream's filterOutSchedulable);
//   2. fits a node already being provisioned or added earlier in this plan (first fit, using
//      SchedulePod over those nodes): it waits for that node; no new node is asked for, which is
//      what keeps a pass from provisioning twice for the same pods;
//   3. otherwise the pools are tried in spec order: a pool whose empty new node passes the
//      scheduler's node filters (taints, node affinity, resources; inter-pod affinity against the
//      whole cluster) and that is not in backoff, below max_nodes and not stocked out gets one
//      more node, and the pod is placed on it. A stocked-out pool fails the attempt (the pod is
//      reported in `failed_scale_up`) and goes into backoff. Every pool passed over gives its
//      reason, as upstream's NoScaleUpInfo: the scheduler's filter reasons, "max node group size
//      reached" or "in backoff after failed scale-up".
// The new node of a pool is NewNode(pool, lowest unused index), so a template node carries the
// zone and rack that node will really get.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/core.h"
#include "api/pod.h"
#include "cluster/cluster_spec.h"
#include "cluster/scheduler_plan.h"

namespace lws::cluster {

inline constexpr const char* kMaxSizeReachedReason = "max node group size reached";
inline constexpr const char* kBackoffReason = "in backoff after failed scale-up";

struct PoolSnapshot {
  const NodePoolSpec* spec = nullptr;
  std::set<int> registered;    // indexes of the pool's nodes that exist
  std::set<int> provisioning;  // indexes requested, not registered yet
  bool stocked_out = false;
  bool backoff = false;
};

struct ScaleUpInput {
  std::vector<PoolSnapshot> pools;       // spec order
  std::vector<NodeInfo> nodes;           // registered nodes with their bound pods
  std::vector<const api::Pod*> pending;  // unschedulable pods, in the order to consider them
  Time now{};
};

struct ScaleUpPlan {
  struct Growth {
    std::string pool;
    int from = 0;  // registered + provisioning before the plan
    int to = 0;
    int max = 0;
    std::vector<int> indexes;  // the new nodes
  };
  std::vector<Growth> growths;  // spec order
  // "pod triggered scale-up: [{gpu-a 4->6 (max: 6)}]", the same for every pod that triggered.
  std::string triggered_message;
  std::vector<const api::Pod*> triggered;
  // Pods that no pool can take, with "pod didn't trigger scale-up: 1 max node group size reached".
  std::vector<std::pair<const api::Pod*, std::string>> not_triggered;
  // Pods larger than every pool's node shape in some resource, with what they ask and what the
  // largest node has: no scale-up will ever place them.
  std::vector<std::pair<const api::Pod*, std::string>> fits_no_node;
  // Pods whose scale-up hit a stockout, with the zone of the node asked for (the pool's name when
  // it has no zones).
  std::vector<std::pair<const api::Pod*, std::string>> failed_scale_up;
  std::set<std::string> backed_off;  // pools that went into backoff in this plan
  // Pool -> why pods wait on it: kMaxSizeReachedReason or kBackoffReason (last one seen).
  std::map<std::string, std::string> waiting;
};

ScaleUpPlan PlanScaleUp(const ScaleUpInput& input);

// The lowest index >= 0 in neither set.
int LowestFreeIndex(const std::set<int>& a, const std::set<int>& b);

}  // namespace lws::cluster
