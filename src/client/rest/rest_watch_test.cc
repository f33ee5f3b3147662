// Tests of RestClient::Watch against the real API server over loopback: list then changes in
// order, bookmarks, resuming after dropped streams and failed requests, re-listing after 410 Gone
// (with DELETED for what vanished meanwhile, so an informer's cache ends equal to the store), and
// Stop. Handlers run on a RealEventLoop; the test thread waits on conditions, never sleeps.
#include "client/rest/rest_watch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <set>
#include <thread>

#include "client/informer.h"
#include "client/rest/rest_client.h"
#include "client/rest/rest_server_testing.h"

namespace lws::rest {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using testing::EventLog;
using ::testing::HasSubstr;
using testing::LiveServer;
using testing::LiveServerOptions;
using testing::StatusAnswer;
using namespace std::chrono_literals;

Json Pod(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

// Runs `f` on the loop and returns its result (informers are loop-only).
template <class F>
auto OnLoop(EventLoop& loop, F f) {
  std::promise<decltype(f())> done;
  loop.Post([&] { done.set_value(f()); });
  return done.get_future().get();
}

// Polls `condition` (state held by another process: the server's request log) within patience.
bool Eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + testing::kPatience;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

std::string QueryValue(const std::string& target, const std::string& key) {
  std::size_t at = target.find(key + "=");
  if (at == std::string::npos) return "";
  at += key.size() + 1;
  return target.substr(at, target.find('&', at) - at);
}

std::vector<transport::HttpRequest> WatchRequests(const LiveServer& server) {
  return server.RequestsTo("watch=1");
}

// Lists of pods begun (first pages).
std::size_t ListStarts(const LiveServer& server) {
  std::size_t starts = 0;
  for (const auto& r : server.RequestsTo("pods?limit="))
    starts += r.target.find("continue=") == std::string::npos;
  return starts;
}

class RestWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {}
  std::unique_ptr<RestClient> Connect(LiveServer& server) {
    RestClientOptions options;
    options.qps = -1;
    options.watch_backoff_base = 5ms;
    options.watch_backoff_cap = 20ms;
    options.watch_list_page_size = 2;  // lists of a few objects take several pages
    return RestClient::FromConfig(server.config(), options).value();
  }
  void Delete(RestClient& client, const std::string& name) {
    client::DeleteOptions now;
    now.grace_period_seconds = 0;
    ASSERT_TRUE(client.Delete(client::kPods, "default", name, now).ok());
  }

  RealEventLoop loop_;
};

TEST_F(RestWatchTest, ListThenChangesInOrder) {
  LiveServer server;
  auto client = Connect(server);
  for (const char* name : {"a", "b", "c"})
    ASSERT_TRUE(client->Create(client::kPods, Pod(name)).ok());
  EventLog log;
  auto watch = client->Watch(&loop_, client::kPods, "default", log.Handler()).value();
  ASSERT_TRUE(log.WaitForCount(3));

  ASSERT_TRUE(client->Create(client::kPods, Pod("d")).ok());
  ASSERT_TRUE(client
                  ->Patch(client::kPods, "default", "a", client::PatchType::kMerge,
                          {{"metadata", {{"labels", {{"k", "v"}}}}}})
                  .ok());
  Delete(*client, "b");
  ASSERT_TRUE(log.WaitForCount(6));
  EXPECT_THAT(log.Summary(),
              ElementsAre("ADDED a", "ADDED b", "ADDED c", "ADDED d", "MODIFIED a", "DELETED b"));
  std::vector<store::WatchEvent> events = log.events();
  for (std::size_t i = 4; i < events.size(); ++i) {
    EXPECT_GT(events[i].object->resource_version(), events[i - 1].object->resource_version());
  }
  // The initial list went in pages of two, the watch from the list's resourceVersion.
  EXPECT_EQ(server.RequestsTo("pods?limit=2").size(), 2u);
  EXPECT_EQ(ListStarts(server), 1u);
  ASSERT_FALSE(WatchRequests(server).empty());
  EXPECT_THAT(WatchRequests(server)[0].target, HasSubstr("allowWatchBookmarks=true"));
}

TEST_F(RestWatchTest, UnknownResourceFailsWatchItself) {
  LiveServer server;
  auto client = Connect(server);
  EventLog log;
  auto watch = client->Watch(&loop_, client::Resource{"example.com", "v1", "foos"}, "default",
                             log.Handler());
  EXPECT_EQ(watch.status().code(), Code::kNotFound);
}

TEST_F(RestWatchTest, BookmarksMoveTheResumePointButNeverReachTheHandler) {
  LiveServer server;
  auto client = Connect(server);
  server.set_end_streams_after(2);  // each stream: one event, one bookmark, then dropped
  EventLog log;
  auto watch = client->Watch(&loop_, client::kPods, "default", log.Handler()).value();
  ASSERT_TRUE(Eventually([&] { return !WatchRequests(server).empty(); }));

  ASSERT_TRUE(client->Create(client::kPods, Pod("a")).ok());
  ASSERT_TRUE(log.WaitForCount(1));
  // Writes elsewhere move the store's resourceVersion; the bookmark carries it.
  Json config_map = {{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata", {{"name", "m"}, {"namespace", "default"}}}};
  Result<store::ObjectPtr> other =
      client->Create(client::Resource{"", "v1", "configmaps"}, config_map);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  const std::string bookmark_rv = (*other)->document()["metadata"]["resourceVersion"];
  server.store()->SendBookmarks();

  ASSERT_TRUE(Eventually([&] {
    for (const auto& r : WatchRequests(server)) {
      if (QueryValue(r.target, "resourceVersion") == bookmark_rv) return true;
    }
    return false;
  }));
  server.set_end_streams_after(std::nullopt);
  ASSERT_TRUE(client->Create(client::kPods, Pod("b")).ok());
  ASSERT_TRUE(log.WaitForCount(2));
  EXPECT_THAT(log.Summary(), ElementsAre("ADDED a", "ADDED b"));
}

TEST_F(RestWatchTest, DroppedStreamsResumeWithoutLossOrRepeats) {
  LiveServer server;
  auto client = Connect(server);
  server.set_end_streams_after(1);  // a proxy that drops every watch after one event
  EventLog log;
  auto watch = client->Watch(&loop_, client::kPods, "default", log.Handler()).value();
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(client->Create(client::kPods, Pod("p" + std::to_string(i))).ok());
  ASSERT_TRUE(log.WaitForCount(6));
  EXPECT_THAT(log.Summary(),
              ElementsAre("ADDED p0", "ADDED p1", "ADDED p2", "ADDED p3", "ADDED p4", "ADDED p5"));
  // Every resume started after the last event handled, never from a list.
  EXPECT_EQ(ListStarts(server), 1u);
  EXPECT_GE(WatchRequests(server).size(), 2u);
}

TEST_F(RestWatchTest, GoneAfterAnOutageRelistsAndDeletesWhatVanished) {
  LiveServer server(LiveServerOptions{.history_size = 4});
  auto client = Connect(server);
  for (const char* name : {"a", "b"}) ASSERT_TRUE(client->Create(client::kPods, Pod(name)).ok());

  std::atomic<bool> outage{true};
  server.set_intercept(
      [&](const transport::HttpRequest& r) -> std::optional<transport::HttpResponse> {
        if (!outage || r.target.find("watch=1") == std::string::npos) return std::nullopt;
        return StatusAnswer(503, "ServiceUnavailable", "apiserver is restarting");
      });
  client::Informer informer(&loop_, client.get(), client::kPods, "default");
  EventLog log;
  informer.AddHandler(
      [handler = log.Handler()](const store::ObjectPtr& old, const store::ObjectPtr& now) {
        handler({now ? (old ? store::EventType::kModified : store::EventType::kAdded)
                     : store::EventType::kDeleted,
                 now ? now : old});
      });
  ASSERT_TRUE(informer.Start().ok());
  ASSERT_TRUE(log.WaitForCount(2));
  ASSERT_TRUE(Eventually([&] { return WatchRequests(server).size() >= 2; }));  // failing, resuming

  // Meanwhile: b goes, enough writes happen for the watch's position to leave the history.
  Delete(*client, "b");
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(client->Create(client::kPods, Pod("n" + std::to_string(i))).ok());
  outage = false;

  ASSERT_TRUE(log.WaitFor([](const auto& events) {
    return std::any_of(
               events.begin(), events.end(),
               [](const store::WatchEvent& e) { return e.type == store::EventType::kDeleted; }) &&
           events.size() >= 8;
  }));
  EXPECT_THAT(log.Summary(), Contains("DELETED b"));
  // Two lists of pages: at the start and after 410 Gone.
  EXPECT_EQ(ListStarts(server), 2u);

  std::set<std::string> cached = OnLoop(loop_, [&] {
    std::set<std::string> names;
    for (const auto& [key, object] : informer.objects()) names.insert(key.name);
    return names;
  });
  std::set<std::string> stored;
  store::ListResult listed = client->List(client::kPods).value();
  for (const auto& object : listed.items) {
    stored.insert(object->document()["metadata"]["name"].get<std::string>());
  }
  EXPECT_EQ(cached, stored);
  EXPECT_EQ(cached, (std::set<std::string>{"a", "n0", "n1", "n2", "n3", "n4"}));
  OnLoop(loop_, [&] {
    informer.Stop();
    return 0;
  });
}

TEST_F(RestWatchTest, HttpGoneAnswerRelists) {
  LiveServer server;
  auto client = Connect(server);
  ASSERT_TRUE(client->Create(client::kPods, Pod("a")).ok());
  std::atomic<int> gone{1};
  server.set_intercept(
      [&](const transport::HttpRequest& r) -> std::optional<transport::HttpResponse> {
        if (r.target.find("watch=1") == std::string::npos || gone.fetch_sub(1) <= 0)
          return std::nullopt;
        return StatusAnswer(410, "Expired", "too old resource version");
      });
  EventLog log;
  auto watch = client->Watch(&loop_, client::kPods, "default", log.Handler()).value();
  ASSERT_TRUE(Eventually([&] { return ListStarts(server) == 2; }));
  ASSERT_TRUE(client->Create(client::kPods, Pod("b")).ok());
  ASSERT_TRUE(log.WaitFor([](const auto& events) {
    return !events.empty() && events.back().object->name().name == "b";
  }));
  // The re-list repeats a as ADDED (an informer takes it as the object it has); nothing deleted.
  EXPECT_THAT(log.Summary(), ElementsAre("ADDED a", "ADDED a", "ADDED b"));
}

TEST_F(RestWatchTest, NoHandlerRunsAfterStop) {
  LiveServer server;
  auto client = Connect(server);
  EventLog log;
  auto watch = client->Watch(&loop_, client::kPods, "default", log.Handler()).value();
  ASSERT_TRUE(client->Create(client::kPods, Pod("a")).ok());
  ASSERT_TRUE(log.WaitForCount(1));
  watch->Stop();  // the stream is open and idle: Stop must not wait for it to time out
  ASSERT_TRUE(client->Create(client::kPods, Pod("b")).ok());
  OnLoop(loop_, [] { return 0; });  // whatever was posted before has run
  EXPECT_THAT(log.Summary(), ElementsAre("ADDED a"));
  watch.reset();  // and destroying a stopped subscription is fine
}

TEST_F(RestWatchTest, StopFromTheHandler) {
  LiveServer server;
  auto client = Connect(server);
  for (const char* name : {"a", "b", "c"})
    ASSERT_TRUE(client->Create(client::kPods, Pod(name)).ok());
  std::unique_ptr<client::Subscription> watch;
  std::promise<void> subscribed;
  std::shared_future<void> ready = subscribed.get_future().share();
  EventLog log;
  auto record = log.Handler();
  watch = client
              ->Watch(&loop_, client::kPods, "default",
                      [&, ready](const store::WatchEvent& event) {
                        ready.wait();
                        record(event);
                        watch->Stop();
                      })
              .value();
  subscribed.set_value();
  ASSERT_TRUE(log.WaitForCount(1));
  OnLoop(loop_, [] { return 0; });
  EXPECT_THAT(log.Summary(), ElementsAre("ADDED a"));  // the rest of the batch was dropped
}

}  // namespace
}  // namespace lws::rest
