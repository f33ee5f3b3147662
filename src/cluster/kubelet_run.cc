// The steps of a pod's run on the simulated kubelets (kubelet.h): becoming Ready, crashing,
// stopping, and the writes that report them.
#include <fmt/format.h>

#include <cstdlib>

#include "api/field.h"
#include "base/log.h"
#include "client/request_bodies.h"
#include "cluster/kubelet.h"
#include "store/object.h"

namespace lws::cluster {

namespace {

using api::ChildOrNull;

constexpr Duration kUnknownPoolStartup = std::chrono::seconds(5);
// A crash the pool's crash_probability injects hits uniformly within this window after Ready.
constexpr std::int64_t kCrashWindowMinSeconds = 10;
constexpr std::int64_t kCrashWindowMaxSeconds = 600;

// A non-negative number of seconds from annotation `key`; nullopt when absent or malformed.
std::optional<Duration> SecondsAnnotation(const Json& pod, const char* key) {
  const Json& annotations = ChildOrNull(ChildOrNull(pod, "metadata"), "annotations");
  const std::string text = api::StringMember(annotations, key);
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(seconds >= 0) || seconds > 1e9) return std::nullopt;
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds));
}

bool IsRace(const Status& status) {
  return status.code() == Code::kConflict || status.code() == Code::kNotFound;
}

}  // namespace

void Kubelets::BecomeReady(const store::ObjectName& key, PodEntry& entry, const Json& pod) {
  PodRun& run = *entry.run;
  const Time now = loop_->Now();
  if (run.stage == PodStage::kCreating) {
    run.started_at = run.others_started_at = now;
    run.pod_ip = NextPodIp(api::StringMember(ChildOrNull(pod, "spec"), "nodeName"));
    ++pods_started_;
  }
  run.stage = PodStage::kRunning;
  if (ScheduleExit(key, entry, pod)) return;
  // Crash injection, decided once per start.
  if (std::optional<Duration> after = SecondsAnnotation(pod, kCrashAfterSecondsAnnotation)) {
    ScheduleStep(key, entry, now + *after);
    return;
  }
  const store::ObjectPtr node =
      nodes_->Get("", api::StringMember(ChildOrNull(pod, "spec"), "nodeName"));
  const NodePoolSpec* pool = node ? PoolOf(node->document()) : nullptr;
  if (pool != nullptr && pool->crash_probability > 0 && rng_.Bernoulli(pool->crash_probability)) {
    const std::int64_t seconds = rng_.UniformInt(kCrashWindowMinSeconds, kCrashWindowMaxSeconds);
    ScheduleStep(key, entry, now + std::chrono::seconds(seconds));
  }
}

void Kubelets::Crash(const store::ObjectName& key, PodEntry& entry, const Json& pod) {
  PodRun& run = *entry.run;
  const Time now = loop_->Now();
  const Json& containers = ChildOrNull(ChildOrNull(pod, "spec"), "containers");
  const std::string first = containers.empty() ? "" : api::StringMember(containers[0], "name");
  const Json terminated = {{"terminated",
                            {{"containerID", ContainerId(entry.uid, first, run.restart_count)},
                             {"exitCode", 1},
                             {"reason", "Error"},
                             {"startedAt", FormatRfc3339(run.started_at)},
                             {"finishedAt", FormatRfc3339(now)}}}};
  if (api::StringMember(ChildOrNull(pod, "spec"), "restartPolicy") == "Never") {
    run.stage = PodStage::kFailed;
    run.finished_at = now;
    if (entry.step_timer) loop_->Cancel(*entry.step_timer);
    entry.step_timer.reset();
    return;
  }
  // Always and OnFailure: the container is started again at once and must become ready again.
  run.last_state = terminated;
  ++run.restart_count;
  run.started_at = now;
  run.stage = PodStage::kRestarting;
  const store::ObjectPtr node =
      nodes_->Get("", api::StringMember(ChildOrNull(pod, "spec"), "nodeName"));
  ScheduleStep(key, entry, now + StartupTime(pod, node ? node->document() : Json()));
}

