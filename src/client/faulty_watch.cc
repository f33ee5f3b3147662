// FaultyClient's watches: the inner client's stream, delayed in order, and dropped on demand.
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "base/log.h"
#include "client/faulty_client.h"
#include "client/relist.h"

namespace lws::client {

// One stream: the inner subscription, the events waiting out their delays, and what the
// handler has been given (the objects a re-list must account for).
class FaultyWatch : public std::enable_shared_from_this<FaultyWatch> {
 public:
  FaultyWatch(std::shared_ptr<FaultyClient::State> state, const Client* inner, EventLoop* loop,
              Resource resource, std::string ns, WatchHandler handler)
      : state_(std::move(state)),
        inner_(inner),
        loop_(loop),
        resource_(std::move(resource)),
        ns_(resource_.namespaced ? std::move(ns) : ""),
        handler_(std::move(handler)) {}

  // Opens the inner stream: a synthetic ADDED for every object, then every change.
  Status Open() {
    std::weak_ptr<FaultyWatch> weak = weak_from_this();
    Result<std::unique_ptr<Subscription>> opened =
        inner_->Watch(loop_, resource_, ns_, [weak](const store::WatchEvent& event) {
          if (auto self = weak.lock()) self->Arrived({event});
        });
    if (!opened.ok()) return opened.status();
    stream_ = std::move(*opened);
    return Status::Ok();
  }

  // The stream ends: what is still in flight is lost. The re-list arrives as one batch (the
  // deletions it implies, then every listed object), so that no reconcile runs between its
  // DELETED events, which carry the list's resourceVersion, and the objects that bring the
  // cache up to that version. The inner stream then starts over from its own list, whose
  // objects the handler already has (an informer ignores a version it holds).
  void Drop() {
    if (stopped_) return;
    stream_.reset();
    Disarm();
    pending_.clear();
    ++state_->counts.dropped_streams;
    store::ListOptions options;
    options.namespace_ = ns_;
    Result<store::ListResult> listed = inner_->List(resource_, options);
    if (listed.ok()) {
      Arrived(
          RelistEvents(delivered_, listed->items, listed->resource_version, resource_.namespaced));
    }
    Status reopened = listed.ok() ? Open() : listed.status();
    if (!reopened.ok()) {
      Logger("client")->error("faulty watch of {}: cannot start over: {}", resource_.resource,
                              reopened.message());
    }
  }

  void Stop() {
    stopped_ = true;
    stream_.reset();
    Disarm();
    pending_.clear();
  }

 private:
  struct Pending {
    Time due;
    std::vector<store::WatchEvent> events;  // delivered in one task
  };

  // Events off the inner stream (one, or a re-list): delivered now, or queued behind the ones
  // still waiting.
  void Arrived(std::vector<store::WatchEvent> events) {
    if (stopped_ || events.empty()) return;
    const Time now = loop_->Now();
    Time due = now;
    const Duration delay_max = state_->faults.watch_delay_max;
    if (delay_max > Duration::zero()) {
      const auto max_ms = std::chrono::duration_cast<std::chrono::milliseconds>(delay_max).count();
      due += std::chrono::milliseconds(state_->watches.UniformInt(0, max_ms));
      ++state_->counts.delayed_events;
    }
    if (!pending_.empty()) due = std::max(due, pending_.back().due);  // a stream keeps its order
    if (pending_.empty() && due <= now) return Deliver(events);
    pending_.push_back({due, std::move(events)});
    Arm();
  }

  void Arm() {
    if (timer_ || pending_.empty()) return;
    std::weak_ptr<FaultyWatch> weak = weak_from_this();
    timer_ = loop_->At(pending_.front().due, [weak] {
      if (auto self = weak.lock()) self->Flush();
    });
  }

  void Disarm() {
    if (timer_) loop_->Cancel(*timer_);
    timer_.reset();
  }

  void Flush() {
    timer_.reset();
    while (!stopped_ && !pending_.empty() && pending_.front().due <= loop_->Now()) {
      std::vector<store::WatchEvent> events = std::move(pending_.front().events);
      pending_.pop_front();
      Deliver(events);
    }
    Arm();
  }

  void Deliver(const std::vector<store::WatchEvent>& events) {
    for (const store::WatchEvent& event : events) {
      if (stopped_) return;  // a handler stopped the watch
      store::ObjectName key = WatchKey(event.object->document(), resource_.namespaced);
      if (event.type == store::EventType::kDeleted) {
        delivered_.erase(key);
      } else {
        delivered_[std::move(key)] = event.object;
      }
      handler_(event);
    }
  }

  std::shared_ptr<FaultyClient::State> state_;
  const Client* inner_;
  EventLoop* loop_;
  const Resource resource_;
  const std::string ns_;
  WatchHandler handler_;
  std::unique_ptr<Subscription> stream_;
  std::deque<Pending> pending_;
  std::optional<TaskId> timer_;
  std::map<store::ObjectName, store::ObjectPtr> delivered_;
  bool stopped_ = false;
};

namespace {

class FaultySubscription final : public Subscription {
 public:
  explicit FaultySubscription(std::shared_ptr<FaultyWatch> watch) : watch_(std::move(watch)) {}
  ~FaultySubscription() override { Stop(); }
  void Stop() override { watch_->Stop(); }

 private:
  std::shared_ptr<FaultyWatch> watch_;
};

}  // namespace

Result<std::unique_ptr<Subscription>> FaultyClient::Watch(EventLoop* loop, const Resource& resource,
                                                          const std::string& ns,
                                                          WatchHandler handler) const {
  auto watch =
      std::make_shared<FaultyWatch>(state_, inner_, loop, resource, ns, std::move(handler));
  RETURN_IF_ERROR(watch->Open());
  std::vector<std::weak_ptr<FaultyWatch>>& open = state_->open;
  std::erase_if(open, [](const std::weak_ptr<FaultyWatch>& w) { return w.expired(); });
  open.push_back(watch);
  return std::unique_ptr<Subscription>(new FaultySubscription(std::move(watch)));
}

void FaultyClient::DropWatches() {
  // Copied first: a handler run by a drop may open or close watches.
  std::vector<std::shared_ptr<FaultyWatch>> live;
  for (const std::weak_ptr<FaultyWatch>& w : state_->open) {
    if (auto watch = w.lock()) live.push_back(std::move(watch));
  }
  for (const std::shared_ptr<FaultyWatch>& watch : live) watch->Drop();
}

}  // namespace lws::client
