// File: cluster/scheduler_testing.h
//
// Builders for scheduler tests: Ready nodes with an 8-cpu, 32Gi, 8-GPU shape, pods with
// requests, and a Cluster that keeps NodeInfo pointers stable while pods are bound.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "cluster/scheduler_plan.h"

namespace lws::cluster::scheduler_testing {

inline api::Quantity Q(const std::string& text) { return *api::Quantity::Parse(text); }

inline api::Node MakeNode(const std::string& name, api::StringMap labels = {}) {
  api::Node node;
  node.metadata.name = name;
  node.metadata.labels = std::move(labels);
  node.status.allocatable = {{"cpu", Q("8")},
                             {"memory", Q("32Gi")},
                             {"pods", Q("110")},
                             {"ephemeral-storage", Q("100Gi")},
                             {"nvidia.com/gpu", Q("8")}};
  api::NodeCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  node.status.conditions.push_back(ready);
  return node;
}

inline api::Pod MakePod(const std::string& name, api::ResourceList requests = {},
                        api::StringMap labels = {}) {
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

inline api::NodeSelectorRequirement Expr(std::string key, std::string op,
                                         std::vector<std::string> values = {}) {
  api::NodeSelectorRequirement r;
  r.key = std::move(key);
  r.operator_ = std::move(op);
  r.values = std::move(values);
  return r;
}

inline void RequireNodeAffinity(api::Pod& pod,
                                std::vector<std::vector<api::NodeSelectorRequirement>> terms,
                                bool fields = false) {
  api::NodeSelector selector;
  for (auto& exprs : terms) {
    api::NodeSelectorTerm term;
    (fields ? term.match_fields : term.match_expressions) = std::move(exprs);
    selector.node_selector_terms.push_back(std::move(term));
  }
  pod.spec.affinity.emplace().node_affinity.emplace().required = std::move(selector);
}

inline api::Toleration Tol(std::string key, std::string op, std::string value = "",
                           std::string effect = "") {
  api::Toleration t;
  t.key = std::move(key);
  t.operator_ = std::move(op);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

inline api::Taint Taint(std::string key, std::string value, std::string effect) {
  api::Taint t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

}  // namespace lws::cluster::scheduler_testing
