// Tests of the scheduler's pure decisions (scheduler_plan.h): each filter alone, combined
// messages, resource accounting, GPU packing, LWS exclusive placement and determinism.
#include "cluster/scheduler_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>

#include "api/exclusive_placement.h"

namespace lws::cluster {
namespace {

api::Quantity Q(const std::string& text) { return *api::Quantity::Parse(text); }

api::Node MakeNode(const std::string& name, api::StringMap labels = {}) {
  api::Node node;
  node.metadata.name = name;
  node.metadata.labels = std::move(labels);
  node.status.allocatable = {{"cpu", Q("8")}, {"memory", Q("32Gi")}, {"pods", Q("110")},
                             {"ephemeral-storage", Q("100Gi")}, {"nvidia.com/gpu", Q("8")}};
  api::NodeCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  node.status.conditions.push_back(ready);
  return node;
}

api::Pod MakePod(const std::string& name, api::ResourceList requests = {}, api::StringMap labels = {}) {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = std::move(labels);
  api::Container c;
  c.name = "main";
  c.resources.requests = std::move(requests);
  pod.spec.containers.push_back(c);
  return pod;
}

// A cluster whose NodeInfos point into stable storage.
struct Cluster {
  std::deque<api::Node> nodes;
  std::deque<api::Pod> pods;
  std::vector<NodeInfo> infos;
  api::Node& Add(api::Node node) {
    nodes.push_back(std::move(node));
    infos.push_back(NodeInfo{&nodes.back(), {}});
    return nodes.back();
  }
  // Binds `pod` to the node at `index`.
  void Bind(std::size_t index, api::Pod pod) {
    pod.spec.node_name = nodes[index].metadata.name;
    pods.push_back(std::move(pod));
    infos[index].pods.push_back(&pods.back());
  }
  // Schedules `pod` and binds it where it lands; returns the node name ("" if none).
  std::string Place(api::Pod pod) {
    ScheduleResult r = SchedulePod(pod, infos);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].metadata.name == r.node_name) Bind(i, pod);
    }
    return r.node_name;
  }
};

api::NodeSelectorRequirement Expr(std::string key, std::string op, std::vector<std::string> values = {}) {
  api::NodeSelectorRequirement r;
  r.key = std::move(key);
  r.operator_ = std::move(op);
  r.values = std::move(values);
  return r;
}

void RequireNodeAffinity(api::Pod& pod, std::vector<std::vector<api::NodeSelectorRequirement>> terms,
                         bool fields = false) {
  api::NodeSelector selector;
  for (auto& exprs : terms) {
    api::NodeSelectorTerm term;
    (fields ? term.match_fields : term.match_expressions) = std::move(exprs);
    selector.node_selector_terms.push_back(std::move(term));
  }
  pod.spec.affinity.emplace().node_affinity.emplace().required = std::move(selector);
}

