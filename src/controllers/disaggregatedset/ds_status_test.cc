// The DisaggregatedSet status. The SetCondition cases port every test of upstream
// kubernetes-sigs/lws pkg/controllers/disaggregatedset/status_test.go (@c3bce301, and @17b781cd
// for StaleFalseConditionObservedGenerationCatchesUp); the rest are ours, from the fact sheet's
// section 5.4.
#include "controllers/disaggregatedset/ds_status.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace lws::disaggregatedset {
namespace {

const std::string kT0 = "2026-01-01T00:00:00Z";
const std::string kNow = "2026-01-01T01:00:00Z";
const std::string kReady =
    "All roles have reached their desired replica count, ready and updated to the current "
    "revision";
const std::string kNotReady =
    "Not all roles have reached their desired replica count, ready and updated to the current "
    "revision";

api::Condition Condition(const std::string& type, const std::string& status,
                         std::int64_t generation, const std::string& reason,
                         const std::string& message) {
  api::Condition c;
  c.type = type;
  c.status = status;
  c.observed_generation = generation;
  c.last_transition_time = kT0;
  c.reason = reason;
  c.message = message;
  return c;
}

const api::Condition* Find(const std::vector<api::Condition>& conditions, const std::string& type) {
  return api::FindCondition(conditions, type);
}

// ---- SetCondition: upstream status_test.go --------------------------------------------------

TEST(SetCondition, ObservedGenerationOnlyDoesNotResetTransitionTime) {
  std::vector<api::Condition> conditions{
      Condition("Available", "True", 1, "AllRolesReady", kReady)};
  EXPECT_TRUE(SetCondition(&conditions, AvailabilityCondition(true, 2), kNow));
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].observed_generation, 2);
  EXPECT_EQ(conditions[0].last_transition_time, kT0);
}

TEST(SetCondition, StatusFlipUpdatesTransitionTime) {
  std::vector<api::Condition> conditions{
      Condition("Available", "True", 1, "AllRolesReady", kReady)};
  EXPECT_TRUE(SetCondition(&conditions, AvailabilityCondition(false, 1), kNow));
  ASSERT_EQ(conditions.size(), 2u);
  const api::Condition* available = Find(conditions, "Available");
  ASSERT_NE(available, nullptr);
  EXPECT_EQ(available->status, "False");
  EXPECT_EQ(available->last_transition_time, kNow);
  EXPECT_EQ(available->reason, "RolloutInProgress");
  EXPECT_EQ(available->message, kNotReady);
  EXPECT_EQ(available->observed_generation, 1);
  const api::Condition* progressing = Find(conditions, "Progressing");
  ASSERT_NE(progressing, nullptr);
  EXPECT_EQ(progressing->status, "True");
  EXPECT_EQ(progressing->last_transition_time, kNow);
}

TEST(SetCondition, SameStatusSyncsReasonAndMessage) {
  std::vector<api::Condition> conditions{
      Condition("Available", "True", 1, "Stale", "stale message from a previous reconcile")};
  EXPECT_TRUE(SetCondition(&conditions, AvailabilityCondition(true, 1), kNow));
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].reason, "AllRolesReady");
  EXPECT_EQ(conditions[0].message, kReady);
  EXPECT_EQ(conditions[0].last_transition_time, kT0);
}

// Upstream's fix after the PR #980 review: the pair member already False still tracks the
// generation, keeping the reason that says why it became False.
TEST(SetCondition, StaleFalseConditionObservedGenerationCatchesUp) {
  std::vector<api::Condition> conditions{
      Condition("Available", "True", 2, "AllRolesReady", kReady),
      Condition("Progressing", "False", 1, "AllRolesReady", kReady)};
  EXPECT_TRUE(SetCondition(&conditions, AvailabilityCondition(true, 3), kNow));
  const api::Condition* progressing = Find(conditions, "Progressing");
  ASSERT_NE(progressing, nullptr);
  EXPECT_EQ(progressing->status, "False");
  EXPECT_EQ(progressing->observed_generation, 3);
  EXPECT_EQ(progressing->last_transition_time, kT0);
  EXPECT_EQ(progressing->reason, "AllRolesReady");
}

