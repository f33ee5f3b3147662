// Tests of the exclusive placement terms (spec section 16; scenarios S148, S149).
#include "api/exclusive_placement.h"

#include <gtest/gtest.h>

#include "api/lws_types.h"

namespace lws::api {
namespace {

PodAffinity TermsFor(const std::vector<std::string>& topology_keys) {
  PodAffinity affinity;
  for (const std::string& key : topology_keys) {
    PodAffinityTerm term;
    term.topology_key = key;
    affinity.required.push_back(term);
  }
  return affinity;
}

Pod PodWith(std::optional<PodAffinity> together, std::optional<PodAffinity> apart) {
  Pod pod;
  pod.metadata.annotations[kExclusiveKeyAnnotation] = "topologyKey";
  if (together || apart) {
    pod.spec.affinity.emplace();
    pod.spec.affinity->pod_affinity = std::move(together);
    pod.spec.affinity->pod_anti_affinity = std::move(apart);
  }
  return pod;
}

Json AffinityJson(const Pod& pod) { return Encode(pod)["spec"]["affinity"]; }

// S148, first case: exactly the two terms of upstream's TestSetExclusiveAffinities.
TEST(SetExclusiveAffinitiesTest, AddsBothTermsToABarePod) {
  Pod pod = PodWith(std::nullopt, std::nullopt);
  SetExclusiveAffinities(&pod, "test-key", "topologyKey", kGroupUniqueHashLabel);
  const Json want = Json::parse(R"({
    "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
      {"labelSelector": {"matchExpressions": [
         {"key": "leaderworkerset.sigs.k8s.io/group-key", "operator": "In", "values": ["test-key"]}]},
       "topologyKey": "topologyKey"}]},
    "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
      {"labelSelector": {"matchExpressions": [
         {"key": "leaderworkerset.sigs.k8s.io/group-key", "operator": "Exists"},
         {"key": "leaderworkerset.sigs.k8s.io/group-key", "operator": "NotIn", "values": ["test-key"]}]},
       "topologyKey": "topologyKey"}]}
  })");
  EXPECT_EQ(AffinityJson(pod), want);
}

// S148, second case: terms for the topology key already exist, so nothing changes.
TEST(SetExclusiveAffinitiesTest, LeavesAppliedTermsAlone) {
  Pod pod = PodWith(TermsFor({"topologyKey"}), TermsFor({"topologyKey"}));
  const Json before = Encode(pod);
  SetExclusiveAffinities(&pod, "test-key", "topologyKey", kGroupUniqueHashLabel);
  EXPECT_EQ(Encode(pod), before);
}

TEST(SetExclusiveAffinitiesTest, AppendsAfterUnrelatedTermsAndKeepsNodeAffinity) {
  Pod pod = PodWith(TermsFor({"topology"}), TermsFor({"topology"}));
  pod.spec.affinity->node_affinity.emplace();
  pod.spec.affinity->node_affinity->rest = Json::parse(
      R"({"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {}}]})");
  const Json node_affinity_before = AffinityJson(pod)["nodeAffinity"];

  SetExclusiveAffinities(&pod, "k", "topologyKey", kGroupUniqueHashLabel);
  const auto& together = pod.spec.affinity->pod_affinity->required;
  const auto& apart = pod.spec.affinity->pod_anti_affinity->required;
  ASSERT_EQ(together.size(), 2u);
  ASSERT_EQ(apart.size(), 2u);
  EXPECT_EQ(together[0].topology_key, "topology");
  EXPECT_EQ(apart[0].topology_key, "topology");
  EXPECT_EQ(together[1].topology_key, "topologyKey");
  EXPECT_EQ(apart[1].label_selector->match_expressions[1].values, std::vector<std::string>{"k"});
  EXPECT_EQ(AffinityJson(pod)["nodeAffinity"], node_affinity_before);
}

TEST(SetExclusiveAffinitiesTest, OnlyAffinityPresentStillAddsBoth) {
  // One side alone does not count as applied: both terms are appended again.
  Pod pod = PodWith(TermsFor({"topologyKey"}), std::nullopt);
  SetExclusiveAffinities(&pod, "k", "topologyKey", kGroupUniqueHashLabel);
  EXPECT_EQ(pod.spec.affinity->pod_affinity->required.size(), 2u);
  EXPECT_EQ(pod.spec.affinity->pod_anti_affinity->required.size(), 1u);
}

TEST(SetExclusiveAffinitiesTest, IdempotentAndPerTopologyKey) {
  Pod pod = PodWith(std::nullopt, std::nullopt);
  SetExclusiveAffinities(&pod, "group", "rack", kGroupUniqueHashLabel);
  SetExclusiveAffinities(&pod, "group", "rack", kGroupUniqueHashLabel);
  SetExclusiveAffinities(&pod, "sub", "host", kSubGroupUniqueHashLabel);
  const auto& together = pod.spec.affinity->pod_affinity->required;
  ASSERT_EQ(together.size(), 2u);
  EXPECT_EQ(together[1].topology_key, "host");
  EXPECT_EQ(together[1].label_selector->match_expressions[0].key, kSubGroupUniqueHashLabel);
  EXPECT_EQ(pod.spec.affinity->pod_anti_affinity->required.size(), 2u);
}

// S149: upstream's TestExclusiveAffinityApplied.
TEST(ExclusiveAffinityAppliedTest, Table) {
  struct Case {
    const char* name;
    Pod pod;
    bool want;
  };
  const std::vector<Case> cases = {
      {"affinity and anti-affinity", PodWith(TermsFor({"topologyKey"}), TermsFor({"topologyKey"})),
       true},
      {"no anti-affinity", PodWith(TermsFor({"topologyKey"}), std::nullopt), false},
      {"no affinity", PodWith(std::nullopt, TermsFor({"topologyKey"})), false},
      {"affinity on another key", PodWith(TermsFor({"topologyKey1"}), TermsFor({"topologyKey"})),
       false},
      {"no affinity at all", PodWith(std::nullopt, std::nullopt), false},
      {"one matching term among others",
       PodWith(TermsFor({"a", "topologyKey"}), TermsFor({"topologyKey", "b"})), true},
      {"empty term lists", PodWith(PodAffinity{}, PodAffinity{}), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ExclusiveAffinityApplied(c.pod, "topologyKey"), c.want) << c.name;
  }
}

}  // namespace
}  // namespace lws::api
