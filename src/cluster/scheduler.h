// File: cluster/scheduler.h
//
// The simulated kube-scheduler: the I/O around the pure decision core (scheduler_plan.h).
// Informers on pods and nodes feed a cache of nodes and of the pods that hold resources on them
// (scheduler_cache.h) and a queue of the pods waiting for this scheduler: spec.nodeName empty,
// no deletionTimestamp, spec.schedulerName ours. One loop task at a time pops a batch of pods in
// arrival order and, for each:
//   - fits: binds it (POST pods/<name>/binding), counts it on its node at once (an "assumed"
//     pod, so the next pod of the batch sees the GPUs taken before the informer catches up) and
//     records a Normal "Scheduled" event "Successfully assigned <ns>/<pod> to <node>";
//   - does not fit: records a Warning "FailedScheduling" event with the core's message (the
//     recorder folds repeats), sets the pod's PodScheduled condition to False with the core's
//     reason ("Unschedulable") and message through the status subresource, as upstream's
//     updatePod does (lastProbeTime null, lastTransitionTime kept while the status stays False;
//     no write at all when status, reason and message are unchanged), and parks the pod.
// Parked pods go back to the queue when a node appears or changes in a way that matters (labels,
// spec, allocatable, condition statuses), when a bound pod is deleted or finishes (resources
// free up), when the parked pod's own spec or labels change, and after `unschedulable_retry`
// (upstream's periodic flush of unschedulable pods, shortened).
//
// A binding answered with Conflict (bound by someone else, or being deleted) or NotFound drops
// the pod from the queue: the informer tells what happened. Other binding errors park it with
// reason SchedulerError, as upstream's binding-cycle failure does.
//
// Priority and preemption (scheduler_preemption.h): the queue pops the pod of highest
// spec.priority first, then the first arrived (PrioritySort). A pod that fits nowhere but would
// fit once pods of lower priority are gone is nominated on that node (status.nominatedNodeName),
// the victims get the DisruptionTarget condition (reason PreemptionByScheduler), a Normal
// "Preempted" event, and are deleted; the pod is parked and tried again when they are gone,
// while its nomination keeps pods of lower or equal priority off the room it needs. Nominations
// of pods of lower priority on that node are cleared, as upstream does.
//
// Left out (see scheduler_plan.h for the filters): the backoff queue (a failed pod waits for an
// event or the retry period, never a per-pod exponential delay), QueueingHints (every relevant
// event re-queues every parked pod), and PodDisruptionBudgets in the choice of victims.
//
// Threading: the loop only; Start may be called before the loop runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/event_loop.h"
#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "cluster/scheduler_cache.h"

namespace lws::cluster {

struct SchedulerOptions {
  std::string scheduler_name = "default-scheduler";
  // How long a parked pod waits, without any event, before it is tried again (upstream's
  // podMaxInUnschedulablePodsDuration, 5 minutes, shortened).
  Duration unschedulable_retry = std::chrono::seconds(10);
  // Volcano's gang scheduling (scheduler_gang.h): a pod whose scheduling.k8s.io/group-name
  // annotation names a PodGroup is placed together with its group, all or nothing; `lws up`
  // runs such a scheduler as "volcano" when the cluster file asks for gang scheduling.
  bool gang = false;
};

// The annotation naming a pod's Volcano PodGroup.
inline constexpr std::string_view kGroupNameAnnotation = "scheduling.k8s.io/group-name";

class Scheduler {
 public:
  // `client` writes as field manager "default-scheduler". REQUIRES: loop and client outlive
  // the scheduler.
  Scheduler(EventLoop* loop, const client::LocalClient* client, SchedulerOptions options = {});
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Starts the informers on nodes and pods; scheduling begins as their objects arrive.
  Status Start();
  // Stops the informers and cancels pending work. Pods already bound stay bound.
  void Stop();