TEST(SetCondition, LeavesUnrelatedConditionTypeUntouched) {
  std::vector<api::Condition> conditions{Condition("SomeUnrelatedCondition", "True", 1, "Unrelated",
                                                   "set by something else entirely")};
  SetCondition(&conditions, AvailabilityCondition(true, 1), kNow);
  const api::Condition* unrelated = Find(conditions, "SomeUnrelatedCondition");
  ASSERT_NE(unrelated, nullptr);
  EXPECT_EQ(unrelated->status, "True");
  EXPECT_EQ(unrelated->last_transition_time, kT0);
  EXPECT_EQ(unrelated->reason, "Unrelated");
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[1].type, "Available");
  EXPECT_EQ(conditions[1].last_transition_time, kNow);
}

// ---- SetCondition: ours ---------------------------------------------------------------------

TEST(SetCondition, NothingToChangeReportsNoChange) {
  std::vector<api::Condition> conditions{
      Condition("Available", "True", 4, "AllRolesReady", kReady),
      Condition("Progressing", "False", 4, "AllRolesReady", kReady)};
  const std::vector<api::Condition> before = conditions;
  EXPECT_FALSE(SetCondition(&conditions, AvailabilityCondition(true, 4), kNow));
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0].last_transition_time, kT0);
  EXPECT_EQ(conditions[1].last_transition_time, kT0);
  EXPECT_EQ(conditions[1].observed_generation, before[1].observed_generation);
}

TEST(SetCondition, FalseConditionOfTheSameTypeTurnsTrueWithANewTransitionTime) {
  std::vector<api::Condition> conditions{
      Condition("Available", "False", 1, "RolloutInProgress", kNotReady),
      Condition("Progressing", "True", 1, "RolloutInProgress", kNotReady)};
  EXPECT_TRUE(SetCondition(&conditions, AvailabilityCondition(true, 2), kNow));
  EXPECT_EQ(conditions[0].status, "True");
  EXPECT_EQ(conditions[0].reason, "AllRolesReady");
  EXPECT_EQ(conditions[0].last_transition_time, kNow);
  EXPECT_EQ(conditions[1].status, "False");
  EXPECT_EQ(conditions[1].reason, "AllRolesReady");
  EXPECT_EQ(conditions[1].observed_generation, 2);
}

TEST(AvailabilityCondition, UpstreamTypeReasonAndMessage) {
  const api::Condition available = AvailabilityCondition(true, 7);
  EXPECT_EQ(available.type, "Available");
  EXPECT_EQ(available.status, "True");
  EXPECT_EQ(available.reason, "AllRolesReady");
  EXPECT_EQ(available.message, kReady);
  EXPECT_EQ(available.observed_generation, 7);
  const api::Condition progressing = AvailabilityCondition(false, 7);
  EXPECT_EQ(progressing.type, "Progressing");
  EXPECT_EQ(progressing.reason, "RolloutInProgress");
  EXPECT_EQ(progressing.message, kNotReady);
}

// ---- RoleStatuses and AllRolesSatisfied -----------------------------------------------------

api::DisaggregatedRoleSpec Role(const std::string& name, std::optional<std::int32_t> replicas,
                                bool external = false) {
  api::DisaggregatedRoleSpec role;
  role.name = name;
  role.spec.replicas = replicas;
  if (external) role.scaling.emplace().mode = api::kDsScalingExternal;
  return role;
}

api::DisaggregatedSet Set(std::vector<api::DisaggregatedRoleSpec> roles, int slices) {
  api::DisaggregatedSet ds;
  ds.metadata.name = "ds";
  ds.metadata.generation = 5;
  ds.spec.roles = std::move(roles);
  ds.spec.slices = slices;
  return ds;
}

