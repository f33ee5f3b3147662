// Role scaling decisions, from the fact sheet's section 6.1 (upstream kubernetes-sigs/lws
// pkg/controllers/disaggregatedset/scaler_manager.go @5493c87d, the controller's seedForRole,
// updateScalerStatus and the executor's getTargetReplicas).
#include "controllers/disaggregatedset/scalers.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace lws::disaggregatedset {
namespace {

const std::string kT0 = "2026-01-01T00:00:00Z";
const std::string kNow = "2026-01-01T01:00:00Z";

api::DisaggregatedRoleSpec Role(const std::string& name, std::optional<std::int32_t> replicas,
                                std::optional<std::string> mode = std::nullopt) {
  api::DisaggregatedRoleSpec role;
  role.name = name;
  role.spec.replicas = replicas;
  if (mode) role.scaling.emplace().mode = *mode;
  return role;
}

api::DisaggregatedSet Set(std::vector<api::DisaggregatedRoleSpec> roles) {
  api::DisaggregatedSet ds;
  ds.metadata.name = "ds";
  ds.metadata.namespace_ = "team";
  ds.metadata.uid = "uid-1";
  ds.spec.roles = std::move(roles);
  return ds;
}

OwnedLws Lws(const std::string& role, int slice, const std::string& revision, int spec_replicas,
             int status_replicas) {
  OwnedLws lws;
  lws.name = "ds-" + std::to_string(slice) + "-" + revision + "-" + role;
  lws.role = role;
  lws.revision = revision;
  lws.slice = slice;
  lws.spec_replicas = spec_replicas;
  lws.status_replicas = status_replicas;
  return lws;
}

OwnedScaler Scaler(const std::string& role, int spec_replicas, std::int64_t generation = 1) {
  return OwnedScaler{ScalerName("ds", role), role, spec_replicas, generation};
}

// ---- TargetReplicas -------------------------------------------------------------------------

TEST(TargetReplicas, RoleNotInTheSpecReadsOne) { EXPECT_EQ(TargetReplicas(nullptr, {}, 7), 1); }

TEST(TargetReplicas, StaticReadsSpecReplicasNilAsOne) {
  const api::DisaggregatedRoleSpec three = Role("prefill", 3);
  const api::DisaggregatedRoleSpec unset = Role("prefill", std::nullopt);
  const api::DisaggregatedRoleSpec zero = Role("prefill", 0, api::kDsScalingStatic);
  EXPECT_EQ(TargetReplicas(&three, {}, 7), 3);
  EXPECT_EQ(TargetReplicas(&unset, {}, 7), 1);
  EXPECT_EQ(TargetReplicas(&zero, {}, 7), 0);
}

// A Static role ignores a scaler left behind for its name (it is deleted on the same reconcile).
TEST(TargetReplicas, StaticIgnoresAScaler) {
  const api::DisaggregatedRoleSpec role = Role("decode", 2);
  EXPECT_EQ(TargetReplicas(&role, {{"decode", Scaler("decode", 9)}}, 7), 2);
}

TEST(TargetReplicas, ExternalReadsItsScalerElseHoldsTheCurrentCount) {
  const api::DisaggregatedRoleSpec role = Role("decode", 5, api::kDsScalingExternal);
  EXPECT_EQ(TargetReplicas(&role, {{"decode", Scaler("decode", 4)}}, 7), 4);
  EXPECT_EQ(TargetReplicas(&role, {{"decode", Scaler("decode", 0)}}, 7), 0);
  EXPECT_EQ(TargetReplicas(&role, {}, 7), 7);
  EXPECT_EQ(TargetReplicas(&role, {{"prefill", Scaler("prefill", 4)}}, 0), 0);
}

// ---- SeedForRole, ScalerName, ScalerSelector ------------------------------------------------

TEST(SeedForRole, OneForAFreshRole) {
  EXPECT_EQ(SeedForRole("decode", {}), 1);
  EXPECT_EQ(SeedForRole("decode", {Lws("prefill", 0, "a", 3, 3)}), 1);
}

// A Static-to-External flip keeps the running size: every slice and revision counts.
TEST(SeedForRole, SumsSpecReplicasOfTheRolesLeaderWorkerSets) {
  const std::vector<OwnedLws> owned{Lws("decode", 0, "a", 2, 1), Lws("decode", 1, "a", 2, 2),
                                    Lws("decode", 0, "b", 1, 0), Lws("prefill", 0, "a", 5, 5)};
  EXPECT_EQ(SeedForRole("decode", owned), 5);
}

// Drained LeaderWorkerSets of the role exist, so the seed is their sum, 0, not the fresh 1.
TEST(SeedForRole, ZeroWhenTheRolesLeaderWorkerSetsAreAtZero) {
  EXPECT_EQ(SeedForRole("decode", {Lws("decode", 0, "a", 0, 0)}), 0);
}

TEST(ScalerName, SetDashRole) { EXPECT_EQ(ScalerName("my-ds", "decode"), "my-ds-decode"); }

TEST(ScalerSelector, LeaderPodsOfTheRole) {
  EXPECT_EQ(ScalerSelector("my-ds", "decode"),
            "disaggregatedset.x-k8s.io/name=my-ds,disaggregatedset.x-k8s.io/role=decode,"
            "leaderworkerset.sigs.k8s.io/worker-index=0");
}

// ---- PlanScalers ----------------------------------------------------------------------------

TEST(PlanScalers, CreatesEveryMissingExternalScalerInSpecOrder) {
  const api::DisaggregatedSet ds =
      Set({Role("router", 1, api::kDsScalingExternal), Role("prefill", 2),
           Role("decode", 1, api::kDsScalingExternal)});
  const ScalerPlan plan = PlanScalers(ds, {}, {Lws("decode", 0, "a", 3, 3)});
  EXPECT_TRUE(plan.delete_names.empty());
  ASSERT_EQ(plan.create.size(), 2u);
  EXPECT_EQ(plan.create[0].metadata.name, "ds-router");
  EXPECT_EQ(plan.create[0].spec.replicas, 1);  // fresh role
  const api::DisaggregatedSetRoleScaler& decode = plan.create[1];
  EXPECT_EQ(decode.api_version, "disaggregatedset.x-k8s.io/v1");
  EXPECT_EQ(decode.kind, "DisaggregatedSetRoleScaler");
  EXPECT_EQ(decode.metadata.name, "ds-decode");
  EXPECT_EQ(decode.metadata.namespace_, "team");
  EXPECT_EQ(decode.metadata.labels.size(), 2u);
  EXPECT_EQ(decode.metadata.Label(api::kDsNameLabel), "ds");
  EXPECT_EQ(decode.metadata.Label(api::kDsRoleLabel), "decode");
  EXPECT_EQ(decode.spec.replicas, 3);  // seeded from the running LeaderWorkerSet
  ASSERT_EQ(decode.metadata.owner_references.size(), 1u);
  const api::OwnerReference& owner = decode.metadata.owner_references[0];
  EXPECT_EQ(owner.api_version, "disaggregatedset.x-k8s.io/v1");
  EXPECT_EQ(owner.kind, "DisaggregatedSet");
  EXPECT_EQ(owner.name, "ds");
  EXPECT_EQ(owner.uid, "uid-1");
  EXPECT_EQ(owner.controller, std::optional<bool>(true));
  EXPECT_EQ(owner.block_owner_deletion, std::optional<bool>(true));
}

TEST(PlanScalers, KeepsExistingScalersOfExternalRoles) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 2), Role("decode", 1, "External")});
  const ScalerPlan plan = PlanScalers(ds, {Scaler("decode", 6)}, {});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_TRUE(plan.delete_names.empty());
}

