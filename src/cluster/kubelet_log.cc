// File: cluster/kubelet_log.cc
#include "cluster/kubelet_log.h"

#include <fmt/format.h>

#include "api/field.h"
#include "store/object.h"

namespace lws::cluster {
namespace {

using api::ChildOrNull;
using api::StringMember;

constexpr std::size_t kInstancesKept = 2;  // the current one and the one --previous reads

// The containerID of the instance a container status reports: the running or terminated
// container's, as the kubelet reads it; "" while it waits.
std::string InstanceId(const Json& status) {
  const Json& state = ChildOrNull(status, "state");
  if (state.contains("running")) return StringMember(status, "containerID");
  if (state.contains("terminated")) {
    const std::string id = StringMember(ChildOrNull(state, "terminated"), "containerID");
    return id.empty() ? StringMember(status, "containerID") : id;
  }
  return "";
}

bool Started(const Json& status) {
  const Json& state = ChildOrNull(status, "state");
  return state.contains("running") || state.contains("terminated");
}

// "container exited with code 1 (Error)", from a ContainerStateTerminated.
std::string ExitLine(const Json& terminated) {
  const Json& code = ChildOrNull(terminated, "exitCode");
  std::string line = fmt::format("container exited with code {}",
                                 code.is_number_integer() ? code.get<std::int64_t>() : 0);
  const Json& signal = ChildOrNull(terminated, "signal");
  if (signal.is_number_integer() && signal.get<std::int64_t>() != 0) {
    line += fmt::format(", killed by signal {}", signal.get<std::int64_t>());
  }
  if (std::string reason = StringMember(terminated, "reason"); !reason.empty()) {
    line += " (" + reason + ")";
  }
  if (std::string message = StringMember(terminated, "message"); !message.empty()) {
    line += ": " + message;
  }
  return line;
}

const Json* ContainerSpec(const Json& pod, const std::string& name) {
  const Json& spec = ChildOrNull(pod, "spec");
  for (const char* list : {"containers", "initContainers"}) {
    for (const Json& c : ChildOrNull(spec, list)) {
      if (StringMember(c, "name") == name) return &c;
    }
  }
  return nullptr;
}

std::string GracePeriod(const Json& pod) {
  const Json& grace = ChildOrNull(ChildOrNull(pod, "metadata"), "deletionGracePeriodSeconds");
  return grace.is_number_integer() ? fmt::format("{}s", grace.get<std::int64_t>()) : "30s";
}

}  // namespace

KubeletLogs::KubeletLogs(EventLoop* loop, const client::LocalClient* client,
                         KubeletLogOptions options)
    : loop_(loop), client_(client), options_(options) {}

KubeletLogs::~KubeletLogs() { Stop(); }

Status KubeletLogs::Start() {
  pods_ = std::make_unique<client::Informer>(loop_, client_, client::kPods);
  pods_->AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnPod(old, now); });
  return pods_->Start();
}

void KubeletLogs::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (pods_) pods_->Stop();
  MutexLock lock(&mu_);
  for (auto& [key, kept] : instances_) {
    for (Instance& instance : kept) instance.log->End();
  }
  instances_.clear();
  seen_.clear();
}

podlog::ContainerLogPtr KubeletLogs::Find(const std::string& uid, const std::string& container,
                                          const std::string& container_id) const {
  MutexLock lock(&mu_);
  auto it = instances_.find(Key{uid, container});
  if (it == instances_.end()) return nullptr;
  for (const Instance& instance : it->second) {
    if (instance.container_id == container_id) return instance.log;
  }
  return nullptr;
}

std::size_t KubeletLogs::containers_logged() const {
  MutexLock lock(&mu_);
  return instances_.size();
}

void KubeletLogs::OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  if (now) return Observe(now->document());
  Forget(old->uid(), "container stopped: the pod was deleted");
}

void KubeletLogs::Observe(const Json& pod) {
  const std::string uid = store::MetaString(pod, "uid");
  const Json& status = ChildOrNull(pod, "status");
  for (const char* list : {"initContainerStatuses", "containerStatuses"}) {
    for (const Json& container : ChildOrNull(status, list)) {
      const std::string name = StringMember(container, "name");
      if (name.empty()) continue;
      auto& containers = seen_[uid];
      ObserveContainer(pod, container, containers[name]);
    }
  }
}