// An owned LeaderWorkerSet with `replicas` groups, `ready` of them ready and `updated` updated.
OwnedLws Lws(const std::string& role, int slice, const std::string& revision, int replicas,
             int ready, int updated) {
  OwnedLws lws;
  lws.name = "ds-" + std::to_string(slice) + "-" + revision + "-" + role;
  lws.role = role;
  lws.revision = revision;
  lws.slice = slice;
  lws.spec_replicas = replicas;
  lws.status_replicas = replicas;
  lws.ready_replicas = ready;
  lws.updated_replicas = updated;
  return lws;
}

// Two roles, two slices: prefill 2 and decode 1 per slice; slice 1 still runs an old revision of
// decode beside the new one.
class RoleStatusesTest : public ::testing::Test {
 protected:
  api::DisaggregatedSet ds_ = Set({Role("prefill", 2), Role("decode", 1)}, 2);
  std::vector<OwnedLws> owned_{Lws("prefill", 0, "new", 2, 2, 2), Lws("prefill", 1, "new", 2, 1, 2),
                               Lws("decode", 0, "new", 1, 1, 1),  Lws("decode", 1, "new", 1, 1, 1),
                               Lws("decode", 1, "old", 1, 1, 1),  Lws("gone", 0, "old", 3, 3, 3)};
};

TEST_F(RoleStatusesTest, SumsAllSlicesAndRevisionsButCountsUpdatedOnlyAtTheTarget) {
  const std::vector<api::RoleStatus> statuses = RoleStatuses(ds_, "new", owned_);
  ASSERT_EQ(statuses.size(), 2u);  // the removed role "gone" is not reported
  EXPECT_EQ(statuses[0].name, "prefill");
  EXPECT_EQ(statuses[0].replicas, 4);
  EXPECT_EQ(statuses[0].ready_replicas, 3);
  EXPECT_EQ(statuses[0].updated_replicas, 4);
  EXPECT_EQ(statuses[1].name, "decode");
  EXPECT_EQ(statuses[1].replicas, 3);
  EXPECT_EQ(statuses[1].ready_replicas, 3);
  EXPECT_EQ(statuses[1].updated_replicas, 2);
}

TEST_F(RoleStatusesTest, SatisfiedOnlyWhenEveryCountIsTargetTimesSlices) {
  EXPECT_FALSE(AllRolesSatisfied(ds_, RoleStatuses(ds_, "new", owned_), {}));
  owned_[1].ready_replicas = 2;  // prefill ready everywhere; decode still has the old revision
  EXPECT_FALSE(AllRolesSatisfied(ds_, RoleStatuses(ds_, "new", owned_), {}));
  owned_.erase(owned_.begin() + 4);  // the old decode is gone
  EXPECT_TRUE(AllRolesSatisfied(ds_, RoleStatuses(ds_, "new", owned_), {}));
}

TEST(AllRolesSatisfied, NilReplicasReadAsOne) {
  const api::DisaggregatedSet ds = Set({Role("prefill", std::nullopt)}, 1);
  EXPECT_TRUE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", {Lws("prefill", 0, "r", 1, 1, 1)}), {}));
}

TEST(AllRolesSatisfied, ZeroReplicaRoleIsSatisfiedOnceEverythingIsZero) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 0), Role("decode", 0)}, 1);
  EXPECT_TRUE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", {}), {}));
  EXPECT_TRUE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", {Lws("decode", 0, "r", 0, 0, 0)}), {}));
  EXPECT_FALSE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", {Lws("decode", 0, "r", 1, 1, 1)}), {}));
}

