// The InterPodAffinity filter of the scheduler (scheduler_filters.h), as kube-scheduler v1.32's
// plugin: PreFilter counts, per (topologyKey, value) domain, the placed pods that satisfy the
// incoming pod's terms and the placed pods whose anti-affinity the incoming pod would violate;
// Filter then reads those counts for the node's domains.
#include <set>

#include "api/selector.h"
#include "cluster/scheduler_filters.h"

namespace lws::cluster::scheduler {
namespace {

// One required (anti-)affinity term, resolved for matching.
struct Term {
  std::set<std::string> namespaces;
  bool all_namespaces = false;
  api::Selector selector;
  std::string topology_key;
};

// upstream getNamespacesFromPodAffinityTerm plus the namespaceSelector: an empty
// namespaceSelector selects every namespace; one with terms would need namespace labels, which
// the snapshot does not carry, so it selects none (see scheduler_plan.h).
Term MakeTerm(const api::Pod& owner, const api::PodAffinityTerm& term) {
  Term out;
  auto selector =
      api::Selector::FromLabelSelector(term.label_selector ? &*term.label_selector : nullptr);
  // A selector that does not parse matches nothing; API validation never lets one in.
  out.selector = selector.ok() ? *selector : api::Selector::Nothing();
  out.topology_key = term.topology_key;
  const api::Json* ns_selector = nullptr;
  if (term.rest.is_object()) {
    auto it = term.rest.find("namespaceSelector");
    if (it != term.rest.end() && it->is_object()) ns_selector = &*it;
  }
  if (term.namespaces.empty() && ns_selector == nullptr) {
    out.namespaces.insert(owner.metadata.namespace_);
    return out;
  }
  out.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
  if (ns_selector != nullptr) {
    auto labels = ns_selector->find("matchLabels");
    auto exprs = ns_selector->find("matchExpressions");
    const bool no_labels = labels == ns_selector->end() || labels->empty();
    const bool no_exprs = exprs == ns_selector->end() || exprs->empty();
    out.all_namespaces = no_labels && no_exprs;
  }
  return out;
}

std::vector<Term> RequiredTerms(const api::Pod& pod, bool anti) {
  std::vector<Term> terms;
  const auto& affinity = pod.spec.affinity;
  if (!affinity) return terms;
  const auto& source = anti ? affinity->pod_anti_affinity : affinity->pod_affinity;
  if (!source) return terms;
  for (const api::PodAffinityTerm& t : source->required) terms.push_back(MakeTerm(pod, t));
  return terms;
}

bool TermMatches(const Term& term, const api::Pod& pod) {
  if (!term.all_namespaces && term.namespaces.count(pod.metadata.namespace_) == 0) return false;
  return term.selector.Matches(pod.metadata.labels);
}

bool MatchesAll(const std::vector<Term>& terms, const api::Pod& pod) {
  if (terms.empty()) return false;
  for (const Term& t : terms) {
    if (!TermMatches(t, pod)) return false;
  }
  return true;
}

// Counts one more pod in the node's domain for `key`, if the node has that label.
template <class Counts>
void CountDomain(Counts& counts, const api::Node& node, const std::string& key) {
  auto it = node.metadata.labels.find(key);
  if (it != node.metadata.labels.end()) ++counts[{key, it->second}];
}

}  // namespace

InterPodAffinity::InterPodAffinity(const api::Pod& pod, const std::vector<NodeInfo>& nodes)
    : pod_(pod) {
  const std::vector<Term> affinity = RequiredTerms(pod, /*anti=*/false);
  const std::vector<Term> anti_affinity = RequiredTerms(pod, /*anti=*/true);
  has_own_terms_ = !affinity.empty() || !anti_affinity.empty();
  for (const NodeInfo& info : nodes) {
    // The placed pods' own anti-affinity, applied to the incoming pod. A cache keeps the few
    // pods that have any, so this is not a pass over every pod of the cluster.
    const std::vector<const api::Pod*>& with_anti =
        info.totals ? info.totals->anti_affinity_pods : info.pods;
    for (const api::Pod* existing : with_anti) {
      for (const Term& t : RequiredTerms(*existing, /*anti=*/true)) {
        if (TermMatches(t, pod))
          CountDomain(existing_anti_affinity_counts_, *info.node, t.topology_key);
      }
    }
    if (affinity.empty() && anti_affinity.empty()) continue;
    for (const api::Pod* existing : info.pods) {
      // upstream counts a placed pod for affinity only when it matches all the terms.
      if (MatchesAll(affinity, *existing)) {
        for (const Term& t : affinity) CountDomain(affinity_counts_, *info.node, t.topology_key);
      }
      for (const Term& t : anti_affinity) {
        if (TermMatches(t, *existing))
          CountDomain(anti_affinity_counts_, *info.node, t.topology_key);
      }
    }
  }
}

FilterStatus InterPodAffinity::Check(const api::Node& node) const {
  const api::StringMap& labels = node.metadata.labels;
  auto count = [&](const TopologyCounts& counts, const std::string& key) {
    auto label = labels.find(key);
    if (label == labels.end()) return 0;
    auto it = counts.find({key, label->second});
    return it == counts.end() ? 0 : it->second;
  };
  if (!has_own_terms_) return ExistingAntiAffinity(labels);

  // Affinity: every term needs the node to have its topology label and a matching pod in that
  // domain. Removing pods cannot help, so preemption would not either.
  const std::vector<Term> affinity = RequiredTerms(pod_, /*anti=*/false);
  bool pods_exist = true;
  for (const Term& t : affinity) {
    if (labels.count(t.topology_key) == 0)
      return FilterStatus{{std::string(kReasonPodAffinity)}, false};
    if (count(affinity_counts_, t.topology_key) <= 0) pods_exist = false;
  }
  // The first pod of a set with affinity to itself may start a domain, provided no pod anywhere
  // matches yet (upstream satisfyPodAffinity).
  if (!pods_exist && !(affinity_counts_.empty() && MatchesAll(affinity, pod_))) {
    return FilterStatus{{std::string(kReasonPodAffinity)}, false};
  }

  for (const Term& t : RequiredTerms(pod_, /*anti=*/true)) {
    if (count(anti_affinity_counts_, t.topology_key) > 0) {
      return FilterStatus{{std::string(kReasonPodAntiAffinity)}, true};
    }
  }
  return ExistingAntiAffinity(labels);
}

FilterStatus InterPodAffinity::ExistingAntiAffinity(const api::StringMap& labels) const {
  if (existing_anti_affinity_counts_.empty()) return {};  // no placed pod repels this one
  for (const auto& [key, value] : labels) {
    auto it = existing_anti_affinity_counts_.find({key, value});
    if (it != existing_anti_affinity_counts_.end() && it->second > 0) {
      return FilterStatus{{std::string(kReasonExistingAntiAffinity)}, true};
    }
  }
  return {};
}

}  // namespace lws::cluster::scheduler
