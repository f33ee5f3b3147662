// Tests of the DaemonSet controller's pure sync (daemonset_plan.h). Cases port upstream
// pkg/controller/daemon/daemon_controller_test.go and update_test.go (the facts: nodes, labels,
// taints and existing pods in; creations and deletions out), each named after its test.
#include "cluster/daemonset_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "api/codec.h"

namespace lws::cluster {
namespace {

using api::Json;
using Kind = DaemonSetActionKind;

const Time kNow = *ParseRfc3339("2026-12-05T12:00:00Z");

api::DaemonSet NewDaemonSet(std::string_view strategy = "RollingUpdate") {
  Result<api::DaemonSet> set = api::Decode<api::DaemonSet>(Json::parse(R"({
    "metadata": {"name": "foo", "namespace": "default", "uid": "u-ds", "generation": 1},
    "spec": {
      "selector": {"matchLabels": {"name": "simple-daemon"}},
      "template": {"metadata": {"labels": {"name": "simple-daemon"}},
                   "spec": {"containers": [{"name": "foo", "image": "foo/bar"}]}},
      "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}
    }})"));
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  set->spec.update_strategy.type = std::string(strategy);
  return *set;
}

std::shared_ptr<const api::Node> NodeOf(const std::string& name, api::StringMap labels = {},
                                        std::vector<api::Taint> taints = {}) {
  api::Node node;
  node.metadata.name = name;
  node.metadata.labels = std::move(labels);
  node.spec.taints = std::move(taints);
  return std::make_shared<const api::Node>(std::move(node));
}

std::shared_ptr<const api::Pod> PodOn(const std::string& name, const std::string& node,
                                      const std::string& hash, bool ready = true,
                                      const std::string& created = "2026-12-05T10:00:00Z") {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.uid = "u-" + name;
  pod.metadata.creation_timestamp = created;
  pod.metadata.labels = {{"name", "simple-daemon"},
                         {std::string(kControllerRevisionHashLabel), hash}};
  pod.spec.node_name = node;
  pod.status.phase = "Running";
  if (ready) {
    api::PodCondition c;
    c.type = "Ready";
    c.status = "True";
    c.last_transition_time = "2026-12-05T11:00:00Z";
    pod.status.conditions.push_back(c);
  }
  return std::make_shared<const api::Pod>(std::move(pod));
}

std::vector<std::shared_ptr<const api::Node>> Nodes(int count, api::StringMap labels = {},
                                                    int first = 0) {
  std::vector<std::shared_ptr<const api::Node>> out;
  for (int i = first; i < first + count; ++i)
    out.push_back(NodeOf("node-" + std::to_string(i), labels));
  return out;
}

int CountOf(const DaemonSetPlan& plan, Kind kind) {
  return static_cast<int>(std::count_if(plan.actions.begin(), plan.actions.end(),
                                        [&](const DaemonSetAction& a) { return a.kind == kind; }));
}

std::set<std::string> CreatedOn(const DaemonSetPlan& plan) {
  std::set<std::string> out;
  for (const DaemonSetAction& a : plan.actions) {
    if (a.kind == Kind::kCreatePod) out.insert(a.name);
  }
  return out;
}

void ExpectSync(const DaemonSetSnapshot& snap, int creations, int deletions) {
  const DaemonSetPlan plan = PlanDaemonSet(snap);
  EXPECT_EQ(CountOf(plan, Kind::kCreatePod), creations);
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), deletions);
}

