// Tests of FaultyClient (client/faulty_client.h): refused writes leave the store alone, lost
// answers do not, the errors read as kube-apiserver's, a seed replays its faults, delayed watch
// streams keep their order, and a dropped stream re-lists without losing a deletion.
#include "client/faulty_client.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "client/informer.h"
#include "client/local/local_testing.h"

namespace lws::client {
namespace {

using namespace std::chrono_literals;

Json Pod(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

bool Stored(const LocalClient& client, const std::string& name) {
  Result<store::ObjectPtr> got = client.Get(kPods, "default", name);
  return got.ok() && *got != nullptr;
}

TEST(FaultyClient, ErrorsReadAsKubeApiserverWordsThem) {
  Status conflict = RefusedWrite(409, kStatefulSets, "sample");
  EXPECT_EQ(conflict.code(), Code::kConflict);
  EXPECT_EQ(conflict.message(),
            "Operation cannot be fulfilled on statefulsets.apps \"sample\": the object has been "
            "modified; please apply your changes to the latest version and try again");
  Status busy = RefusedWrite(429, kPods, "p");
  EXPECT_EQ(busy.code(), Code::kTooManyRequests);
  EXPECT_EQ(busy.message(), "Too many requests, please try again later.");
  Status internal = RefusedWrite(500, kPods, "p");
  EXPECT_EQ(internal.code(), Code::kInternal);
  EXPECT_EQ(internal.message(), "Internal error occurred: etcdserver: leader changed");
  ASSERT_EQ(internal.causes().size(), 1u);
  EXPECT_EQ(internal.causes()[0].message, "etcdserver: leader changed");
  Status timeout = LostAnswer(504);
  EXPECT_EQ(timeout.code(), Code::kTimeout);
  EXPECT_EQ(timeout.message(),
            "Timeout: request did not complete within requested timeout - context deadline "
            "exceeded");
  EXPECT_EQ(LostAnswer(500).message(), "Internal error occurred: etcdserver: request timed out");
}

TEST(FaultyClient, FaultsOffOnlyForward) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(1));
  EXPECT_EQ(client.field_manager(), "lws");
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(client.Create(kPods, Pod("p" + std::to_string(i))).ok());
  }
  EXPECT_EQ(client.counts().refused + client.counts().lost_answers, 0u);
  EXPECT_EQ(client.Create(kPods, Pod("p0")).status().code(), Code::kAlreadyExists);
}

TEST(FaultyClient, RefusedWritesAreNotApplied) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(2));
  client.SetFaults({.refused = 1.0});
  std::set<Code> codes;
  for (int i = 0; i < 30; ++i) {
    const std::string name = "p" + std::to_string(i);
    Result<store::ObjectPtr> created = client.Create(kPods, Pod(name));
    ASSERT_FALSE(created.ok());
    codes.insert(created.status().code());
    EXPECT_FALSE(Stored(local, name)) << name;
  }
  EXPECT_EQ(codes, (std::set<Code>{Code::kConflict, Code::kTooManyRequests, Code::kInternal}));
  EXPECT_EQ(client.counts().refused, 30u);
}

TEST(FaultyClient, LostAnswersHideAppliedWrites) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(3));
  client.SetFaults({.lost_answer = 1.0});
  std::set<Code> codes;
  for (int i = 0; i < 20; ++i) {
    const std::string name = "p" + std::to_string(i);
    Result<store::ObjectPtr> created = client.Create(kPods, Pod(name));
    ASSERT_FALSE(created.ok());
    codes.insert(created.status().code());
    EXPECT_TRUE(Stored(local, name)) << name;
  }
  EXPECT_EQ(codes, (std::set<Code>{Code::kTimeout, Code::kInternal}));
  // A write the server refuses keeps its own error: nothing was applied, nothing was lost.
  EXPECT_EQ(client.Create(kPods, Pod("p0")).status().code(), Code::kAlreadyExists);
  EXPECT_EQ(client.counts().lost_answers, 20u);
}

// The outcomes of `writes` deletes of absent pods (NotFound when forwarded) under `seed`.
std::vector<Code> Outcomes(std::uint64_t seed, int writes) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(seed));
  client.SetFaults({.refused = 0.3, .lost_answer = 0.0});
  std::vector<Code> out;
  for (int i = 0; i < writes; ++i)
    out.push_back(client.Delete(kPods, "default", "x").status().code());
  return out;
}

