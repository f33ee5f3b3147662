// PlanScaleUp (node_pool_plan.h): first-fit packing of unschedulable pods onto registered,
// provisioning and new nodes, with cluster-autoscaler's reasons for the pools passed over.
#include "cluster/node_pool_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <deque>

#include "cluster/node_pools.h"
#include "cluster/scheduler_filters.h"

namespace lws::cluster {
namespace {

// A node that is not registered yet: provisioning, or added by this plan.
struct FutureNode {
  std::string pool;
  bool added_now = false;
};

class Planner {
 public:
  explicit Planner(const ScaleUpInput& input) : input_(input), pools_(input.pools) {
    real_ = input.nodes;
    // The registered nodes as upstream's snapshot has them, fenced off (unschedulable) so a
    // scheduling pass over them plus the future nodes can only pick a future node while still
    // counting their pods for inter-pod affinity.
    for (const NodeInfo& info : input.nodes) {
      api::Node& fenced = storage_.emplace_back(*info.node);
      fenced.spec.unschedulable = true;
      world_.push_back(NodeInfo{&fenced, info.pods});
    }
    for (PoolSnapshot& pool : pools_) {
      for (int index : pool.provisioning) AddFuture(pool, index, /*added_now=*/false);
    }
  }

  ScaleUpPlan Run() {
    for (const api::Pod* pod : input_.pending) Place(*pod);
    Finish();
    return std::move(plan_);
  }

 private:
  void Place(const api::Pod& pod) {
    if (PlaceOn(pod, real_, nullptr)) return;
    bool added_now = false;
    if (PlaceOn(pod, world_, &added_now)) {
      if (added_now) plan_.triggered.push_back(&pod);
      return;
    }
    std::map<std::string, int> reasons;
    for (PoolSnapshot& pool : pools_) {
      if (TryPool(pod, pool, &reasons)) return;
    }
    std::vector<std::string> parts;
    for (const auto& [reason, count] : reasons)
      parts.push_back(fmt::format("{} {}", count, reason));
    plan_.not_triggered.emplace_back(
        &pod, "pod didn't trigger scale-up: " + fmt::format("{}", fmt::join(parts, ", ")));
    if (std::string why = LargerThanEveryNode(pod); !why.empty())
      plan_.fits_no_node.emplace_back(&pod, why);
  }

  // Why no node of any pool could ever hold `pod`, even empty: the resources it requests more of
  // than every pool's node shape has, and the largest node for the first of them. "" when some
  // pool's shape is large enough (the pod then waits for room, not for a bigger machine).
  std::string LargerThanEveryNode(const api::Pod& pod) {
    if (pools_.empty()) return "";
    const api::ResourceList requests = PodRequests(pod);
    const ResourceAmounts wanted = scheduler::ToAmounts(requests);
    std::vector<std::string> over;
    const PoolSnapshot* largest = nullptr;
    for (const auto& [resource, amount] : wanted) {
      if (amount <= 0) continue;
      std::int64_t most = -1;
      const PoolSnapshot* holder = nullptr;
      for (const PoolSnapshot& pool : pools_) {
        const ResourceAmounts has = scheduler::ToAmounts(
            Template(pool, LowestFreeIndex(pool.registered, pool.provisioning)).status.allocatable);
        auto it = has.find(resource);
        const std::int64_t value = it == has.end() ? 0 : it->second;
        if (value > most) most = value, holder = &pool;
      }
      if (most >= amount) continue;
      over.push_back(resource);
      if (largest == nullptr) largest = holder;
    }
    if (over.empty()) return "";
    std::vector<std::string> asked, has;
    for (const std::string& resource : over) {
      auto request = requests.find(resource);
      asked.push_back(resource + " " +
                      (request == requests.end() ? "?" : request->second.String()));
      auto alloc = largest->spec->allocatable.find(resource);
      has.push_back(resource + " " +
                    (alloc == largest->spec->allocatable.end() ? "0" : alloc->second));
    }
    return fmt::format(
        "pod requests {}, more than any node of this cluster has: the largest, of "
        "pool {}, has {} allocatable (give a pool larger nodes: docs/cluster-config.md)",
        fmt::join(asked, " and "), largest->spec->name, fmt::join(has, " and "));
  }

  // Schedules `pod` over `nodes` and books it on the chosen node. With `added_now` the nodes are
  // the world: only a future node counts, and *added_now says whether this plan added it.
  bool PlaceOn(const api::Pod& pod, std::vector<NodeInfo>& nodes, bool* added_now) {
    if (nodes.empty()) return false;
    ScheduleResult result = SchedulePod(pod, nodes);
    if (result.node_name.empty()) return false;
    if (added_now != nullptr) {
      auto future = future_.find(result.node_name);
      if (future == future_.end()) return false;  // a pod tolerating the fence: not ours
      *added_now = future->second.added_now;
    }
    for (NodeInfo& info : nodes) {
      if (info.node->metadata.name == result.node_name) info.pods.push_back(&pod);
    }
    return true;
  }