// A role switched back to Static, a removed role, and a scaler without a role label all lose
// their scaler.
TEST(PlanScalers, DeletesScalersOfRolesNoLongerExternal) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 2, "Static"), Role("decode", 1)});
  OwnedScaler unlabelled = Scaler("", 1);
  unlabelled.name = "ds-odd";
  const ScalerPlan plan =
      PlanScalers(ds, {Scaler("prefill", 2), Scaler("removed", 1), unlabelled}, {});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_EQ(plan.delete_names, (std::vector<std::string>{"ds-prefill", "ds-removed", "ds-odd"}));
}

TEST(PlanScalers, StaticRolesNeedNoScaler) {
  const ScalerPlan plan = PlanScalers(Set({Role("prefill", 1), Role("decode", 1)}), {}, {});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_TRUE(plan.delete_names.empty());
}

// ---- ScalerStatus ---------------------------------------------------------------------------

TEST(ScalerStatus, CountsGroupsOfTheRoleAcrossSlicesAndRevisions) {
  const api::DisaggregatedSet ds = Set({Role("decode", 1, "External")});
  const std::vector<OwnedLws> owned{Lws("decode", 0, "a", 3, 2), Lws("decode", 0, "b", 1, 1),
                                    Lws("prefill", 0, "a", 4, 4)};
  const api::RoleScalerStatus status =
      ScalerStatus(ds, Scaler("decode", 3, 4), owned, api::RoleScalerStatus{}, kNow);
  EXPECT_EQ(status.replicas, 3);
  EXPECT_EQ(status.selector, ScalerSelector("ds", "decode"));
  EXPECT_EQ(status.observed_generation, 4);
  ASSERT_EQ(status.conditions.size(), 1u);
  const api::Condition& ready = status.conditions[0];
  EXPECT_EQ(ready.type, "Ready");
  EXPECT_EQ(ready.status, "True");
  EXPECT_EQ(ready.reason, "Bound");
  EXPECT_EQ(ready.message, "Scaler bound to a live DisaggregatedSet role");
  EXPECT_EQ(ready.observed_generation, 4);
  EXPECT_EQ(ready.last_transition_time, kNow);
}