api::Taint TaintOf(std::string key, std::string value, std::string effect) {
  api::Taint t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

// TestSimpleDaemonSetLaunchesPods, TestOneNodeDaemonLaunchesPod, TestNoNodesDoesNothing, for
// both strategies.
TEST(DaemonSetPlan, LaunchesOnePodPerNode) {
  for (const char* strategy : {"RollingUpdate", "OnDelete"}) {
    SCOPED_TRACE(strategy);
    ExpectSync({NewDaemonSet(strategy), Nodes(5), {}, kNow}, 5, 0);
    ExpectSync({NewDaemonSet(strategy), Nodes(1), {}, kNow}, 1, 0);
    ExpectSync({NewDaemonSet(strategy), {}, {}, kNow}, 0, 0);
  }
}

// TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods: the pod is not bound but pinned by
// one required term with matchFields metadata.name In [node]; plus the daemon tolerations.
TEST(DaemonSetPlan, PodsArePinnedByNodeAffinity) {
  const api::Pod pod = NewDaemonPod(NewDaemonSet(), "node-3", "h1");
  EXPECT_TRUE(pod.spec.node_name.empty());
  ASSERT_TRUE(pod.spec.affinity && pod.spec.affinity->node_affinity &&
              pod.spec.affinity->node_affinity->required);
  const auto& terms = pod.spec.affinity->node_affinity->required->node_selector_terms;
  ASSERT_EQ(terms.size(), 1u);
  ASSERT_EQ(terms[0].match_fields.size(), 1u);
  EXPECT_EQ(terms[0].match_fields[0].key, "metadata.name");
  EXPECT_EQ(terms[0].match_fields[0].operator_, "In");
  EXPECT_EQ(terms[0].match_fields[0].values, std::vector<std::string>{"node-3"});
  EXPECT_EQ(pod.metadata.labels.at("controller-revision-hash"), "h1");
  EXPECT_EQ(pod.metadata.labels.at("pod-template-generation"), "1");
  EXPECT_EQ(pod.metadata.generate_name, "foo-");
  EXPECT_EQ(pod.spec.tolerations.size(), 6u);  // not hostNetwork: no network-unavailable
  ASSERT_EQ(pod.metadata.owner_references.size(), 1u);
  EXPECT_EQ(pod.metadata.owner_references[0].kind, "DaemonSet");
  EXPECT_TRUE(pod.metadata.owner_references[0].block_owner_deletion.value_or(false));
}

// TestDealsWithExistingPods: node-1 keeps its pod, node-2 and node-3 keep their oldest, node-0
// and node-4 get one.
TEST(DaemonSetPlan, DealsWithExistingPods) {
  const api::DaemonSet set = NewDaemonSet();
  const std::string hash = DaemonSetTemplateHash(set);
  DaemonSetSnapshot snap{set, Nodes(5), {}, kNow};
  snap.pods.push_back(PodOn("a", "node-1", hash));
  for (int i = 0; i < 2; ++i) snap.pods.push_back(PodOn("b" + std::to_string(i), "node-2", hash));
  for (int i = 0; i < 5; ++i) snap.pods.push_back(PodOn("c" + std::to_string(i), "node-3", hash));
  const DaemonSetPlan plan = PlanDaemonSet(snap);
  EXPECT_EQ(CreatedOn(plan), (std::set<std::string>{"node-0", "node-4"}));
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 5);
}

// TestSelectorDaemonLaunchesPods and TestSelectorDaemonDeletesUnselectedPods.
TEST(DaemonSetPlan, NodeSelector) {
  api::DaemonSet set = NewDaemonSet();
  set.spec.template_.spec.node_selector = {{"color", "blue"}};
  auto nodes = Nodes(4);
  for (auto& n : Nodes(3, {{"color", "blue"}}, 4)) nodes.push_back(n);
  ExpectSync({set, nodes, {}, kNow}, 3, 0);
  // A pod on an unselected node goes; a selected node without one gets one.
  const std::string hash = DaemonSetTemplateHash(set);
  DaemonSetSnapshot snap{
      set, nodes, {PodOn("x", "node-0", hash), PodOn("y", "node-4", hash)}, kNow};
  const DaemonSetPlan plan = PlanDaemonSet(snap);
  EXPECT_EQ(CreatedOn(plan), (std::set<std::string>{"node-5", "node-6"}));
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 1);
  EXPECT_EQ(plan.status.number_misscheduled, 1);
  EXPECT_EQ(plan.status.desired_number_scheduled, 3);
}

// TestNodeAffinityDaemonLaunchesPods: required terms of the template select the nodes.
TEST(DaemonSetPlan, RequiredNodeAffinity) {
  api::DaemonSet set = NewDaemonSet();
  api::NodeSelectorRequirement r;
  r.key = "color";
  r.operator_ = "In";
  r.values = {"blue"};
  api::NodeSelectorTerm term;
  term.match_expressions.push_back(r);
  set.spec.template_.spec.affinity.emplace();
  set.spec.template_.spec.affinity->node_affinity.emplace();
  set.spec.template_.spec.affinity->node_affinity->required.emplace();
  set.spec.template_.spec.affinity->node_affinity->required->node_selector_terms.push_back(term);
  auto nodes = Nodes(4);
  for (auto& n : Nodes(3, {{"color", "blue"}}, 4)) nodes.push_back(n);
  ExpectSync({set, nodes, {}, kNow}, 3, 0);
}

