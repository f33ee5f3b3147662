// File: simulate/scenario_file.h
//
// The scenario file of `lws simulate`: a cluster, the workloads on it, a timeline of changes and
// the strategies to compare, decoded strictly (every problem reported with its file and field
// path, in Kubernetes' wording, like the cluster file):
//
//   apiVersion: lws-cpp.dev/v1alpha1
//   kind: Scenario
//   metadata: {name: h100-stockout}
//   cluster:                         # the cluster file's fields (docs/cluster-config.md)
//     nodePools: [...]
//     capacityChanges: [{at: 5m, stockout: gpu, for: 6h}]
//     otherTenants: {takeFreed: {probability: 0.5, delay: 30s}}
//   workloads:                       # created at 0s, in order, in namespace default
//   - file: ../lws/demo.yaml         # relative to the scenario file; every document in it
//   - object: {apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet, ...}
//   - object: {apiVersion: disaggregatedset.x-k8s.io/v1, kind: DisaggregatedSet, ...}
//   timeline:                        # times from the cluster's start
//   - {at: 10m, lws: demo, image: vllm/vllm-openai:v0.7.0}   # every container of both templates
//   - {at: 10m, lws: demo, patch: {spec: {...}}}             # a JSON merge patch
//   - {at: 30m, lws: demo, replicas: 6}
//   - {at: 10m, disaggregatedset: pd, image: ...}            # every container of every role
//   - {at: 10m, image: ...}          # every LWS and DisaggregatedSet of the run's workloads
//   - {at: 40m, cordon: gpu-3}       # also uncordon, drain (cordon and evict every pod)
//   strategies:                      # each run on the same seeds; none: the workloads as written
//   - {name: "mu1-ms0", rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 1, maxSurge:
//   0}}}
//   - {name: "mu0-ms1", rolloutStrategy: {...}, annotations: {...}}
//   - {name: "gang", patch: {spec: {...}}}   # any JSON merge patch of the LWS
//   - {name: "two-lws", workloads: [...]}    # other workloads for this strategy (as above)
//   limits:
//     horizon: 6h                    # after the first change: not completed by then is stuck
//     stall: 5m                      # no progress this long is a stall
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/result.h"
#include "cluster/cluster_spec.h"
#include "simulate/workload.h"

namespace lws::simulate {

using api::Json;

inline constexpr const char* kScenarioApiVersion = "lws-cpp.dev/v1alpha1";
inline constexpr const char* kScenarioKind = "Scenario";

struct Change {
  enum class Kind { kPatch, kCordon, kUncordon, kDrain };
  Duration at{};
  Kind kind = Kind::kPatch;
  // kPatch: the kind of the workload changed (api::kLwsKind, api::kDsKind), "" for every LWS and
  // DisaggregatedSet of the run's workloads (an image change only).
  std::string target_kind;
  std::string target;  // the workload (kPatch) or the node
  Json patch;          // kPatch: a JSON merge patch (replicas becomes one)
  // kPatch: every container's image instead of `patch`; the patch is made from the workload the
  // run created (ImagePatch), since strategies may bring their own workloads.
  std::string image;
  std::string description;  // "image vllm/vllm-openai:v0.7.0", "replicas 6", "cordon gpu-3"
};

// A named override of every LWS: a JSON merge patch applied before it is created.
struct Strategy {
  std::string name;
  Json lws_patch = Json::object();
  // The same rolloutStrategy and annotations for every role of a DisaggregatedSet (into each
  // role's spec and metadata: the role's LeaderWorkerSets get them).
  Json role_patch = Json::object();
  // Workloads of this strategy's runs in place of the scenario's, to compare deployments (a
  // DisaggregatedSet against its roles as independent LWSs); empty: the scenario's.
  std::vector<Json> workloads;
};

struct Scenario {
  std::string name;
  cluster::ClusterSpec cluster;
  std::vector<Json> workloads;       // objects to create, in order (LeaderWorkerSets among them)
  std::vector<Change> timeline;      // in time order
  std::vector<Strategy> strategies;  // never empty: {"as-written", {}} when the file has none
  Duration horizon = std::chrono::hours(6);
  Duration stall = std::chrono::minutes(5);

  // The LeaderWorkerSets of the workloads.
  std::vector<const Json*> Leaderworkersets() const;
  // What a strategy's runs create: its own workloads, else the scenario's.
  const std::vector<Json>& WorkloadsOf(const Strategy& strategy) const;
};

// The object a strategy's run creates: the strategy's patch applied to an LWS, its role patch to
// each role of a DisaggregatedSet, anything else as written.
Result<Json> WithStrategy(const Json& workload, const Strategy& strategy);

// Decodes a scenario. `file` prefixes every error line; `dir` is where `file:` workloads are
// read from. kInvalid with one cause per problem.
Result<Scenario> ParseScenario(std::string_view text, const std::string& file,
                               const std::string& dir);
Result<Scenario> LoadScenario(const std::string& path);

}  // namespace lws::simulate
