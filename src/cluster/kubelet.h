// File: cluster/kubelet.h
//
// The simulated kubelets: every node's kubelet in one component, plus the part of the node
// lifecycle controller and the pod garbage collector that reacts to a lost node. It watches pods
// and nodes through informers and writes only through the LocalClient (field manager "kubelet"),
// so every status it writes goes through the API server's pipeline.
//
// A pod bound to a Ready node (kAuto):
//   - at once: Pending, containers waiting "ContainerCreating", hostIP and startTime;
//   - after its startup time (the pod's kStartupSecondsAnnotation, else its node pool's startup
//     distribution sampled from the component's Rng, 5 s for a node of no known pool): Running,
//     containers running and ready, conditions True, a podIP 10.<node>.<x>.<y>;
//   - a crash (CrashContainer, the pod's kCrashAfterSecondsAnnotation after each Ready, or the
//     pool's crash_probability drawn once per start): the first container restarts at once
//     (restartCount + 1, lastState terminated with exit code 1) and is Ready again after a new
//     startup time; under restartPolicy Never the pod ends Failed instead.
// A pod with a deletionTimestamp keeps its node until min(its grace period, the pool's
// termination time) has passed (at once when it never ran), then the kubelet deletes it with
// grace 0 and a uid precondition. kManual leaves phase and readiness to API clients and does
// only the terminations and the node-failure handling.
//
// Node failure: a node whose Ready condition is False or Unknown has a dead kubelet. Its pods
// stop progressing and are marked lost (Failed, reason NodeLost); a pod deleted there is removed
// at once (force delete, as the pod GC does for an out-of-service node); a pod whose node was
// deleted is removed the same way. A node with no Ready condition yet is one whose kubelet has
// not started: its pods wait. SetNodeReady is how the other components fail and revive a node.
//
// Work is level-triggered: informer events and timers mark a pod dirty, a posted task syncs the
// dirty pods in name order, and each sync writes the status its run implies only when the
// stored one differs. A Conflict or NotFound answer is dropped: the event that caused it brings
// the pod back. Everything runs on the loop given to the constructor; randomness comes from
// the Rng's "kubelet" stream, drawn in the loop's (deterministic) order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "base/event_loop.h"
#include "base/rng.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "cluster/cluster_spec.h"
#include "cluster/kubelet_status.h"

namespace lws::cluster {

enum class KubeletMode { kAuto, kManual };

struct KubeletOptions {
  KubeletMode mode = KubeletMode::kAuto;
};

class Kubelets {
 public:
  // REQUIRES: loop, client and spec outlive the component. `client` should use the field
  // manager "kubelet".
  Kubelets(EventLoop* loop, const client::LocalClient* client, const ClusterSpec* spec, Rng rng,
           KubeletOptions options = {});
  ~Kubelets();
  Kubelets(const Kubelets&) = delete;
  Kubelets& operator=(const Kubelets&) = delete;

  // Starts the pod and node informers.
  Status Start();
  // Stops the informers and cancels every pending step. Idempotent.
  void Stop();

  // The first container of pod ns/pod crashes now (and restarts, or fails the pod under
  // restartPolicy Never). NotFound for an unknown pod; Conflict when its containers are not
  // running under this component (not started yet, failed, on a dead node, or kManual).
  // Call on the loop.
  Status CrashContainer(const std::string& ns, const std::string& pod);
  // How many pods reached Running for the first time.
  std::uint64_t pods_started() const { return pods_started_; }

 private:
  // What the component keeps per pod (by name; reset when a namesake with another uid comes).
  struct PodEntry {
    std::string uid;
    std::optional<PodRun> run;  // kAuto, once the kubelet took the pod on
    std::optional<TaskId> step_timer;
    bool lost = false;  // its node died while it was there: it never runs again
    std::optional<Time> termination_seen;
    std::optional<Time> termination_deadline;
    std::optional<TaskId> termination_timer;
    bool delete_sent = false;
    // The version whose status last matched `run` as PodStatusFor renders it (written by us, or
    // found so), and that run. A pod version with the same status and an unchanged run needs
    // no rendering: PodStatusFor keeps a status it already produced as it is.
    store::ObjectPtr reported;
    std::optional<PodRun> reported_run;
    std::optional<Time> exit_at;  // the containers' own exit (kubelet_exit.cc)
  };

