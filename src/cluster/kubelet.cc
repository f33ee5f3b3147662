// The simulated kubelets (kubelet.h): informers, the dirty-pod queue and each pod's run.
#include "cluster/kubelet.h"

#include "api/field.h"

namespace lws::cluster {

namespace {

using api::ChildOrNull;

constexpr std::int64_t kDefaultGraceSeconds = 30;

std::string StringAt(const Json& object, const char* outer, const char* inner) {
  return api::StringMember(ChildOrNull(object, outer), inner);
}

bool IsTerminal(const std::string& phase) { return phase == "Failed" || phase == "Succeeded"; }

bool IsDeleting(const Json& pod) {
  return !ChildOrNull(ChildOrNull(pod, "metadata"), "deletionTimestamp").is_null();
}

Time TimeOr(const Json& text, Time fallback) {
  if (!text.is_string()) return fallback;
  Result<Time> parsed = ParseRfc3339(text.get<std::string>());
  return parsed.ok() ? *parsed : fallback;
}

}  // namespace

Kubelets::Kubelets(EventLoop* loop, const client::LocalClient* client, const ClusterSpec* spec,
                   Rng rng, KubeletOptions options)
    : loop_(loop), client_(client), spec_(spec), rng_(rng.Derive("kubelet")), options_(options) {}

Kubelets::~Kubelets() { Stop(); }

Status Kubelets::Start() {
  nodes_ = std::make_unique<client::Informer>(loop_, client_, client::kNodes);
  pods_ = std::make_unique<client::Informer>(loop_, client_, client::kPods);
  nodes_->AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnNode(old, now); });
  pods_->AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnPod(old, now); });
  RETURN_IF_ERROR(nodes_->Start());
  return pods_->Start();
}

void Kubelets::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (pods_) pods_->Stop();
  if (nodes_) nodes_->Stop();
  if (drain_task_) loop_->Cancel(*drain_task_);
  drain_task_.reset();
  dirty_.clear();
  for (auto& [key, entry] : entries_) CancelTimers(entry);
}

void Kubelets::OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  Enqueue((now ? now : old)->name());
}

void Kubelets::OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  const std::string name = (now ? now : old)->name().name;
  if (!now) {
    deleted_nodes_.insert(name);
    node_ready_.erase(name);
  } else {
    deleted_nodes_.erase(name);
    node_index_.try_emplace(name, static_cast<int>(node_index_.size()) + 1);
    const std::optional<bool> ready = NodeReadyCondition(now->document());
    auto [it, inserted] = node_ready_.try_emplace(name, ready);
    if (!inserted && it->second == ready) return;
    it->second = ready;
  }
  // The node's kubelet came up, died or went away: every pod bound there is looked at again.
  for (const auto& [key, pod] : pods_->objects()) {
    if (StringAt(pod->document(), "spec", "nodeName") == name) Enqueue(key);
  }
}

void Kubelets::Enqueue(const store::ObjectName& key) {
  if (stopped_) return;
  dirty_.insert(key);
  if (!drain_task_) drain_task_ = loop_->Post([this] { Drain(); });
}

void Kubelets::Drain() {
  drain_task_.reset();
  std::set<store::ObjectName> batch;
  batch.swap(dirty_);
  for (const store::ObjectName& key : batch) Sync(key);
}

void Kubelets::Sync(const store::ObjectName& key) {
  const store::ObjectPtr object = pods_->Get(key.namespace_, key.name);
  if (!object) {
    if (auto it = entries_.find(key); it != entries_.end()) {
      CancelTimers(it->second);
      entries_.erase(it);
    }
    return;
  }
  const Json& pod = object->document();
  PodEntry& entry = entries_[key];
  if (const std::string uid = store::MetaString(pod, "uid"); entry.uid != uid) {
    CancelTimers(entry);  // a namesake replaced the pod this entry was about
    entry = PodEntry{};
    entry.uid = uid;
  }
  const std::string node_name = StringAt(pod, "spec", "nodeName");
  if (node_name.empty()) return;
  const store::ObjectPtr node = nodes_->Get("", node_name);
  if (!node) {
    if (deleted_nodes_.contains(node_name)) SyncOnDeadNode(key, entry, object, false);
    return;  // else the node is not known yet
  }
  // OnNode keeps every known node's condition as the node cache changes; reading it there
  // spares a scan of the node's conditions per pod sync.
  auto known = node_ready_.find(node_name);
  const std::optional<bool> ready =
      known != node_ready_.end() ? known->second : NodeReadyCondition(node->document());
  if (!ready) return;  // its kubelet has not started
  if (!*ready) return SyncOnDeadNode(key, entry, object, true);
  if (IsDeleting(pod)) return SyncTermination(key, entry, pod);
  if (options_.mode == KubeletMode::kManual || entry.lost) return;
  SyncRun(key, entry, object, node->document());
}

void Kubelets::SyncOnDeadNode(const store::ObjectName& key, PodEntry& entry,
                              const store::ObjectPtr& object, bool node_known) {
  const Json& pod = object->document();
  CancelTimers(entry);
  entry.lost = true;
  if (IsDeleting(pod) || !node_known) return DeletePod(key, entry);
  if (IsTerminal(StringAt(pod, "status", "phase"))) return;
  WriteStatus(object, LostPodStatus(pod, StringAt(pod, "spec", "nodeName"), loop_->Now()));
}