// TestTaintedNodeDaemonDoesNotLaunchIntolerantPods, TestTaintedNodeDaemonLaunchesToleratePod,
// TestUnschedulableNodeDaemonDoesLaunchPod, TestNotReadyNodeDaemonDoesLaunchPod (the
// lifecycle controller's not-ready taint) and the NoExecute eviction of a running pod.
TEST(DaemonSetPlan, TaintsAndTolerations) {
  const api::DaemonSet set = NewDaemonSet();
  const auto dedicated = TaintOf("dedicated", "user1", "NoSchedule");
  ExpectSync({set, {NodeOf("tainted", {}, {dedicated})}, {}, kNow}, 0, 0);

  api::DaemonSet tolerant = set;
  api::Toleration t;
  t.key = "dedicated";
  t.operator_ = "Equal";
  t.value = "user1";
  t.effect = "NoSchedule";
  tolerant.spec.template_.spec.tolerations.push_back(t);
  ExpectSync({tolerant, {NodeOf("tainted", {}, {dedicated})}, {}, kNow}, 1, 0);

  api::Node unschedulable =
      *NodeOf("cordoned", {}, {TaintOf("node.kubernetes.io/unschedulable", "", "NoSchedule")});
  unschedulable.spec.unschedulable = true;
  ExpectSync({set, {std::make_shared<const api::Node>(unschedulable)}, {}, kNow}, 1, 0);
  ExpectSync({set,
              {NodeOf("not-ready", {}, {TaintOf("node.kubernetes.io/not-ready", "", "NoExecute")})},
              {},
              kNow},
             1, 0);

  // NoSchedule keeps a running pod; NoExecute evicts it.
  const std::string hash = DaemonSetTemplateHash(set);
  ExpectSync({set, {NodeOf("n", {}, {dedicated})}, {PodOn("p", "n", hash)}, kNow}, 0, 0);
  ExpectSync({set,
              {NodeOf("n", {}, {TaintOf("dedicated", "user1", "NoExecute")})},
              {PodOn("p", "n", hash)},
              kNow},
             0, 1);
}

// update_test.go TestDaemonSetUpdatesPods: with maxUnavailable 2 and every pod ready and old,
// two go per sync; their nodes get new pods on the next; TestDaemonSetUpdatesWhenNewPodIsNotReady:
// an unready new pod holds the budget.
TEST(DaemonSetPlan, RollingUpdateHonoursMaxUnavailable) {
  api::DaemonSet set = NewDaemonSet();
  set.spec.update_strategy.rolling_update->max_unavailable = api::IntOrString::FromInt(2);
  DaemonSetSnapshot snap{set, Nodes(5), {}, kNow};
  for (int i = 0; i < 5; ++i)
    snap.pods.push_back(PodOn("old" + std::to_string(i), "node-" + std::to_string(i), "old"));
  DaemonSetPlan plan = PlanDaemonSet(snap);
  EXPECT_EQ(CountOf(plan, Kind::kCreatePod), 0);
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 2);
  EXPECT_EQ(plan.status.updated_number_scheduled, 0);

  // Two nodes have new pods, one not ready yet: one more old pod may go.
  const std::string hash = DaemonSetTemplateHash(set);
  snap.pods.erase(snap.pods.begin(), snap.pods.begin() + 2);
  snap.pods.push_back(PodOn("new0", "node-0", hash, true));
  snap.pods.push_back(PodOn("new1", "node-1", hash, false));
  plan = PlanDaemonSet(snap);
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 1);
  EXPECT_EQ(plan.status.updated_number_scheduled, 2);
  EXPECT_EQ(plan.status.number_ready, 4);
  EXPECT_EQ(plan.status.number_unavailable, 1);

  // OnDelete never deletes for an update.
  snap.set.spec.update_strategy.type = "OnDelete";
  EXPECT_EQ(CountOf(PlanDaemonSet(snap), Kind::kDeletePod), 0);
}

TEST(DaemonSetPlan, StatusCounts) {
  const api::DaemonSet set = NewDaemonSet();
  const std::string hash = DaemonSetTemplateHash(set);
  DaemonSetSnapshot snap{
      set, Nodes(3), {PodOn("a", "node-0", hash), PodOn("b", "node-1", hash, false)}, kNow};
  const DaemonSetPlan plan = PlanDaemonSet(snap);
  EXPECT_EQ(plan.status.desired_number_scheduled, 3);
  EXPECT_EQ(plan.status.current_number_scheduled, 2);
  EXPECT_EQ(plan.status.number_ready, 1);
  EXPECT_EQ(plan.status.number_available, 1);
  EXPECT_EQ(plan.status.updated_number_scheduled, 2);
  EXPECT_EQ(plan.status.observed_generation, 1);
  EXPECT_EQ(CountOf(plan, Kind::kUpdateStatus), 1);
}

// A template change changes the hash; the same template keeps it.
TEST(DaemonSetPlan, TemplateHash) {
  api::DaemonSet set = NewDaemonSet();
  const std::string before = DaemonSetTemplateHash(set);
  EXPECT_EQ(DaemonSetTemplateHash(set), before);
  set.spec.template_.spec.containers[0].image = "foo/bar:2";
  EXPECT_NE(DaemonSetTemplateHash(set), before);
}

}  // namespace
}  // namespace lws::cluster
