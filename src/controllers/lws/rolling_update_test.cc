// The rolling-update arithmetic against spec section 11: the helper contracts (S159, S160), the
// worked examples A-F replayed step by step, and the consequences listed in 11.9 and Q17/Q18.
#include "controllers/lws/rolling_update.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lws::controllers {
namespace {

RolloutSettings Settings(std::int32_t replicas, std::int32_t mu, std::int32_t ms,
                         std::int32_t partition = 0) {
  RolloutSettings s;
  s.replicas = replicas;
  s.max_unavailable = mu;
  s.max_surge = std::min(ms, replicas);
  s.partition = partition;
  return s;
}

// RollingUpdateParameters, whose errors only the replicas annotation's tests look at.
RolloutDecision Params(const RolloutSettings& settings, const LeaderSetState* sts,
                       const std::vector<GroupState>& states, bool lws_updated) {
  return RollingUpdateParameters(settings, sts, states, lws_updated).value();
}

// The rest of the cluster, reduced to what the arithmetic sees: the leader StatefulSet replaces
// every old group at or above the partition at once, creates missing groups (new, not ready) and
// removes groups above its replicas.
struct World {
  RolloutSettings settings;
  LeaderSetState sts;
  std::vector<GroupState> groups;
  std::vector<SurgeDeletion> deletions;

