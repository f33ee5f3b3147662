// Containers that exit on their own in the simulated kubelets (kubelet.h): a pod annotated with
// kExitAfterSecondsAnnotation has its containers exit that long after they start running, with
// the code of kExitCodeAnnotation (0 when absent). Then, as the kubelet does per restartPolicy:
//   Never: the pod ends, Succeeded on 0 and Failed otherwise, every container terminated with
//     that code (reason Completed or Error), startedAt and finishedAt;
//   OnFailure: 0 ends the pod Succeeded; any other code restarts the first container at once
//     (restartCount + 1, lastState terminated with the code), which runs and exits again;
//   Always: the first container restarts whatever the code.
// A restarted container becomes Ready after a new startup time, as after a crash; the kubelet's
// CrashLoopBackOff delay between restarts is not simulated.
#include <cstdlib>

#include "api/field.h"
#include "cluster/kubelet.h"

namespace lws::cluster {

namespace {

using api::ChildOrNull;

// The annotation `key` as a finite number within [lo, hi]; nullopt when absent or malformed.
std::optional<double> NumberAnnotation(const Json& pod, const char* key, double lo, double hi) {
  const Json& annotations = ChildOrNull(ChildOrNull(pod, "metadata"), "annotations");
  const std::string text = api::StringMember(annotations, key);
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(value >= lo && value <= hi)) return std::nullopt;
  return value;
}

int ExitCode(const Json& pod) {
  // A process's exit status is a byte; a malformed annotation reads as a clean exit.
  std::optional<double> code = NumberAnnotation(pod, kExitCodeAnnotation, 0, 255);
  return code ? static_cast<int>(*code) : 0;
}

}  // namespace

bool Kubelets::ScheduleExit(const store::ObjectName& key, PodEntry& entry, const Json& pod) {
  std::optional<double> after = NumberAnnotation(pod, kExitAfterSecondsAnnotation, 0, 1e9);
  if (!after) return false;
  entry.exit_at =
      loop_->Now() + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(*after));
  ScheduleStep(key, entry, *entry.exit_at);
  return true;
}

bool Kubelets::ExitIfDue(const store::ObjectName& key, PodEntry& entry, const Json& pod) {
  const Time now = loop_->Now();
  if (!entry.exit_at || *entry.exit_at > now) return false;
  entry.exit_at.reset();
  PodRun& run = *entry.run;
  const int code = ExitCode(pod);
  const std::string policy = api::StringMember(ChildOrNull(pod, "spec"), "restartPolicy");
  if (policy == "Never" || (policy == "OnFailure" && code == 0)) {
    run.stage = code == 0 ? PodStage::kSucceeded : PodStage::kFailed;
    run.exit_code = code;
    run.finished_at = now;
    return true;
  }
  const Json& containers = ChildOrNull(ChildOrNull(pod, "spec"), "containers");
  const std::string first = containers.empty() ? "" : api::StringMember(containers[0], "name");
  run.last_state = {{"terminated",
                     {{"containerID", ContainerId(entry.uid, first, run.restart_count)},
                      {"exitCode", code},
                      {"reason", code == 0 ? "Completed" : "Error"},
                      {"startedAt", FormatRfc3339(run.started_at)},
                      {"finishedAt", FormatRfc3339(now)}}}};
  ++run.restart_count;
  run.started_at = now;
  run.stage = PodStage::kRestarting;
  const store::ObjectPtr node =
      nodes_->Get("", api::StringMember(ChildOrNull(pod, "spec"), "nodeName"));
  ScheduleStep(key, entry, now + StartupTime(pod, node ? node->document() : Json()));
  return true;
}

}  // namespace lws::cluster