void Kubelets::SyncTermination(const store::ObjectName& key, PodEntry& entry, const Json& pod) {
  if (entry.delete_sent) return;
  if (entry.step_timer) loop_->Cancel(*entry.step_timer);  // the containers are being stopped
  entry.step_timer.reset();
  const Time now = loop_->Now();
  if (!entry.termination_seen) entry.termination_seen = now;
  const bool started = entry.run ? entry.run->stage == PodStage::kRunning ||
                                       entry.run->stage == PodStage::kRestarting
                                 : StringAt(pod, "status", "phase") == "Running";
  Duration delay{};
  if (started) {
    const Json& grace = ChildOrNull(ChildOrNull(pod, "metadata"), "deletionGracePeriodSeconds");
    delay = std::chrono::seconds(grace.is_number_integer() ? grace.get<std::int64_t>()
                                                           : kDefaultGraceSeconds);
    const Json& node = nodes_->Get("", StringAt(pod, "spec", "nodeName"))->document();
    if (const NodePoolSpec* pool = PoolOf(node); pool != nullptr && pool->termination) {
      delay = std::min(delay, *pool->termination);
    }
  }
  Time deadline = *entry.termination_seen + delay;
  // A second delete may shorten the grace period, never lengthen it.
  if (entry.termination_deadline) deadline = std::min(deadline, *entry.termination_deadline);
  if (deadline <= now) {
    if (entry.termination_timer) loop_->Cancel(*entry.termination_timer);
    entry.termination_timer.reset();
    return DeletePod(key, entry);
  }
  if (entry.termination_timer && entry.termination_deadline == deadline) return;
  if (entry.termination_timer) loop_->Cancel(*entry.termination_timer);
  entry.termination_deadline = deadline;
  entry.termination_timer = loop_->At(deadline, [this, key, uid = entry.uid] {
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.uid != uid) return;
    it->second.termination_timer.reset();
    Enqueue(key);
  });
}

void Kubelets::SyncRun(const store::ObjectName& key, PodEntry& entry,
                       const store::ObjectPtr& object, const Json& node) {
  const Json& pod = object->document();
  if (!entry.run) {
    if (IsTerminal(StringAt(pod, "status", "phase"))) return;  // ended before we saw it
    entry.run = BeginRun(pod, node);
    if (entry.run->stage != PodStage::kRunning) {
      ScheduleStep(key, entry, loop_->Now() + StartupTime(pod, node));
    }
  }
  // Most pod events are echoes of our own writes or of other fields' changes: a version whose
  // status is the one last reported renders no status.
  if (StatusIsReported(entry, *object)) {
    entry.reported = object;  // the same status: hold the newest version, let the older go
    return;
  }
  entry.reported = WriteStatus(object, PodStatusFor(pod, *entry.run, loop_->Now()));
  entry.reported_run = entry.reported ? entry.run : std::nullopt;
}

bool Kubelets::StatusIsReported(const PodEntry& entry, const store::StoredObject& pod) {
  if (!entry.reported || entry.reported_run != entry.run) return false;
  return entry.reported.get() == &pod ||
         ChildOrNull(pod.document(), "status") == ChildOrNull(entry.reported->document(), "status");
}

PodRun Kubelets::BeginRun(const Json& pod, const Json& node) {
  const Time now = loop_->Now();
  const Json& status = ChildOrNull(pod, "status");
  PodRun run;
  run.start_time = now;
  run.host_ip = api::StringMember(status, "hostIP");
  if (run.host_ip.empty()) run.host_ip = HostIp(node);
  if (api::StringMember(status, "phase") != "Running") return run;
  // Adopted from an earlier kubelet (a resumed cluster): carry its history on.
  run.start_time = TimeOr(ChildOrNull(status, "startTime"), now);
  run.pod_ip = api::StringMember(status, "podIP");
  if (run.pod_ip.empty()) run.pod_ip = NextPodIp(StringAt(pod, "spec", "nodeName"));
  run.started_at = run.others_started_at = now;
  run.stage = PodStage::kRestarting;
  for (const Json& c : ChildOrNull(status, "conditions")) {
    // ContainersReady, not Ready: readiness gates may hold Ready back while the containers run.
    if (api::StringMember(c, "type") == "ContainersReady" &&
        api::StringMember(c, "status") == "True") {
      run.stage = PodStage::kRunning;
    }
  }
  const Json& containers = ChildOrNull(ChildOrNull(pod, "spec"), "containers");
  const std::string first = containers.empty() ? "" : api::StringMember(containers[0], "name");
  for (const Json& s : ChildOrNull(status, "containerStatuses")) {
    if (api::StringMember(s, "name") != first) continue;
    const Json& restarts = ChildOrNull(s, "restartCount");
    run.restart_count = restarts.is_number_integer() ? restarts.get<int>() : 0;
    if (ChildOrNull(s, "lastState").is_object()) run.last_state = s["lastState"];
    const Json& running = ChildOrNull(ChildOrNull(s, "state"), "running");
    run.started_at = TimeOr(ChildOrNull(running, "startedAt"), now);
  }
  return run;
}

void Kubelets::ScheduleStep(const store::ObjectName& key, PodEntry& entry, Time when) {
  if (entry.step_timer) loop_->Cancel(*entry.step_timer);
  entry.step_timer = loop_->At(when, [this, key, uid = entry.uid] { Step(key, uid); });
}

void Kubelets::Step(const store::ObjectName& key, const std::string& uid) {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.uid != uid || !it->second.run) return;
  PodEntry& entry = it->second;
  entry.step_timer.reset();
  const store::ObjectPtr pod = pods_->Get(key.namespace_, key.name);
  if (!pod) return;
  switch (entry.run->stage) {
    case PodStage::kCreating:
    case PodStage::kRestarting:
      BecomeReady(key, entry, pod->document());
      break;
    case PodStage::kRunning:
      if (!ExitIfDue(key, entry, pod->document())) Crash(key, entry, pod->document());
      break;
    case PodStage::kFailed:
    case PodStage::kSucceeded:
      return;
  }
  Enqueue(key);
}

}  // namespace lws::cluster