api::Toleration Tol(std::string key, std::string op, std::string value = "", std::string effect = "") {
  api::Toleration t;
  t.key = std::move(key);
  t.operator_ = std::move(op);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

api::Taint Taint(std::string key, std::string value, std::string effect) {
  api::Taint t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

// ---- Every filter rule alone, on a one-node cluster -------------------------------------------

struct RuleCase {
  std::string name;
  std::function<void(api::Node&)> node;
  std::function<void(api::Pod&)> pod;
  std::string reason;  // "" when the pod fits
};

class FilterRuleTest : public ::testing::TestWithParam<RuleCase> {};

TEST_P(FilterRuleTest, SingleNode) {
  const RuleCase& c = GetParam();
  Cluster cluster;
  api::Node& node = cluster.Add(MakeNode("node-a", {{"zone", "z1"}, {"rank", "5"}}));
  if (c.node) c.node(node);
  api::Pod pod = MakePod("p", {{"cpu", Q("1")}, {"memory", Q("1Gi")}});
  if (c.pod) c.pod(pod);
  ScheduleResult r = SchedulePod(pod, cluster.infos);
  if (c.reason.empty()) {
    EXPECT_EQ(r.node_name, "node-a") << r.message;
    EXPECT_TRUE(r.reasons.empty());
    return;
  }
  EXPECT_EQ(r.node_name, "");
  EXPECT_EQ(r.condition_reason, "Unschedulable");
  EXPECT_EQ(r.reasons, (std::map<std::string, int>{{c.reason, 1}}));
  EXPECT_EQ(r.message.rfind("0/1 nodes are available: 1 " + c.reason + ". preemption: ", 0), 0u)
      << r.message;
}

auto SetResource(std::string name, std::string amount) {
  return [=](api::Pod& p) { p.spec.containers[0].resources.requests[name] = Q(amount); };
}

const RuleCase kRuleCases[] = {
    {"Fits", nullptr, nullptr, ""},
    {"Unschedulable", [](api::Node& n) { n.spec.unschedulable = true; }, nullptr,
     "node(s) were unschedulable"},
    {"UnschedulableTolerated", [](api::Node& n) { n.spec.unschedulable = true; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("node.kubernetes.io/unschedulable", "Exists")}; }, ""},
    {"TaintNoSchedule", [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     nullptr, "node(s) had untolerated taint {gpu: a100}"},
    {"TaintNoExecute", [](api::Node& n) { n.spec.taints = {Taint("k", "", "NoExecute")}; }, nullptr,
     "node(s) had untolerated taint {k: }"},
    {"TaintPreferNoScheduleIgnored",
     [](api::Node& n) { n.spec.taints = {Taint("k", "v", "PreferNoSchedule")}; }, nullptr, ""},
    {"TaintFirstUntoleratedReported",
     [](api::Node& n) { n.spec.taints = {Taint("a", "1", "NoSchedule"), Taint("b", "2", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("a", "Equal", "1")}; },
     "node(s) had untolerated taint {b: 2}"},
    {"TolerationEqual", [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "Equal", "a100", "NoSchedule")}; }, ""},
    {"TolerationDefaultOperatorIsEqual",
     [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "", "h100")}; },
     "node(s) had untolerated taint {gpu: a100}"},
    {"TolerationExists", [](api::Node& n) { n.spec.taints = {Taint("gpu", "a100", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "Exists")}; }, ""},
    {"TolerationEmptyKeyExistsToleratesAll",
     [](api::Node& n) { n.spec.taints = {Taint("x", "1", "NoSchedule"), Taint("y", "", "NoExecute")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("", "Exists")}; }, ""},
    {"TolerationWrongEffect", [](api::Node& n) { n.spec.taints = {Taint("gpu", "", "NoSchedule")}; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("gpu", "Exists", "", "NoExecute")}; },
     "node(s) had untolerated taint {gpu: }"},
    {"NotReady", [](api::Node& n) { n.status.conditions[0].status = "False"; }, nullptr,
     "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
    {"NoReadyCondition", [](api::Node& n) { n.status.conditions.clear(); }, nullptr,
     "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
    {"ReadyUnknown", [](api::Node& n) { n.status.conditions[0].status = "Unknown"; }, nullptr,
     "node(s) had untolerated taint {node.kubernetes.io/unreachable: }"},
    {"NotReadyNoExecuteTolerationIsNotEnough", [](api::Node& n) { n.status.conditions[0].status = "False"; },
     [](api::Pod& p) { p.spec.tolerations = {Tol("node.kubernetes.io/not-ready", "Exists", "", "NoExecute")}; },
     "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
    {"NodeSelectorMatches", nullptr, [](api::Pod& p) { p.spec.node_selector = {{"zone", "z1"}}; }, ""},
    {"NodeSelectorMismatch", nullptr, [](api::Pod& p) { p.spec.node_selector = {{"zone", "z2"}}; },
     "node(s) didn't match Pod's node affinity/selector"},
    {"NodeSelectorMissingLabel", nullptr, [](api::Pod& p) { p.spec.node_selector = {{"rack", "r1"}}; },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityIn", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "In", {"z0", "z1"})}}); }, ""},
    {"AffinityInMismatch", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "In", {"z2"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityNotIn", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "NotIn", {"z1"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityNotInAbsentKey", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rack", "NotIn", {"r1"})}}); }, ""},
    {"AffinityExists", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rack", "Exists")}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityDoesNotExist", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rack", "DoesNotExist")}}); }, ""},
    {"AffinityGt", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rank", "Gt", {"4"})}}); }, ""},
    {"AffinityGtFails", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rank", "Gt", {"5"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityLt", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("rank", "Lt", {"6"})}}); }, ""},
    {"AffinityLtNonInteger", nullptr, [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "Lt", {"6"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityExpressionsAnded", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "In", {"z1"}), Expr("rank", "Gt", {"9"})}}); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"AffinityTermsOred", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("zone", "In", {"z9"})}, {Expr("rank", "Lt", {"9"})}}); }, ""},
    {"AffinityMatchFieldsName", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("metadata.name", "In", {"node-a"})}}, true); }, ""},
    {"AffinityMatchFieldsOtherName", nullptr,
     [](api::Pod& p) { RequireNodeAffinity(p, {{Expr("metadata.name", "In", {"node-b"})}}, true); },
     "node(s) didn't match Pod's node affinity/selector"},
    {"InsufficientCpu", nullptr, SetResource("cpu", "8001m"), "Insufficient cpu"},
    {"CpuExactlyFits", nullptr, SetResource("cpu", "8"), ""},
    {"InsufficientMemory", nullptr, SetResource("memory", "33Gi"), "Insufficient memory"},
    {"InsufficientEphemeralStorage", nullptr, SetResource("ephemeral-storage", "101Gi"),
     "Insufficient ephemeral-storage"},
    {"InsufficientGpu", nullptr, SetResource("nvidia.com/gpu", "9"), "Insufficient nvidia.com/gpu"},
    {"InsufficientTpu", nullptr, SetResource("google.com/tpu", "4"), "Insufficient google.com/tpu"},
    {"InsufficientExtended", nullptr, SetResource("example.com/fpga", "1"), "Insufficient example.com/fpga"},
    {"UnaccountedResourceIgnored", nullptr, SetResource("widgets", "5"), ""},
    {"GpuLimitOnlyIsRequested", nullptr,
     [](api::Pod& p) { p.spec.containers[0].resources.limits["nvidia.com/gpu"] = Q("9"); },
     "Insufficient nvidia.com/gpu"},
    {"TooManyPods", [](api::Node& n) { n.status.allocatable["pods"] = Q("0"); }, nullptr, "Too many pods"},
    {"InitContainerPeak", nullptr,
     [](api::Pod& p) {
       api::Container init;
       init.name = "init";
       init.resources.requests["cpu"] = Q("9");
       p.spec.init_containers.push_back(init);
     },
     "Insufficient cpu"},
    {"OverheadCounts", nullptr, [](api::Pod& p) { p.spec.overhead["cpu"] = Q("7500m"); }, "Insufficient cpu"},
};

INSTANTIATE_TEST_SUITE_P(Rules, FilterRuleTest, ::testing::ValuesIn(kRuleCases),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace lws::cluster
