// Tests of what keeps scheduling linear in large clusters: the node search of NodeSearch
// (kube-scheduler's percentageOfNodesToScore) and the per-node totals SchedulerCache keeps.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "cluster/scheduler_cache.h"
#include "cluster/scheduler_filters.h"
#include "cluster/scheduler_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;  // NOLINT: test builders

TEST(NodeSearch, AdaptivePercentageAsUpstream) {
  EXPECT_EQ(NumFeasibleNodesToFind(5), 5u);
  EXPECT_EQ(NumFeasibleNodesToFind(99), 99u);
  EXPECT_EQ(NumFeasibleNodesToFind(100), 100u);     // 49% of 100 is below the 100-node floor
  EXPECT_EQ(NumFeasibleNodesToFind(1000), 420u);    // 50 - 1000/125 = 42%
  EXPECT_EQ(NumFeasibleNodesToFind(5000), 500u);    // 50 - 40 = 10%
  EXPECT_EQ(NumFeasibleNodesToFind(20000), 1000u);  // the percentage bottoms out at 5%
}

Cluster IdleNodes(int count) {
  Cluster cluster;
  for (int i = 0; i < count; ++i) cluster.Add(MakeNode(fmt::format("node-{:04d}", i)));
  return cluster;
}

TEST(NodeSearch, SampledSearchStopsAndTheNextStartsWhereItStopped) {
  Cluster cluster = IdleNodes(300);  // wants max(100, 300 * 48%) = 144 feasible nodes
  api::Pod pod = MakePod("p", {{"cpu", Q("1")}});
  ScheduleResult first = SchedulePod(pod, cluster.infos, NodeSearch{true, 0});
  EXPECT_EQ(first.node_name, "node-0000");  // all idle: the tie goes to the first name
  EXPECT_EQ(first.next_start, 144u);
  ScheduleResult second = SchedulePod(pod, cluster.infos, NodeSearch{true, first.next_start});
  EXPECT_EQ(second.node_name, "node-0144");
  EXPECT_EQ(second.next_start, 288u);
  ScheduleResult third = SchedulePod(pod, cluster.infos, NodeSearch{true, second.next_start});
  EXPECT_EQ(third.next_start, (288u + 144u) % 300u);  // wraps around
}

TEST(NodeSearch, UnschedulableExaminesEveryNode) {
  Cluster cluster = IdleNodes(300);
  api::Pod pod = MakePod("p", {{"example.com/fpga", Q("1")}});  // no node has one
  ScheduleResult r = SchedulePod(pod, cluster.infos, NodeSearch{true, 17});
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.reasons.at("Insufficient example.com/fpga"), 300);
  EXPECT_EQ(r.next_start, 17u);
}

TEST(NodeSearch, FullSearchIgnoresStart) {
  Cluster cluster = IdleNodes(300);
  api::Pod pod = MakePod("p", {{"cpu", Q("1")}});
  EXPECT_EQ(SchedulePod(pod, cluster.infos).node_name, "node-0000");
}

// The cache's incremental totals equal the totals computed from the pods, whatever the order of
// binds, removals and nodes coming and going.
RC_GTEST_PROP(SchedulerCacheTotals, EqualRecomputedTotals, ()) {
  SchedulerCache cache;
  const int node_count = *rc::gen::inRange(1, 4);
  for (int n = 0; n < node_count; ++n) cache.SetNode(MakeNode("node-" + std::to_string(n)));
  const int steps = *rc::gen::inRange(1, 40);
  for (int i = 0; i < steps; ++i) {
    // Nodes come and go too: a pod bound to a node the cache lost is counted again once the
    // node is back.
    if (*rc::gen::inRange(0, 6) == 0) {
      const std::string node = "node-" + std::to_string(*rc::gen::inRange(0, node_count + 1));
      if (cache.HasNode(node)) {
        cache.RemoveNode(node);
      } else {
        cache.SetNode(MakeNode(node));
      }
      continue;
    }
    const std::string name = "p" + std::to_string(*rc::gen::inRange(0, 8));
    const store::ObjectName key{"default", name};
    if (*rc::gen::arbitrary<bool>()) {
      cache.RemovePod(key);
      continue;
    }
    api::Pod pod = MakePod(name, {{"cpu", Q(std::to_string(*rc::gen::inRange(0, 3)))},
                                  {"nvidia.com/gpu", Q(std::to_string(*rc::gen::inRange(0, 2)))}});
    pod.spec.node_name = "node-" + std::to_string(*rc::gen::inRange(0, node_count + 1));
    cache.SetPod(key, std::make_shared<const api::Pod>(std::move(pod)),
                 nullptr);  // node-<count> is unknown: held, not counted
  }
  for (std::size_t i = 1; i < cache.nodes().size(); ++i) {
    RC_ASSERT(cache.nodes()[i - 1].node->metadata.name < cache.nodes()[i].node->metadata.name);
  }
  for (const NodeInfo& info : cache.nodes()) {
    RC_ASSERT(info.totals.has_value());
    // Exactly the cached pods bound to this node are attached to it.
    std::size_t bound = 0;
    for (int p = 0; p < 8; ++p) {
      const SchedulerCache::CachedPod* cached = cache.FindPod({"default", "p" + std::to_string(p)});
      if (cached != nullptr && cached->pod->spec.node_name == info.node->metadata.name) ++bound;
    }
    RC_ASSERT(info.pods.size() == bound);
    NodeInfo bare{info.node, info.pods, std::nullopt};
    std::optional<NodeTotals> scratch;
    const NodeTotals& computed = scheduler::TotalsOf(bare, scratch);
    auto nonzero_entries = [](const ResourceAmounts& amounts) {
      ResourceAmounts out;
      for (const auto& [name, amount] : amounts) {
        if (amount != 0) out[name] = amount;
      }
      return out;
    };
    RC_ASSERT(nonzero_entries(info.totals->requested) == nonzero_entries(computed.requested));
    RC_ASSERT(info.totals->nonzero == computed.nonzero);
    RC_ASSERT(info.totals->scored_capacity == computed.scored_capacity);
    RC_ASSERT(info.totals->scored_requested == computed.scored_requested);
    RC_ASSERT(info.totals->allowed_pods == computed.allowed_pods);
    RC_ASSERT(info.totals->allocatable == computed.allocatable);
  }
}

}  // namespace
}  // namespace lws::cluster
