// File: cluster/daemonset_plan.h
//
// The decisions of kube-controller-manager's DaemonSet controller (upstream
// pkg/controller/daemon/daemon_controller.go and update.go, v1.32) as one pure function: a
// DaemonSet, the nodes, the pods it controls and the time in; the writes of one sync and the
// status out (DESIGN.md 2.1).
//
// Rules, in the order of one sync (upstream syncDaemonSet, manage and rollingUpdate):
//   1. A node should run the daemon pod when the template's nodeSelector and required node
//      affinity match it and its NoSchedule and NoExecute taints are tolerated by the template's
//      tolerations plus the ones the controller adds (DaemonPodTolerations). A pod already there
//      may keep running unless a NoExecute taint is not tolerated.
//   2. A pod belongs to the node it is bound to, or, before binding, to the node its
//      required affinity pins it to (matchFields metadata.name In [node]).
//   3. A node that should run the pod and has none gets one (generateName "<set>-", the
//      template's labels plus controller-revision-hash and pod-template-generation, a
//      controller ownerReference, the tolerations added, the required node affinity replaced by
//      the one term pinning the node, as upstream's ReplaceDaemonSetPodNodeNameNodeAffinity; the
//      scheduler binds it). Failed pods are deleted (and replaced by a later sync); of several
//      active pods on a node the oldest stays. Pods on nodes that may not keep them are deleted.
//   4. RollingUpdate: old pods (another controller-revision-hash) are deleted, the unavailable
//      ones first, then available ones while fewer than maxUnavailable (of
//      desiredNumberScheduled, a percentage rounded up) nodes are unavailable; the next sync
//      creates the new pod. OnDelete: only pods deleted by the user are replaced.
//   5. Status: desiredNumberScheduled, currentNumberScheduled, numberMisscheduled, numberReady,
//      numberAvailable (Ready for minReadySeconds), numberUnavailable, updatedNumberScheduled,
//      observedGeneration; kUpdateStatus when it differs; kRequeueAfter while a Ready pod waits
//      to be available.
//
// Left out (upstream has it): maxSurge (a surge setting updates as maxUnavailable 1 would),
// ControllerRevisions and rollback, the failed-pod backoff, adopting orphans.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/apps_workloads.h"
#include "api/core.h"
#include "base/clock.h"
#include "cluster/statefulset_plan.h"  // kControllerRevisionHashLabel

namespace lws::cluster {

inline constexpr std::string_view kPodTemplateGenerationLabel = "pod-template-generation";

struct DaemonSetSnapshot {
  api::DaemonSet set;
  std::vector<std::shared_ptr<const api::Node>> nodes;
  std::vector<std::shared_ptr<const api::Pod>> pods;  // controlled by the set, any state
  Time now;
};

enum class DaemonSetActionKind {
  kCreatePod,     // create `pod` (generateName) for node `name`
  kDeletePod,     // delete pod `name` with precondition `uid`
  kUpdateStatus,  // write the plan's status
  kRequeueAfter,  // sync again after `requeue_after`
};

struct DaemonSetAction {
  DaemonSetActionKind kind = DaemonSetActionKind::kCreatePod;
  std::string name;
  std::string uid;
  std::optional<api::Pod> pod;
  Duration requeue_after{0};
};

struct DaemonSetPlan {
  std::vector<DaemonSetAction> actions;
  api::DaemonSetStatus status;
};

DaemonSetPlan PlanDaemonSet(const DaemonSetSnapshot& snapshot);

// The tolerations upstream's AddOrUpdateDaemonPodTolerations adds to every daemon pod (the
// network-unavailable one for hostNetwork pods only).
std::vector<api::Toleration> DaemonPodTolerations(bool host_network);

// The hash of the set's template (the controller-revision-hash label of its pods).
std::string DaemonSetTemplateHash(const api::DaemonSet& set);

// The pod upstream's NewPod / CreatePods make for `set` on `node`.
api::Pod NewDaemonPod(const api::DaemonSet& set, const std::string& node, const std::string& hash);

// Whether `node` should run `set`'s pod, and whether a pod already there may keep running
// (upstream NodeShouldRunDaemonPod).
struct NodeVerdict {
  bool should_run = false;
  bool should_continue_running = false;
};
NodeVerdict NodeShouldRunDaemonPod(const api::Node& node, const api::DaemonSet& set);

}  // namespace lws::cluster
