// PlaceGang (scheduler_gang.h): Volcano's all-or-nothing placement of a PodGroup, case by case.
#include "cluster/scheduler_gang.h"

#include <gtest/gtest.h>

#include "cluster/scheduler_testing.h"

namespace lws::cluster {
namespace {

using scheduler_testing::Cluster;
using scheduler_testing::MakeNode;
using scheduler_testing::MakePod;
using scheduler_testing::Q;

// Two nodes of 8 GPUs; pods of 4 GPUs.
struct GangFixture {
  Cluster cluster;
  std::deque<api::Pod> pods;
  GangFixture() {
    cluster.Add(MakeNode("n1"));
    cluster.Add(MakeNode("n2"));
  }
  std::vector<const api::Pod*> Waiting(int n, const std::string& prefix = "g") {
    std::vector<const api::Pod*> out;
    for (int i = 0; i < n; ++i) {
      pods.push_back(MakePod(prefix + "-" + std::to_string(i), {{"nvidia.com/gpu", Q("4")}}));
      out.push_back(&pods.back());
    }
    return out;
  }
};

TEST(PlaceGang, AGroupThatFitsIsPlacedWhole) {
  GangFixture f;
  GangPlacement p = PlaceGang(f.Waiting(4), 0, {4, {}}, f.cluster.infos);
  ASSERT_TRUE(p.admitted) << p.message;
  ASSERT_EQ(p.placed.size(), 4u);
  // Each placement counted the earlier ones: two pods per node.
  int on_n1 = 0;
  for (const auto& [index, node] : p.placed) on_n1 += node == "n1";
  EXPECT_EQ(on_n1, 2);
}

TEST(PlaceGang, AGroupThatFitsOnlyInPartGetsNothing) {
  GangFixture f;
  f.cluster.Bind(0, MakePod("other", {{"nvidia.com/gpu", Q("8")}}));
  GangPlacement p = PlaceGang(f.Waiting(3), 0, {3, {}}, f.cluster.infos);
  EXPECT_FALSE(p.admitted);
  EXPECT_TRUE(p.placed.empty());
  EXPECT_EQ(p.reason, "Unschedulable");
  EXPECT_EQ(p.message.rfind("1/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 "
                            "minAvailable; Pending: 1 Unschedulable, 2 Schedulable.",
                            0),
            0u)
      << p.message;
}

TEST(PlaceGang, NotEnoughMembersYet) {
  GangFixture f;
  GangPlacement p = PlaceGang(f.Waiting(1), 0, {4, {}}, f.cluster.infos);
  EXPECT_FALSE(p.admitted);
  EXPECT_EQ(p.reason, "NotEnoughPods");
  EXPECT_EQ(p.message,
            "1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 4 "
            "minAvailable; Pending: 1 Unschedulable");
  // With members already bound, the waiting ones only need to make up the rest.
  GangPlacement rest = PlaceGang(f.Waiting(1, "late"), 3, {4, {}}, f.cluster.infos);
  EXPECT_TRUE(rest.admitted);
}

TEST(PlaceGang, MinResourcesGateTheFirstPlacement) {
  GangFixture f;
  GangSpec gang{2, {{"nvidia.com/gpu", Q("24")}}};  // more than the 16 GPUs of the cluster
  GangPlacement p = PlaceGang(f.Waiting(2), 0, gang, f.cluster.infos);
  EXPECT_FALSE(p.admitted);
  EXPECT_EQ(p.reason, "NotEnoughResources");
  gang.min_resources = {{"nvidia.com/gpu", Q("8")}};
  EXPECT_TRUE(PlaceGang(f.Waiting(2, "h"), 0, gang, f.cluster.infos).admitted);
}

TEST(PlaceGang, MembersBeyondMinMemberMayWait) {
  GangFixture f;
  f.cluster.Bind(0, MakePod("other", {{"nvidia.com/gpu", Q("8")}}));
  GangPlacement p = PlaceGang(f.Waiting(3), 0, {2, {}}, f.cluster.infos);
  ASSERT_TRUE(p.admitted);
  EXPECT_EQ(p.placed.size(), 2u);
}

}  // namespace
}  // namespace lws::cluster
