// Store::Watch, Store::Changes and Store::SendBookmarks: starting a watch (initial state,
// resumption from the history), the change feed of all resources, and periodic bookmarks. Live
// fan-out is Store::Publish in store.cc.
#include "store/run_locked.h"
#include "store/store.h"

namespace lws::store {

namespace {

constexpr const char* kInitialEventsEnd = "k8s.io/initial-events-end";

ObjectPtr Bookmark(const api::ResourceInfo& info, std::uint64_t rv, bool initial_events_end) {
  Json json = {
      {"kind", info.kind}, {"apiVersion", info.ApiVersion()}, {"metadata", Json::object()}};
  if (initial_events_end) json["metadata"]["annotations"] = {{kInitialEventsEnd, "true"}};
  return MakeStoredObject(std::move(json), rv);
}

// The ResourceInfo a watcher keeps: what selectors and bookmarks need, without the (possibly
// large) OpenAPI schema and printer columns.
api::ResourceInfo SlimInfo(const api::ResourceInfo& info) {
  api::ResourceInfo slim = info;
  slim.openapi_schema = nullptr;
  slim.printer_columns.clear();
  return slim;
}

// 410 for a reader that wants the changes after `rv` when the history starts after `floor`.
Status TooOld(std::uint64_t rv, std::uint64_t floor) {
  return Status::Gone("too old resource version: " + std::to_string(rv) + " (" +
                      std::to_string(floor) + ")");
}

}  // namespace

Result<WatcherPtr> Store::Watch(const api::ResourceInfo& info, WatchOptions options) {
  RETURN_IF_ERROR(ValidateFieldSelector(info, options.field_selector));
  return internal::RunLocked(mu_,
                             [&]() REQUIRES(mu_) { return WatchLocked(info, std::move(options)); });
}

Result<WatcherPtr> Store::WatchLocked(const api::ResourceInfo& info, WatchOptions options) {
  const std::uint64_t from = options.resource_version.value_or(0);
  const bool initial_state = options.send_initial_events || from == 0;
  if (!initial_state && from < history_.floor()) return TooOld(from, history_.floor());
  Watcher::Filter filter{SlimInfo(info),
                         info.namespaced ? options.namespace_ : std::string(),
                         std::move(options.label_selector),
                         std::move(options.field_selector),
                         options.allow_bookmarks,
                         initial_state ? rv_ : from};
  auto watcher = std::make_shared<Watcher>(std::move(filter), options_.watch_queue_size,
                                           std::move(options.notifier));
  const std::string gr = info.GroupResource();
  if (initial_state) {
    if (auto it = objects_.find(gr); it != objects_.end()) {
      const std::string& ns = watcher->filter().namespace_;
      for (auto o = it->second.lower_bound(ObjectName{ns, ""});
           o != it->second.end() && (ns.empty() || o->first.namespace_ == ns); ++o) {
        if (watcher->Matches(*o->second)) watcher->PushInitial({EventType::kAdded, o->second});
      }
    }
    if (options.send_initial_events) {
      watcher->PushInitial({EventType::kBookmark, Bookmark(info, rv_, true)});
    }
  } else {
    const auto& events = history_.events();
    for (std::size_t i = history_.FirstAfter(from); i < events.size(); ++i) {
      if (events[i].group_resource != gr) continue;
      if (auto seen = EventFor(events[i], *watcher)) watcher->PushInitial(std::move(*seen));
    }
  }
  auto& list = watchers_[gr];
  // Watchers of resources that are never written are pruned here rather than in Publish.
  std::erase_if(list, [](const WatcherPtr& w) { return w->ended(); });
  list.push_back(watcher);
  return watcher;
}

Result<ChangeLog> Store::Changes(std::uint64_t after) const {
  return internal::RunLocked(mu_, [&]() REQUIRES(mu_) -> Result<ChangeLog> {
    ChangeLog log;
    log.resource_version = rv_;
    if (after == 0) {
      for (const auto& [gr, objects] : objects_) {
        for (const auto& [name, object] : objects) {
          log.changes.push_back({EventType::kAdded, gr, object});
        }
      }
      return log;
    }
    if (after < history_.floor()) return TooOld(after, history_.floor());
    const auto& events = history_.events();
    for (std::size_t i = history_.FirstAfter(after); i < events.size(); ++i) {
      log.changes.push_back({events[i].type, events[i].group_resource, events[i].object});
    }
    return log;
  });
}

void Store::SendBookmarks() {
  Notifications notes;
  {
    MutexLock lock(&mu_);
    for (auto& [gr, list] : watchers_) {
      std::map<std::string, ObjectPtr> by_version;  // shared by the resource's watchers
      for (const auto& w : list) {
        if (!w->filter().allow_bookmarks || w->ended()) continue;
        ObjectPtr& bookmark = by_version[w->filter().info.version];
        if (!bookmark) bookmark = Bookmark(w->filter().info, rv_, false);
        if (w->Push({EventType::kBookmark, bookmark})) notes.Add(w);
      }
    }
  }
  notes.Run();
}

}  // namespace lws::store
