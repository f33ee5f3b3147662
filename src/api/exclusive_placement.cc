#include "api/exclusive_placement.h"

#include <algorithm>
#include <string>

namespace lws::api {

namespace {

bool HasTermFor(const std::optional<PodAffinity>& affinity, std::string_view topology_key) {
  if (!affinity) return false;
  return std::any_of(
      affinity->required.begin(), affinity->required.end(),
      [&](const PodAffinityTerm& term) { return term.topology_key == topology_key; });
}

LabelSelectorRequirement Requirement(std::string_view key, std::string operator_,
                                     std::vector<std::string> values) {
  LabelSelectorRequirement r;
  r.key = std::string(key);
  r.operator_ = std::move(operator_);
  r.values = std::move(values);
  return r;
}

PodAffinityTerm Term(std::string_view topology_key, std::vector<LabelSelectorRequirement> reqs) {
  PodAffinityTerm term;
  term.label_selector.emplace();
  term.label_selector->match_expressions = std::move(reqs);
  term.topology_key = std::string(topology_key);
  return term;
}

}  // namespace

bool ExclusiveAffinityApplied(const Pod& pod, std::string_view topology_key) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity) return false;
  return HasTermFor(affinity->pod_affinity, topology_key) &&
         HasTermFor(affinity->pod_anti_affinity, topology_key);
}

void SetExclusiveAffinities(Pod* pod, std::string_view group_unique_key,
                            std::string_view topology_key, std::string_view pod_affinity_key) {
  if (ExclusiveAffinityApplied(*pod, topology_key)) return;
  Affinity& affinity = pod->spec.affinity ? *pod->spec.affinity : pod->spec.affinity.emplace();
  PodAffinity& together =
      affinity.pod_affinity ? *affinity.pod_affinity : affinity.pod_affinity.emplace();
  PodAffinity& apart = affinity.pod_anti_affinity ? *affinity.pod_anti_affinity
                                                  : affinity.pod_anti_affinity.emplace();
  const std::string key(group_unique_key);

  // Affinity keeps the pods carrying this key in one topology domain.
  together.required.push_back(Term(topology_key, {Requirement(pod_affinity_key, "In", {key})}));
  // Anti-affinity keeps pods with any other key out of that domain.
  apart.required.push_back(Term(topology_key, {Requirement(pod_affinity_key, "Exists", {}),
                                               Requirement(pod_affinity_key, "NotIn", {key})}));
}

}  // namespace lws::api
