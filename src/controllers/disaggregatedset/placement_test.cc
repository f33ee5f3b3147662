// SetPlacementAffinities against every case of upstream TestSetPlacementAffinities
// (kubernetes-sigs/lws pkg/utils/disaggregatedset/affinity_test.go @ad6b097a).
#include "controllers/disaggregatedset/placement.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace lws::disaggregatedset {
namespace {

const std::string kTopology = "cloud.google.com/gke-nodepool";

api::DisaggregatedSet Set(std::optional<api::PlacementPolicy> policy) {
  api::DisaggregatedSet ds;
  ds.metadata.name = "my-ds";
  ds.spec.placement_policy = std::move(policy);
  return ds;
}

api::PlacementPolicy Policy(const std::string& type, const std::string& topology = kTopology) {
  api::PlacementPolicy policy;
  policy.type = type;
  policy.topology = topology;
  return policy;
}

// A requirement as "key operator [values]", so a mismatch prints readably.
std::string Show(const api::PodAffinityTerm& term) {
  std::string out;
  for (const api::LabelSelectorRequirement& r : term.label_selector->match_expressions) {
    out += r.key + " " + r.operator_;
    for (const std::string& v : r.values) out += " " + v;
    out += "; ";
  }
  return out;
}

const std::vector<api::PodAffinityTerm>& Together(const api::PodSpec& spec) {
  return spec.affinity->pod_affinity->required;
}

const std::vector<api::PodAffinityTerm>& Apart(const api::PodSpec& spec) {
  return spec.affinity->pod_anti_affinity->required;
}

TEST(SetPlacementAffinities, NilPolicyInjectsNothing) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(std::nullopt), 0, &spec);
  EXPECT_FALSE(spec.affinity.has_value());
}

TEST(SetPlacementAffinities, NoneInjectsNothing) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(Policy(api::kDsPlacementNone)), 0, &spec);
  EXPECT_FALSE(spec.affinity.has_value());
}

// Ours: "" reads as None, as the CRD's default does.
TEST(SetPlacementAffinities, EmptyTypeInjectsNothing) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(Policy("")), 0, &spec);
  EXPECT_FALSE(spec.affinity.has_value());
}

TEST(SetPlacementAffinities, NonNoneWithEmptyTopologyInjectsNothing) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(Policy(api::kDsPlacementExclusiveSlice, "")), 0, &spec);
  EXPECT_FALSE(spec.affinity.has_value());
}

TEST(SetPlacementAffinities, ExclusiveSliceInjectsCoLocationAndSameSetSpread) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(Policy(api::kDsPlacementExclusiveSlice)), 1, &spec);
  ASSERT_TRUE(spec.affinity && spec.affinity->pod_affinity && spec.affinity->pod_anti_affinity);
  ASSERT_EQ(Together(spec).size(), 1u);
  EXPECT_EQ(Together(spec)[0].topology_key, kTopology);
  EXPECT_EQ(Show(Together(spec)[0]),
            "disaggregatedset.x-k8s.io/name In my-ds; disaggregatedset.x-k8s.io/slice In 1; ");
  ASSERT_EQ(Apart(spec).size(), 1u);
  EXPECT_EQ(Apart(spec)[0].topology_key, kTopology);
  EXPECT_EQ(Show(Apart(spec)[0]),
            "disaggregatedset.x-k8s.io/name In my-ds; disaggregatedset.x-k8s.io/slice NotIn 1; ");
  EXPECT_TRUE(Together(spec)[0].namespaces.empty());
  EXPECT_FALSE(spec.affinity->node_affinity.has_value());
}

// Legacy pods carry no slice label and are slice 0: without Exists, NotIn would let a slice-0
// pod be repelled by its own legacy predecessor.
TEST(SetPlacementAffinities, Slice0SpreadRequiresTheSliceLabelToExist) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(Policy(api::kDsPlacementExclusiveSlice)), 0, &spec);
  ASSERT_TRUE(spec.affinity.has_value());
  ASSERT_EQ(Apart(spec).size(), 1u);
  EXPECT_EQ(Show(Apart(spec)[0]),
            "disaggregatedset.x-k8s.io/name In my-ds; disaggregatedset.x-k8s.io/slice Exists; "
            "disaggregatedset.x-k8s.io/slice NotIn 0; ");
}

TEST(SetPlacementAffinities, ExclusiveTopologyAddsCrossSetExclusion) {
  api::PodSpec spec;
  SetPlacementAffinities(Set(Policy(api::kDsPlacementExclusiveTopology)), 0, &spec);
  ASSERT_TRUE(spec.affinity.has_value());
  EXPECT_EQ(Together(spec).size(), 1u);
  ASSERT_EQ(Apart(spec).size(), 2u);
  EXPECT_EQ(Apart(spec)[1].topology_key, kTopology);
  EXPECT_EQ(Show(Apart(spec)[1]),
            "disaggregatedset.x-k8s.io/name Exists; disaggregatedset.x-k8s.io/name NotIn my-ds; "
            "disaggregatedset.x-k8s.io/slice Exists; ");
}

TEST(SetPlacementAffinities, PreservesExistingAffinityWithoutMutatingTheCallersCopy) {
  api::Affinity existing;
  existing.pod_affinity.emplace().required.emplace_back().topology_key = "existing-key";
  existing.node_affinity.emplace();
  api::PodSpec spec;
  spec.affinity = existing;
  SetPlacementAffinities(Set(Policy(api::kDsPlacementExclusiveSlice)), 0, &spec);
  ASSERT_EQ(Together(spec).size(), 2u);
  EXPECT_EQ(Together(spec)[0].topology_key, "existing-key");
  EXPECT_EQ(Together(spec)[1].topology_key, kTopology);
  EXPECT_TRUE(spec.affinity->node_affinity.has_value());
  EXPECT_EQ(existing.pod_affinity->required.size(), 1u);
}

// Ours: the anti-affinity counterpart of the case above, for a slice other than 0.
TEST(SetPlacementAffinities, ExistingAntiAffinityTermsStayFirst) {
  api::PodSpec spec;
  spec.affinity.emplace().pod_anti_affinity.emplace().required.emplace_back().topology_key = "zone";
  SetPlacementAffinities(Set(Policy(api::kDsPlacementExclusiveTopology)), 2, &spec);
  ASSERT_EQ(Apart(spec).size(), 3u);
  EXPECT_EQ(Apart(spec)[0].topology_key, "zone");
  EXPECT_EQ(Show(Apart(spec)[1]),
            "disaggregatedset.x-k8s.io/name In my-ds; disaggregatedset.x-k8s.io/slice NotIn 2; ");
  ASSERT_EQ(Together(spec).size(), 1u);
}

}  // namespace
}  // namespace lws::disaggregatedset