TEST(ScalerStatus, TransitionTimeMovesOnlyWithTheStatus) {
  const api::DisaggregatedSet ds = Set({Role("decode", 1, "External")});
  api::RoleScalerStatus current = ScalerStatus(ds, Scaler("decode", 1, 1), {}, {}, kT0);
  // A new generation: observedGeneration follows, lastTransitionTime stays.
  api::RoleScalerStatus next = ScalerStatus(ds, Scaler("decode", 1, 2), {}, current, kNow);
  EXPECT_EQ(next.conditions[0].observed_generation, 2);
  EXPECT_EQ(next.conditions[0].last_transition_time, kT0);
  EXPECT_FALSE(SameScalerStatus(current, next));
  // The early pointer-replicas upstream wrote Ready False (WaitingForScaler): it flips to True.
  current.conditions[0].status = "False";
  current.conditions[0].reason = "WaitingForScaler";
  next = ScalerStatus(ds, Scaler("decode", 1, 1), {}, current, kNow);
  EXPECT_EQ(next.conditions[0].status, "True");
  EXPECT_EQ(next.conditions[0].reason, "Bound");
  EXPECT_EQ(next.conditions[0].last_transition_time, kNow);
}

TEST(ScalerStatus, KeepsOtherConditionsAndIsStableWhenNothingChanged) {
  const api::DisaggregatedSet ds = Set({Role("decode", 1, "External")});
  const std::vector<OwnedLws> owned{Lws("decode", 0, "a", 2, 2)};
  api::RoleScalerStatus current;
  api::Condition& other = current.conditions.emplace_back();
  other.type = "Other";
  other.status = "True";
  current = ScalerStatus(ds, Scaler("decode", 2), owned, current, kT0);
  ASSERT_EQ(current.conditions.size(), 2u);
  EXPECT_EQ(current.conditions[0].type, "Other");
  const api::RoleScalerStatus again = ScalerStatus(ds, Scaler("decode", 2), owned, current, kNow);
  EXPECT_TRUE(SameScalerStatus(current, again));
  EXPECT_FALSE(SameScalerStatus(current, ScalerStatus(ds, Scaler("decode", 2), {}, current, kNow)));
}

}  // namespace
}  // namespace lws::disaggregatedset
