// The scenario of a live LWS (from_cluster.h).
#include "simulate/from_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "api/disaggregatedset_types.h"
#include "api/go_duration.h"
#include "api/lws_types.h"
#include "simulate/workload.h"

namespace lws::simulate {
namespace {

using api::Json;

constexpr const char* kPoolLabels[] = {"node.lws-cpp.dev/pool", "cloud.google.com/gke-nodepool",
                                       "eks.amazonaws.com/nodegroup", "karpenter.sh/nodepool",
                                       "kubernetes.azure.com/agentpool"};
// Labels the simulated nodes get anyway, or that name one node.
const std::set<std::string> kSimulatedLabels = {
    "kubernetes.io/hostname", "node.lws-cpp.dev/pool", "topology.kubernetes.io/zone",
    "node.lws-cpp.dev/rack",  "kubernetes.io/os",      "kubernetes.io/arch"};

const Json& At(const Json& object, std::initializer_list<const char*> path) {
  const Json* at = &object;
  for (const char* key : path) at = &api::ChildOrNull(*at, key);
  return *at;
}

std::string Str(const Json& object, std::initializer_list<const char*> path) {
  const Json& value = At(object, path);
  return value.is_string() ? value.get<std::string>() : "";
}

// A DNS label made of `text`: lower case, [a-z0-9-], at most 40 characters.
std::string DnsLabel(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (std::isalnum(static_cast<unsigned char>(l)) ? l : '-');
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  while (!out.empty() && out.front() == '-') out.erase(out.begin());
  if (out.size() > 40) out.resize(40);
  return out.empty() ? "pool" : out;
}

std::string PoolOf(const Json& node) {
  for (const char* label : kPoolLabels) {
    std::string value = Str(node, {"metadata", "labels", label});
    if (!value.empty()) return DnsLabel(value);
  }
  return "";  // grouped by allocatable below
}

struct Pool {
  std::string name;
  std::vector<const Json*> nodes;
};

std::vector<Pool> Pools(const std::vector<Json>& nodes) {
  std::map<std::string, Pool> by_name;
  std::map<std::string, std::string> by_shape;  // allocatable -> generated name
  for (const Json& node : nodes) {
    std::string name = PoolOf(node);
    if (name.empty()) {
      const std::string shape = At(node, {"status", "allocatable"}).dump();
      auto [it, added] = by_shape.emplace(shape, fmt::format("pool-{}", by_shape.size()));
      name = it->second;
    }
    Pool& pool = by_name[name];
    pool.name = name;
    pool.nodes.push_back(&node);
  }
  std::vector<Pool> pools;
  for (auto& [name, pool] : by_name) {
    std::sort(pool.nodes.begin(), pool.nodes.end(), [](const Json* a, const Json* b) {
      return Str(*a, {"metadata", "name"}) < Str(*b, {"metadata", "name"});
    });
    pools.push_back(std::move(pool));
  }
  return pools;
}

// Labels every node of the pool has with the same value, but the ones simulated nodes get.
Json CommonLabels(const Pool& pool) {
  Json common = Json::object();
  const Json& first = At(*pool.nodes.front(), {"metadata", "labels"});
  if (!first.is_object()) return common;
  for (const auto& item : first.items()) {
    // Named copies: clang 14 cannot capture structured bindings in the lambda below.
    const std::string& key = item.key();
    const Json& value = item.value();
    if (kSimulatedLabels.count(key)) continue;
    bool shared = std::all_of(pool.nodes.begin(), pool.nodes.end(), [&](const Json* n) {
      return At(*n, {"metadata", "labels"}).value(key, Json()) == value;
    });
    if (shared) common[key] = value;
  }
  return common;
}

Json CommonTaints(const Pool& pool) {
  Json common = Json::array();
  const Json& first = At(*pool.nodes.front(), {"spec", "taints"});
  if (!first.is_array()) return common;
  for (const Json& taint : first) {
    if (api::StringMember(taint, "key").rfind("node.kubernetes.io/", 0) == 0) continue;
    bool shared = std::all_of(pool.nodes.begin(), pool.nodes.end(), [&](const Json* n) {
      const Json& taints = At(*n, {"spec", "taints"});
      return taints.is_array() && std::find(taints.begin(), taints.end(), taint) != taints.end();
    });
    if (shared)
      common.push_back({{"key", taint.value("key", "")},
                        {"value", taint.value("value", "")},
                        {"effect", taint.value("effect", "")}});
  }
  return common;
}

// The median seconds from PodScheduled to Ready over `pods`, when any tells.
std::optional<double> MedianStartup(const std::vector<const Json*>& pods) {
  std::vector<double> seconds;
  for (const Json* pod : pods) {
    std::string scheduled, ready;
    for (const Json& c : At(*pod, {"status", "conditions"}).is_array()
                             ? At(*pod, {"status", "conditions"})
                             : Json::array()) {
      if (api::StringMember(c, "status") != "True") continue;
      if (api::StringMember(c, "type") == "PodScheduled")
        scheduled = api::StringMember(c, "lastTransitionTime");
      if (api::StringMember(c, "type") == "Ready")
        ready = api::StringMember(c, "lastTransitionTime");
    }
    Result<Time> from = ParseRfc3339(scheduled), to = ParseRfc3339(ready);
    if (from.ok() && to.ok() && *to >= *from)
      seconds.push_back(std::chrono::duration<double>(*to - *from).count());
  }
  if (seconds.empty()) return std::nullopt;
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

// The requests of a pod's containers (limits standing in), as a requests map.
Json RequestsOf(const Json& pod) {
  Json requests = Json::object();
  const Json& containers = At(pod, {"spec", "containers"});
  for (const Json& c : containers.is_array() ? containers : Json::array()) {
    for (const char* kind : {"limits", "requests"}) {  // requests override limits
      const Json& list = At(c, {"resources", kind});
      if (!list.is_object()) continue;
      for (const auto& [name, amount] : list.items()) {
        if (!amount.is_string() && !amount.is_number()) continue;
        const std::string text = amount.is_string() ? amount.get<std::string>() : amount.dump();
        requests[name] = text;  // summing quantities is left out: one container per tenant pod
      }
    }
  }
  return requests;
}

std::string GoDuration(Duration d) { return api::FormatGoDuration(d); }

std::string KindOf(const LiveCluster& live) {
  return IsDisaggregatedSet(live.workload) ? std::string(api::kDsKind) : std::string(api::kLwsKind);
}

}  // namespace

Result<Json> ScenarioFromCluster(const LiveCluster& live, const FromClusterOptions& options) {
  const bool set = IsDisaggregatedSet(live.workload);
  const std::string lws_name = Str(live.workload, {"metadata", "name"});
  if (lws_name.empty()) return Status::BadRequest(fmt::format("the {} has no name", KindOf(live)));
  if (live.nodes.empty()) return Status::BadRequest("the cluster has no nodes");
  // Its pods: an LWS's carry its name, a set's (every role's LWS's) the set's.
  const std::string& name_label = set ? api::kDsNameLabel : api::kSetNameLabel;
  std::vector<const Json*> lws_pods;
  for (const Json& pod : live.pods) {
    if (Str(pod, {"metadata", "labels", name_label.c_str()}) == lws_name &&
        Str(pod, {"metadata", "namespace"}) == Str(live.workload, {"metadata", "namespace"})) {
      lws_pods.push_back(&pod);
    }
  }
  const std::optional<double> startup = MedianStartup(lws_pods);
  Json pools = Json::array();
  std::map<std::string, std::string> node_names;  // live name -> simulated name
  for (const Pool& pool : Pools(live.nodes)) {
    Json allocatable = Json::object();
    for (const auto& [name, amount] : At(*pool.nodes.front(), {"status", "allocatable"}).items()) {
      allocatable[name] = amount.is_string() ? amount : Json(amount.dump());
    }
    if (!allocatable.contains("pods")) allocatable["pods"] = "110";
    std::vector<std::string> zones;
    for (std::size_t i = 0; i < pool.nodes.size(); ++i) {
      node_names[Str(*pool.nodes[i], {"metadata", "name"})] = fmt::format("{}-{}", pool.name, i);
      std::string zone = Str(*pool.nodes[i], {"metadata", "labels", "topology.kubernetes.io/zone"});
      if (!zone.empty() && std::find(zones.begin(), zones.end(), zone) == zones.end())
        zones.push_back(zone);
    }
    Json spec = {{"name", pool.name},
                 {"nodes", pool.nodes.size()},
                 {"allocatable", std::move(allocatable)},
                 {"labels", CommonLabels(pool)},
                 {"taints", CommonTaints(pool)}};
    if (!zones.empty()) spec["zones"] = zones;
    if (startup)
      spec["startup"] = {
          {"distribution", "fixed"},
          {"value",
           GoDuration(std::chrono::milliseconds(static_cast<std::int64_t>(*startup * 1000)))}};
    pools.push_back(std::move(spec));
  }
  Json workloads = Json::array();
  int others = 0;
  for (const Json& pod : live.pods) {
    const std::string node = Str(pod, {"spec", "nodeName"});
    const std::string phase = Str(pod, {"status", "phase"});
    if (node.empty() || phase == "Succeeded" || phase == "Failed") continue;
    if (std::find(lws_pods.begin(), lws_pods.end(), &pod) != lws_pods.end()) continue;
    if (!At(pod, {"metadata", "deletionTimestamp"}).is_null()) continue;
    auto mapped = node_names.find(node);
    if (mapped == node_names.end()) continue;
    Json requests = RequestsOf(pod);
    if (requests.empty()) continue;  // holds nothing the LWS could want
    Json container = {{"name", "c"},
                      {"image", "other:live"},
                      {"resources", {{"requests", requests}, {"limits", requests}}}};
    workloads.push_back({{"object",
                          {{"apiVersion", "v1"},
                           {"kind", "Pod"},
                           {"metadata",
                            {{"name", fmt::format("other-{}", ++others)},
                             {"labels", {{"sim.lws-cpp.dev/tenant", "live"}}}}},
                           {"spec",
                            {{"nodeName", mapped->second},
                             {"tolerations", Json::array({{{"operator", "Exists"}}})},
                             {"containers", Json::array({container})}}}}}});
  }
  Json lws = {{"apiVersion", set ? std::string(api::kDsApiVersion) : "leaderworkerset.x-k8s.io/v1"},
              {"kind", KindOf(live)},
              {"metadata", {{"name", lws_name}}},
              {"spec", At(live.workload, {"spec"})}};
  for (const char* key : {"labels", "annotations"}) {
    const Json& value = At(live.workload, {"metadata", key});
    if (value.is_object() && !value.empty()) lws["metadata"][key] = value;
  }
  workloads.push_back({{"object", std::move(lws)}});
  return Json{{"apiVersion", "lws-cpp.dev/v1alpha1"},
              {"kind", "Scenario"},
              {"metadata", {{"name", lws_name + "-from-cluster"}}},
              {"cluster", {{"nodePools", std::move(pools)}}},
              {"workloads", std::move(workloads)},
              {"timeline", Json::array({{{"at", GoDuration(options.settle)},
                                         {set ? "disaggregatedset" : "lws", lws_name},
                                         {"patch", options.change}}})},
              {"limits", {{"horizon", GoDuration(options.horizon)}}}};
}

}  // namespace lws::simulate
