#include "cluster/cluster_spec.h"

#include <fmt/format.h>

#include <cmath>

namespace lws::cluster {

namespace {

Duration Seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(std::max(0.0, s)));
}

}  // namespace

Duration Distribution::Sample(Rng* rng) const {
  switch (kind) {
    case Kind::kFixed:
      return Seconds(a);
    case Kind::kUniform:
      return Seconds(a + (b - a) * rng->UniformDouble());
    case Kind::kLogNormal:
      return Seconds(rng->LogNormal(std::log(a), b));
  }
  return Seconds(a);
}

std::string Distribution::ToString() const {
  switch (kind) {
    case Kind::kFixed:
      return fmt::format("fixed {}s", a);
    case Kind::kUniform:
      return fmt::format("uniform {}s-{}s", a, b);
    case Kind::kLogNormal:
      return fmt::format("lognormal median {}s sigma {}", a, b);
  }
  return "";
}

std::string CapacityChange::ToString() const {
  switch (kind) {
    case Kind::kStockoutBegin:
      return "stockout of pool " + pool + " begins";
    case Kind::kStockoutEnd:
      return "stockout of pool " + pool + " ends";
    case Kind::kZoneDown:
      return "zone " + zone + " goes down";
    case Kind::kZoneUp:
      return "zone " + zone + " comes back";
    case Kind::kNodeDown:
      return "node " + node + " fails";
    case Kind::kNodeUp:
      return "node " + node + " comes back";
  }
  return "";
}

const NodePoolSpec* ClusterSpec::FindPool(const std::string& name) const {
  for (const NodePoolSpec& pool : pools) {
    if (pool.name == name) return &pool;
  }
  return nullptr;
}

ClusterSpec DefaultClusterSpec() {
  ClusterSpec spec;
  for (const char* name : {"gpu-a", "gpu-b"}) {
    NodePoolSpec pool;
    pool.name = name;
    pool.initial_nodes = 4;
    pool.min_nodes = 4;
    pool.max_nodes = 6;
    // A Google Cloud a3-highgpu-8g: 208 vCPUs, 1,872 GB of memory, 8 x H100 80GB, 16 local
    // SSDs of 375 GB; upstream's own examples (vLLM 405B: 125 CPUs, 1124Gi per pod) fit on it.
    pool.allocatable = {{"cpu", "208"},
                        {"memory", "1872Gi"},
                        {"nvidia.com/gpu", "8"},
                        {"ephemeral-storage", "6000G"},
                        {"pods", "110"}};
    pool.labels = {{"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"},
                   {"node.kubernetes.io/instance-type", "a3-highgpu-8g"}};
    pool.zones = {"zone-a", "zone-b"};
    pool.nodes_per_rack = 2;
    spec.pools.push_back(std::move(pool));
  }
  return spec;
}

std::string NodeName(const std::string& pool, int index) {
  return fmt::format("{}-{}", pool, index);
}

}  // namespace lws::cluster