  // Tries a new node of `pool` for `pod`; false with the pool's reason added when it cannot be.
  bool TryPool(const api::Pod& pod, PoolSnapshot& pool, std::map<std::string, int>* reasons) {
    const int index = LowestFreeIndex(pool.registered, pool.provisioning);
    api::Node& node = Template(pool, index);
    scheduler::FilterStatus fit = FitsEmpty(pod, node);
    if (!fit.Passed()) {
      for (const std::string& reason : fit.reasons) ++(*reasons)[reason];
      return false;
    }
    const std::string& name = pool.spec->name;
    const int size = static_cast<int>(pool.registered.size() + pool.provisioning.size());
    const char* skipped = nullptr;
    if (pool.backoff) {
      skipped = kBackoffReason;
    } else if (size >= pool.spec->max_nodes) {
      skipped = kMaxSizeReachedReason;
    } else if (pool.stocked_out) {
      pool.backoff = true;
      plan_.backed_off.insert(name);
      auto zone = node.metadata.labels.find(kZoneLabel);
      plan_.failed_scale_up.emplace_back(&pod,
                                         zone == node.metadata.labels.end() ? name : zone->second);
      skipped = kBackoffReason;
    }
    if (skipped != nullptr) {
      ++(*reasons)[skipped];
      plan_.waiting[name] = skipped;
      return false;
    }
    Grow(pool, size, index);
    AddFuture(pool, index, /*added_now=*/true);
    world_.back().pods.push_back(&pod);
    plan_.triggered.push_back(&pod);
    return true;
  }

  // The scheduler's filters for `pod` on the empty `node`, inter-pod affinity against the world.
  scheduler::FilterStatus FitsEmpty(const api::Pod& pod, const api::Node& node) {
    scheduler::FilterStatus status = scheduler::CheckUnschedulable(pod, node);
    if (status.Passed()) status = scheduler::CheckTaints(pod, node);
    if (status.Passed()) status = scheduler::CheckNodeAffinity(pod, node);
    if (status.Passed()) {
      status = scheduler::CheckResources(
          scheduler::ResourceRequest(scheduler::ToAmounts(PodRequests(pod))), NodeInfo{&node, {}});
    }
    if (status.Passed()) {
      std::vector<NodeInfo> with = world_;
      with.push_back(NodeInfo{&node, {}});
      status = scheduler::InterPodAffinity(pod, with).Check(node);
    }
    return status;
  }

  void Grow(PoolSnapshot& pool, int size, int index) {
    for (ScaleUpPlan::Growth& growth : plan_.growths) {
      if (growth.pool == pool.spec->name) {
        growth.to++;
        growth.indexes.push_back(index);
        return;
      }
    }
    plan_.growths.push_back({pool.spec->name, size, size + 1, pool.spec->max_nodes, {index}});
  }

  void AddFuture(PoolSnapshot& pool, int index, bool added_now) {
    if (added_now) pool.provisioning.insert(index);
    api::Node& node = Template(pool, index);
    future_[node.metadata.name] = FutureNode{pool.spec->name, added_now};
    world_.push_back(NodeInfo{&node, {}});
  }

  // The node `index` of `pool` will be, decoded once.
  api::Node& Template(const PoolSnapshot& pool, int index) {
    const std::string name = NodeName(pool.spec->name, index);
    auto it = templates_.find(name);
    if (it != templates_.end()) return *it->second;
    Result<api::Node> decoded = api::Decode<api::Node>(NewNode(*pool.spec, index, input_.now));
    api::Node& node = storage_.emplace_back(decoded.ok() ? std::move(*decoded) : api::Node());
    templates_[name] = &node;
    return node;
  }

  // Growths in spec order and the shared TriggeredScaleUp message.
  void Finish() {
    std::vector<ScaleUpPlan::Growth> ordered;
    for (const PoolSnapshot& pool : pools_) {
      for (ScaleUpPlan::Growth& growth : plan_.growths) {
        if (growth.pool == pool.spec->name) ordered.push_back(std::move(growth));
      }
    }
    plan_.growths = std::move(ordered);
    std::vector<std::string> infos;
    for (const ScaleUpPlan::Growth& g : plan_.growths) {
      infos.push_back(fmt::format("{{{} {}->{} (max: {})}}", g.pool, g.from, g.to, g.max));
    }
    plan_.triggered_message = fmt::format("pod triggered scale-up: [{}]", fmt::join(infos, " "));
  }

  const ScaleUpInput& input_;
  std::vector<PoolSnapshot> pools_;
  std::deque<api::Node> storage_;  // stable addresses for NodeInfo
  std::map<std::string, api::Node*> templates_;
  std::vector<NodeInfo> real_;   // registered nodes, schedulable as they are
  std::vector<NodeInfo> world_;  // registered nodes fenced off, then future nodes
  std::map<std::string, FutureNode> future_;
  ScaleUpPlan plan_;
};

}  // namespace

int LowestFreeIndex(const std::set<int>& a, const std::set<int>& b) {
  int index = 0;
  while (a.contains(index) || b.contains(index)) ++index;
  return index;
}

ScaleUpPlan PlanScaleUp(const ScaleUpInput& input) { return Planner(input).Run(); }

}  // namespace lws::cluster
