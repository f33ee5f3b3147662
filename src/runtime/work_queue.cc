// The work queue's bookkeeping (work_queue.h): one KeyState per key that has anything pending,
// a posted loop task per queued run, a loop timer per delayed key.
#include "runtime/work_queue.h"

#include <algorithm>

#include "base/log.h"

namespace lws::runtime {

std::string KeyString(const Key& key) {
  return key.namespace_.empty() ? key.name : key.namespace_ + "/" + key.name;
}

WorkQueue::WorkQueue(EventLoop* loop, std::string name, Reconciler reconciler,
                     WorkQueueOptions options)
    : loop_(loop),
      name_(std::move(name)),
      reconciler_(std::move(reconciler)),
      options_(options),
      alive_(std::make_shared<char>(0)) {
  if (options_.workers > 0) pool_ = std::make_unique<WorkerPool>(options_.workers, name_);
}

WorkQueue::~WorkQueue() { Stop(); }

void WorkQueue::Add(const Key& key) {
  if (stopped_) return;
  PruneRecent();
  KeyState& state = states_[key];
  if (state.running) {
    state.dirty = true;
    return;
  }
  if (state.queued) return;
  if (options_.min_interval > Duration::zero() && state.last_run) {
    Time earliest = *state.last_run + options_.min_interval;
    if (loop_->Now() < earliest) return AddAfter(key, earliest - loop_->Now());
  }
  state.queued = true;
  if (options_.observer != nullptr) options_.observer->Added(key, loop_->Now());
  if (!ready_) {
    held_.push_back(key);
    return;
  }
  Post(key);
}

void WorkQueue::AddAfter(const Key& key, Duration delay) {
  if (stopped_) return;
  if (delay <= Duration::zero()) return Add(key);
  KeyState& state = states_[key];
  Time when = loop_->Now() + delay;
  if (state.timer != 0) {
    if (state.timer_at <= when) return;  // an earlier run is already due
    loop_->Cancel(state.timer);
  }
  std::weak_ptr<char> alive = alive_;
  state.timer_at = when;
  state.timer = loop_->At(when, [this, alive, key] {
    if (alive.expired()) return;
    auto it = states_.find(key);
    if (it != states_.end()) it->second.timer = 0;
    Add(key);
  });
}

void WorkQueue::SetReady(bool ready) {
  if (stopped_ || ready_ == ready) return;
  ready_ = ready;
  if (!ready_) return;
  // Held keys run in the order they were first added.
  std::deque<Key> held = std::move(held_);
  held_.clear();
  for (const Key& key : held) Post(key);
}

void WorkQueue::Stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& [key, state] : states_) {
    if (state.timer != 0) loop_->Cancel(state.timer);
  }
  states_.clear();
  held_.clear();
  recent_.clear();
  alive_.reset();
  if (pool_ != nullptr) pool_->Stop();  // the reconciles running finish; their results are dropped
}

Duration WorkQueue::NextBackoff(const Key& key) const {
  auto it = states_.find(key);
  int failures = it == states_.end() ? 0 : it->second.failures;
  // Doubling in a loop, stopping at the cap, cannot overflow however many failures there were.
  Duration delay = options_.base_delay;
  for (int i = 0; i < failures && delay < options_.max_delay; ++i) delay *= 2;
  return std::min(delay, options_.max_delay);
}

std::size_t WorkQueue::pending() const {
  return static_cast<std::size_t>(std::count_if(
      states_.begin(), states_.end(),
      [](const auto& entry) { return entry.second.queued || entry.second.timer != 0; }));
}

void WorkQueue::Post(const Key& key) {
  std::weak_ptr<char> alive = alive_;
  loop_->Post([this, alive, key] {
    if (alive.expired()) return;
    Run(key);
  });
}

void WorkQueue::Run(const Key& key) {
  auto it = states_.find(key);
  if (it == states_.end() || !it->second.queued) return;
  if (!ready_) {  // the gate closed again after this run was posted
    held_.push_back(key);
    return;
  }
  it->second.queued = false;
  it->second.running = true;
  it->second.last_run = loop_->Now();
  if (options_.min_interval > Duration::zero()) recent_.emplace_back(loop_->Now(), key);
  ++runs_;
  WorkQueueObserver* const observer = options_.observer;
  const Time started = observer != nullptr ? loop_->Now() : Time{};
  if (observer != nullptr) observer->Started(key, started);
  if (pool_ != nullptr) return Dispatch(key, started);
  std::weak_ptr<char> alive = alive_;
  ReconcileResult result = reconciler_(key);
  // The observer outlives the queue, so it hears the outcome even of a run that stopped it.
  if (observer != nullptr) observer->Finished(key, result, started, loop_->Now());
  if (alive.expired()) return;  // the reconciler stopped (or destroyed) the queue
  // std::map keeps references valid, and nothing erases a running key's state.
  Finish(key, states_[key], result);
}

void WorkQueue::Dispatch(const Key& key, Time started) {
  std::weak_ptr<char> alive = alive_;
  pool_->Submit([this, alive, key, started] {
    ReconcileResult result;
    {
      std::optional<ConcurrentReads::Reader> reader;
      if (options_.reads != nullptr) reader.emplace(options_.reads);
      result = reconciler_(key);
    }
    // The loop and the observer outlive the queue; the queue itself may be gone by then.
    EventLoop* loop = loop_;
    WorkQueueObserver* observer = options_.observer;
    loop->Post([this, alive, loop, observer, key, result = std::move(result), started] {
      if (observer != nullptr) observer->Finished(key, result, started, loop->Now());
      if (alive.expired()) return;
      Finish(key, states_[key], result);
    });
  });
}

void WorkQueue::Finish(const Key& key, KeyState& state, const ReconcileResult& result) {
  state.running = false;
  if (result.status.ok()) {
    state.failures = 0;  // Forget: the next failure starts from base_delay again
    if (result.requeue_after) {
      if (options_.observer != nullptr) options_.observer->Requeued(key, *result.requeue_after);
      AddAfter(key, *result.requeue_after);
    }
  } else {
    Duration delay = NextBackoff(key);
    if (options_.observer != nullptr) options_.observer->Requeued(key, delay);
    ++state.failures;
    ++failures_;
    Logger(name_)->warn("{}: reconcile failed (retry in {} ms): {}", KeyString(key),
                        std::chrono::duration_cast<std::chrono::milliseconds>(delay).count(),
                        result.status.ToString());
    AddAfter(key, delay);
  }
  if (state.dirty) {
    state.dirty = false;
    Add(key);
  }
  MaybeForget(key);
}

void WorkQueue::MaybeForget(const Key& key) {
  auto it = states_.find(key);
  if (it == states_.end()) return;
  const KeyState& state = it->second;
  if (state.queued || state.running || state.dirty || state.timer != 0 || state.failures != 0)
    return;
  // The last run time matters while the throttle interval lasts.
  if (options_.min_interval > Duration::zero() && state.last_run &&
      loop_->Now() < *state.last_run + options_.min_interval) {
    return;
  }
  states_.erase(it);
}

void WorkQueue::PruneRecent() {
  Time now = loop_->Now();
  while (!recent_.empty() && recent_.front().first + options_.min_interval <= now) {
    Key key = std::move(recent_.front().second);
    recent_.pop_front();
    MaybeForget(key);
  }
}

}  // namespace lws::runtime
