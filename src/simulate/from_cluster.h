// File: simulate/from_cluster.h
//
// `lws simulate --from-cluster`: the scenario of a live LWS (or DisaggregatedSet) and a change
// to it, built from what
// any API server says (a real cluster or `lws up`), as a scenario document that ParseScenario
// reads like any file (so `--emit-scenario` writes exactly what runs):
//   - node pools: nodes grouped by their pool label (node.lws-cpp.dev/pool, GKE's, EKS's,
//     Karpenter's, AKS's; otherwise by allocatable), each pool as many nodes as now and no more
//     (whether the cluster could add nodes is not visible from the API), with the allocatable,
//     labels and taints its nodes share and their zones;
//   - startup: the median time its pods (an LWS's, or every role's of a set) took from being
//     scheduled to Ready, where their conditions tell; otherwise the cluster file's default;
//   - other tenants: every other running pod as a pod pinned to its node (its node by position
//     in its pool) asking for what it asks for, so the capacity they use stays used;
//   - the LWS or set as it is (name, labels, annotations, spec), created at 0s, and the change
//     applied as a merge patch at `settle`, when the simulated copy has had time to become ready.
// Nothing is written to the cluster.
#pragma once

#include <string>
#include <vector>

#include "api/field.h"
#include "base/clock.h"
#include "base/result.h"

namespace lws::simulate {

struct LiveCluster {
  api::Json workload;  // the LeaderWorkerSet or the DisaggregatedSet
  std::vector<api::Json> nodes;
  std::vector<api::Json> pods;  // every namespace
};

struct FromClusterOptions {
  api::Json change;  // a JSON merge patch of the workload
  Duration settle = std::chrono::minutes(15);
  Duration horizon = std::chrono::hours(6);
};

Result<api::Json> ScenarioFromCluster(const LiveCluster& live, const FromClusterOptions& options);

}  // namespace lws::simulate