  World(RolloutSettings s) : settings(s) {
    sts = {s.replicas, s.partition, s.replicas};
    groups.assign(s.replicas, GroupState{true, true});
  }
  // A template change: every group becomes old.
  void ChangeTemplate() {
    for (auto& g : groups) g.updated = false;
  }
  RolloutDecision Reconcile(bool lws_updated = false) {
    RolloutDecision d = Params(settings, &sts, groups, lws_updated);
    if (d.deleting) deletions.push_back(*d.deleting);
    sts = {d.replicas, d.partition, settings.replicas};
    groups.resize(d.replicas, GroupState{false, true});
    for (std::int32_t i = d.partition; i < d.replicas; ++i) {
      if (!groups[i].updated) groups[i] = GroupState{false, true};
    }
    return d;
  }
  void Ready(std::int32_t i) { groups[i].ready = true; }
  std::string Notation() const {
    std::string out;
    for (const auto& g : groups) out += std::string(g.updated ? "N" : "o") + (g.ready ? "+" : "-");
    return out;
  }
};

#define EXPECT_PR(decision, p, r)                     \
  do {                                                \
    auto d_ = (decision);                             \
    EXPECT_EQ(d_.partition, p) << "rule " << d_.rule; \
    EXPECT_EQ(d_.replicas, r) << "rule " << d_.rule;  \
  } while (0)

TEST(RollingUpdateReplicas, UpstreamTable) {  // S159
  EXPECT_EQ(RollingUpdateReplicas(1, 1, 0, 1), 2);
  EXPECT_EQ(RollingUpdateReplicas(4, 2, 1, 2), 5);
  EXPECT_EQ(RollingUpdateReplicas(2, 2, 1, 2), 3);
  EXPECT_EQ(RollingUpdateReplicas(1, 1, 0, 0), 1);
  EXPECT_EQ(RollingUpdateReplicas(1, 1, 1, 1), 1);
  EXPECT_EQ(RollingUpdateReplicas(3, 0, 0, 1), 3);
}

TEST(RollingUpdateParameters, UpstreamUnitCases) {  // S160
  LeaderSetState sts{2, 0, 2};
  std::vector<GroupState> states(2, GroupState{true, true});
  EXPECT_PR(Params(Settings(3, 0, 1), &sts, states, false), 0, 3);
  EXPECT_PR(Params(Settings(3, 0, 1), &sts, states, true), 2, 3);
  EXPECT_PR(Params(Settings(2, 1, 2), &sts, states, true), 2, 3);
}

TEST(RollingUpdateParameters, NoStatefulSetStartsAtTheUserPartition) {
  EXPECT_PR(Params(Settings(4, 1, 0), nullptr, {}, false), 0, 4);
  EXPECT_PR(Params(Settings(4, 1, 0, 3), nullptr, {}, false), 3, 4);
}

TEST(ContinuousReadyReplicas, CountsFromTheTopOnly) {
  EXPECT_EQ(ContinuousReadyReplicas({{true, true}, {false, false}, {true, true}, {true, true}}), 2);
  EXPECT_EQ(ContinuousReadyReplicas({{true, true}, {true, false}}), 0);
  EXPECT_EQ(ContinuousReadyReplicas({}), 0);
}

TEST(LwsUnreadyReplicas, MissingGroupsAreUnreadyAndSurgeIsIgnored) {
  std::vector<GroupState> states{{true, true}, {true, false}, {false, true}, {false, false}};
  EXPECT_EQ(LwsUnreadyReplicas(states, 2), 1);
  EXPECT_EQ(LwsUnreadyReplicas(states, 6), 5);  // 1, 2, 3 and the two missing
}

TEST(WorkedExample, A_FourReplicasMaxUnavailable1MaxSurge2) {
  World w(Settings(4, 1, 2));
  w.ChangeTemplate();
  EXPECT_PR(w.Reconcile(true), 4, 6);
  EXPECT_EQ(w.Notation(), "o+o+o+o+N-N-");
  EXPECT_PR(w.Reconcile(), 3, 6);
  EXPECT_EQ(w.Notation(), "o+o+o+N-N-N-");
  w.Ready(5);
  EXPECT_PR(w.Reconcile(), 2, 6);
  w.Ready(4);
  EXPECT_PR(w.Reconcile(), 1, 6);
  w.Ready(3);
  EXPECT_PR(w.Reconcile(), 0, 6);
  EXPECT_TRUE(w.deletions.empty());
  w.Ready(2);
  EXPECT_PR(w.Reconcile(), 0, 5);
  ASSERT_EQ(w.deletions.size(), 1u);
  EXPECT_EQ(w.deletions[0].from, 5);
  EXPECT_EQ(w.deletions[0].to, 5);
  w.Ready(1);
  EXPECT_PR(w.Reconcile(), 0, 4);
  w.Ready(0);
  auto done = w.Reconcile();
  EXPECT_PR(done, 0, 4);
  EXPECT_EQ(done.rule, 3);
  EXPECT_EQ(w.Notation(), "N+N+N+N+");
}

TEST(WorkedExample, B_FourReplicasMaxUnavailable2MaxSurge2) {
  World w(Settings(4, 2, 2));
  w.ChangeTemplate();
  EXPECT_PR(w.Reconcile(true), 4, 6);
  EXPECT_PR(w.Reconcile(), 2, 6);
  w.Ready(4);
  EXPECT_PR(w.Reconcile(), 2, 6);  // the top group 5 is not ready: C = 0
  w.Ready(5);
  EXPECT_PR(w.Reconcile(), 0, 6);
  w.Ready(2);
  w.Ready(3);
  EXPECT_PR(w.Reconcile(), 0, 4);  // both surge groups reclaimed at once
  ASSERT_EQ(w.deletions.size(), 1u);
  EXPECT_EQ(w.deletions[0].from, 4);
  EXPECT_EQ(w.deletions[0].to, 5);
  w.Ready(1);
  w.Ready(0);
  EXPECT_PR(w.Reconcile(), 0, 4);
}

TEST(WorkedExample, C_MaxUnavailable0MaxSurge1) {
  World w(Settings(4, 0, 1));
  w.ChangeTemplate();
  EXPECT_PR(w.Reconcile(true), 4, 5);
  EXPECT_PR(w.Reconcile(), 4, 5);  // group 4 new and not ready
  for (std::int32_t top = 4; top >= 1; --top) {
    w.Ready(top);
    SCOPED_TRACE("after group " + std::to_string(top));
    EXPECT_PR(w.Reconcile(), top - 1, 5);
  }
  EXPECT_EQ(w.Notation(), "N-N+N+N+N+");
  EXPECT_PR(w.Reconcile(), 0, 5);  // unready 1 <= 1: 4 + max(0, 1 - 0), surge kept
  w.Ready(0);
  EXPECT_PR(w.Reconcile(), 0, 4);
}

TEST(WorkedExample, D_MaxSurgeAtLeastReplicas) {
  World four(Settings(4, 1, 4));
  four.ChangeTemplate();
  EXPECT_PR(four.Reconcile(true), 4, 7);  // not 8
  World two(Settings(2, 1, 4));
  two.ChangeTemplate();
  EXPECT_PR(two.Reconcile(true), 2, 3);
  EXPECT_PR(two.Reconcile(), 1, 3);
  World unit(Settings(2, 1, 2));
  unit.ChangeTemplate();
  EXPECT_PR(unit.Reconcile(true), 2, 3);
}

TEST(WorkedExample, E_UserPartition) {
  World w(Settings(6, 1, 0, 4));
  EXPECT_PR(w.Reconcile(), 4, 6);  // at rest the clamp keeps 4 (rule 5 computes 0)
  w.ChangeTemplate();
  EXPECT_PR(w.Reconcile(true), 6, 6);
  EXPECT_PR(w.Reconcile(), 5, 6);
  w.Ready(5);
  EXPECT_PR(w.Reconcile(), 4, 6);
  w.Ready(4);
  EXPECT_PR(w.Reconcile(), 4, 6);  // clamp
  EXPECT_EQ(w.Notation(), "o+o+o+o+N+N+");
  w.settings.partition = 2;
  EXPECT_PR(w.Reconcile(), 3, 6);
  w.Ready(3);
  EXPECT_PR(w.Reconcile(), 2, 6);
}

TEST(WorkedExample, E_SurgePersistsWhileGroupsBelowThePartitionAreOld) {
  World w(Settings(3, 1, 1, 2));
  w.ChangeTemplate();
  EXPECT_PR(w.Reconcile(true), 3, 4);
  for (int i = 0; i < 4; ++i) {
    for (std::int32_t g = 2; g < static_cast<std::int32_t>(w.groups.size()); ++g) {
      if (w.groups[g].updated) w.Ready(g);
    }
    w.Reconcile();
  }
  EXPECT_EQ(w.sts.replicas, 4);
  EXPECT_EQ(w.sts.partition, 2);
  w.settings.partition = 0;
  for (int i = 0; i < 6; ++i) {
    for (std::size_t g = 0; g < w.groups.size(); ++g) {
      if (w.groups[g].updated) w.Ready(g);
    }
    w.Reconcile();
  }
  EXPECT_EQ(w.sts.replicas, 3);
  EXPECT_EQ(w.sts.partition, 0);
}

TEST(WorkedExample, F_ReplicasChangedMidRollout) {
  // Scale-up 4 -> 6 during a rollout with partition 2 (rule 3b).
  LeaderSetState sts{4, 2, 4};
  std::vector<GroupState> states{{true, false}, {true, false}, {true, true}, {true, true}};
  auto up = Params(Settings(6, 1, 0), &sts, states, false);
  EXPECT_PR(up, 2, 6);
  EXPECT_EQ(up.rule, 30);
  // Scale-down 6 -> 3 with the sts partition at 5 (rule 4), then rule 5.
  sts = {6, 5, 6};
  states.assign(6, GroupState{true, false});
  auto down = Params(Settings(3, 1, 0), &sts, states, false);
  EXPECT_PR(down, 3, 3);
  EXPECT_EQ(down.rule, 4);
  sts = {3, 3, 3};
  states.resize(3);
  EXPECT_PR(Params(Settings(3, 1, 0), &sts, states, false), 2, 3);
  // Template + replicas 6 -> 3 together with maxSurge 2.
  sts = {6, 0, 6};
  states.assign(6, GroupState{true, false});
  EXPECT_PR(Params(Settings(3, 1, 2), &sts, states, true), 3, 5);
  sts = {5, 3, 3};
  states = {{true, false}, {true, false}, {true, false}, {false, true}, {false, true}};
  EXPECT_PR(Params(Settings(3, 1, 2), &sts, states, false), 2, 5);
  // Template + replicas 2 -> 4 with maxSurge 2: the surge appears one reconcile later.
  sts = {2, 0, 2};
  states.assign(2, GroupState{true, false});
  EXPECT_PR(Params(Settings(4, 1, 2), &sts, states, true), 2, 4);
  sts = {4, 2, 4};
  states = {{true, false}, {true, false}, {false, false}, {false, true}};
  EXPECT_PR(Params(Settings(4, 1, 2), &sts, states, false), 2, 6);
  // A maxSurge 2 rollout at (3, 6), then replicas 4 -> 6, then 6 -> 2.
  sts = {6, 3, 4};
  states = {{true, false}, {true, false}, {true, false}, {false, true}, {true, true}, {true, true}};
  EXPECT_PR(Params(Settings(6, 1, 2), &sts, states, false), 3, 8);
  sts = {8, 3, 6};
  states.resize(8, GroupState{false, true});
  EXPECT_PR(Params(Settings(2, 1, 2), &sts, states, false), 3, 3);
}

TEST(RollingUpdateParameters, Q17FirstBurst) {
  auto first = [](std::int32_t mu, std::int32_t ms) {
    LeaderSetState sts{4, 0, 4};
    std::vector<GroupState> states(4, GroupState{true, false});
    return Params(Settings(4, mu, ms), &sts, states, true).replicas;
  };
  EXPECT_EQ(first(1, 2), 6);
  EXPECT_EQ(first(1, 4), 7);
  EXPECT_EQ(first(0, 4), 8);
}

TEST(RollingUpdateParameters, UnhealthyGroupsBelowTheBaseRaiseThePartition) {
  // 4 replicas, maxUnavailable 2, group 1 unready: partition 3 instead of 2 (11.9).
  LeaderSetState sts{4, 4, 4};
  std::vector<GroupState> states{{true, false}, {false, false}, {true, false}, {true, false}};
  EXPECT_PR(Params(Settings(4, 2, 0), &sts, states, false), 3, 4);
}

TEST(RollingUpdateParameters, EverythingUnreadyStillDescends) {
  // 2 replicas, maxUnavailable 1, no group ready (11.9 "no ready replicas").
  World w(Settings(2, 1, 0));
  for (auto& g : w.groups) g = GroupState{false, false};
  EXPECT_PR(w.Reconcile(true), 2, 2);
  EXPECT_PR(w.Reconcile(), 1, 2);
  w.Ready(1);
  EXPECT_PR(w.Reconcile(), 0, 2);
}

TEST(RollingUpdateParameters, MaxUnavailableAtLeastReplicasUpdatesEverythingAtOnce) {
  World w(Settings(3, 3, 0));
  w.ChangeTemplate();
  w.Reconcile(true);
  EXPECT_PR(w.Reconcile(), 0, 3);
}

TEST(RollingUpdateParameters, ScaleDownAtRestKeepsSurgeForUnreadyDesiredGroups) {
  // 4 -> 2 with maxSurge 1, maxUnavailable 0, and group 1 unready: 3 until it is ready (11.9).
  LeaderSetState sts{4, 0, 4};
  std::vector<GroupState> states{{true, true}, {false, true}, {true, true}, {true, true}};
  auto d = Params(Settings(2, 0, 1), &sts, states, false);
  EXPECT_PR(d, 0, 3);
  ASSERT_TRUE(d.deleting.has_value());
  EXPECT_EQ(d.deleting->from, 3);
  EXPECT_EQ(d.deleting->to, 3);
}

TEST(RolloutSettingsOf, ScalesPercentagesAndCapsSurge) {
  api::LeaderWorkerSet lws;
  lws.spec.replicas = 4;
  api::RollingUpdateConfiguration config;
  config.max_unavailable = api::IntOrString::FromString("25%");
  config.max_surge = api::IntOrString::FromString("100%");
  config.partition = 1;
  lws.spec.rollout_strategy.rolling_update_configuration = config;
  auto s = RolloutSettingsOf(lws);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->max_unavailable, 1);
  EXPECT_EQ(s->max_surge, 4);
  EXPECT_EQ(s->partition, 1);
  lws.spec.replicas = 3;
  config.max_unavailable = api::IntOrString::FromString("50%");  // 1.5 down
  config.max_surge = api::IntOrString::FromString("50%");        // 1.5 up
  lws.spec.rollout_strategy.rolling_update_configuration = config;
  s = RolloutSettingsOf(lws);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->max_unavailable, 1);
  EXPECT_EQ(s->max_surge, 2);
  config.max_surge = api::IntOrString::FromString("lots");
  lws.spec.rollout_strategy.rolling_update_configuration = config;
  EXPECT_FALSE(RolloutSettingsOf(lws).ok());
}

}  // namespace
}  // namespace lws::controllers

