#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "store/store.h"
#include "store/store_testing.h"

namespace lws::store {
namespace {

using testing::ConfigMaps;
using testing::Pods;
using testing::Rv;
using testing::WatchFrom;

using Strings = std::vector<std::string>;

class WatchTest : public testing::StoreTest {
 protected:
  ObjectPtr Relabel(const std::string& name, const std::string& app) {
    Json pod = (*store_->Get(Pods(), "default", name))->document();
    pod["metadata"]["labels"]["app"] = app;
    auto updated = store_->Update(Pods(), pod);
    EXPECT_TRUE(updated.ok());
    return updated.ok() ? *updated : nullptr;
  }
};

TEST_F(WatchTest, FromZeroStartsWithTheCurrentState) {
  MustCreate(Pods(), testing::Pod("p1"));
  MustCreate(Pods(), testing::Pod("p2", "other"));
  MustCreate(ConfigMaps(), testing::ConfigMap("c1"));
  auto all = *store_->Watch(Pods(), {});
  WatchOptions in_default;
  in_default.namespace_ = "default";
  auto ns = *store_->Watch(Pods(), in_default);
  EXPECT_EQ(Describe(Drain(all)), (Strings{"ADDED p1 1", "ADDED p2 2"}));
  EXPECT_EQ(Describe(Drain(ns)), (Strings{"ADDED p1 1"}));
  MustCreate(Pods(), testing::Pod("p3"));
  ASSERT_TRUE(store_->Delete(Pods(), "default", "p1").ok());
  EXPECT_EQ(Describe(Drain(all)), (Strings{"ADDED p3 4", "DELETED p1 5"}));
  EXPECT_EQ(Describe(Drain(ns)), (Strings{"ADDED p3 4", "DELETED p1 5"}));
}

TEST_F(WatchTest, FromAResourceVersionReplaysTheHistory) {
  MustCreate(Pods(), testing::Pod("p1"));
  MustCreate(ConfigMaps(), testing::ConfigMap("c1"));
  Relabel("p1", "x");
  MustCreate(Pods(), testing::Pod("p2"));
  auto from1 = *store_->Watch(Pods(), WatchFrom(1));
  EXPECT_EQ(Describe(Drain(from1)), (Strings{"MODIFIED p1 3", "ADDED p2 4"}));
  auto from4 = *store_->Watch(Pods(), WatchFrom(4));
  EXPECT_TRUE(Drain(from4).empty());
  auto future = *store_->Watch(Pods(), WatchFrom(6));
  MustCreate(Pods(), testing::Pod("p5"));  // rv 5: before the watch's start
  MustCreate(Pods(), testing::Pod("p6"));  // rv 6
  MustCreate(Pods(), testing::Pod("p7"));  // rv 7
  EXPECT_EQ(Describe(Drain(future)), (Strings{"ADDED p7 7"}));
}

TEST_F(WatchTest, TooOldResourceVersionIsGone) {
  StoreOptions small;
  small.history_size = 3;
  store_ = OpenStore(small);
  for (int i = 0; i < 6; ++i) MustCreate(Pods(), testing::Pod("p" + std::to_string(i)));
  // History holds rv 4..6: resuming from 3 still works, from 2 does not.
  EXPECT_TRUE(store_->Watch(Pods(), WatchFrom(3)).ok());
  auto old = store_->Watch(Pods(), WatchFrom(2));
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), Code::kGone);
  EXPECT_EQ(old.status().message(), "too old resource version: 2 (3)");
  EXPECT_EQ(StatusJson(old.status())["reason"], "Expired");
}

