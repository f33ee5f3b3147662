// File: client/rest/rest_watch.cc
#include "client/rest/rest_watch.h"

#include <atomic>
#include <thread>

#include "api/go_duration.h"
#include "base/log.h"
#include "base/mutex.h"
#include "base/rng.h"
#include "client/client.h"
#include "client/relist.h"
#include "client/rest/http_url.h"
#include "client/rest/rest_client.h"
#include "client/rest/rest_decode.h"
#include "client/rest/watch_decoder.h"

namespace lws::rest {
namespace {

using store::EventType;
using store::WatchEvent;

// A stream that ends sooner than this without an event was not a watch timing out.
constexpr auto kBriefStream = std::chrono::seconds(1);

class RestWatch : public std::enable_shared_from_this<RestWatch> {
 public:
  RestWatch(const RestClient* client, EventLoop* loop, client::Resource resource, std::string ns,
            client::WatchHandler handler)
      : client_(client),
        loop_(loop),
        resource_(std::move(resource)),
        ns_(resource_.namespaced ? std::move(ns) : ""),
        handler_(std::move(handler)),
        rng_(Rng(client->options().seed).Derive("rest-watch " + resource_.Path(ns_))) {}

  // Lists, queues an ADDED per object and starts the watch thread. Runs before the watch is
  // handed out, so no Stop can race the write of thread_: it is made without thread_mu_.
  Status Begin() NO_THREAD_SAFETY_ANALYSIS {
    ASSIGN_OR_RETURN(store::ListResult list, ListAll());
    Adopt(list, client::RelistEvents({}, list.items, list.resource_version, resource_.namespaced));
    thread_ = std::thread([this] { Run(); });
    return Status::Ok();
  }

  void Stop() {
    stopped_ = true;
    cancel_.Cancel();
    {
      MutexLock lock(&thread_mu_);
      if (thread_.joinable()) thread_.join();
    }
    // A handler running on another thread finishes before Stop returns; later ones see stopped_.
    if (delivering_.load() != std::this_thread::get_id()) {
      MutexLock wait(&deliver_mu_);
    }
  }

 private:
  // kSilent: the server ended the stream without sending anything (not even a bookmark).
  enum class Outcome { kEnded, kSilent, kFailed, kGone };

  std::string What() const {
    std::string what = "watch of " + resource_.resource;
    if (!resource_.group.empty()) what += "." + resource_.group;
    return ns_.empty() ? what : what + " in namespace " + ns_;
  }

  void Run() {
    while (!stopped_) {
      std::string failure;
      Outcome outcome = WatchOnce(&failure);
      if (stopped_) return;
      const bool failed = outcome == Outcome::kFailed || outcome == Outcome::kSilent;
      if (failed && !Backoff(failure, "resuming from resourceVersion " + std::to_string(rv_),
                             /*quiet=*/outcome == Outcome::kSilent)) {
        return;
      }
      if (outcome != Outcome::kGone) continue;
      Logger("rest")->warn("{}: resourceVersion {} is too old (410 Gone); listing again", What(),
                           rv_);
      while (!stopped_) {
        Status relisted = Relist();
        if (relisted.ok()) break;
        if (!Backoff("list failed: " + relisted.message(), "listing again")) return;
      }
    }
  }

  // One watch request from rv_, until the server ends it or it fails.
  Outcome WatchOnce(std::string* failure) {
    const auto timeout = std::chrono::duration_cast<std::chrono::seconds>(
        client_->options().watch_timeout_min * (1 + rng_.UniformDouble()));
    const RestRequest request{"GET", resource_.Path(ns_),
                              QueryString({{"watch", "1"},
                                           {"resourceVersion", std::to_string(rv_)},
                                           {"allowWatchBookmarks", "true"},
                                           {"timeoutSeconds", std::to_string(timeout.count())}})};
    bool gone = false;
    bool received = false;
    Status error;
    auto on_object = [&](std::string_view text) {
      Result<DecodedWatchEvent> event = DecodeWatchEvent(text);
      if (!event.ok()) {
        error = event.status();
        return false;
      }
      if (event->type == EventType::kError) {
        gone = event->error_code == 410;
        error = client::StatusFromAnswer(event->error_code, event->object);
        return false;
      }
      received = true;
      Accept(std::move(*event));
      return true;
    };
    const auto opened = MonotonicNow();
    Result<HttpAnswer> answer = client_->Stream(request, on_object, &cancel_);
    const bool brief = MonotonicNow() - opened < kBriefStream;
    if (!answer.ok()) {
      error = answer.status();
    } else if (answer->status == 410) {
      gone = true;
    } else if (answer->status < 200 || answer->status >= 300) {
      error = DecodeAnswer(*answer, "GET", client_->config().server + request.path).status();
    }
    if (gone) return Outcome::kGone;
    if (received) failures_ = 0;
    if (!error.ok()) {
      *failure = "stream failed: " + error.message();
      return Outcome::kFailed;
    }
    // Ended without a word. A quiet resource's watch that timed out resumes at once; one that
    // ended at once (a proxy closing watches) must not make this loop spin: it waits as after a
    // failure, quietly.
    if (received || !brief) {
      failures_ = 0;
      return Outcome::kEnded;
    }
    *failure = "stream ended at once without events";
    return Outcome::kSilent;
  }

