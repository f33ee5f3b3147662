// NewNode (node_pools.h): a simulated node as a kubelet registers it and reports its status.
#include <fmt/format.h>

#include "cluster/node_pools.h"

namespace lws::cluster {
namespace {

using api::Json;

// FNV-1a: a stable hash for addresses and machine ids (std::hash may differ between builds).
std::uint64_t Fnv1a(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

Json Condition(const char* type, const char* status, const char* reason, const char* message,
               const std::string& time) {
  return {{"type", type},
          {"status", status},
          {"lastHeartbeatTime", time},
          {"lastTransitionTime", time},
          {"reason", reason},
          {"message", message}};
}

}  // namespace

api::Json NewNode(const NodePoolSpec& pool, int index, Time now) {
  const std::string name = NodeName(pool.name, index);
  Json labels = {{"kubernetes.io/hostname", name},     {"kubernetes.io/os", "linux"},
                 {"kubernetes.io/arch", "amd64"},      {"beta.kubernetes.io/os", "linux"},
                 {"beta.kubernetes.io/arch", "amd64"}, {kNodePoolLabel, pool.name}};
  if (!pool.zones.empty()) labels[kZoneLabel] = pool.zones[index % pool.zones.size()];
  if (pool.nodes_per_rack > 0) {
    labels[kRackLabel] = fmt::format("{}-rack-{}", pool.name, index / pool.nodes_per_rack);
  }
  if (pool.nodes_per_nvlink_domain > 0) {
    labels[kNvlinkDomainLabel] =
        fmt::format("{}-nvl-{}", pool.name, index / pool.nodes_per_nvlink_domain);
  }
  for (const auto& [key, value] : pool.labels) labels[key] = value;

  Json spec = Json::object();
  if (!pool.taints.empty()) spec["taints"] = pool.taints;

  Json resources = Json::object();
  for (const auto& [resource, amount] : pool.allocatable) resources[resource] = amount;
  const std::string time = FormatRfc3339(now);
  const std::uint64_t id = Fnv1a(name);
  const std::string ip =
      fmt::format("10.{}.{}.{}", Fnv1a(pool.name) % 256, index / 250, index % 250 + 1);
  Json status = {
      {"capacity", resources},
      {"allocatable", resources},
      {"conditions",
       {Condition("MemoryPressure", "False", "KubeletHasSufficientMemory",
                  "kubelet has sufficient memory available", time),
        Condition("DiskPressure", "False", "KubeletHasNoDiskPressure",
                  "kubelet has no disk pressure", time),
        Condition("PIDPressure", "False", "KubeletHasSufficientPID",
                  "kubelet has sufficient PID available", time),
        Condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", time)}},
      {"addresses",
       {{{"type", "InternalIP"}, {"address", ip}}, {{"type", "Hostname"}, {"address", name}}}},
      {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", 10250}}}}},
      {"nodeInfo",
       {{"machineID", fmt::format("{:016x}{:016x}", id, ~id)},
        {"systemUUID",
         fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", id >> 32, (id >> 16) & 0xffff,
                     id & 0xffff, (~id >> 48) & 0xffff, ~id & 0xffffffffffffull)},
        {"bootID", fmt::format("{:016x}", Fnv1a(name + "/boot"))},
        {"kernelVersion", "6.8.0-1015-gcp"},
        {"osImage", "Ubuntu 22.04.5 LTS"},
        {"containerRuntimeVersion", "containerd://1.7.24"},
        {"kubeletVersion", "v1.32.2"},
        {"kubeProxyVersion", "v1.32.2"},
        {"operatingSystem", "linux"},
        {"architecture", "amd64"}}}};

  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"labels", labels},
            {"annotations",
             {{"node.alpha.kubernetes.io/ttl", "0"},
              {"volumes.kubernetes.io/controller-managed-attach-detach", "true"}}}}},
          {"spec", spec},
          {"status", status}};
}

}  // namespace lws::cluster
