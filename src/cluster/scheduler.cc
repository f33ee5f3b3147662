// The scheduler's informer handlers and queue (scheduler.h); the scheduling cycle itself is in
// scheduler_cycle.cc.
#include "cluster/scheduler.h"

#include "base/log.h"
#include "cluster/scheduler_json.h"
#include "store/decoded_view.h"

namespace lws::cluster {

using api::Json;
using store::ObjectName;
using store::ObjectPtr;

namespace {

// What of a node the filters read, beyond heartbeats: labels, spec (unschedulable, taints),
// allocatable and each condition's status. A change elsewhere cannot make a parked pod fit.
Json NodeSchedulingView(const Json& node) {
  Json conditions = Json::array();
  const Json& list = scheduler_json::Child(scheduler_json::Child(node, "status"), "conditions");
  if (list.is_array()) {
    for (const Json& c : list) {
      conditions.push_back({api::StringMember(c, "type"), api::StringMember(c, "status")});
    }
  }
  return {scheduler_json::Child(scheduler_json::Child(node, "metadata"), "labels"),
          scheduler_json::Child(node, "spec"),
          scheduler_json::Child(scheduler_json::Child(node, "status"), "allocatable"), conditions};
}

// kube-scheduler records through events.k8s.io (client-go tools/events); Volcano's scheduler
// through core/v1 (tools/record).
client::EventRecorderOptions RecorderOptions(EventLoop* loop, const SchedulerOptions& options) {
  client::EventRecorderOptions recorder;
  recorder.component = options.scheduler_name;
  if (!options.gang) {
    recorder.instance = options.scheduler_name + "-lws-up";
    recorder.api = client::EventApi::kEventsV1;
    recorder.loop = loop;
  }
  return recorder;
}

}  // namespace

Scheduler::Scheduler(EventLoop* loop, const client::LocalClient* client, SchedulerOptions options)
    : loop_(loop),
      client_(client),
      options_(std::move(options)),
      recorder_(client, &loop->clock(), RecorderOptions(loop, options_)),
      gang_recorder_(client, &loop->clock(), options_.scheduler_name),
      nodes_(loop, client, client::kNodes),
      pods_(loop, client, client::kPods) {
  nodes_.AddHandler([this](const ObjectPtr& old, const ObjectPtr& now) { OnNode(old, now); });
  pods_.AddHandler([this](const ObjectPtr& old, const ObjectPtr& now) { OnPod(old, now); });
}

Scheduler::~Scheduler() { Stop(); }

Status Scheduler::Start() {
  // Nodes first: their initial list is delivered first, so the first pods see the whole cluster.
  RETURN_IF_ERROR(nodes_.Start());
  Status pods = pods_.Start();
  if (!pods.ok()) {
    nodes_.Stop();
    return pods;
  }
  running_ = true;
  return Status::Ok();
}

void Scheduler::Stop() {
  running_ = false;
  pods_.Stop();
  nodes_.Stop();
  if (batch_task_ != 0) loop_->Cancel(batch_task_);
  if (retry_task_ != 0) loop_->Cancel(retry_task_);
  batch_task_ = retry_task_ = 0;
}

void Scheduler::OnNode(const ObjectPtr& old, const ObjectPtr& now) {
  if (!now) {
    cache_.RemoveNode(old->name().name);  // frees nothing anywhere else
    return;
  }
  if (old && cache_.HasNode(now->name().name) &&
      NodeSchedulingView(old->document()) == NodeSchedulingView(now->document())) {
    return;  // a heartbeat
  }
  Result<std::shared_ptr<const api::Node>> node = store::DecodedView<api::Node>(*now);
  if (!node.ok()) {
    Logger(options_.scheduler_name)
        ->warn("cannot read node {}: {}", now->name().name, node.status().message());
    return;
  }
  cache_.SetNode(**node);
  RequeueParked();
}

bool Scheduler::WantsToSchedule(const Json& pod) const {
  if (!scheduler_json::Child(scheduler_json::Child(pod, "metadata"), "deletionTimestamp")
           .is_null()) {
    return false;
  }
  if (scheduler_json::IsTerminal(pod)) return false;
  // kube-scheduler's SchedulingGates plugin: a gated pod waits outside the queue until the last
  // gate is removed (an update, which brings it back here).
  const Json& gates = scheduler_json::Child(scheduler_json::Child(pod, "spec"), "schedulingGates");
  if (gates.is_array() && !gates.empty()) return false;
  std::string name = api::StringMember(scheduler_json::Child(pod, "spec"), "schedulerName");
  if (name.empty()) name = "default-scheduler";  // the API server's default
  return name == options_.scheduler_name;
}

void Scheduler::OnPod(const ObjectPtr& old, const ObjectPtr& now) {
  if (!now) {
    const ObjectName key = old->name();
    Forget(key);
    if (cache_.RemovePod(key)) RequeueParked();
    return;
  }
  const ObjectName key = now->name();
  if (!scheduler_json::NodeName(now->document()).empty()) {
    Forget(key);
    OnBoundPod(key, now);
    return;
  }
  const std::string uid = now->uid();
  if (const SchedulerCache::CachedPod* cached = cache_.FindPod(key)) {
    // Our binding of this very pod is on its way: an older, unbound state replayed.
    if (cached->uid == uid) return;
    if (cache_.RemovePod(key)) RequeueParked();  // a namesake replaced a pod we had missed go
  }
  if (!WantsToSchedule(now->document())) {
    Forget(key);
    return;
  }
  auto it = pending_.find(key);
  if (it == pending_.end()) {
    Enqueue(key, now->document());
    return;
  }
  // A parked pod whose requirements changed may fit now; a status write (ours) changes nothing.
  if (it->second.parked && old &&
      (scheduler_json::Child(old->document(), "spec") !=
           scheduler_json::Child(now->document(), "spec") ||
       old->labels() != now->labels())) {
    Activate(key, it->second);
    Kick();
  }
}

void Scheduler::OnBoundPod(const ObjectName& key, const ObjectPtr& now) {
  if (scheduler_json::IsTerminal(now->document())) {
    if (cache_.RemovePod(key)) RequeueParked();  // a finished pod's containers are gone
    return;
  }
  const SchedulerCache::CachedPod* cached = cache_.FindPod(key);
  const std::string uid = now->uid();
  // A deletion is read again: preemption looks for victims still terminating (and for the
  // condition it wrote before deleting them). It frees nothing until the pod is gone.
  const bool now_deleting =
      !scheduler_json::Child(scheduler_json::Child(now->document(), "metadata"),
                             "deletionTimestamp")
           .is_null();
  const bool deletion_changed = cached && cached->pod->metadata.IsDeleting() != now_deleting;
  // A status write (body_rv kept) or any change outside the spec and labels.
  const bool same_body = cached && cached->source && now->body_rv() != 0 &&
                         cached->source->body_rv() == now->body_rv();
  const bool same_requests =
      same_body || (cached && cached->uid == uid && cached->source &&
                    cached->pod->spec.node_name == scheduler_json::NodeName(now->document()) &&
                    cached->source->labels() == now->labels() &&
                    scheduler_json::Child(cached->source->document(), "spec") ==
                        scheduler_json::Child(now->document(), "spec"));
  if (same_requests && !deletion_changed) {
    cache_.RefreshSource(key, now);  // a status or metadata change: the same requests and labels
    return;
  }
  Result<std::shared_ptr<const api::Pod>> pod = store::DecodedView<api::Pod>(*now);
  if (!pod.ok()) {
    Logger(options_.scheduler_name)
        ->warn("cannot read pod {}/{}: {}", key.namespace_, key.name, pod.status().message());
    return;
  }
  // An assumed pod now confirmed frees nothing; a changed one (requests resized, labels that
  // an anti-affinity term no longer matches, a namesake) may leave room.
  const bool changed = cached != nullptr && cached->source != nullptr && !same_requests;
  cache_.SetPod(key, std::move(*pod), now);
  if (changed) RequeueParked();
}

void Scheduler::Enqueue(const ObjectName& key, const Json& pod) {
  Pending& pending = pending_[key];
  const Json& value = scheduler_json::Child(scheduler_json::Child(pod, "spec"), "priority");
  const std::int64_t priority = value.is_number_integer() ? value.get<std::int64_t>() : 0;
  pending.order = {-priority, next_arrival_++};
  Activate(key, pending);
  Kick();
}

void Scheduler::Activate(const ObjectName& key, Pending& pending) {
  pending.parked = false;
  active_[pending.order] = key;
}

void Scheduler::Forget(const ObjectName& key) {
  if (nominated_.erase(key) > 0) nominations_stale_ = true;
  auto it = pending_.find(key);
  if (it == pending_.end()) return;
  active_.erase(it->second.order);
  pending_.erase(it);
}

void Scheduler::RequeueParked() {
  bool any = false;
  for (auto& [key, pending] : pending_) {
    if (!pending.parked) continue;
    Activate(key, pending);
    any = true;
  }
  if (any) Kick();
}

void Scheduler::Kick() {
  if (batch_task_ != 0 || !running_) return;
  batch_task_ = loop_->Post([this] {
    batch_task_ = 0;
    RunBatch();
  });
}

}  // namespace lws::cluster