TEST(FaultyClient, ASeedReplaysItsFaults) {
  EXPECT_EQ(Outcomes(11, 40), Outcomes(11, 40));
  EXPECT_NE(Outcomes(11, 40), Outcomes(12, 40));
  std::vector<Code> outcomes = Outcomes(11, 40);
  EXPECT_GT(std::count(outcomes.begin(), outcomes.end(), Code::kNotFound), 0);
  EXPECT_LT(std::count(outcomes.begin(), outcomes.end(), Code::kNotFound), 40);
}

// Every event a watch delivers: "TYPE name@rv", and when (seconds after the start).
struct Log {
  std::vector<std::string> events;
  std::vector<double> at;
};

TEST(FaultyClient, DelayedWatchKeepsItsOrder) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(4));
  client.SetFaults({.watch_delay_max = 2s});
  Log log;
  const Time start = cp.loop.Now();
  std::vector<std::uint64_t> versions;
  auto sub = client.Watch(&cp.loop, kPods, "default", [&](const store::WatchEvent& e) {
    versions.push_back(e.object->resource_version());
    log.at.push_back(std::chrono::duration<double>(cp.loop.Now() - start).count());
  });
  ASSERT_TRUE(sub.ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(local.Create(kPods, Pod("p" + std::to_string(i))).ok());
  cp.loop.RunFor(100ms);
  EXPECT_LT(versions.size(), 10u);  // some wait
  cp.loop.RunFor(2s);
  ASSERT_EQ(versions.size(), 10u);
  EXPECT_TRUE(std::is_sorted(versions.begin(), versions.end()));
  EXPECT_GT(log.at.back(), 0.1);
  EXPECT_LE(log.at.back(), 2.0);
  EXPECT_EQ(client.counts().delayed_events, 10u);
}

TEST(FaultyClient, DroppedWatchRelistsWithoutLosingADeletion) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(5));
  Informer informer(&cp.loop, &client, kPods, "default");
  std::vector<std::string> deleted;
  informer.AddHandler([&](const store::ObjectPtr& old, const store::ObjectPtr& now) {
    if (now == nullptr) deleted.push_back(old->document()["metadata"]["name"]);
  });
  ASSERT_TRUE(informer.Start().ok());
  ASSERT_TRUE(local.Create(kPods, Pod("a")).ok());
  ASSERT_TRUE(local.Create(kPods, Pod("b")).ok());
  cp.loop.RunFor(1s);
  ASSERT_EQ(informer.objects().size(), 2u);

  // The deletion of b and the creation of c are in flight when the stream drops: lost.
  client.SetFaults({.watch_delay_max = 5s});
  ASSERT_TRUE(local.Delete(kPods, "default", "b").ok());
  ASSERT_TRUE(local.Create(kPods, Pod("c")).ok());
  cp.loop.RunFor(1ms);
  client.SetFaults({});
  client.DropWatches();
  cp.loop.RunFor(10s);
  EXPECT_EQ(client.counts().dropped_streams, 1u);
  EXPECT_NE(informer.Get("default", "a"), nullptr);
  EXPECT_EQ(informer.Get("default", "b"), nullptr);
  EXPECT_NE(informer.Get("default", "c"), nullptr);
  EXPECT_EQ(deleted, std::vector<std::string>{"b"});

  // The new stream carries changes as the old one did.
  ASSERT_TRUE(local.Delete(kPods, "default", "a").ok());
  cp.loop.RunFor(1s);
  EXPECT_EQ(informer.Get("default", "a"), nullptr);
  EXPECT_EQ(deleted, (std::vector<std::string>{"b", "a"}));
}

TEST(FaultyClient, AStoppedWatchDeliversNothingMore) {
  testing::ControlPlane cp;
  LocalClient local = cp.Client("lws");
  FaultyClient client(&local, Rng(6));
  client.SetFaults({.watch_delay_max = 3s});
  int delivered = 0;
  auto sub =
      client.Watch(&cp.loop, kPods, "default", [&](const store::WatchEvent&) { ++delivered; });
  ASSERT_TRUE(sub.ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(local.Create(kPods, Pod("p" + std::to_string(i))).ok());
  cp.loop.RunFor(1ms);
  const int before = delivered;
  (*sub)->Stop();
  client.DropWatches();  // a stopped stream does not start over
  cp.loop.RunFor(5s);
  EXPECT_EQ(delivered, before);
  EXPECT_EQ(client.counts().dropped_streams, 0u);
}

}  // namespace
}  // namespace lws::client