TEST(AllRolesSatisfied, ExternalRoleReadsItsScaler) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 1), Role("decode", 1, true)}, 1);
  const std::vector<OwnedLws> owned{Lws("prefill", 0, "r", 1, 1, 1),
                                    Lws("decode", 0, "r", 3, 3, 3)};
  ScalersByRole scalers{{"decode", OwnedScaler{"ds-decode", "decode", 3, 1}}};
  EXPECT_TRUE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", owned), scalers));
  scalers["decode"].spec_replicas = 4;  // the autoscaler asked for one more
  EXPECT_FALSE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", owned), scalers));
}

// Without a scaler the target is unknown: never satisfied, even when the counts would match the
// role's (ignored) spec.replicas or 0.
TEST(AllRolesSatisfied, ExternalRoleWithoutScalerIsNeverSatisfied) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 1), Role("decode", 1, true)}, 1);
  const std::vector<OwnedLws> owned{Lws("prefill", 0, "r", 1, 1, 1),
                                    Lws("decode", 0, "r", 1, 1, 1)};
  EXPECT_FALSE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", owned), {}));
  EXPECT_FALSE(AllRolesSatisfied(ds, RoleStatuses(ds, "r", {Lws("prefill", 0, "r", 1, 1, 1)}), {}));
}

// ---- ApplyStatus ----------------------------------------------------------------------------

TEST(ApplyStatus, FirstWriteSetsEverything) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 1)}, 1);
  api::DisaggregatedSetStatus status;
  EXPECT_TRUE(ApplyStatus(ds, RoleStatuses(ds, "r", {}), false, kNow, &status));
  EXPECT_EQ(status.observed_generation, 5);
  ASSERT_EQ(status.role_statuses.size(), 1u);
  EXPECT_EQ(status.role_statuses[0].name, "prefill");
  ASSERT_EQ(status.conditions.size(), 1u);
  EXPECT_EQ(status.conditions[0].type, "Progressing");
  EXPECT_EQ(status.conditions[0].last_transition_time, kNow);
}

TEST(ApplyStatus, UnchangedStatusNeedsNoWrite) {
  const api::DisaggregatedSet ds = Set({Role("prefill", 1)}, 1);
  api::DisaggregatedSetStatus status;
  const std::vector<OwnedLws> owned{Lws("prefill", 0, "r", 1, 1, 1)};
  ASSERT_TRUE(ApplyStatus(ds, RoleStatuses(ds, "r", owned), true, kT0, &status));
  EXPECT_FALSE(ApplyStatus(ds, RoleStatuses(ds, "r", owned), true, kNow, &status));
  EXPECT_EQ(status.conditions[0].last_transition_time, kT0);
}

TEST(ApplyStatus, EachPartAloneIsAChange) {
  api::DisaggregatedSet ds = Set({Role("prefill", 1)}, 1);
  api::DisaggregatedSetStatus status;
  const std::vector<OwnedLws> owned{Lws("prefill", 0, "r", 1, 1, 1)};
  ASSERT_TRUE(ApplyStatus(ds, RoleStatuses(ds, "r", owned), true, kT0, &status));
  // A count changes.
  EXPECT_TRUE(ApplyStatus(ds, RoleStatuses(ds, "r", {Lws("prefill", 0, "r", 1, 0, 1)}), true, kNow,
                          &status));
  EXPECT_EQ(status.role_statuses[0].ready_replicas, 0);
  // Availability changes.
  EXPECT_TRUE(ApplyStatus(ds, status.role_statuses, false, kNow, &status));
  EXPECT_EQ(FindCondition(status.conditions, "Progressing")->status, "True");
  // The generation changes: observedGeneration, and both conditions' follow.
  ds.metadata.generation = 6;
  EXPECT_TRUE(ApplyStatus(ds, status.role_statuses, false, kNow, &status));
  EXPECT_EQ(status.observed_generation, 6);
  EXPECT_EQ(FindCondition(status.conditions, "Available")->observed_generation, 6);
  EXPECT_EQ(FindCondition(status.conditions, "Progressing")->observed_generation, 6);
}

}  // namespace
}  // namespace lws::disaggregatedset