// The garbage collector's feed: everything from 0, then every resource's changes in order, and
// 410 once the history moved past the reader.
TEST_F(WatchTest, ChangesOfAllResourcesInOrder) {
  StoreOptions small;
  small.history_size = 3;
  store_ = OpenStore(small);
  MustCreate(Pods(), testing::Pod("p1"));              // rv 1
  MustCreate(ConfigMaps(), testing::ConfigMap("cm"));  // rv 2
  auto describe = [](const ChangeLog& log) {
    Strings out;
    for (const StoreChange& c : log.changes) {
      out.push_back(std::string(EventTypeName(c.type)) + " " + c.group_resource + " " +
                    c.object->name().name + " " + Rv(c.object));
    }
    return out;
  };
  Result<ChangeLog> all = store_->Changes(0);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(describe(*all), (Strings{"ADDED configmaps cm 2", "ADDED pods p1 1"}));
  EXPECT_EQ(all->resource_version, 2u);

  ASSERT_TRUE(store_->Delete(Pods(), "default", "p1").ok());  // rv 3
  MustCreate(Pods(), testing::Pod("p4"));                     // rv 4
  Result<ChangeLog> since = store_->Changes(2);
  ASSERT_TRUE(since.ok());
  EXPECT_EQ(describe(*since), (Strings{"DELETED pods p1 3", "ADDED pods p4 4"}));
  EXPECT_EQ(since->resource_version, 4u);
  EXPECT_TRUE(store_->Changes(4)->changes.empty());

  MustCreate(Pods(), testing::Pod("p5"));  // rv 5: the history holds 3..5
  EXPECT_TRUE(store_->Changes(2).ok());
  MustCreate(Pods(), testing::Pod("p6"));  // rv 6: now 4..6
  EXPECT_EQ(store_->Changes(2).status().code(), Code::kGone);
}

TEST_F(WatchTest, SendInitialEventsEndsWithTheAnnotatedBookmark) {
  MustCreate(Pods(), testing::Pod("p1"));
  MustCreate(Pods(), testing::Pod("p2"));
  WatchOptions watch_list;
  watch_list.send_initial_events = true;
  watch_list.allow_bookmarks = true;
  auto w = *store_->Watch(Pods(), watch_list);
  auto events = Drain(w);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(Describe(events), (Strings{"ADDED p1 1", "ADDED p2 2", "BOOKMARK  2"}));
  EXPECT_EQ(events[2].object->document(),
            Json::parse(R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"2",
                "annotations":{"k8s.io/initial-events-end":"true"}}})"));
  MustCreate(Pods(), testing::Pod("p3"));
  EXPECT_EQ(Describe(Drain(w)), (Strings{"ADDED p3 3"}));
  store_->SendBookmarks();
  EXPECT_EQ(Describe(Drain(w)), (Strings{"BOOKMARK  3"}));
  auto no_bookmarks = *store_->Watch(Pods(), {});
  Drain(no_bookmarks);
  store_->SendBookmarks();
  EXPECT_TRUE(Drain(no_bookmarks).empty());
}

TEST_F(WatchTest, SelectorTransitionsBecomeAddedAndDeleted) {
  MustCreate(Pods(), testing::Pod("p1", "default", {{"app", "web"}}));
  auto w = *store_->Watch(Pods(), WatchFrom(1, "app=web"));
  ObjectPtr out = Relabel("p1", "db");    // rv 2: stops matching
  Relabel("p1", "db2");                   // rv 3: still not matching
  ObjectPtr back = Relabel("p1", "web");  // rv 4: matches again
  Relabel("p1", "web");                   // no-op
  auto events = Drain(w);
  EXPECT_EQ(Describe(events), (Strings{"DELETED p1 2", "ADDED p1 4"}));
  // The DELETED carries the last matching content with the event's resourceVersion.
  EXPECT_EQ(events[0].object->document()["metadata"]["labels"]["app"], "web");
  EXPECT_EQ(events[1].object, back);

  // Field selectors too, as kubectl wait uses them.
  auto by_name = *store_->Watch(Pods(), WatchFrom(4, "", "metadata.name=p1"));
  MustCreate(Pods(), testing::Pod("p2"));
  ASSERT_TRUE(store_->Delete(Pods(), "default", "p1").ok());
  EXPECT_EQ(Describe(Drain(by_name)), (Strings{"DELETED p1 6"}));
  EXPECT_EQ(store_->Watch(Pods(), WatchFrom(0, "", "x=y")).status().code(), Code::kBadRequest);
}