namespace lws::controllers {
namespace {

// Issue 31 item 1: upstream reads the replicas annotation only in rules 4 and 5 (strconv.Atoi,
// whose error fails the reconcile); creation, a template change and a set at rest never need it,
// and the apply they make writes it back.
TEST(RollingUpdateParameters, ReplicasAnnotationIsReadOnlyByRulesFourAndFive) {
  const Status missing = Status::BadRequest("strconv.Atoi: parsing \"\": invalid syntax");
  LeaderSetState sts{4, 0, missing};
  std::vector<GroupState> states(4, GroupState{true, true});
  EXPECT_PR(Params(Settings(4, 1, 1), &sts, states, false), 0, 4);  // rule 3, at rest
  states.assign(4, GroupState{true, false});
  EXPECT_PR(Params(Settings(4, 1, 1), &sts, states, true), 4, 5);  // rule 2, template change
  sts.partition = 3;
  auto mid_rollout = RollingUpdateParameters(Settings(4, 1, 1), &sts, states, false);
  ASSERT_FALSE(mid_rollout.ok());
  EXPECT_EQ(mid_rollout.status().message(), "strconv.Atoi: parsing \"\": invalid syntax");
  sts.replicas = 2;  // rule 3b grows first, without the annotation
  EXPECT_PR(Params(Settings(4, 1, 1), &sts, states, false), 3, 4);
}

}  // namespace
}  // namespace lws::controllers

