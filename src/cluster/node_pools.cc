// NodePools (node_pools.h): initial nodes, the informer bookkeeping, scale-up and scale-down
// passes, provisioning and the scripted capacity changes. The status ConfigMap is written in
// node_pool_status.cc.
#include "cluster/node_pools.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <deque>

#include "api/field.h"
#include "base/log.h"
#include "cluster/kubelet.h"
#include "cluster/node_pool_plan.h"
#include "store/decoded_view.h"
#include "store/object_meta.h"

namespace lws::cluster {
namespace {

using api::Json;

// How often pending pods are looked at again while some wait (cluster-autoscaler's
// --scan-interval default).
constexpr Duration kScanInterval = std::chrono::seconds(10);

// The node a pod holds resources on: its nodeName unless it has terminated. Every pod event
// asks, of both versions: read in place, as the scheduler's per-event reads are
// (cluster/scheduler_json.h), since a decoded view of an old version may be gone.
std::string HoldingNode(const store::ObjectPtr& pod) {
  if (!pod) return "";
  const Json& json = pod->document();
  auto spec = json.find("spec");
  if (spec == json.end() || !spec->is_object()) return "";
  const std::string node = spec->value("nodeName", "");
  auto status = json.find("status");
  if (status != json.end() && status->is_object()) {
    const std::string phase = status->value("phase", "");
    if (phase == "Succeeded" || phase == "Failed") return "";
  }
  return node;
}

// The node whose scale-down `pod` holds back: its HoldingNode, except for a DaemonSet's pod,
// which cluster-autoscaler does not count (every node runs one; it goes with the node).
std::string ScaleDownHolder(const store::ObjectPtr& pod) {
  if (!pod) return "";
  std::optional<store::OwnerRefView> controller = store::ControllerReference(*pod);
  if (controller && controller->kind == "DaemonSet") return "";
  return HoldingNode(pod);
}

// True iff the scheduler wrote PodScheduled=False/Unschedulable and the pod is not bound or
// going away. With no node at all the scheduler reports SchedulerError "no nodes available to
// schedule pods" instead (scheduler_plan.h); that pod needs a node just as much.
bool IsUnschedulable(const store::ObjectPtr& pod) {
  if (!pod || !HoldingNode(pod).empty()) return false;
  const Json& json = pod->document();
  if (json.contains("metadata") && json["metadata"].contains("deletionTimestamp")) return false;
  auto status = json.find("status");
  if (status == json.end() || !status->is_object()) return false;
  auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return false;
  for (const Json& c : *conditions) {
    if (c.is_object() && c.value("type", "") == "PodScheduled") {
      const std::string reason = c.value("reason", "");
      return c.value("status", "") == "False" &&
             (reason == "Unschedulable" ||
              (reason == "SchedulerError" &&
               c.value("message", "") == "no nodes available to schedule pods"));
    }
  }
  return false;
}

std::string NodeZone(const store::StoredObject& node) { return node.label(kZoneLabel); }

// The index of a pool's node from its name "<pool>-<index>", or -1.
int NodeIndex(const std::string& pool, const std::string& name) {
  if (name.size() <= pool.size() + 1 || name.compare(0, pool.size() + 1, pool + "-") != 0)
    return -1;
  int index = 0;
  for (char c : name.substr(pool.size() + 1)) {
    if (c < '0' || c > '9' || index > 1'000'000) return -1;
    index = index * 10 + (c - '0');
  }
  return index;
}

}  // namespace

std::string NodePool(const store::StoredObject& node) { return node.label(kNodePoolLabel); }

NodePools::NodePools(EventLoop* loop, const client::LocalClient* client, const ClusterSpec* spec,
                     Rng rng)
    : loop_(loop),
      client_(client),
      spec_(spec),
      rng_(rng.Derive("node-pools")),
      pods_(loop, client, client::kPods),
      nodes_(loop, client, client::kNodes),
      recorder_(client, &loop->clock(), kAutoscalerComponent) {
  for (const NodePoolSpec& pool : spec->pools) pools_[pool.name].spec = &pool;
  pods_.AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnPod(old, now); });
  nodes_.AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnNode(old, now); });
}

NodePools::~NodePools() { Stop(); }