  std::uint64_t bindings() const { return bindings_; }  // successful bindings
  std::uint64_t attempts() const { return attempts_; }  // scheduling attempts (fit or not)
  // PodScheduled=False patches written (a repeat of an unchanged condition writes nothing).
  std::uint64_t condition_writes() const { return condition_writes_; }
  std::uint64_t preemptions() const { return preemptions_; }  // pods evicted as victims

 private:
  // Queue order: the highest spec.priority first, then the first seen (PrioritySort).
  using QueueKey = std::pair<std::int64_t, std::uint64_t>;  // (-priority, arrival)
  struct Pending {
    QueueKey order{0, 0};
    bool parked = false;
    Time parked_at;
    // The PodScheduled=False condition this scheduler last wrote, and the resourceVersion the
    // write produced: until the informer shows that version, the informer's copy is stale.
    std::string written_reason;
    std::string written_message;
    std::string written_transition;
    std::uint64_t written_rv = 0;
  };

  void OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void OnBoundPod(const store::ObjectName& key, const store::ObjectPtr& now);
  bool WantsToSchedule(const api::Json& pod) const;

  // Queues `pod` (the informer's object, which gives its priority).
  void Enqueue(const store::ObjectName& key, const api::Json& pod);
  void Activate(const store::ObjectName& key, Pending& pending);
  void Forget(const store::ObjectName& key);
  void RequeueParked();
  void Kick();
  void RunBatch();
  void ScheduleOne(const store::ObjectName& key);
  void BindTo(const store::ObjectName& key, const store::ObjectPtr& current, const api::Pod& pod,
              const std::string& node);
  // Gang mode (scheduler_gang_cycle.cc): places `pod`'s whole PodGroup, or parks it.
  void ScheduleGang(const api::Pod& pod);
  // The PodGroup's status.phase and Unschedulable condition, written when they change, and a
  // Warning Unschedulable event on it while it cannot run.
  void UpdatePodGroup(const store::ObjectPtr& group, bool running, const std::string& reason,
                      const std::string& message);
  void Park(const store::ObjectName& key, const store::ObjectPtr& pod, const std::string& reason,
            const std::string& message);
  // Preemption's I/O (scheduler_preempt_cycle.cc): nominates `pod` on `result.nominated_node`,
  // evicts the victims, and parks it.
  void Nominate(const store::ObjectName& key, const store::ObjectPtr& current, const api::Pod& pod,
                const ScheduleResult& result);
  void EvictVictim(const api::Pod& victim, const api::Pod& preemptor, const std::string& node);
  // Writes status.nominatedNodeName (null clears it).
  void WriteNomination(const store::ObjectName& key, const api::Json& node);
  // The pods this scheduler nominated, by node, for the filters; null when there are none.
  const NominatedPods* Nominations();
  void WriteCondition(const store::ObjectPtr& pod, Pending& pending, const std::string& reason,
                      const std::string& message);
  void ArmRetry();
  void OnRetry();

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  const SchedulerOptions options_;
  client::EventRecorder recorder_;
  client::EventRecorder gang_recorder_;  // Volcano records on PodGroups through core/v1
  client::Informer nodes_;
  client::Informer pods_;
  SchedulerCache cache_;
  std::size_t next_start_ = 0;  // where the next attempt's node search begins (NodeSearch)

  std::map<store::ObjectName, Pending> pending_;
  std::map<QueueKey, store::ObjectName> active_;
  // The pods nominated on a node, until they are bound or gone: (node, pod).
  std::map<store::ObjectName, std::pair<std::string, std::shared_ptr<const api::Pod>>> nominated_;
  NominatedPods nominations_;  // nominated_ by node, rebuilt when it changes
  bool nominations_stale_ = false;
  std::uint64_t next_arrival_ = 1;
  TaskId batch_task_ = 0;
  TaskId retry_task_ = 0;
  bool running_ = false;

  std::uint64_t bindings_ = 0;
  std::uint64_t attempts_ = 0;
  std::uint64_t condition_writes_ = 0;
  std::uint64_t preemptions_ = 0;
};

}  // namespace lws::cluster
