// File: cluster/cluster_spec.h
//
// What a simulated cluster is made of: node pools (the shape of their nodes, how many there are
// and may be, how long a node takes to provision and how long a pod takes to start on it) and a
// script of capacity changes over time (a stockout window, a zone loss, a node failure). `lws up`
// reads it from a YAML file (cluster_config.h) or uses DefaultClusterSpec(); the simulator builds
// it in code. Every component of the cluster (node pools, kubelets, scheduler) reads this one
// description, so they agree on what a pool is.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/codec.h"
#include "base/clock.h"
#include "base/rng.h"

namespace lws::cluster {

// Labels every simulated node carries, next to kubernetes.io/hostname and the pool's own.
inline constexpr const char* kNodePoolLabel = "node.lws-cpp.dev/pool";
inline constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";
inline constexpr const char* kRackLabel = "node.lws-cpp.dev/rack";
// The NVLink domain: NVIDIA GPU feature discovery's label for GB200-class cliques.
inline constexpr const char* kNvlinkDomainLabel = "nvidia.com/gpu.clique";
// Pod annotations the simulated kubelets honour.
// Seconds from binding to Ready (overrides the pool's startup distribution).
inline constexpr const char* kStartupSecondsAnnotation = "sim.lws-cpp.dev/startup-seconds";
// Seconds after becoming Ready at which the first container crashes (and restarts), once per start.
inline constexpr const char* kCrashAfterSecondsAnnotation = "sim.lws-cpp.dev/crash-after-seconds";
// Seconds of running after which the containers exit on their own (a batch workload), with the
// code of kExitCodeAnnotation (default 0). Takes precedence over the crash annotation.
inline constexpr const char* kExitAfterSecondsAnnotation = "sim.lws-cpp.dev/exit-after-seconds";
inline constexpr const char* kExitCodeAnnotation = "sim.lws-cpp.dev/exit-code";

// A duration drawn from a distribution, in seconds: the time a pod takes to become Ready.
struct Distribution {
  enum class Kind { kFixed, kUniform, kLogNormal };
  Kind kind = Kind::kFixed;
  double a = 0;  // fixed: the value; uniform: min; lognormal: median
  double b = 0;  // uniform: max; lognormal: sigma of the underlying normal
  Duration Sample(Rng* rng) const;
  std::string ToString() const;  // "fixed 20s", "uniform 10s-30s", "lognormal median 30s sigma 0.3"
};

struct NodePoolSpec {
  std::string name;       // DNS label; nodes are named <name>-<index>
  int initial_nodes = 0;  // created at start
  int min_nodes = 0;      // scale-down never goes below this
  int max_nodes = 0;      // the autoscaler never goes above this (>= initial_nodes)
  // Allocatable = capacity of each node: {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "8",
  // "pods": "110"}. Quantities as Kubernetes writes them.
  std::map<std::string, std::string> allocatable;
  std::map<std::string, std::string> labels;  // extra labels on every node
  std::vector<api::Json> taints;              // core/v1 Taint objects on every node
  std::vector<std::string> zones;   // nodes go round-robin over these (none: no zone label)
  int nodes_per_rack = 0;           // > 0: rack label <pool>-rack-<i / nodes_per_rack>
  int nodes_per_nvlink_domain = 0;  // > 0: kNvlinkDomainLabel <pool>-nvl-<i / n>
  Duration provisioning_delay = std::chrono::seconds(90);  // scale-up: request to node Ready
  // An empty node the autoscaler added is removed after this long; zero disables scale-down.
  Duration scale_down_delay = std::chrono::minutes(10);
  Distribution startup{Distribution::Kind::kLogNormal, 30, 0.3};  // bound to Ready
  // How long containers take to exit after a deletion, capped by the pod's grace period;
  // nullopt: the whole grace period (the pod holds its resources until then).
  std::optional<Duration> termination;
  double crash_probability = 0;  // chance a started container crashes once after Ready
};

// A scripted change of capacity, at a time relative to the cluster's start.
struct CapacityChange {
  enum class Kind {
    kStockoutBegin,  // the pool can add no node (scale-up fails as a stockout) ...
    kStockoutEnd,    // ... until this
    kZoneDown,       // every node of `zone` (in every pool) fails: NotReady, its pods fail
    kZoneUp,         // those nodes come back Ready
    kNodeDown,       // one node fails
    kNodeUp,         // it comes back
  };
  Duration at{};
  Kind kind = Kind::kStockoutBegin;
  std::string pool;  // stockouts
  std::string zone;  // zone changes
  std::string node;  // node changes

  std::string ToString() const;  // "stockout of pool gpu-b begins", "zone zone-a goes down"
};

// Pods of other workloads, which compete for the accelerators an LWS uses (other_tenants.h).
// They are plain pods in namespace default labelled sim.lws-cpp.dev/tenant, placed by the
// default scheduler, Running until their time is up.
struct OtherTenants {
  // When a pod holding `resource` leaves its node, another tenant asks for the same amount on
  // that node with `probability`, `delay` later (0: at once, ahead of any replacement), and holds
  // it for `hold` (0: to the end); a request that is still pending `patience` later is withdrawn.
  struct TakeFreed {
    std::string resource = "nvidia.com/gpu";
    double probability = 1.0;
    Duration delay{};
    Duration hold{};
    Duration patience = std::chrono::minutes(1);
  };
  // `pods` pods requesting `requests` arrive at `at` (anywhere, or in `pool`), each held for
  // `hold` (0: to the end) once running; pending ones wait in the scheduler's queue.
  struct Arrival {
    Duration at{};
    int pods = 1;
    std::map<std::string, std::string> requests;
    std::string pool;
    Duration hold{};
  };
  std::optional<TakeFreed> take_freed;
  std::vector<Arrival> arrivals;
  bool empty() const { return !take_freed && arrivals.empty(); }
};

// The cluster file's `gangScheduler` value that runs Volcano's gang scheduling.
inline constexpr std::string_view kVolcanoScheduler = "volcano";

struct ClusterSpec {
  std::vector<NodePoolSpec> pools;
  std::vector<CapacityChange> changes;  // in time order
  // "volcano": a second scheduler of that name places PodGroups all or nothing (scheduler_gang.h),
  // the PodGroup CRD is installed, and the LWS controller makes a PodGroup per group; pods choose
  // it with spec.schedulerName: volcano. "": none.
  std::string gang_scheduler;
  OtherTenants other_tenants;

  const NodePoolSpec* FindPool(const std::string& name) const;
};

// The cluster `lws up` builds without a config: two pools of 4 nodes with 8 NVIDIA GPUs each
// (max 6 nodes per pool), two zones, racks of 2, pods Ready after ~30 s (lognormal).
ClusterSpec DefaultClusterSpec();

// The name of node `index` of pool `pool`.
std::string NodeName(const std::string& pool, int index);

}  // namespace lws::cluster