Status NodePools::Start() {
  if (running_) return Status::Ok();
  for (const NodePoolSpec& pool : spec_->pools) {
    for (int index = 0; index < pool.initial_nodes; ++index) {
      const std::string name = NodeName(pool.name, index);
      Result<store::ObjectPtr> existing = client_->Get(client::kNodes, "", name);
      if (existing.ok()) continue;
      if (existing.status().code() != Code::kNotFound) return existing.status();
      Json node = NewNode(pool, index, loop_->Now());
      node["status"]["nodeInfo"]["bootID"] = fmt::format("{:016x}", rng_.Next());
      Result<store::ObjectPtr> created = client_->Create(client::kNodes, std::move(node));
      if (!created.ok() && created.status().code() != Code::kAlreadyExists) return created.status();
    }
  }
  running_ = true;
  const Time start = loop_->Now();
  for (const CapacityChange& change : spec_->changes) {
    Schedule(start + change.at, [this, change] { ApplyChange(change); });
  }
  RETURN_IF_ERROR(nodes_.Start());
  RETURN_IF_ERROR(pods_.Start());
  RequestPass();
  return Status::Ok();
}

void NodePools::Stop() {
  if (!running_) return;
  running_ = false;
  for (const auto& [token, id] : timers_) loop_->Cancel(id);
  timers_.clear();
  pods_.Stop();
  nodes_.Stop();
}

std::vector<NodePools::PoolState> NodePools::pools() const {
  std::vector<PoolState> out;
  for (const NodePoolSpec& spec : spec_->pools) {
    const Pool& pool = pools_.at(spec.name);
    out.push_back({spec.name, PoolSize(spec.name), static_cast<int>(pool.provisioning.size()),
                   spec.max_nodes, pool.stocked_out});
  }
  return out;
}

int NodePools::PoolSize(const std::string& pool) const {
  auto counts = node_counts_.find(pool);
  return counts == node_counts_.end() ? 0 : counts->second.total;
}

void NodePools::Schedule(Time when, std::function<void()> task) {
  const std::uint64_t token = next_timer_++;
  timers_[token] = loop_->At(when, [this, token, task = std::move(task)] {
    timers_.erase(token);
    if (running_) task();
  });
}

void NodePools::OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  const std::string before = ScaleDownHolder(old);
  const std::string after = ScaleDownHolder(now);
  if (before != after) {
    if (!before.empty() && --pods_on_node_[before] <= 0) pods_on_node_.erase(before);
    if (!after.empty()) ++pods_on_node_[after];
    if (!before.empty()) scale_down_dirty_.insert(before);
    if (!after.empty()) scale_down_dirty_.insert(after);
  }
  const store::ObjectName& name = (now ? now : old)->name();
  if (IsUnschedulable(now)) {
    scale_up_due_ |= unschedulable_.insert(name).second;
  } else {
    scale_up_due_ |= unschedulable_.erase(name) > 0;
    if (!now) {
      last_no_scale_up_.erase(name);
      too_large_.erase(name);
    }
  }
  RequestPass();
}

void NodePools::OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  const std::string& name = (now ? now : old)->name().name;
  CountNode(name, now);
  scale_down_dirty_.insert(name);
  if (!now) empty_since_.erase(name);
  if (!old || !now) {
    scale_up_due_ = true;
    RequestPass();
  }
}

void NodePools::RequestPass() {
  if (pass_posted_ || !running_) return;
  pass_posted_ = true;
  Schedule(loop_->Now(), [this] {
    pass_posted_ = false;
    RunPass(/*periodic=*/false);
  });
}

void NodePools::RunPass(bool periodic) {
  // A scale-up check reads every bound pod: it runs when the set of pending pods or of nodes
  // changed, and every scan interval while pods wait, not on every pod update.
  if (!unschedulable_.empty() && (periodic || scale_up_due_)) ScaleUp();
  scale_up_due_ = false;
  ScaleDown();
  WriteStatus();
  if (!unschedulable_.empty() && !periodic_scheduled_) {
    periodic_scheduled_ = true;
    Schedule(loop_->Now() + kScanInterval, [this] {
      periodic_scheduled_ = false;
      RunPass(/*periodic=*/true);
    });
  }
}