TEST_F(WatchTest, EventsShareTheStoredBytes) {
  std::vector<WatcherPtr> watchers;
  for (int i = 0; i < 100; ++i) watchers.push_back(*store_->Watch(Pods(), {}));
  ObjectPtr created = MustCreate(Pods(), testing::Pod("p1"));
  ObjectPtr got = *store_->Get(Pods(), "default", "p1");
  for (const auto& w : watchers) {
    auto events = Drain(w);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(&events[0].object->bytes(), &got->bytes());
  }
  EXPECT_EQ(&created->bytes(), &got->bytes());
}

TEST_F(WatchTest, DeletedEventCarriesTheDeletionsResourceVersion) {
  ObjectPtr created = MustCreate(ConfigMaps(), testing::ConfigMap("c1"));
  auto w = *store_->Watch(ConfigMaps(), WatchFrom(1));
  auto deleted = *store_->Delete(ConfigMaps(), "default", "c1");
  auto events = Drain(w);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, EventType::kDeleted);
  EXPECT_EQ(Rv(events[0].object), "2");
  EXPECT_EQ(events[0].object, deleted.object);
  Json without_rv = events[0].object->document();
  without_rv["metadata"].erase("resourceVersion");
  Json created_without_rv = created->document();
  created_without_rv["metadata"].erase("resourceVersion");
  EXPECT_EQ(without_rv, created_without_rv);
}

TEST_F(WatchTest, SlowWatcherIsEndedWithAnError) {
  StoreOptions small;
  small.watch_queue_size = 3;
  store_ = OpenStore(small);
  auto slow = *store_->Watch(Pods(), {});
  auto fast = *store_->Watch(Pods(), {});
  for (int i = 0; i < 5; ++i) {
    MustCreate(Pods(), testing::Pod("p" + std::to_string(i)));
    Drain(fast);
  }
  EXPECT_TRUE(slow->ended());
  std::vector<WatchEvent> events;
  EXPECT_FALSE(slow->Poll(&events)) << "ended and drained";
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[3].type, EventType::kError);
  EXPECT_EQ(events[3].object->document()["code"], 429);
  EXPECT_FALSE(fast->ended());
  std::vector<WatchEvent> none;
  EXPECT_TRUE(fast->Poll(&none));
}

TEST_F(WatchTest, NotifierRunsOutsideTheLockOncePerBatch) {
  std::atomic<int> calls = 0;
  WatcherPtr w;
  auto notifier = [&] {
    ++calls;
    // Re-entering the store from a notifier must not deadlock.
    EXPECT_GE(store_->CurrentResourceVersion(), 1u);
  };
  WatchOptions options;
  options.notifier = notifier;
  w = *store_->Watch(Pods(), options);
  MustCreate(Pods(), testing::Pod("p1"));
  MustCreate(Pods(), testing::Pod("p2"));  // queue not drained: no second notification
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(Drain(w).size(), 2u);
  MustCreate(Pods(), testing::Pod("p3"));
  EXPECT_EQ(calls.load(), 2);
  w->Stop();
  MustCreate(Pods(), testing::Pod("p4"));
  EXPECT_EQ(calls.load(), 2);
  std::vector<WatchEvent> events;
  EXPECT_FALSE(w->Poll(&events));
  EXPECT_TRUE(events.empty());
}

TEST_F(WatchTest, StoreShutdownEndsWatches) {
  auto w = *store_->Watch(Pods(), {});
  bool notified = false;
  w->SetNotifier([&] { notified = true; });
  store_.reset();
  EXPECT_TRUE(notified);
  EXPECT_TRUE(w->ended());
}

TEST_F(WatchTest, ConcurrentWritersAndAConsumerSeeEveryEventInOrder) {
  auto w = *store_->Watch(Pods(), {});
  constexpr int kThreads = 3, kPerThread = 300;
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        (void)store_->Create(Pods(),
                             testing::Pod("p" + std::to_string(t) + "-" + std::to_string(i)));
      }
    });
  }
  std::vector<WatchEvent> events;
  while (events.size() < static_cast<std::size_t>(kThreads * kPerThread)) {
    w->Poll(&events);
    std::this_thread::yield();
  }
  for (auto& th : writers) th.join();
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].object->resource_version(), i + 1);
  }
}

}  // namespace
}  // namespace lws::store
