// Reads and watches of LocalClient: straight from the store, delivered on an EventLoop.
#include <atomic>

#include "base/log.h"
#include "base/mutex.h"
#include "client/local/local_client.h"

namespace lws::client {

namespace {

constexpr std::size_t kDrainBatch = 512;  // events handled per loop task, so others interleave

// One watch: the store's Watcher, the handler, and the loop it is delivered on. Shared between
// the Subscription and the tasks posted to the loop, so a task that outlives Stop finds it.
class WatchState : public std::enable_shared_from_this<WatchState> {
 public:
  WatchState(EventLoop* loop, store::Store* store, api::ResourceInfo info, std::string ns,
             WatchHandler handler)
      : loop_(loop),
        store_(store),
        info_(std::move(info)),
        ns_(std::move(ns)),
        handler_(std::move(handler)) {}

  // Opens the store watch from `from_rv` (nullopt: a synthetic ADDED for every object first).
  Status Open(std::optional<std::uint64_t> from_rv) {
    store::WatchOptions options;
    options.namespace_ = ns_;
    options.resource_version = from_rv;
    std::weak_ptr<WatchState> weak = weak_from_this();
    options.notifier = [weak] {
      if (auto self = weak.lock()) self->Schedule();
    };
    Result<store::WatcherPtr> watcher = store_->Watch(info_, std::move(options));
    if (!watcher.ok()) return watcher.status();
    MutexLock lock(&mu_);
    watcher_ = *watcher;
    Schedule();  // events queued before the notifier was in place notified nobody
    return Status::Ok();
  }

  void Stop() {
    stopped_ = true;
    MutexLock lock(&mu_);
    if (watcher_) watcher_->Stop();
  }

 private:
  void Schedule() {
    if (stopped_ || scheduled_.exchange(true)) return;
    loop_->Post([self = shared_from_this()] { self->Drain(); });
  }

  void Drain() {
    scheduled_ = false;
    if (stopped_) return;
    store::WatcherPtr watcher;
    {
      MutexLock lock(&mu_);
      watcher = watcher_;
    }
    std::vector<store::WatchEvent> events;
    bool alive = watcher->Poll(&events, kDrainBatch);
    for (const store::WatchEvent& event : events) {
      if (stopped_) return;
      if (event.type == store::EventType::kError || event.type == store::EventType::kBookmark)
        continue;
      last_rv_ = event.object->resource_version();
      handler_(event);
    }
    if (!alive) return Reopen();
    if (events.size() == kDrainBatch) Schedule();
  }

  // The store ended the watch (this consumer fell too far behind): resume after the last event
  // handled, or from a fresh list when that is no longer in the store's history.
  void Reopen() {
    Logger("client")->warn("watch of {} ended by the store; resuming after resourceVersion {}",
                           info_.GroupResource(), last_rv_);
    Status resumed = Open(last_rv_);
    if (resumed.ok()) return;
    Logger("client")->warn("cannot resume the watch of {} ({}); re-listing", info_.GroupResource(),
                           resumed.message());
    Status relisted = Open(std::nullopt);
    if (!relisted.ok()) {
      Logger("client")->error("watch of {} lost: {}", info_.GroupResource(), relisted.message());
    }
  }

  EventLoop* loop_;
  store::Store* store_;
  const api::ResourceInfo info_;
  const std::string ns_;
  WatchHandler handler_;
  Mutex mu_;  // Open on the loop vs Stop from the owner
  store::WatcherPtr watcher_ GUARDED_BY(mu_);
  std::atomic<bool> scheduled_{false};
  std::atomic<bool> stopped_{false};
  std::uint64_t last_rv_ = 0;  // loop only
};

class StoreSubscription final : public Subscription {
 public:
  explicit StoreSubscription(std::shared_ptr<WatchState> state) : state_(std::move(state)) {}
  ~StoreSubscription() override { Stop(); }
  void Stop() override { state_->Stop(); }

 private:
  std::shared_ptr<WatchState> state_;
};

// The resource as the server serves it now.
Result<std::shared_ptr<const api::ResourceInfo>> Find(const apiserver::WritePort& server,
                                                      const Resource& resource) {
  auto info = server.Served(resource.group, resource.version, resource.resource);
  if (!info) {
    return Status::NotFound("the server could not find the requested resource (" +
                            resource.ApiVersion() + " " + resource.resource + ")");
  }
  return info;
}

}  // namespace

Result<store::ObjectPtr> LocalClient::Get(const Resource& resource, const std::string& ns,
                                          const std::string& name) const {
  ASSIGN_OR_RETURN(auto info, Find(*writes_, resource));
  return store_->Get(*info, resource.namespaced ? ns : "", name);
}

Result<store::ListResult> LocalClient::List(const Resource& resource,
                                            const store::ListOptions& options) const {
  ASSIGN_OR_RETURN(auto info, Find(*writes_, resource));
  return store_->List(*info, options);
}

Result<std::unique_ptr<Subscription>> LocalClient::Watch(EventLoop* loop, const Resource& resource,
                                                         const std::string& ns,
                                                         WatchHandler handler) const {
  ASSIGN_OR_RETURN(auto info, Find(*writes_, resource));
  auto state = std::make_shared<WatchState>(loop, store_, *info, ns, std::move(handler));
  Status opened = state->Open(std::nullopt);
  if (!opened.ok()) return opened;
  return std::unique_ptr<Subscription>(new StoreSubscription(std::move(state)));
}

}  // namespace lws::client