  // Keeps track of one event from the stream and queues it for the handler (bookmarks only
  // move the resume position).
  void Accept(DecodedWatchEvent event) {
    rv_ = event.resource_version;
    if (event.type == EventType::kBookmark) return;
    Result<store::ObjectPtr> stored = client::AnswerObject(std::move(event.object));
    if (!stored.ok()) return;  // DecodeWatchEvent checked what AnswerObject needs
    store::ObjectName key = client::WatchKey((*stored)->document(), resource_.namespaced);
    if (event.type == EventType::kDeleted) {
      known_.erase(key);
    } else {
      known_[key] = *stored;
    }
    Enqueue({WatchEvent{event.type, std::move(*stored)}});
  }

  Status Relist() {
    ASSIGN_OR_RETURN(store::ListResult list, ListAll());
    Adopt(list,
          client::RelistEvents(known_, list.items, list.resource_version, resource_.namespaced));
    return Status::Ok();
  }

  void Adopt(const store::ListResult& list, std::vector<WatchEvent> events) {
    known_.clear();
    for (const store::ObjectPtr& object : list.items)
      known_[client::WatchKey(object->document(), resource_.namespaced)] = object;
    rv_ = list.resource_version;
    Enqueue(std::move(events));
  }

  // Every page of the list, at the first page's resourceVersion. When the pages' snapshot
  // expires half way (410), one unpaginated list instead, as client-go's pager does.
  Result<store::ListResult> ListAll() {
    store::ListOptions options;
    options.namespace_ = ns_;
    options.limit = client_->options().watch_list_page_size;
    store::ListResult all;
    for (;;) {
      Result<store::ListResult> page = client_->List(resource_, options, &cancel_);
      if (!page.ok() && page.status().code() == Code::kGone && !options.continue_token.empty()) {
        options.limit = 0;
        options.continue_token.clear();
        all = {};
        continue;
      }
      if (!page.ok()) return page.status();
      if (all.items.empty() && options.continue_token.empty())
        all.resource_version = page->resource_version;
      for (store::ObjectPtr& item : page->items) all.items.push_back(std::move(item));
      if (page->continue_token.empty()) return all;
      options.continue_token = page->continue_token;
    }
  }

  // Logs `failure` (at debug level when `quiet`), then waits out the backoff; false when
  // stopped meanwhile.
  bool Backoff(const std::string& failure, const std::string& then, bool quiet = false) {
    const Duration base = client_->options().watch_backoff_base;
    const Duration cap = client_->options().watch_backoff_cap;
    Duration delay = base;
    for (int i = 0; i < failures_ && delay < cap; ++i) delay *= 2;
    delay = std::min(delay, cap);
    ++failures_;
    Logger("rest")->log(quiet ? spdlog::level::debug : spdlog::level::warn, "{}: {}; {} in {}",
                        What(), failure, then, api::FormatGoDuration(delay));
    return cancel_.WaitFor(delay);
  }

  void Enqueue(std::vector<WatchEvent> events) {
    if (events.empty()) return;
    MutexLock lock(&mu_);
    for (WatchEvent& event : events) pending_.push_back(std::move(event));
    if (scheduled_) return;
    scheduled_ = true;
    loop_->Post([self = shared_from_this()] { self->Drain(); });
  }

  void Drain() {
    std::vector<WatchEvent> events;
    {
      MutexLock lock(&mu_);
      events.swap(pending_);
      scheduled_ = false;
    }
    MutexLock delivering(&deliver_mu_);
    delivering_ = std::this_thread::get_id();
    for (const WatchEvent& event : events) {
      if (stopped_) break;
      handler_(event);
    }
    delivering_ = std::thread::id();
  }

  const RestClient* client_;
  EventLoop* loop_;
  const client::Resource resource_;
  const std::string ns_;
  const client::WatchHandler handler_;
  CancelToken cancel_;
  std::atomic<bool> stopped_{false};

  // The watch thread's own state (Begin runs before the thread starts).
  Rng rng_;
  std::map<store::ObjectName, store::ObjectPtr> known_;
  std::uint64_t rv_ = 0;
  int failures_ = 0;  // in a row, for the backoff
  Mutex thread_mu_;
  std::thread thread_ GUARDED_BY(thread_mu_);  // Begin writes it before the watch is shared

  Mutex mu_;
  std::vector<WatchEvent> pending_ GUARDED_BY(mu_);
  bool scheduled_ GUARDED_BY(mu_) = false;  // a Drain is posted
  Mutex deliver_mu_;                        // held while handlers run
  std::atomic<std::thread::id> delivering_{};
};

class RestSubscription final : public client::Subscription {
 public:
  explicit RestSubscription(std::shared_ptr<RestWatch> watch) : watch_(std::move(watch)) {}
  ~RestSubscription() override { Stop(); }
  void Stop() override { watch_->Stop(); }

 private:
  std::shared_ptr<RestWatch> watch_;
};

}  // namespace

Result<std::unique_ptr<client::Subscription>> StartRestWatch(const RestClient* client,
                                                             EventLoop* loop,
                                                             const client::Resource& resource,
                                                             const std::string& ns,
                                                             client::WatchHandler handler) {
  auto watch = std::make_shared<RestWatch>(client, loop, resource, ns, std::move(handler));
  RETURN_IF_ERROR(watch->Begin());
  return std::unique_ptr<client::Subscription>(new RestSubscription(std::move(watch)));
}

}  // namespace lws::rest
