// The capacity hand-off's decisions (capacity_hand_off.h): when a placeholder is created, what it
// asks for, and each way it ends.
#include "controllers/lws/capacity_hand_off.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "api/codec.h"

namespace lws::controllers {
namespace {

using namespace std::chrono_literals;
using api::Json;

const Time kT0 = *ParseRfc3339("2026-01-01T00:00:00Z");

api::LeaderWorkerSet Lws(const std::string& hand_off = "10m") {
  api::LeaderWorkerSet lws;
  lws.metadata.name = "llama";
  lws.metadata.namespace_ = "serving";
  lws.metadata.uid = "lws-uid";
  lws.spec.replicas = 2;
  lws.spec.leader_worker_template.size = 2;
  if (!hand_off.empty()) lws.metadata.annotations[api::kCapacityHandOffAnnotation] = hand_off;
  return lws;
}

// Pod `worker` of group `group`, on `node` ("" pending), terminating when `deleting`.
api::Pod LwsPod(int group, int worker, const std::string& node, bool deleting) {
  api::Pod pod;
  pod.metadata.name =
      worker == 0 ? fmt::format("llama-{}", group) : fmt::format("llama-{}-{}", group, worker);
  pod.metadata.namespace_ = "serving";
  pod.metadata.labels = {{api::kSetNameLabel, "llama"},
                         {api::kGroupIndexLabel, std::to_string(group)},
                         {api::kWorkerIndexLabel, std::to_string(worker)}};
  if (deleting) pod.metadata.deletion_timestamp = FormatRfc3339(kT0);
  pod.spec.node_name = node;
  api::Container c;
  c.name = "vllm";
  c.resources.requests = {{"nvidia.com/gpu", api::Quantity::Parse("8").value()},
                          {"cpu", api::Quantity::Parse("100").value()}};
  c.resources.limits = {{"nvidia.com/gpu", api::Quantity::Parse("8").value()}};
  pod.spec.containers = {c};
  api::Toleration t;
  t.key = "nvidia.com/gpu";
  t.operator_ = "Exists";
  pod.spec.tolerations = {t};
  pod.spec.rest = {{"priorityClassName", "serving"}, {"priority", 1000}};
  return pod;
}

api::Pod Placeholder(const api::Pod& held, Time until, const std::string& node) {
  api::Pod p = api::Decode<api::Pod>(PlaceholderPod(Lws(), held, until)).value();
  p.spec.node_name = node;
  return p;
}

HandOffDecision Plan(const api::LeaderWorkerSet* lws, const api::Pod* pod,
                     const api::Pod* placeholder, Time now = kT0) {
  HandOffInput in;
  in.lws = lws;
  in.pod = pod;
  in.placeholder = placeholder;
  in.now = now;
  return PlanHandOff(in);
}

TEST(CapacityHandOffTest, ATerminatingPodThatWillBeReplacedGetsAPlaceholder) {
  api::LeaderWorkerSet lws = Lws();
  api::Pod leader = LwsPod(1, 0, "gpu-3", true);
  HandOffDecision d = Plan(&lws, &leader, nullptr);
  EXPECT_EQ(d.step, HandOffStep::kCreate);
  EXPECT_EQ(d.until, kT0 + 10min);
  api::Pod worker = LwsPod(0, 1, "gpu-1", true);
  EXPECT_EQ(Plan(&lws, &worker, nullptr).step, HandOffStep::kCreate);
}

// A pod deleted without a grace period is never seen terminating: its last state stands in.
TEST(CapacityHandOffTest, APodGoneWithoutReplacementGetsAPlaceholder) {
  api::LeaderWorkerSet lws = Lws();
  api::Pod gone = LwsPod(1, 0, "gpu-3", false);
  HandOffInput in;
  in.lws = &lws;
  in.departed = &gone;
  in.now = kT0;
  EXPECT_EQ(PlanHandOff(in).step, HandOffStep::kCreate);
  api::Pod replacement = LwsPod(1, 0, "", false);
  in.pod = &replacement;  // already back: nothing to hold for
  EXPECT_EQ(PlanHandOff(in).step, HandOffStep::kNone);
  api::Pod never_placed = LwsPod(1, 0, "", false);
  in.pod = nullptr;
  in.departed = &never_placed;
  EXPECT_EQ(PlanHandOff(in).step, HandOffStep::kNone);
}

TEST(CapacityHandOffTest, NothingIsHeldWhereNothingWillReturn) {
  api::LeaderWorkerSet lws = Lws();
  api::Pod running = LwsPod(0, 0, "gpu-0", false);
  EXPECT_EQ(Plan(&lws, &running, nullptr).step, HandOffStep::kNone);
  api::Pod pending = LwsPod(0, 0, "", true);  // never placed: no node to hold
  EXPECT_EQ(Plan(&lws, &pending, nullptr).step, HandOffStep::kNone);
  api::Pod surge = LwsPod(2, 0, "gpu-4", true);  // group 2 of 2 replicas: a surge group
  EXPECT_EQ(Plan(&lws, &surge, nullptr).step, HandOffStep::kNone);
  api::Pod extra_worker = LwsPod(0, 2, "gpu-4", true);  // size shrank to 2
  EXPECT_EQ(Plan(&lws, &extra_worker, nullptr).step, HandOffStep::kNone);
  api::LeaderWorkerSet off = Lws("");
  api::Pod leaving = LwsPod(0, 0, "gpu-0", true);
  EXPECT_EQ(Plan(&off, &leaving, nullptr).step, HandOffStep::kNone);
  api::LeaderWorkerSet deleting = Lws();
  deleting.metadata.deletion_timestamp = FormatRfc3339(kT0);
  EXPECT_EQ(Plan(&deleting, &leaving, nullptr).step, HandOffStep::kNone);
  EXPECT_EQ(Plan(nullptr, &leaving, nullptr).step, HandOffStep::kNone);
}

TEST(CapacityHandOffTest, ThePlaceholderAsksForWhatThePodHad) {
  api::Pod leader = LwsPod(1, 0, "gpu-3", true);
  Json p = PlaceholderPod(Lws(), leader, kT0 + 10min);
  EXPECT_EQ(p["metadata"]["name"], "llama-1-hand-off");
  EXPECT_EQ(p["metadata"]["namespace"], "serving");
  EXPECT_EQ(p["metadata"]["labels"][api::kHandOffOfLabel], "llama");
  EXPECT_FALSE(p["metadata"]["labels"].contains(api::kSetNameLabel));  // not one of the LWS's pods
  EXPECT_EQ(p["metadata"]["annotations"][api::kHandOffForAnnotation], "llama-1");
  EXPECT_EQ(p["metadata"]["annotations"][api::kHandOffUntilAnnotation], "2026-01-01T00:10:00Z");
  EXPECT_EQ(p["metadata"]["ownerReferences"][0]["kind"], "LeaderWorkerSet");
  EXPECT_EQ(p["metadata"]["ownerReferences"][0]["uid"], "lws-uid");
  const Json& spec = p["spec"];
  const Json& resources = spec["containers"][0]["resources"];
  EXPECT_EQ(resources["requests"], (Json{{"cpu", "100"}, {"nvidia.com/gpu", "8"}}));
  EXPECT_EQ(resources["limits"], resources["requests"]);
  EXPECT_EQ(spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                ["nodeSelectorTerms"][0]["matchFields"][0]["values"][0],
            "gpu-3");
  EXPECT_EQ(spec["tolerations"][0]["key"], "nvidia.com/gpu");
  EXPECT_EQ(spec["terminationGracePeriodSeconds"], 0);
  EXPECT_EQ(spec["priorityClassName"], "serving");  // ahead of what the replacement is ahead of
  EXPECT_FALSE(spec.contains("priority"));          // the Priority admission's to set
  api::LeaderWorkerSet own_class = Lws();
  own_class.metadata.annotations[api::kHandOffPriorityClassAnnotation] = "serving-hold";
  EXPECT_EQ(PlaceholderPod(own_class, leader, kT0)["spec"]["priorityClassName"], "serving-hold");
  api::Pod decoded = api::Decode<api::Pod>(p).value();
  EXPECT_EQ(HeldPodName(decoded), "llama-1");
  EXPECT_EQ(HeldPodName(leader), "");
  EXPECT_TRUE(IsPlaceholderName("llama", "llama-1-hand-off"));
  EXPECT_FALSE(IsPlaceholderName("llama", "llama-1"));
  EXPECT_FALSE(IsPlaceholderName("llama", "tenant-1-hand-off"));
  EXPECT_FALSE(IsPlaceholderName("llama", "llama-hand-off"));
}

TEST(CapacityHandOffTest, TheHoldIsKeptWhileThePodIsAwayAndUntilItsDeadline) {
  api::LeaderWorkerSet lws = Lws();
  api::Pod old = LwsPod(1, 0, "gpu-3", true);
  api::Pod holder = Placeholder(old, kT0 + 10min, "");
  HandOffDecision d = Plan(&lws, &old, &holder, kT0 + 5s);  // still terminating
  EXPECT_EQ(d.step, HandOffStep::kNone);
  EXPECT_EQ(d.until, kT0 + 10min);
  holder.spec.node_name = "gpu-3";
  d = Plan(&lws, nullptr, &holder, kT0 + 1min);  // gone, not replaced yet
  EXPECT_EQ(d.step, HandOffStep::kNone);
  EXPECT_EQ(d.until, kT0 + 10min);
  d = Plan(&lws, nullptr, &holder, kT0 + 10min);
  EXPECT_EQ(d.step, HandOffStep::kDelete);
  EXPECT_EQ(d.reason, "the hand-off of gpu-3 for pod llama-1 reached its deadline");
}

api::Pod Tried(api::Pod pod) {
  api::PodCondition unschedulable;
  unschedulable.type = "PodScheduled";
  unschedulable.status = "False";
  unschedulable.reason = "Unschedulable";
  pod.status.conditions = {unschedulable};
  return pod;
}

TEST(CapacityHandOffTest, TheNodeIsHandedToAWaitingPodOfTheLws) {
  api::LeaderWorkerSet lws = Lws();
  api::Pod holder = Placeholder(LwsPod(1, 0, "gpu-3", true), kT0 + 10min, "gpu-3");
  api::Pod replacement = LwsPod(1, 0, "", false);
  HandOffInput in{&lws, &replacement, nullptr, &holder, {&replacement}, {"llama-1"}, kT0 + 1min};
  EXPECT_EQ(PlanHandOff(in).step, HandOffStep::kNone);  // not in the scheduler's queue yet
  replacement = Tried(replacement);
  api::Pod unbound = holder;
  unbound.spec.node_name = "";
  in.placeholder = &unbound;
  EXPECT_EQ(PlanHandOff(in).step, HandOffStep::kNone);  // holds nothing yet
  in.placeholder = &holder;
  HandOffDecision d = PlanHandOff(in);
  EXPECT_EQ(d.step, HandOffStep::kDelete);
  EXPECT_EQ(d.reason, "gpu-3 handed to pod llama-1");
  // The replacement found room elsewhere; a worker of the group waits and gets the node.
  api::Pod placed = LwsPod(1, 0, "gpu-7", false);
  api::Pod worker = Tried(LwsPod(1, 1, "", false));
  in.pod = &placed;
  in.lws_pods = {&placed, &worker};
  EXPECT_EQ(PlanHandOff(in).reason, "gpu-3 handed to pod llama-1-1");
  in.held_for.insert("llama-1-1");  // its own placeholder holds a node for it
  EXPECT_EQ(PlanHandOff(in).step, HandOffStep::kNone);
  in.held_for.erase("llama-1-1");
  // ... unless it asks for more than the node had.
  worker.spec.containers[0].resources.requests["nvidia.com/gpu"] =
      api::Quantity::Parse("16").value();
  d = PlanHandOff(in);
  EXPECT_EQ(d.step, HandOffStep::kNone);  // a pod of the LWS is pending: kept for it
  worker.spec.node_name = "gpu-8";
  d = PlanHandOff(in);
  EXPECT_EQ(d.step, HandOffStep::kDelete);
  EXPECT_EQ(d.reason, "the replacement of pod llama-1 is scheduled on gpu-7");
}

TEST(CapacityHandOffTest, AnLwsThatStopsAskingReleasesItsHolds) {
  api::Pod holder = Placeholder(LwsPod(1, 0, "gpu-3", true), kT0 + 10min, "gpu-3");
  api::LeaderWorkerSet off = Lws("");
  EXPECT_EQ(Plan(&off, nullptr, &holder).reason,
            "the LeaderWorkerSet no longer asks for a hand-off");
  EXPECT_EQ(Plan(nullptr, nullptr, &holder).reason, "the LeaderWorkerSet is gone");
  holder.metadata.deletion_timestamp = FormatRfc3339(kT0);
  EXPECT_EQ(Plan(&off, nullptr, &holder).step, HandOffStep::kNone);  // already going
}

TEST(CapacityHandOffTest, AHoldPastTheDeadlineTheLwsNowAllowsEnds) {
  api::Pod holder = Placeholder(LwsPod(1, 0, "gpu-3", true), kT0 + 10min, "gpu-3");
  api::LeaderWorkerSet shorter = Lws("1m");
  EXPECT_EQ(Plan(&shorter, nullptr, &holder, kT0 + 30s).step, HandOffStep::kDelete);
  holder.metadata.annotations[api::kHandOffUntilAnnotation] = "soon";  // unreadable
  api::LeaderWorkerSet lws = Lws();
  EXPECT_EQ(Plan(&lws, nullptr, &holder, kT0).step, HandOffStep::kDelete);
}

}  // namespace
}  // namespace lws::controllers