void NodePools::ScaleUp() {
  // Typed copies of what the plan reads: every node, the pods bound to them, the pending pods
  // (the stored versions' shared views).
  std::deque<api::Node> nodes;
  std::vector<std::shared_ptr<const api::Pod>> pods;
  std::map<std::string, std::size_t> node_slot;
  ScaleUpInput input;
  input.now = loop_->Now();
  for (const auto& [name, object] : nodes_.objects()) {
    Result<std::shared_ptr<const api::Node>> node = store::DecodedView<api::Node>(*object);
    if (!node.ok()) continue;
    node_slot[name.name] = input.nodes.size();
    input.nodes.push_back(NodeInfo{&nodes.emplace_back(**node), {}});
  }
  for (const auto& [name, object] : pods_.objects()) {
    const bool pending = unschedulable_.contains(name);
    auto slot = node_slot.find(HoldingNode(object));
    if (!pending && slot == node_slot.end()) continue;
    Result<std::shared_ptr<const api::Pod>> pod = store::DecodedView<api::Pod>(*object);
    if (!pod.ok()) continue;
    const api::Pod* typed = pods.emplace_back(std::move(*pod)).get();
    if (pending) {
      input.pending.push_back(typed);
    } else {
      input.nodes[slot->second].pods.push_back(typed);
    }
  }
  for (const NodePoolSpec& spec : spec_->pools) {
    const Pool& pool = pools_[spec.name];
    PoolSnapshot snapshot{&spec, {}, pool.provisioning, pool.stocked_out, pool.backoff};
    for (const auto& [name, object] : nodes_.objects()) {
      if (NodePool(*object) != spec.name) continue;
      const int index = NodeIndex(spec.name, name.name);
      if (index >= 0) snapshot.registered.insert(index);
    }
    input.pools.push_back(std::move(snapshot));
  }

  ScaleUpPlan plan = PlanScaleUp(input);
  for (auto& [name, pool] : pools_) {
    auto waiting = plan.waiting.find(name);
    pool.waiting_reason = waiting == plan.waiting.end() ? "" : waiting->second;
  }
  for (const std::string& pool : plan.backed_off) pools_[pool].backoff = true;
  auto object_of = [&](const api::Pod* pod) {
    return pods_.Get(pod->metadata.namespace_, pod->metadata.name);
  };
  for (const ScaleUpPlan::Growth& growth : plan.growths) {
    Pool& pool = pools_[growth.pool];
    for (int index : growth.indexes) {
      pool.provisioning.insert(index);
      Schedule(loop_->Now() + pool.spec->provisioning_delay,
               [this, name = growth.pool, index] { Provisioned(name, index); });
    }
    if (!status_object_.is_null()) {
      recorder_.Record(status_object_, "Normal", "ScaledUpGroup",
                       fmt::format("Scale-up: setting group {} size to {} instead of {} (max: {})",
                                   growth.pool, growth.to, growth.from, growth.max));
    }
  }
  for (const api::Pod* pod : plan.triggered) {
    if (store::ObjectPtr object = object_of(pod)) {
      recorder_.Record(*object, "Normal", "TriggeredScaleUp", plan.triggered_message);
    }
  }
  for (const auto& [pod, zone] : plan.failed_scale_up) {
    if (store::ObjectPtr object = object_of(pod)) {
      recorder_.Record(
          *object, "Warning", "FailedScaleUp",
          fmt::format("Node scale up in zones {} associated with this pod failed: GCE out of "
                      "resources. Pod is at risk of not being scheduled.",
                      zone));
    }
  }
  for (const auto& [pod, message] : plan.not_triggered) {
    store::ObjectPtr object = object_of(pod);
    if (!object) continue;
    std::string& last = last_no_scale_up_[object->name()];
    if (last == message) continue;
    last = message;
    recorder_.Record(*object, "Normal", "NotTriggerScaleUp", message);
  }
  for (const auto& [pod, message] : plan.fits_no_node) {
    store::ObjectPtr object = object_of(pod);
    if (!object || !too_large_.insert(object->name()).second) continue;
    recorder_.Record(*object, "Warning", "NoNodeLargeEnough", message);
    Logger("cluster-autoscaler")
        ->warn("pod {}/{} can never be scheduled: {}", pod->metadata.namespace_, pod->metadata.name,
               message);
  }
}

void NodePools::Provisioned(const std::string& pool_name, int index) {
  Pool& pool = pools_[pool_name];
  Json node = NewNode(*pool.spec, index, loop_->Now());
  node["status"]["nodeInfo"]["bootID"] = fmt::format("{:016x}", rng_.Next());
  const std::string name = NodeName(pool_name, index);
  Result<store::ObjectPtr> created = client_->Create(client::kNodes, std::move(node));
  if (!created.ok() && created.status().code() != Code::kAlreadyExists) {
    spdlog::warn("cluster-autoscaler: creating node {}: {}", name, created.status().ToString());
  }
  pool.provisioning.erase(index);
  ApplyReadiness(name);  // a node born into a zone that is down
  scale_up_due_ = true;
  RequestPass();
}