  void OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void Enqueue(const store::ObjectName& key);
  void Drain();
  void Sync(const store::ObjectName& key);
  void SyncOnDeadNode(const store::ObjectName& key, PodEntry& entry, const store::ObjectPtr& object,
                      bool node_known);
  void SyncTermination(const store::ObjectName& key, PodEntry& entry, const Json& pod);
  void SyncRun(const store::ObjectName& key, PodEntry& entry, const store::ObjectPtr& object,
               const Json& node);
  // True when `pod` still shows the status entry.run last reported.
  static bool StatusIsReported(const PodEntry& entry, const store::StoredObject& pod);

  PodRun BeginRun(const Json& pod, const Json& node);
  // Timers: the next step of a run, checked against the entry's uid when they fire.
  void ScheduleStep(const store::ObjectName& key, PodEntry& entry, Time when);
  void Step(const store::ObjectName& key, const std::string& uid);
  void BecomeReady(const store::ObjectName& key, PodEntry& entry, const Json& pod);
  void Crash(const store::ObjectName& key, PodEntry& entry, const Json& pod);
  // kubelet_exit.cc: containers that exit on their own (kExitAfterSecondsAnnotation). Schedules
  // the exit of a run that just became Ready (true when the pod has one); at the step, exits
  // when it is due (true) and then ends the pod or restarts the container per restartPolicy.
  bool ScheduleExit(const store::ObjectName& key, PodEntry& entry, const Json& pod);
  bool ExitIfDue(const store::ObjectName& key, PodEntry& entry, const Json& pod);
  void CancelTimers(PodEntry& entry);

  void DeletePod(const store::ObjectName& key, PodEntry& entry);
  // The stored version after the write; `pod`'s own when `status` is already its status; null
  // when the write failed.
  store::ObjectPtr WriteStatus(const store::ObjectPtr& pod, Json status);

  const NodePoolSpec* PoolOf(const Json& node) const;
  Duration StartupTime(const Json& pod, const Json& node);
  std::string NextPodIp(const std::string& node);
  std::string HostIp(const Json& node) const;

  EventLoop* loop_;
  const client::LocalClient* client_;
  const ClusterSpec* spec_;
  Rng rng_;
  KubeletOptions options_;
  std::unique_ptr<client::Informer> pods_;
  std::unique_ptr<client::Informer> nodes_;
  std::map<store::ObjectName, PodEntry> entries_;
  std::set<store::ObjectName> dirty_;
  std::optional<TaskId> drain_task_;
  // Node name -> its kubelet's state: nullopt before the node reports a Ready condition.
  std::map<std::string, std::optional<bool>> node_ready_;
  std::set<std::string> deleted_nodes_;
  std::map<std::string, int> node_index_;  // order of first sight: the podIP's second octet
  std::map<std::string, std::uint32_t> ips_handed_;
  std::uint64_t pods_started_ = 0;
  bool stopped_ = false;
};

// Marks node `node` Ready (ready: Ready=True, reason KubeletReady) or unreachable (Ready=Unknown,
// reason NodeStatusUnknown, "Kubelet stopped posting node status.", the pressure conditions
// Unknown too) through the status subresource, then adds (with timeAdded `now`) or removes the
// node lifecycle controller's taints node.kubernetes.io/unreachable:NoSchedule and :NoExecute.
// Retries a few times on Conflict.
Status SetNodeReady(const client::LocalClient& client, const std::string& node, bool ready,
                    Time now);

// The node's Ready condition status: nullopt when it has none, else whether it is "True".
std::optional<bool> NodeReadyCondition(const Json& node);

}  // namespace lws::cluster