void KubeletLogs::ObserveContainer(const Json& pod, const Json& status, Seen& seen) {
  const std::string id = InstanceId(status);
  if (Started(status) && (!seen.log || id != seen.container_id)) {
    if (seen.log && !seen.log->ended()) {
      // The instance before ended; the new status tells how when it is the last terminated one.
      const Json& last = ChildOrNull(ChildOrNull(status, "lastState"), "terminated");
      const bool told = last.is_object() && StringMember(last, "containerID") == seen.container_id;
      Write(seen, told ? ExitLine(last) : "container stopped");
      seen.log->End();
    }
    Open(pod, status, id, seen);
  }
  if (!seen.log || seen.log->ended()) return;
  const Json& state = ChildOrNull(status, "state");
  if (state.contains("terminated")) {
    Write(seen, ExitLine(state["terminated"]));
    seen.log->End();
    return;
  }
  const bool ready = ChildOrNull(status, "ready") == true;
  if (ready != seen.ready) {
    const Json* spec = ContainerSpec(pod, StringMember(status, "name"));
    const bool probed = spec != nullptr && spec->contains("readinessProbe");
    Write(seen, !ready   ? "container is not ready"
                : probed ? "readiness probe passed: container is ready"
                         : "container is ready (no readiness probe)");
    seen.ready = ready;
  }
  const Json& pod_status = ChildOrNull(pod, "status");
  if (!seen.lost && StringMember(pod_status, "reason") == "NodeLost") {
    seen.lost = true;
    Write(seen, "node " + StringMember(ChildOrNull(pod, "spec"), "nodeName") +
                    " stopped responding: the container's fate is unknown");
    seen.log->End();
    return;
  }
  const bool deleting = !ChildOrNull(ChildOrNull(pod, "metadata"), "deletionTimestamp").is_null();
  if (deleting && !seen.stopping) {
    seen.stopping = true;
    Write(seen, "stopping container: the pod is being deleted (SIGTERM, grace period " +
                    GracePeriod(pod) + ")");
  }
}

void KubeletLogs::Open(const Json& pod, const Json& status, const std::string& container_id,
                       Seen& seen) {
  const std::string name = StringMember(status, "name");
  const Json* spec = ContainerSpec(pod, name);
  const std::string image =
      spec != nullptr ? StringMember(*spec, "image") : StringMember(status, "image");
  seen = Seen{};
  seen.container_id = container_id;
  seen.log = std::make_shared<podlog::ContainerLog>(options_.lines_max);
  Write(seen, kSimulatedContainerLine);
  const Json& restarts = ChildOrNull(status, "restartCount");
  if (restarts.is_number_integer() && restarts.get<std::int64_t>() > 0) {
    std::string policy = StringMember(ChildOrNull(pod, "spec"), "restartPolicy");
    Write(seen, fmt::format("restarting container after it exited (restart {}, restartPolicy {})",
                            restarts.get<std::int64_t>(), policy.empty() ? "Always" : policy));
  }
  Write(seen, fmt::format("created container {} from image {}", name, image));
  Write(seen, fmt::format("started container {}", name));
  MutexLock lock(&mu_);
  std::vector<Instance>& kept = instances_[Key{store::MetaString(pod, "uid"), name}];
  kept.push_back(Instance{container_id, seen.log});
  if (kept.size() > kInstancesKept) kept.erase(kept.begin());
}

void KubeletLogs::Forget(const std::string& uid, const char* last_line) {
  auto it = seen_.find(uid);
  if (it == seen_.end()) return;
  for (auto& [name, seen] : it->second) {
    if (!seen.log || seen.log->ended()) continue;
    Write(seen, last_line);
    seen.log->End();
  }
  MutexLock lock(&mu_);
  for (const auto& [name, seen] : it->second) instances_.erase(Key{uid, name});
  seen_.erase(it);
}

void KubeletLogs::Write(Seen& seen, std::string message) {
  seen.log->Append(loop_->Now(), std::move(message));
}

}  // namespace lws::cluster
