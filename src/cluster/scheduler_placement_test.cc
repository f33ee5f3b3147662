// Placement scenarios for the scheduler (scheduler_plan.h): GPU packing, LWS exclusive
// placement (spec section 16) through required pod affinity and anti-affinity, namespaces of
// affinity terms, and independence from input order.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "api/exclusive_placement.h"
#include "cluster/scheduler_plan.h"
#include "cluster/scheduler_testing.h"

namespace lws::cluster {
namespace {

using namespace scheduler_testing;  // NOLINT: test builders

constexpr char kGroupKey[] = "leaderworkerset.sigs.k8s.io/group-key";
constexpr char kRack[] = "example.com/rack";

api::Pod GpuPod(const std::string& name, int gpus, api::StringMap labels = {}) {
  return MakePod(name, {{"cpu", Q("1")}, {"nvidia.com/gpu", Q(std::to_string(gpus))}},
                 std::move(labels));
}

// ---- GPU packing on 8-GPU nodes --------------------------------------------------------------

TEST(GpuPacking, WholeNodeThenHalves) {
  Cluster cluster;
  cluster.Add(MakeNode("gpu-a"));
  cluster.Add(MakeNode("gpu-b"));
  EXPECT_EQ(cluster.Place(GpuPod("eight", 8)), "gpu-a");  // tie: first name
  EXPECT_EQ(cluster.Place(GpuPod("four-1", 4)), "gpu-b");
  EXPECT_EQ(cluster.Place(GpuPod("four-2", 4)), "gpu-b");
  ScheduleResult r = SchedulePod(GpuPod("more", 1), cluster.infos);
  EXPECT_EQ(r.message,
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are "
            "available: 2 No preemption victims found for incoming pod..");
}

TEST(GpuPacking, LeastAllocatedSpreadsHalvesAndStrandsAWholeNodePod) {
  // The default profile spreads (LeastAllocated), so two 4-GPU pods take one node each and an
  // 8-GPU pod no longer fits anywhere: the fragmentation a real cluster shows.
  Cluster cluster;
  cluster.Add(MakeNode("gpu-a"));
  cluster.Add(MakeNode("gpu-b"));
  EXPECT_EQ(cluster.Place(GpuPod("four-1", 4)), "gpu-a");
  EXPECT_EQ(cluster.Place(GpuPod("four-2", 4)), "gpu-b");
  ScheduleResult r = SchedulePod(GpuPod("eight", 8), cluster.infos);
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.reasons, (std::map<std::string, int>{{"Insufficient nvidia.com/gpu", 2}}));
  EXPECT_EQ(cluster.Place(GpuPod("four-3", 4)), "gpu-a");
  EXPECT_EQ(cluster.Place(GpuPod("four-4", 4)), "gpu-b");
}

// ---- LWS exclusive placement -----------------------------------------------------------------

// Two racks of two 8-GPU nodes: n1, n2 in r1 and n3, n4 in r2.
Cluster TwoRacks() {
  Cluster cluster;
  cluster.Add(MakeNode("n1", {{kRack, "r1"}}));
  cluster.Add(MakeNode("n2", {{kRack, "r1"}}));
  cluster.Add(MakeNode("n3", {{kRack, "r2"}}));
  cluster.Add(MakeNode("n4", {{kRack, "r2"}}));
  return cluster;
}

// A leader pod of group `key` with the terms the LWS pod webhook injects.
api::Pod Leader(const std::string& key, int gpus = 4) {
  api::Pod pod = GpuPod("leader-" + key, gpus, {{kGroupKey, key}});
  api::SetExclusiveAffinities(&pod, key, kRack, kGroupKey);
  return pod;
}

// A worker pod of group `key`; LWS pins workers to the leader's domain with a nodeSelector
// (`rack` empty leaves it unpinned).
api::Pod Worker(const std::string& key, const std::string& rack, int gpus = 4) {
  api::Pod pod = GpuPod("worker-" + key, gpus, {{kGroupKey, key}});
  if (!rack.empty()) pod.spec.node_selector = {{kRack, rack}};
  return pod;
}

TEST(ExclusivePlacement, OneGroupOwnsOneDomainAndTwoGroupsNeverShare) {
  Cluster cluster = TwoRacks();
  // The first leader matches its own affinity term: it may open a domain.
  EXPECT_EQ(cluster.Place(Leader("A")), "n1");
  EXPECT_EQ(cluster.Place(Worker("A", "r1")), "n2");

  // Leader B is kept out of r1 by its own anti-affinity (group A's pods are there).
  ScheduleResult b = SchedulePod(Leader("B"), cluster.infos);
  EXPECT_EQ(b.node_name, "n3");
  EXPECT_EQ(cluster.Place(Leader("B")), "n3");

  // An unpinned pod of group B is kept out of r1 by leader A's anti-affinity (symmetric check).
  ScheduleResult w = SchedulePod(Worker("B", ""), cluster.infos);
  EXPECT_EQ(w.node_name, "n4");

  // A third group finds no free domain.
  ScheduleResult c = SchedulePod(Leader("C"), cluster.infos);
  EXPECT_EQ(c.node_name, "");
  EXPECT_EQ(c.message,
            "0/4 nodes are available: 4 node(s) didn't match pod anti-affinity rules. preemption: "
            "0/4 nodes are available: 4 No preemption victims found for incoming pod..");
}

TEST(ExclusivePlacement, ExistingPodsAntiAffinityReason) {
  Cluster cluster = TwoRacks();
  cluster.Place(Leader("A"));
  api::Pod stray = Worker("B", "r1");  // pinned into A's domain, no terms of its own
  ScheduleResult r = SchedulePod(stray, cluster.infos);
  EXPECT_EQ(r.reasons, (std::map<std::string, int>{
                           {"node(s) didn't match Pod's node affinity/selector", 2},
                           {"node(s) didn't satisfy existing pods anti-affinity rules", 2}}));
  // A pod without the group-key label is not excluded (the term needs the label to exist).
  EXPECT_EQ(SchedulePod(GpuPod("plain", 1), cluster.infos).node_name, "n2");
}

TEST(ExclusivePlacement, AffinityKeepsTheGroupInItsDomain) {
  Cluster cluster = TwoRacks();
  cluster.Place(Leader("A"));
  // Another pod of group A with the same terms (e.g. a subgroup pod) must join rack r1, even
  // where r2 is emptier.
  EXPECT_EQ(SchedulePod(Leader("A"), cluster.infos).node_name, "n2");
  EXPECT_EQ(cluster.Place(Worker("A", "r1")), "n2");
  EXPECT_EQ(SchedulePod(Leader("A"), cluster.infos).node_name, "n1");  // equal load: first name
  ScheduleResult full = SchedulePod(Leader("A", 8), cluster.infos);
  EXPECT_EQ(full.message,
            "0/4 nodes are available: 2 Insufficient nvidia.com/gpu, 2 node(s) didn't match pod "
            "affinity rules. preemption: 0/4 nodes are available: 2 No preemption victims found "
            "for incoming pod, 2 Preemption is not helpful for scheduling..");
}

// ---- Pod affinity details --------------------------------------------------------------------

api::PodAffinityTerm TermFor(api::StringMap labels, std::string topology_key,
                             std::vector<std::string> namespaces = {}) {
  api::PodAffinityTerm term;
  term.label_selector.emplace().match_labels = std::move(labels);
  term.topology_key = std::move(topology_key);
  term.namespaces = std::move(namespaces);
  return term;
}

TEST(PodAffinity, NoMatchingPodAndNoSelfMatchIsUnschedulable) {
  Cluster cluster = TwoRacks();
  api::Pod pod = GpuPod("web", 1, {{"app", "web"}});
  pod.spec.affinity.emplace().pod_affinity.emplace().required = {TermFor({{"app", "db"}}, kRack)};
  ScheduleResult r = SchedulePod(pod, cluster.infos);
  EXPECT_EQ(r.reasons,
            (std::map<std::string, int>{{"node(s) didn't match pod affinity rules", 4}}));
  EXPECT_EQ(r.message,
            "0/4 nodes are available: 4 node(s) didn't match pod affinity rules. preemption: 0/4 "
            "nodes are available: 4 Preemption is not helpful for scheduling..");
  cluster.Bind(3, GpuPod("db", 1, {{"app", "db"}}));
  EXPECT_EQ(SchedulePod(pod, cluster.infos).node_name, "n3");  // r2, the less loaded node
}

TEST(PodAffinity, NodeWithoutTopologyLabelFails) {
  Cluster cluster;
  cluster.Add(MakeNode("bare"));
  api::Pod pod = GpuPod("web", 1, {{"app", "web"}});
  pod.spec.affinity.emplace().pod_affinity.emplace().required = {TermFor({{"app", "web"}}, kRack)};
  EXPECT_EQ(SchedulePod(pod, cluster.infos).reasons,
            (std::map<std::string, int>{{"node(s) didn't match pod affinity rules", 1}}));
}

TEST(PodAntiAffinity, TermsApplyToTheirNamespaces) {
  Cluster cluster;
  cluster.Add(MakeNode("n1", {{kRack, "r1"}}));
  api::Pod other = GpuPod("db", 1, {{"app", "db"}});
  other.metadata.namespace_ = "other";
  cluster.Bind(0, other);
  api::Pod pod = GpuPod("web", 1, {{"app", "web"}});
  auto& anti = pod.spec.affinity.emplace().pod_anti_affinity.emplace().required;
  anti = {TermFor({{"app", "db"}}, kRack)};  // the pod's own namespace only
  EXPECT_EQ(SchedulePod(pod, cluster.infos).node_name, "n1");
  anti = {TermFor({{"app", "db"}}, kRack, {"other"})};
  EXPECT_EQ(SchedulePod(pod, cluster.infos).reasons,
            (std::map<std::string, int>{{"node(s) didn't match pod anti-affinity rules", 1}}));
  anti = {TermFor({{"app", "db"}}, kRack)};
  anti[0].rest = {{"namespaceSelector", api::Json::object()}};  // every namespace
  EXPECT_EQ(SchedulePod(pod, cluster.infos).node_name, "");
}

// ---- Determinism -----------------------------------------------------------------------------

TEST(Determinism, NodeOrderDoesNotChangeTheResult) {
  Cluster cluster;
  for (const char* name : {"n-c", "n-a", "n-e", "n-b", "n-d"}) cluster.Add(MakeNode(name));
  cluster.nodes[2].spec.taints = {Taint("t", "", "NoSchedule")};  // n-e
  cluster.Bind(3, GpuPod("busy", 2));                             // n-b
  cluster.nodes[4].spec.unschedulable = true;                     // n-d
  const api::Pod fits = GpuPod("p", 2);
  const api::Pod too_big = GpuPod("q", 7);
  cluster.Bind(0, GpuPod("busy-c", 2));  // n-c: now n-a is the only empty schedulable node
  std::vector<std::size_t> order(cluster.infos.size());
  std::iota(order.begin(), order.end(), 0);
  const ScheduleResult want_fit = SchedulePod(fits, cluster.infos);
  const ScheduleResult want_none = SchedulePod(too_big, cluster.infos);
  EXPECT_EQ(want_fit.node_name, "n-a");
  int permutations = 0;
  do {
    std::vector<NodeInfo> shuffled;
    for (std::size_t i : order) shuffled.push_back(cluster.infos[i]);
    EXPECT_EQ(SchedulePod(fits, shuffled), want_fit);
    EXPECT_EQ(SchedulePod(too_big, shuffled), want_none);
    ++permutations;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(permutations, 120);
}

TEST(Determinism, EqualScoresGoToTheFirstName) {
  Cluster cluster;
  for (const char* name : {"z", "m", "b", "k"}) cluster.Add(MakeNode(name));
  EXPECT_EQ(SchedulePod(GpuPod("p", 1), cluster.infos).node_name, "b");
  std::reverse(cluster.infos.begin(), cluster.infos.end());
  EXPECT_EQ(SchedulePod(GpuPod("p", 1), cluster.infos).node_name, "b");
}

}  // namespace
}  // namespace lws::cluster