Status Kubelets::CrashContainer(const std::string& ns, const std::string& name) {
  const store::ObjectPtr pod = pods_ ? pods_->Get(ns, name) : nullptr;
  if (!pod) return Status::NotFound(fmt::format("pods \"{}\" not found", name));
  const store::ObjectName key{ns, name};
  auto it = entries_.find(key);
  const bool running = it != entries_.end() && it->second.run && !it->second.lost &&
                       !it->second.termination_seen && it->second.uid == pod->uid() &&
                       (it->second.run->stage == PodStage::kRunning ||
                        it->second.run->stage == PodStage::kRestarting);
  if (!running) {
    return Status::Conflict(fmt::format("pod {}/{} has no running container to crash", ns, name));
  }
  Crash(key, it->second, pod->document());
  Enqueue(key);
  return Status::Ok();
}

void Kubelets::CancelTimers(PodEntry& entry) {
  if (entry.step_timer) loop_->Cancel(*entry.step_timer);
  if (entry.termination_timer) loop_->Cancel(*entry.termination_timer);
  entry.step_timer.reset();
  entry.termination_timer.reset();
}

void Kubelets::DeletePod(const store::ObjectName& key, PodEntry& entry) {
  if (entry.delete_sent) return;
  client::DeleteOptions options;
  options.grace_period_seconds = 0;
  options.precondition_uid = entry.uid;
  Result<store::ObjectPtr> answer =
      client_->Delete(client::kPods, key.namespace_, key.name, options);
  if (answer.ok() || answer.status().code() == Code::kNotFound) {
    entry.delete_sent = true;
  } else if (!IsRace(answer.status())) {
    Logger("kubelet")->warn("deleting pod {}/{}: {}", key.namespace_, key.name,
                            answer.status().ToString());
  }
}

store::ObjectPtr Kubelets::WriteStatus(const store::ObjectPtr& object, Json status) {
  const Json& pod = object->document();
  if (ChildOrNull(pod, "status") == status) return object;
  Result<store::ObjectPtr> answer =
      client_->UpdateStatus(client::kPods, client::StatusWriteBody(pod, std::move(status)));
  if (answer.ok()) return std::move(*answer);
  if (!IsRace(answer.status())) {
    Logger("kubelet")->warn("updating the status of pod {}/{}: {}",
                            store::MetaString(pod, "namespace"), store::MetaString(pod, "name"),
                            answer.status().ToString());
  }
  return nullptr;
}

const NodePoolSpec* Kubelets::PoolOf(const Json& node) const {
  const std::string pool =
      api::StringMember(ChildOrNull(ChildOrNull(node, "metadata"), "labels"), kNodePoolLabel);
  return pool.empty() ? nullptr : spec_->FindPool(pool);
}

Duration Kubelets::StartupTime(const Json& pod, const Json& node) {
  if (std::optional<Duration> d = SecondsAnnotation(pod, kStartupSecondsAnnotation)) return *d;
  const NodePoolSpec* pool = PoolOf(node);
  return pool != nullptr ? pool->startup.Sample(&rng_) : kUnknownPoolStartup;
}

std::string Kubelets::NextPodIp(const std::string& node) {
  auto index = node_index_.try_emplace(node, static_cast<int>(node_index_.size()) + 1).first;
  const std::uint32_t n = ++ips_handed_[node];
  return fmt::format("10.{}.{}.{}", index->second % 256, (n / 256) % 256, n % 256);
}

std::string Kubelets::HostIp(const Json& node) const {
  for (const Json& address : ChildOrNull(ChildOrNull(node, "status"), "addresses")) {
    if (api::StringMember(address, "type") == "InternalIP")
      return api::StringMember(address, "address");
  }
  auto it = node_index_.find(store::MetaString(node, "name"));
  const int index = it == node_index_.end() ? 0 : it->second;
  return fmt::format("172.16.{}.{}", (index / 256) % 256, index % 256);
}

}  // namespace lws::cluster