namespace lws::controllers {
namespace {

// Upstream's arithmetic counts surge groups as available (spec 11.1): wantReplicas releases
// surge groups from the top by the number of unready desired groups, whatever the surge groups'
// own readiness. Found by the sweep (seed 624: replicas 5, maxUnavailable 50% = 2, maxSurge 75%
// = 4, the partition lowered from 3 to 0 while surge groups start): groups 0 and 6-8 are ready,
// 1-5 still start; the release keeps surge group 5 (starting) and removes the ready 7 and 8, so
// two groups are ready where the floor is three. rollout_checker.h refines property 2 with this.
TEST(RollingUpdateParameters, SurgeReleaseCountsUnreadySurgeGroupsAsAvailable) {
  LeaderSetState sts{9, 0, 5};
  std::vector<GroupState> states(9, GroupState{false, true});
  for (int i : {0, 6, 7, 8}) states[i].ready = true;
  RolloutDecision d = Params(Settings(5, 2, 4), &sts, states, false);
  EXPECT_EQ(d.rule, 5);
  EXPECT_PR(d, 0, 7);  // unready desired groups 4 <= maxSurge 4: 5 + (4 - 2)
  ASSERT_TRUE(d.deleting.has_value());
  EXPECT_EQ(d.deleting->from, 7);
  EXPECT_EQ(d.deleting->to, 8);
  int ready_after = 0;
  for (int i = 0; i < d.replicas; ++i) ready_after += states[i].ready;
  EXPECT_EQ(ready_after, 2);  // below replicas - maxUnavailable = 3 ...
  int starting_surge = 0;
  for (int i = 5; i < d.replicas; ++i) starting_surge += !states[i].ready;
  EXPECT_EQ(ready_after + starting_surge, 3);  // ... by exactly the starting surge groups kept
}

}  // namespace
}  // namespace lws::controllers
