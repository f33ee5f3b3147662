// The node-local filters of the scheduler (scheduler_filters.h): NodeUnschedulable,
// TaintToleration and NodeAffinity, with kube-scheduler v1.32's semantics and reasons.
#include "cluster/scheduler_filters.h"

#include <optional>

#include "api/selector.h"

namespace lws::cluster::scheduler {
namespace {

constexpr std::string_view kTaintUnschedulable = "node.kubernetes.io/unschedulable";
constexpr std::string_view kTaintNotReady = "node.kubernetes.io/not-ready";
constexpr std::string_view kTaintUnreachable = "node.kubernetes.io/unreachable";

bool ToleratesOne(const api::Toleration& toleration, const api::Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  if (toleration.operator_.empty() || toleration.operator_ == "Equal") {
    return toleration.value == taint.value;
  }
  return toleration.operator_ == "Exists";
}

api::Taint MakeTaint(std::string_view key, std::string_view effect) {
  api::Taint taint;
  taint.key = std::string(key);
  taint.effect = std::string(effect);
  return taint;
}

std::optional<api::SelectionOperator> NodeSelectorOperator(std::string_view op) {
  if (op == "In") return api::SelectionOperator::kIn;
  if (op == "NotIn") return api::SelectionOperator::kNotIn;
  if (op == "Exists") return api::SelectionOperator::kExists;
  if (op == "DoesNotExist") return api::SelectionOperator::kDoesNotExist;
  if (op == "Gt") return api::SelectionOperator::kGreaterThan;
  if (op == "Lt") return api::SelectionOperator::kLessThan;
  return std::nullopt;
}

// A matchFields requirement: only metadata.name with In or NotIn and exactly one value is valid
// (upstream nodeSelectorRequirementsAsFieldSelector); nullopt when invalid.
std::optional<bool> FieldMatches(const api::NodeSelectorRequirement& r, const api::Node& node) {
  if (r.key != "metadata.name" || r.values.size() != 1) return std::nullopt;
  if (r.operator_ == "In") return node.metadata.name == r.values[0];
  if (r.operator_ == "NotIn") return node.metadata.name != r.values[0];
  return std::nullopt;
}

// A term matches when every expression and field requirement does. An empty term, or one with
// an invalid requirement, matches nothing (upstream's lazy-error node selector).
bool TermMatches(const api::NodeSelectorTerm& term, const api::Node& node) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const api::NodeSelectorRequirement& r : term.match_expressions) {
    auto op = NodeSelectorOperator(r.operator_);
    if (!op) return false;
    auto requirement = api::Requirement::Make(r.key, *op, r.values);
    if (!requirement.ok() || !requirement->Matches(node.metadata.labels)) return false;
  }
  for (const api::NodeSelectorRequirement& r : term.match_fields) {
    auto matches = FieldMatches(r, node);
    if (!matches || !*matches) return false;
  }
  return true;
}

bool RequiredAffinityMatches(const api::Pod& pod, const api::Node& node) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity || !affinity->node_affinity || !affinity->node_affinity->required) return true;
  for (const api::NodeSelectorTerm& term : affinity->node_affinity->required->node_selector_terms) {
    if (TermMatches(term, node)) return true;  // terms are ORed
  }
  return false;
}

FilterStatus Reject(std::string_view reason, bool resolvable = false) {
  FilterStatus status;
  status.reasons.emplace_back(reason);
  status.resolvable = resolvable;
  return status;
}

}  // namespace

std::optional<api::Taint> LifecycleTaint(const api::Node& node) {
  std::string_view ready = "False";
  for (const api::NodeCondition& c : node.status.conditions) {
    if (c.type == "Ready") ready = c.status;
  }
  if (ready == "True") return std::nullopt;
  const std::string_view key = ready == "Unknown" ? kTaintUnreachable : kTaintNotReady;
  for (const api::Taint& t : node.spec.taints) {
    if (t.key == key && t.effect == "NoSchedule") return std::nullopt;
  }
  return MakeTaint(key, "NoSchedule");
}

bool Tolerates(const std::vector<api::Toleration>& tolerations, const api::Taint& taint) {
  for (const api::Toleration& t : tolerations) {
    if (ToleratesOne(t, taint)) return true;
  }
  return false;
}

FilterStatus CheckUnschedulable(const api::Pod& pod, const api::Node& node) {
  if (!node.spec.unschedulable) return {};
  if (Tolerates(pod.spec.tolerations, MakeTaint(kTaintUnschedulable, "NoSchedule"))) return {};
  return Reject(kReasonUnschedulable);
}

// The node's taints are read in place, not copied: the filter runs for every node of every
// attempt.
FilterStatus CheckTaints(const api::Pod& pod, const api::Node& node,
                         const std::optional<api::Taint>& lifecycle) {
  auto untolerated = [&pod](const api::Taint& taint) {
    return (taint.effect == "NoSchedule" || taint.effect == "NoExecute") &&
           !Tolerates(pod.spec.tolerations, taint);
  };
  auto reject = [](const api::Taint& taint) {
    return Reject("node(s) had untolerated taint {" + taint.key + ": " + taint.value + "}");
  };
  for (const api::Taint& taint : node.spec.taints) {
    if (untolerated(taint)) return reject(taint);
  }
  if (lifecycle && untolerated(*lifecycle)) return reject(*lifecycle);
  return {};
}

FilterStatus CheckTaints(const api::Pod& pod, const api::Node& node) {
  return CheckTaints(pod, node, LifecycleTaint(node));
}

FilterStatus CheckNodeAffinity(const api::Pod& pod, const api::Node& node) {
  const api::StringMap& labels = node.metadata.labels;
  for (const auto& [key, value] : pod.spec.node_selector) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return Reject(kReasonNodeAffinity);
  }
  if (!RequiredAffinityMatches(pod, node)) return Reject(kReasonNodeAffinity);
  return {};
}

}  // namespace lws::cluster::scheduler
