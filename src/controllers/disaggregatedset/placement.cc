#include "controllers/disaggregatedset/placement.h"

#include <string>
#include <utility>
#include <vector>

#include "base/assert.h"

namespace lws::disaggregatedset {
namespace {

using Requirements = std::vector<api::LabelSelectorRequirement>;

api::LabelSelectorRequirement Requirement(const std::string& key, const char* operator_,
                                          std::vector<std::string> values = {}) {
  api::LabelSelectorRequirement r;
  r.key = key;
  r.operator_ = operator_;
  r.values = std::move(values);
  return r;
}

api::PodAffinityTerm Term(Requirements expressions, const std::string& topology) {
  api::PodAffinityTerm term;
  term.label_selector.emplace().match_expressions = std::move(expressions);
  term.topology_key = topology;
  return term;
}

// Term 2: repels this set's pods of other slices. NotIn also matches pods without the slice
// label, the legacy pre-slices pods, which are slice 0: right for slices other than 0, but a
// slice-0 pod must not repel its own legacy predecessor, hence Exists for slice 0 only.
Requirements SpreadSlices(const std::string& ds, int slice) {
  const std::string slice_text = std::to_string(slice);
  Requirements expressions{Requirement(api::kDsNameLabel, "In", {ds})};
  if (slice == 0) expressions.push_back(Requirement(api::kDsSliceLabel, "Exists"));
  expressions.push_back(Requirement(api::kDsSliceLabel, "NotIn", {slice_text}));
  return expressions;
}

// Term 3: repels every other DisaggregatedSet's slices. name Exists keeps the NotIn from matching
// unrelated pods, which carry no name label and may share the domain.
Requirements ExcludeOtherSets(const std::string& ds) {
  return {Requirement(api::kDsNameLabel, "Exists"), Requirement(api::kDsNameLabel, "NotIn", {ds}),
          Requirement(api::kDsSliceLabel, "Exists")};
}

}  // namespace

void SetPlacementAffinities(const api::DisaggregatedSet& ds, int slice, api::PodSpec* spec) {
  LWS_ASSERT(spec != nullptr, "SetPlacementAffinities needs a pod spec");
  LWS_ASSERT(slice >= 0, "slices are numbered from 0");
  const std::optional<api::PlacementPolicy>& policy = ds.spec.placement_policy;
  // The webhook rejects a non-None policy without a topology; an empty topologyKey would make
  // the API server reject the pods, so a bypassed webhook gets no terms instead.
  if (!policy || policy->IsNone() || policy->topology.empty()) return;
  const std::string& ds_name = ds.metadata.name;
  const std::string& topology = policy->topology;

  api::Affinity& affinity = spec->affinity ? *spec->affinity : spec->affinity.emplace();
  api::PodAffinity& together =
      affinity.pod_affinity ? *affinity.pod_affinity : affinity.pod_affinity.emplace();
  api::PodAffinity& apart = affinity.pod_anti_affinity ? *affinity.pod_anti_affinity
                                                       : affinity.pod_anti_affinity.emplace();
  together.required.push_back(Term({Requirement(api::kDsNameLabel, "In", {ds_name}),
                                    Requirement(api::kDsSliceLabel, "In", {std::to_string(slice)})},
                                   topology));
  apart.required.push_back(Term(SpreadSlices(ds_name, slice), topology));
  if (policy->type == api::kDsPlacementExclusiveTopology) {
    apart.required.push_back(Term(ExcludeOtherSets(ds_name), topology));
  }
}

}  // namespace lws::disaggregatedset
