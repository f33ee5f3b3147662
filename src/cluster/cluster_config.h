// File: cluster/cluster_config.h
//
// The cluster file of `lws up --config` and `lws simulate`: YAML (or JSON) describing node pools
// and scripted capacity changes, decoded strictly into a ClusterSpec. Every problem is reported,
// not just the first, each with its field path, in the wording of Kubernetes field errors:
//
//   cluster.yaml: nodePools[0].maxNodes: Invalid value: 2: must be at least nodes (4)
//   cluster.yaml: nodePools[1].startup.distribution: Unsupported value: "normal": supported values:
//   "fixed", "lognormal", "uniform" cluster.yaml: capacityChanges[0].zoneDown: Invalid value:
//   "zone-c": no node pool has this zone
//
// The format, with every field and its default (docs/cluster-config.md has the same example):
//
//   apiVersion: lws-cpp.dev/v1alpha1
//   kind: Cluster
//   nodePools:
//   - name: gpu-a                  # DNS label; nodes are gpu-a-0, gpu-a-1, ...
//     nodes: 4                     # initial size
//     minNodes: 4                  # default: nodes
//     maxNodes: 6                  # default: nodes (no scale-up)
//     allocatable: {cpu: "96", memory: 1Ti, nvidia.com/gpu: "8", pods: "110"}
//     labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
//     taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
//     zones: [zone-a, zone-b]
//     nodesPerRack: 2
//     nodesPerNvlinkDomain: 0
//     provisioningDelay: 90s       # Go durations: 500ms, 90s, 10m, 1h30m
//     scaleDownDelay: 10m          # 0s disables scale-down
//     startup: {distribution: lognormal, median: 30s, sigma: 0.3}   # or fixed: {value: 20s}
//                                                                  # or uniform: {min: 10s, max:
//                                                                  40s}
//     termination: 5s              # default: the pod's whole grace period
//     crashProbability: 0.0
//   capacityChanges:
//   - {at: 10m, stockout: gpu-b, for: 30m}   # no scale-up in gpu-b from 10m to 40m
//   - {at: 20m, zoneDown: zone-a}
//   - {at: 25m, zoneUp: zone-a}
//   - {at: 30m, nodeDown: gpu-a-3}
//   - {at: 35m, nodeUp: gpu-a-3}
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "cluster/cluster_spec.h"

namespace lws::cluster {

inline constexpr const char* kClusterConfigApiVersion = "lws-cpp.dev/v1alpha1";
inline constexpr const char* kClusterConfigKind = "Cluster";

// Decodes and validates a cluster file. `file` prefixes every error line. On failure the Status
// (kInvalid) carries one cause per problem and a message with one line per problem.
Result<ClusterSpec> ParseClusterConfig(std::string_view text, const std::string& file);

// Reads and parses the file at `path`.
Result<ClusterSpec> LoadClusterConfig(const std::string& path);

// Go's time.ParseDuration for the units a cluster file needs (ns, us, ms, s, m, h), with
// fractions and sums: "1.5s", "1h30m". Negative durations are rejected.
Result<Duration> ParseGoDuration(std::string_view text);

// "90s", "10m", "1h30m": the shortest Go-style rendering (for the summary `lws up` prints).
std::string FormatGoDuration(Duration d);

}  // namespace lws::cluster
