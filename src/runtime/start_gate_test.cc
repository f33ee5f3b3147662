#include "runtime/start_gate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/apps.h"
#include "api/pod.h"
#include "client/local/local_testing.h"
#include "runtime/typed_informer.h"
#include "runtime/work_queue.h"

namespace lws::runtime {
namespace {

using api::Json;

Json Pod(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

// A stand-in source whose state the test sets.
class FakeSource : public SyncSource {
 public:
  bool synced() const override { return synced_; }
  void OnSynced(std::function<void()> callback) override {
    if (synced_) return callback();
    callbacks_.push_back(std::move(callback));
  }
  void Sync() {
    synced_ = true;
    for (auto& callback : callbacks_) callback();
    callbacks_.clear();
  }

 private:
  bool synced_ = false;
  std::vector<std::function<void()>> callbacks_;
};

TEST(StartGate, OpensOnceWhenTheLastSourceSyncs) {
  FakeSource a, b;
  int opened = 0;
  StartGate gate({&a, &b}, [&] { ++opened; });
  EXPECT_FALSE(gate.open());
  b.Sync();
  EXPECT_EQ(opened, 0);
  a.Sync();
  EXPECT_EQ(opened, 1);
  EXPECT_TRUE(gate.open());
}

TEST(StartGate, DestroyedGateIsNotCalled) {
  FakeSource a;
  int opened = 0;
  {
    StartGate gate({&a}, [&] { ++opened; });
  }
  a.Sync();
  EXPECT_EQ(opened, 0);
}

TEST(InitialList, CapturedAfterTheWatchOpened) {
  client::testing::ControlPlane cp;
  client::LocalClient client = cp.Client("test");
  ASSERT_TRUE(client.Create(client::kPods, Pod("a")).ok());
  ASSERT_TRUE(client.Create(client::kPods, Pod("b")).ok());
  client::Informer informer(&cp.loop, &client, client::kPods);
  InitialList initial;
  EXPECT_FALSE(initial.Check(informer));  // nothing captured
  ASSERT_TRUE(informer.Start().ok());
  // Changes between the watch's snapshot and the list (another thread's writes, in `lws up`):
  // one object goes, one comes. The list counts 2 (b, c); the watch delivers its snapshot (a, b),
  // then a's DELETED and c's ADDED.
  client::DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(client.Delete(client::kPods, "default", "a", now).ok());
  ASSERT_TRUE(client.Create(client::kPods, Pod("c")).ok());
  ASSERT_TRUE(initial.Capture(client, client::kPods, "").ok());
  EXPECT_EQ(initial.count(), 2u);
  EXPECT_EQ(initial.resource_version(), cp.store->CurrentResourceVersion());
  EXPECT_FALSE(initial.Check(informer));  // nothing delivered yet
  cp.loop.RunUntilIdle();
  EXPECT_TRUE(initial.Check(informer));
  EXPECT_EQ(informer.objects().size(), 2u);
  // Latched: losing objects later does not undo it.
  ASSERT_TRUE(client.Delete(client::kPods, "default", "b", now).ok());
  ASSERT_TRUE(client.Delete(client::kPods, "default", "c", now).ok());
  cp.loop.RunUntilIdle();
  EXPECT_TRUE(initial.Check(informer));
}

// The controllers' pattern: handlers add keys during the initial delivery, the queue holds them,
// and the gate releases them once every informer is synced.
TEST(StartGate, HoldsTheQueueUntilEveryInformerSynced) {
  client::testing::ControlPlane cp;
  client::LocalClient client = cp.Client("test");
  for (int i = 0; i < 700; ++i)
    ASSERT_TRUE(client.Create(client::kPods, Pod("p" + std::to_string(i))).ok());
  TypedInformer<api::Pod> pods(&cp.loop, &client, client::kPods);
  TypedInformer<api::StatefulSet> sets(&cp.loop, &client, client::kStatefulSets);
  std::vector<std::size_t> cache_size_at_run;
  WorkQueue queue(&cp.loop, "test", [&](const Key&) {
    cache_size_at_run.push_back(pods.size());
    return ReconcileResult::Done();
  });
  pods.AddHandler([&](const api::Pod*, const api::Pod* now) {
    if (now) queue.Add({"default", "group-" + std::to_string(pods.size() % 3)});
  });
  int opened = 0;
  StartGate gate({&pods, &sets}, [&] {
    ++opened;
    queue.SetReady(true);
  });
  ASSERT_TRUE(sets.Start().ok());
  ASSERT_TRUE(pods.Start().ok());
  cp.loop.RunUntilIdle();
  EXPECT_EQ(opened, 1);
  EXPECT_TRUE(pods.synced());
  EXPECT_TRUE(sets.synced());
  // Three keys, each run once, and only after all 700 pods were in the cache.
  EXPECT_EQ(cache_size_at_run, (std::vector<std::size_t>{700, 700, 700}));
}

}  // namespace
}  // namespace lws::runtime
