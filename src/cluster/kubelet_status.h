// File: cluster/kubelet_status.h
//
// The pure half of the simulated kubelets (kubelet.h): what a pod's status says at each step of
// its containers' life, written the way the real kubelet's status manager writes it, and the
// status the node lifecycle controller's stand-in gives a pod whose node was lost. No I/O and no
// clock: the kubelet passes the time in, so the same run always renders the same status.
//
// Shapes follow kubelet v1.32 (pkg/kubelet/status/generate.go and kubelet_pods.go):
//   - conditions PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled,
//     each {type, status, lastProbeTime: null, lastTransitionTime[, reason, message]}; a
//     condition's lastTransitionTime moves only when its status changes;
//   - Ready/ContainersReady False carry reason ContainersNotReady and the message
//     "containers with unready status: [a b]", or reason PodFailed in phase Failed;
//   - containerStatuses sorted by name, each {name, image, imageID, containerID, ready,
//     restartCount, started, state, lastState}.
// Init containers and readiness gates are not simulated: Initialized is True from the start.
#pragma once

#include <optional>
#include <string>

#include "api/codec.h"
#include "base/clock.h"

namespace lws::cluster {

using api::Json;

// Where a pod's containers are in the simulated kubelet's life cycle.
enum class PodStage {
  kCreating,    // bound; sandbox and images on their way: Pending, ContainerCreating
  kRunning,     // every container running and ready
  kRestarting,  // the first container crashed and was restarted at once; not ready yet
  kFailed,      // the first container crashed, or the containers exited non-zero, and were
                // not restarted: phase Failed
  kSucceeded,   // the containers exited with code 0 and were not restarted: phase Succeeded
};

// What the kubelet knows of one run of a pod: enough to render its whole status again.
struct PodRun {
  PodStage stage = PodStage::kCreating;
  Time start_time{};         // the kubelet took the pod on: status.startTime
  Time started_at{};         // the current start of the first container (state.running.startedAt)
  Time others_started_at{};  // the other containers' start (they never crash)
  Time finished_at{};        // kFailed, kSucceeded: when the first container exited
  // kFailed, kSucceeded: every container's exit code when they exited on their own
  // (kExitAfterSecondsAnnotation); nullopt after a crash (first 1, the others 137).
  std::optional<int> exit_code;
  int restart_count = 0;             // of the first container
  Json last_state = Json::object();  // the first container's lastState
  std::string pod_ip;                // assigned when the containers first start
  std::string host_ip;
  bool operator==(const PodRun&) const = default;
};

// The pod's status (`pod`'s current one with the kubelet's members replaced) after `run`:
// phase, conditions (merged by type with those others wrote), containerStatuses, hostIP(s),
// podIP(s), startTime. Members the kubelet does not own (qosClass, ...) are kept.
Json PodStatusFor(const Json& pod, const PodRun& run, Time now);

// The status of a pod whose node stopped responding: phase Failed, reason NodeLost, the
// upstream message "Node <node> which was running pod <pod> is unresponsive", Ready and
// ContainersReady False. Containers are left as last reported.
Json LostPodStatus(const Json& pod, const std::string& node, Time now);

// The containerID the simulated runtime gives start `restart` of container `name` of the pod
// with uid `uid`: "containerd://" and 64 hex digits, a pure function of its inputs.
std::string ContainerId(const std::string& uid, const std::string& name, int restart);

// Sets condition `condition` (matched by type) in `conditions` (an array, or null for none),
// keeping its lastTransitionTime when the status does not change and setting `now` otherwise.
void SetPodCondition(Json* conditions, Json condition, Time now);

}  // namespace lws::cluster
