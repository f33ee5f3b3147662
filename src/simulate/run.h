// File: simulate/run.h
//
// One run of a scenario: the whole product `lws up` runs (API server with the LWS webhooks,
// node pools and autoscaler, scheduler, kubelets, StatefulSet controller, garbage collector,
// the LWS controllers, other tenants) on a virtual clock (scenario/lws_world.h), seeded, with
// one strategy applied to every LWS. It creates the workloads at 0s, applies the timeline as a
// user would (merge patches, cordons, and drains through the Eviction API: node_drain.h) and
// watches the LWSs and DisaggregatedSets the timeline changes (the first workload LWS or set
// when it changes none; watched.h) from their first change (or drain) until each rollout
// completes (Available, no update in progress, the change observed, the leader StatefulSet back
// at spec.replicas; a set with only LWSs of its current revision; after a drain, the drain over
// and every group ready again) or the horizon ends. A strategy may bring its own workloads. A run
// is a pure function of (scenario, strategy, seed): it reads no wall clock and starts no thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "simulate/node_drain.h"
#include "simulate/rollout_metrics.h"
#include "simulate/scenario_file.h"
#include "simulate/service_metrics.h"

namespace lws::simulate {

// One group's states over the run, for the timeline picture: (seconds from 0, state) at each
// change of state, and whether the group was a surge group (beyond spec.replicas, observation.h)
// then.
struct GroupTrack {
  int index = 0;
  std::string label;  // with several roles: "<role> <its LWS's group index>"; else empty
  std::vector<std::tuple<double, GroupState, bool>> states;
};

struct RunResult {
  std::string strategy;
  std::uint64_t seed = 0;
  std::string lws;            // the workloads watched ("llama", "pd", "prefill,decode")
  double window_start_s = 0;  // the first change, from the cluster's start
  RunMetrics metrics;
  // With RunOptions::timeline: every group's states, the ready groups and accelerators over
  // time, and the scenario's events (changes, capacity changes) as (seconds, text).
  std::vector<GroupTrack> groups;
  std::vector<std::pair<double, int>> ready;
  std::vector<std::pair<double, std::int64_t>> accelerators;
  std::vector<std::pair<double, std::string>> marks;
  int replicas = 0;
  int floor = 0;
  std::vector<DrainResult> drains;  // the timeline's drains, in order
  // When the run watches several roles (a DisaggregatedSet, LWSs changed together): each role's
  // numbers, and the service's (service_metrics.h); `metrics` are then of all the roles' groups
  // together, against the sum of their replicas and floors.
  std::vector<RoleResult> roles;
  ServiceMetrics service;
};

struct RunOptions {
  bool timeline = false;
  Duration sample = std::chrono::seconds(1);  // how often the state is looked at
};

// The run, or why it could not start (a workload refused by the API server, say).
Result<RunResult> RunScenario(const Scenario& scenario, const Strategy& strategy,
                              std::uint64_t seed, const RunOptions& options = {});

// Checks that cannot wait for a run: every LWS (with every strategy) passes the API server's
// admission, and each of its pods fits the allocatable of some node pool.
Status CheckScenario(const Scenario& scenario, const std::string& file);

}  // namespace lws::simulate