void NodePools::ScaleDown() {
  const Time now = loop_->Now();
  // Only nodes that changed since the last pass can enter or leave empty_since_: the others'
  // pool, emptiness and existence are what that pass saw.
  for (const std::string& name : scale_down_dirty_) {
    auto entry = node_entries_.find(name);
    auto pool = entry == node_entries_.end() ? pools_.end() : pools_.find(entry->second.pool);
    if (pool == pools_.end() || pool->second.spec->scale_down_delay <= Duration::zero() ||
        pods_on_node_.contains(name)) {
      empty_since_.erase(name);
      continue;
    }
    const Duration delay = pool->second.spec->scale_down_delay;
    if (empty_since_.emplace(name, now).second) Schedule(now + delay, [this] { RequestPass(); });
  }
  scale_down_dirty_.clear();
  // Candidates: empty for long enough, grouped by pool, highest index first.
  std::map<std::string, std::vector<std::pair<int, std::string>>> candidates;
  for (const auto& [name, since] : empty_since_) {
    const std::string& pool_name = node_entries_.at(name).pool;
    if (now - since >= pools_.at(pool_name).spec->scale_down_delay) {
      candidates[pool_name].emplace_back(NodeIndex(pool_name, name), name);
    }
  }
  for (auto& [pool_name, nodes] : candidates) {
    std::sort(nodes.rbegin(), nodes.rend());
    int removable = PoolSize(pool_name) - pools_[pool_name].spec->min_nodes;
    for (const auto& [index, name] : nodes) {
      if (removable-- <= 0) break;
      // The informer may trail the store by a binding made this instant: ask the store.
      store::ListOptions options;
      Result<store::ListResult> pods = client_->List(client::kPods, options);
      bool busy = !pods.ok();
      for (const store::ObjectPtr& pod :
           pods.ok() ? pods->items : std::vector<store::ObjectPtr>{}) {
        busy = busy || ScaleDownHolder(pod) == name;
      }
      if (busy) continue;
      client::DeleteOptions precondition;
      precondition.precondition_uid = nodes_.Get("", name)->uid();
      Result<store::ObjectPtr> deleted = client_->Delete(client::kNodes, "", name, precondition);
      if (!deleted.ok()) continue;  // gone or replaced meanwhile: the next pass sees it
      empty_since_.erase(name);
      if (!status_object_.is_null()) {
        recorder_.Record(status_object_, "Normal", "ScaleDownEmpty",
                         fmt::format("Scale-down: removing empty node {}", name));
      }
    }
  }
}

void NodePools::ApplyChange(const CapacityChange& change) {
  using Kind = CapacityChange::Kind;
  switch (change.kind) {
    case Kind::kStockoutBegin:
    case Kind::kStockoutEnd: {
      auto pool = pools_.find(change.pool);
      if (pool == pools_.end()) return;
      pool->second.stocked_out = change.kind == Kind::kStockoutBegin;
      if (!pool->second.stocked_out) pool->second.backoff = false;
      break;
    }
    case Kind::kZoneDown:
      down_zones_.insert(change.zone);
      break;
    case Kind::kZoneUp:
      down_zones_.erase(change.zone);
      break;
    case Kind::kNodeDown:
      down_nodes_.insert(change.node);
      break;
    case Kind::kNodeUp:
      down_nodes_.erase(change.node);
      break;
  }
  scale_up_due_ = true;
  if (change.kind != Kind::kStockoutBegin && change.kind != Kind::kStockoutEnd) {
    for (const auto& [name, object] : nodes_.objects()) {
      const bool affected =
          change.node.empty() ? NodeZone(*object) == change.zone : name.name == change.node;
      if (affected) ApplyReadiness(name.name);
    }
  }
  RequestPass();
}

void NodePools::ApplyReadiness(const std::string& node) {
  // A node just created is not in the informer yet: read its zone from the store.
  bool down = down_nodes_.contains(node);
  if (!down) {
    Result<store::ObjectPtr> object = client_->Get(client::kNodes, "", node);
    down = object.ok() && down_zones_.contains(NodeZone(**object));
  }
  Status status = SetNodeReady(*client_, node, !down, loop_->Now());
  if (!status.ok() && status.code() != Code::kNotFound) {
    spdlog::warn("cluster-autoscaler: node {} readiness: {}", node, status.ToString());
  }
}

}  // namespace lws::cluster
