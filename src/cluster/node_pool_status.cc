// The autoscaler's status ConfigMap (node_pools.h): cluster-autoscaler 1.30's YAML status,
// built by hand in the field order upstream's types declare, rewritten only when it changes.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cluster/kubelet.h"
#include "cluster/node_pools.h"

namespace lws::cluster {
namespace {

using api::Json;

const client::Resource kConfigMaps{"", "v1", "configmaps"};
constexpr const char* kLastUpdatedAnnotation = "cluster-autoscaler.kubernetes.io/last-updated";
// cluster-autoscaler's defaults for --ok-total-unready-count and --max-total-unready-percentage.
constexpr int kOkUnreadyCount = 3;
constexpr double kMaxUnreadyPercentage = 45;

std::string Health(const NodeCounts& c) {
  const int unready = c.total - c.ready;
  const bool bad = unready > kOkUnreadyCount && unready * 100.0 > kMaxUnreadyPercentage * c.total;
  return bad ? "Unhealthy" : "Healthy";
}

// The health block at `indent` spaces.
std::string HealthYaml(const NodeCounts& c, int unregistered, int indent) {
  const std::string pad(indent, ' ');
  return fmt::format(
      "{0}health:\n{0}  status: {1}\n{0}  nodeCounts:\n{0}    registered:\n{0}      total: {2}\n"
      "{0}      ready: {3}\n{0}      notStarted: 0\n{0}    longUnregistered: 0\n"
      "{0}    unregistered: {4}\n",
      pad, Health(c), c.total, c.ready, unregistered);
}

std::string ScaleDownYaml(int candidates, int indent) {
  const std::string pad(indent, ' ');
  if (candidates == 0) return fmt::format("{0}scaleDown:\n{0}  status: NoCandidates\n", pad);
  return fmt::format("{0}scaleDown:\n{0}  status: CandidatesPresent\n{0}  candidates: {1}\n", pad,
                     candidates);
}

// A YAML double-quoted scalar.
std::string Quoted(const std::string& text) { return Json(text).dump(); }

}  // namespace

void NodePools::CountNode(const std::string& name, const store::ObjectPtr& now) {
  auto entry = node_entries_.find(name);
  if (entry != node_entries_.end()) {
    NodeCounts& counts = node_counts_[entry->second.pool];
    counts.total--;
    counts.ready -= entry->second.ready;
    node_entries_.erase(entry);
  }
  if (!now) return;
  const NodeEntry added{NodePool(*now), NodeReadyCondition(now->document()).value_or(false)};
  NodeCounts& counts = node_counts_[added.pool];
  counts.total++;
  counts.ready += added.ready;
  node_entries_[name] = added;
}

std::string NodePools::StatusYaml() const {
  NodeCounts all;
  for (const auto& [pool, c] : node_counts_) {
    all.total += c.total;
    all.ready += c.ready;
  }
  std::map<std::string, int> empty;  // pool -> empty nodes waiting out the scale-down delay
  for (const auto& [node, since] : empty_since_) empty[node_entries_.at(node).pool]++;

  std::string groups;
  int provisioning = 0;
  int candidates = 0;
  for (const NodePoolSpec& spec : spec_->pools) {
    const Pool& pool = pools_.at(spec.name);
    auto counted = node_counts_.find(spec.name);
    const NodeCounts c = counted == node_counts_.end() ? NodeCounts{} : counted->second;
    const int upcoming = static_cast<int>(pool.provisioning.size());
    const int removable = spec.scale_down_delay > Duration::zero()
                              ? std::max(0, std::min(empty[spec.name], c.total - spec.min_nodes))
                              : 0;
    provisioning += upcoming;
    candidates += removable;
    groups += fmt::format("- name: {}\n", spec.name);
    groups += HealthYaml(c, upcoming, 2);
    groups += fmt::format("    cloudProviderTarget: {}\n    minSize: {}\n    maxSize: {}\n",
                          c.total + upcoming, spec.min_nodes, spec.max_nodes);
    const char* state = pool.backoff ? "Backoff" : upcoming > 0 ? "InProgress" : "NoActivity";
    groups += fmt::format("  scaleUp:\n    status: {}\n", state);
    if (pool.backoff) {
      const std::string zone = spec.zones.empty() ? spec.name : spec.zones.front();
      groups += fmt::format(
          "    backoffInfo:\n      errorCode: RESOURCE_POOL_EXHAUSTED\n      errorMessage: {}\n",
          Quoted(
              fmt::format("The zone '{}' does not have enough resources available to fulfill the "
                          "request (stockout of pool {}).",
                          zone, spec.name)));
    }
    if (!pool.waiting_reason.empty())
      groups += fmt::format("    message: {}\n", pool.waiting_reason);
    groups += ScaleDownYaml(removable, 2);
  }
  std::string out = "autoscalerStatus: Running\nclusterWide:\n";
  out += HealthYaml(all, provisioning, 2);
  out +=
      fmt::format("  scaleUp:\n    status: {}\n", provisioning > 0 ? "InProgress" : "NoActivity");
  out += ScaleDownYaml(candidates, 2);
  if (!groups.empty()) out += "nodeGroups:\n" + groups;
  return out;
}

void NodePools::WriteStatus() {
  std::string body = StatusYaml();
  if (body == status_body_) return;
  const std::string time = FormatRfc3339(loop_->Now());
  Json data = {{"status", "time: " + Quoted(time) + "\n" + body}};
  Result<store::ObjectPtr> current =
      client_->Get(kConfigMaps, "kube-system", kAutoscalerStatusConfigMap);
  Result<store::ObjectPtr> written = [&]() -> Result<store::ObjectPtr> {
    if (current.ok()) {
      Json object = (*current)->document();
      object["data"] = data;
      object["metadata"]["annotations"][kLastUpdatedAnnotation] = time;
      return client_->Update(kConfigMaps, std::move(object));
    }
    Json object = {{"apiVersion", "v1"},
                   {"kind", "ConfigMap"},
                   {"metadata",
                    {{"name", kAutoscalerStatusConfigMap},
                     {"namespace", "kube-system"},
                     {"annotations", {{kLastUpdatedAnnotation, time}}}}},
                   {"data", data}};
    return client_->Create(kConfigMaps, std::move(object));
  }();
  if (!written.ok()) {
    // Someone else wrote it meanwhile: the next pass writes again.
    spdlog::warn("cluster-autoscaler: writing status: {}", written.status().ToString());
    return;
  }
  status_body_ = std::move(body);
  status_object_ = (*written)->document();
}

}  // namespace lws::cluster
