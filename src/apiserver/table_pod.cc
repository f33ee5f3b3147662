// The pod row of `kubectl get pods`: printers.go printPod, whose Status column is kubectl's
// summary of the pod (Pending, ContainerCreating, Running, Completed, CrashLoopBackOff,
// Terminating, Init:1/2, Init:CrashLoopBackOff, ...) and whose Restarts column says when the last
// container restarted ("5 (3m ago)"). The order of the checks below is printPod's, and it
// matters: later checks override earlier ones.
#include <optional>

#include "apiserver/table_printers.h"

namespace lws::apiserver::table_internal {

namespace {

// What the container loops accumulate.
struct PodCounts {
  std::int64_t restarts = 0;
  std::int64_t ready = 0;
  std::optional<Time> last_restart;  // latest lastState.terminated.finishedAt
};

bool IsTrue(const Json& object, std::initializer_list<std::string_view> path) {
  const Json* v = At(object, path);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

bool HasCondition(const Json& pod, std::string_view type, std::string_view status) {
  for (const Json& c : ArrayAt(pod, {"status", "conditions"})) {
    if (StringAt(c, {"type"}) == type) return StringAt(c, {"status"}) == status;
  }
  return false;
}

// Counts a container's restarts and remembers its last termination time.
void CountRestarts(const Json& status, PodCounts* counts) {
  counts->restarts += IntAt(status, {"restartCount"});
  std::optional<Time> finished = TimeAt(status, {"lastState", "terminated", "finishedAt"});
  if (finished && (!counts->last_restart || *counts->last_restart < *finished)) {
    counts->last_restart = finished;
  }
}

// Init:<reason> for a failed init container: its reason, else its signal or exit code.
std::string TerminatedReason(const Json& terminated, std::string_view prefix) {
  std::string reason = StringAt(terminated, {"reason"});
  if (!reason.empty()) return std::string(prefix) + reason;
  std::int64_t signal = IntAt(terminated, {"signal"});
  if (signal != 0) return std::string(prefix) + "Signal:" + std::to_string(signal);
  return std::string(prefix) + "ExitCode:" + std::to_string(IntAt(terminated, {"exitCode"}));
}

// Walks the init container statuses; returns true while the pod is still initializing and
// sets `reason`. Restartable init containers (sidecars) count as containers of the pod.
bool WalkInitContainers(const Json& pod, std::string* reason, PodCounts* all, PodCounts* sidecars) {
  const Json& specs = ArrayAt(pod, {"spec", "initContainers"});
  auto restartable = [&](const std::string& name) {
    for (const Json& c : specs) {
      if (StringAt(c, {"name"}) == name) return StringAt(c, {"restartPolicy"}) == "Always";
    }
    return false;
  };
  const Json& statuses = ArrayAt(pod, {"status", "initContainerStatuses"});
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const Json& c = statuses[i];
    CountRestarts(c, all);
    bool sidecar = restartable(StringAt(c, {"name"}));
    if (sidecar) CountRestarts(c, sidecars);
    const Json* terminated = At(c, {"state", "terminated"});
    if (terminated != nullptr && !terminated->is_object()) terminated = nullptr;
    const Json* waiting = At(c, {"state", "waiting"});
    if (waiting != nullptr && !waiting->is_object()) waiting = nullptr;
    if (terminated != nullptr && IntAt(*terminated, {"exitCode"}) == 0) continue;
    if (sidecar && IsTrue(c, {"started"})) {
      if (IsTrue(c, {"ready"})) ++all->ready;
      continue;
    }
    if (terminated != nullptr) {
      *reason = TerminatedReason(*terminated, "Init:");
    } else if (waiting != nullptr && !StringAt(*waiting, {"reason"}).empty() &&
               StringAt(*waiting, {"reason"}) != "PodInitializing") {
      *reason = "Init:" + StringAt(*waiting, {"reason"});
    } else {
      *reason = "Init:" + std::to_string(i) + "/" + std::to_string(specs.size());
    }
    return true;
  }
  return false;
}

// Walks the app container statuses last to first, so the first container's state wins.
void WalkContainers(const Json& pod, std::string* reason, PodCounts* counts) {
  bool has_running = false;
  const Json& statuses = ArrayAt(pod, {"status", "containerStatuses"});
  for (std::size_t i = statuses.size(); i-- > 0;) {
    const Json& c = statuses[i];
    CountRestarts(c, counts);
    std::string waiting = StringAt(c, {"state", "waiting", "reason"});
    const Json* terminated = At(c, {"state", "terminated"});
    if (terminated != nullptr && !terminated->is_object()) terminated = nullptr;
    if (!waiting.empty()) {
      *reason = waiting;
    } else if (terminated != nullptr) {
      *reason = TerminatedReason(*terminated, "");
    } else if (IsTrue(c, {"ready"}) && At(c, {"state", "running"}) != nullptr &&
               At(c, {"state", "running"})->is_object()) {
      has_running = true;
      ++counts->ready;
    }
  }
  // A pod whose last container completed while another still runs is Running (or NotReady).
  if (*reason == "Completed" && has_running) {
    *reason = HasCondition(pod, "Ready", "True") ? "Running" : "NotReady";
  }
}

std::string ReadinessGates(const Json& pod) {
  const Json& gates = ArrayAt(pod, {"spec", "readinessGates"});
  if (gates.empty()) return "<none>";
  std::size_t true_conditions = 0;
  for (const Json& gate : gates) {
    if (HasCondition(pod, StringAt(gate, {"conditionType"}), "True")) ++true_conditions;
  }
  return std::to_string(true_conditions) + "/" + std::to_string(gates.size());
}

std::string OrNone(std::string s) { return s.empty() ? "<none>" : s; }

}  // namespace

Row PodRow(const Json& pod, Time now) {
  Row row;
  const std::string phase = StringAt(pod, {"status", "phase"});
  std::string reason = phase;
  if (!StringAt(pod, {"status", "reason"}).empty()) reason = StringAt(pod, {"status", "reason"});
  for (const Json& c : ArrayAt(pod, {"status", "conditions"})) {
    if (StringAt(c, {"type"}) == "PodScheduled" && StringAt(c, {"reason"}) == "SchedulingGated") {
      reason = "SchedulingGated";
    }
  }
  if (phase == "Succeeded" || phase == "Failed") {
    row.conditions =
        Json::array({{{"type", "Completed"},
                      {"status", "True"},
                      {"reason", phase},
                      {"message", phase == "Succeeded" ? "The pod has completed successfully."
                                                       : "The pod failed."}}});
  }
  PodCounts all;
  PodCounts sidecars;
  std::int64_t total = static_cast<std::int64_t>(ArrayAt(pod, {"spec", "containers"}).size());
  for (const Json& c : ArrayAt(pod, {"spec", "initContainers"})) {
    if (StringAt(c, {"restartPolicy"}) == "Always") ++total;
  }
  bool initializing = WalkInitContainers(pod, &reason, &all, &sidecars);
  if (!initializing || HasCondition(pod, "Initialized", "True")) {
    // Once initialized only sidecar restarts count besides the app containers'.
    PodCounts app = sidecars;
    app.ready = all.ready;
    WalkContainers(pod, &reason, &app);
    all = app;
  }
  const bool deleting = !StringAt(pod, {"metadata", "deletionTimestamp"}).empty();
  if (deleting && StringAt(pod, {"status", "reason"}) == "NodeLost") {
    reason = "Unknown";
  } else if (deleting && phase != "Succeeded" && phase != "Failed") {
    reason = "Terminating";
  }
  std::string restarts = std::to_string(all.restarts);
  if (all.restarts != 0 && all.last_restart) {
    restarts += " (" + HumanDuration(now - *all.last_restart) + " ago)";
  }
  const Json& pod_ips = ArrayAt(pod, {"status", "podIPs"});
  std::string ip =
      pod_ips.empty() ? StringAt(pod, {"status", "podIP"}) : StringAt(pod_ips[0], {"ip"});
  row.cells = Json::array(
      {NameOf(pod), std::to_string(all.ready) + "/" + std::to_string(total), reason, restarts,
       AgeOf(pod, now), OrNone(ip), OrNone(StringAt(pod, {"spec", "nodeName"})),
       OrNone(StringAt(pod, {"status", "nominatedNodeName"})), ReadinessGates(pod)});
  return row;
}

}  // namespace lws::apiserver::table_internal
