// File: runtime/work_queue.h
//
// The work queue every controller runs its reconciles from: what controller-runtime builds out of
// client-go's workqueue (a de-duplicating FIFO, a delaying queue and a per-item exponential
// rate limiter), reduced to one single-threaded EventLoop.
//
// A controller never reconciles from an informer handler directly. Handlers Add the key of the
// object that should be looked at; the queue keeps at most one pending run per key, so a burst
// of a hundred pod events for one LeaderWorkerSet makes one reconcile, not a hundred. A
// reconcile says what should happen next through its ReconcileResult: nothing, run again after a
// delay (a status that waits on time, e.g. a rolling update's next step), or an error, which is
// retried with a per-key exponential backoff (controller-runtime's defaults: 5 ms doubling up to
// 1000 s) and reset by the next success.
//
// Keys added while their own reconcile runs (the reconciler, or something it calls, Adds it)
// run once more afterwards: the run in flight may have read the state before the change.
//
// Start-up gate. A controller that reconciled before its informers delivered the objects that
// already exist would see an empty world and, for example, create every StatefulSet again.
// Runs are therefore held, and remembered, until SetReady(true) (runtime/start_gate.h says when).
//
// Throttle. With `min_interval`, a key runs at most that often; changes arriving meanwhile share
// one run at the end of the interval (re-planning a large group on every pod event would cost
// more than the work itself).
//
// Observer. WorkQueueOptions::observer, when set, hears every add, run and outcome with the
// loop's time (the operator's Prometheus metrics implement it, operator/controller_metrics.h);
// without one the queue does no extra work, not even a clock read.
//
// Determinism: runs are loop tasks, so they follow the loop's (time, sequence) order; keys due at
// the same instant run in the order they were added. The queue reads time only from the loop.
//
// Workers. By default a reconcile runs as a loop task, one at a time: what simulations and
// `lws up` need (one thread, DESIGN.md 2.3). With WorkQueueOptions::workers = N (the operator,
// on a RealEventLoop), reconciles run on N threads of a WorkerPool while the bookkeeping above
// stays on the loop: a key is handed to a worker only when it is not running, an Add meanwhile
// marks it dirty, and the worker posts the result back to the loop. So one key is never
// reconciled twice at once (client-go's "processing" set), different keys overlap their API
// calls, and a reconcile reads the caches through WorkQueueOptions::reads
// (runtime/concurrent_reads.h), which it holds a Reader of while it runs.
//
// Threading: loop only (constructor and SetReady may be called before the loop runs). With
// workers, Stop must not be called from a reconcile: it waits for the running ones to finish.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "base/event_loop.h"
#include "base/status.h"
#include "base/worker_pool.h"
#include "runtime/concurrent_reads.h"
#include "store/object.h"

namespace lws::runtime {

// What a controller reconciles: the (namespace, name) of its primary object.
using Key = store::ObjectName;

// "ns/name", or "name" for cluster-scoped keys: how keys appear in logs.
std::string KeyString(const Key& key);

struct ReconcileResult {
  Status status;                          // non-OK: run again after the key's backoff
  std::optional<Duration> requeue_after;  // OK and set: run again after this delay

  static ReconcileResult Done() { return {}; }
  static ReconcileResult After(Duration d) { return {Status::Ok(), d}; }
  static ReconcileResult Error(Status s) { return {std::move(s), std::nullopt}; }
};

// What a queue reports to whoever measures it, as client-go's workqueue metrics and
// controller-runtime's reconcile metrics see it. Called on the loop, one call at a time;
// `now` is the loop's time.
class WorkQueueObserver {
 public:
  virtual ~WorkQueueObserver() = default;
  // The key became pending (an Add not folded into a run already pending): adds and depth.
  virtual void Added(const Key& key, Time now) = 0;
  // Its reconcile starts: depth drops, the time since Added is the queue latency.
  virtual void Started(const Key& key, Time now) = 0;
  // Its reconcile returned `result`; `now - started` is the work duration.
  virtual void Finished(const Key& key, const ReconcileResult& result, Time started, Time now) = 0;
  // A failed or requeue-after run is scheduled again after `delay`: a retry.
  virtual void Requeued(const Key& key, Duration delay) = 0;
};

struct WorkQueueOptions {
  Duration base_delay = std::chrono::milliseconds(5);  // controller-runtime's defaults
  Duration max_delay = std::chrono::seconds(1000);
  Duration min_interval{0};  // a key runs at most this often (changes meanwhile share one run)
  WorkQueueObserver* observer = nullptr;  // not owned; must outlive the queue
  std::size_t workers = 0;           // 0: reconciles run on the loop; N: on N threads (see above)
  ConcurrentReads* reads = nullptr;  // with workers: what reconciles read under; not owned
};

class WorkQueue {
 public:
  using Reconciler = std::function<ReconcileResult(const Key&)>;

  // `name` names the logger and log lines ("leaderworkerset", "pod-group").
  // REQUIRES: loop outlives the queue.
  WorkQueue(EventLoop* loop, std::string name, Reconciler reconciler,
            WorkQueueOptions options = {});
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Runs `key` soon: at most one pending run per key (de-duplicated).
  void Add(const Key& key);
  // Runs `key` after `delay`; of several pending times for a key the earliest wins.
  void AddAfter(const Key& key, Duration delay);
  // Start-up gate: while not ready, runs are held (but remembered, in order) until ready.
  void SetReady(bool ready);
  // Drops pending work and timers; tasks already posted to the loop become no-ops, and later
  // Adds are ignored. Safe to call from inside a reconcile.
  void Stop();

  // The backoff the key's next failure would wait (base_delay * 2^failures, capped).
  Duration NextBackoff(const Key& key) const;

  bool ready() const { return ready_; }
  // Keys with a run queued (posted or held) or a timer set.
  std::size_t pending() const;
  std::uint64_t runs() const { return runs_; }
  std::uint64_t failures() const { return failures_; }
  const std::string& name() const { return name_; }

 private:
  struct KeyState {
    bool queued = false;   // a run is posted to the loop or held by the gate
    bool running = false;  // its reconcile is on the stack now
    bool dirty = false;    // added while running: run again afterwards
    TaskId timer = 0;      // a delayed Add, 0 when none
    Time timer_at{};
    int failures = 0;  // consecutive failures, for the backoff
    std::optional<Time> last_run;
  };

  void Post(const Key& key);
  void Run(const Key& key);
  // Runs the reconcile on a worker; its result comes back to the loop.
  void Dispatch(const Key& key, Time started);
  void Finish(const Key& key, KeyState& state, const ReconcileResult& result);
  // Drops the key's state when nothing about it needs remembering.
  void MaybeForget(const Key& key);
  // Forgets the last-run times older than min_interval (amortised O(1) per run).
  void PruneRecent();

  EventLoop* const loop_;
  const std::string name_;
  const Reconciler reconciler_;
  const WorkQueueOptions options_;
  std::map<Key, KeyState> states_;
  std::deque<Key> held_;  // queued while not ready, in Add order
  // With min_interval: the runs whose time still throttles their key, oldest first.
  std::deque<std::pair<Time, Key>> recent_;
  bool ready_ = false;
  bool stopped_ = false;
  // Posted tasks hold a weak pointer: they do nothing once the queue is stopped or destroyed.
  std::shared_ptr<char> alive_;
  std::unique_ptr<WorkerPool> pool_;  // with workers only
  std::uint64_t runs_ = 0;
  std::uint64_t failures_ = 0;
};

}  // namespace lws::runtime
