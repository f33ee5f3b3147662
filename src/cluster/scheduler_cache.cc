// The scheduler's node and pod cache (scheduler_cache.h).
#include "cluster/scheduler_cache.h"

#include <algorithm>

#include "cluster/scheduler_filters.h"

namespace lws::cluster {

void SchedulerCache::SetNode(api::Node node) {
  const std::string name = node.metadata.name;
  auto it = nodes_.find(name);
  if (it != nodes_.end()) {
    *it->second = std::move(node);  // the address NodeInfo points to stays the same
    NodeInfo* info = FindInfo(name);
    scheduler::SetNodeAllocatable(*info->totals, *info->node);
    return;
  }
  auto owned = std::make_unique<api::Node>(std::move(node));
  const api::Node* raw = owned.get();
  nodes_.emplace(name, std::move(owned));
  infos_.insert(LowerBound(name), NodeInfo{raw, {}, scheduler::EmptyTotals(*raw)});
  // Pods seen bound to this node before the node itself.
  for (const auto& [key, cached] : pods_) {
    if (cached.pod->spec.node_name == name) Attach(cached.pod.get());
  }
}

void SchedulerCache::RemoveNode(const std::string& name) {
  NodeInfo* info = FindInfo(name);
  if (info == nullptr) return;
  infos_.erase(infos_.begin() + (info - infos_.data()));
  nodes_.erase(name);
}

void SchedulerCache::SetPod(const store::ObjectName& key, std::shared_ptr<const api::Pod> pod,
                            store::ObjectPtr source) {
  RemovePod(key);
  CachedPod cached;
  cached.uid = pod->metadata.uid;
  cached.pod = std::move(pod);
  cached.source = std::move(source);
  Attach(cached.pod.get());
  pods_.emplace(key, std::move(cached));
}

void SchedulerCache::RefreshSource(const store::ObjectName& key, store::ObjectPtr source) {
  auto it = pods_.find(key);
  if (it != pods_.end()) it->second.source = std::move(source);
}

bool SchedulerCache::RemovePod(const store::ObjectName& key) {
  auto it = pods_.find(key);
  if (it == pods_.end()) return false;
  Detach(it->second.pod.get());
  pods_.erase(it);
  return true;
}

const SchedulerCache::CachedPod* SchedulerCache::FindPod(const store::ObjectName& key) const {
  auto it = pods_.find(key);
  return it == pods_.end() ? nullptr : &it->second;
}

void SchedulerCache::Attach(const api::Pod* pod) {
  NodeInfo* info = FindInfo(pod->spec.node_name);
  if (info == nullptr) return;
  info->pods.push_back(pod);
  scheduler::CountPod(*info->totals, pod, 1);
}

void SchedulerCache::Detach(const api::Pod* pod) {
  NodeInfo* info = FindInfo(pod->spec.node_name);
  if (info == nullptr) return;
  auto at = std::find(info->pods.begin(), info->pods.end(), pod);
  if (at == info->pods.end()) return;
  info->pods.erase(at);
  scheduler::CountPod(*info->totals, pod, -1);
}

std::vector<NodeInfo>::iterator SchedulerCache::LowerBound(const std::string& name) {
  return std::lower_bound(
      infos_.begin(), infos_.end(), name,
      [](const NodeInfo& info, const std::string& n) { return info.node->metadata.name < n; });
}

NodeInfo* SchedulerCache::FindInfo(const std::string& name) {
  auto it = LowerBound(name);
  return it != infos_.end() && it->node->metadata.name == name ? &*it : nullptr;
}

}  // namespace lws::cluster
