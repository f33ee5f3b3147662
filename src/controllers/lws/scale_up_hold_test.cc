// Rollout before scale-up (scale_up_hold.h): when the scale-up waits, and the condition and
// events that say so. The whole reconcile, step by step: src/scenario/scarcity_stepwise_test.cc.
#include "controllers/lws/scale_up_hold.h"

#include <gtest/gtest.h>

#include "api/rollout_annotations.h"

namespace lws::controllers {
namespace {

LeaderSetState Set(std::int32_t replicas, std::int32_t partition, Result<std::int32_t> annotation) {
  LeaderSetState s;
  s.replicas = replicas;
  s.partition = partition;
  s.replicas_annotation = std::move(annotation);
  return s;
}

std::vector<GroupState> Groups(const std::string& marks) {
  // 'u': updated and ready, 'r': ready on the old revision, 'n': updated, not ready, '-': down.
  std::vector<GroupState> out;
  for (char c : marks) out.push_back({c == 'u' || c == 'r', c == 'u' || c == 'n'});
  return out;
}

TEST(ScaleUpHoldTest, TemplateChangeWithIncreaseHoldsAtTheExistingGroups) {
  LeaderSetState sts = Set(4, 0, 4);
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("rrrr"), true), (ScaleUpHold{4, 8}));
  // Off, or no leader StatefulSet yet: upstream's path.
  EXPECT_EQ(DecideScaleUpHold(false, 8, 0, &sts, Groups("rrrr"), true), std::nullopt);
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, nullptr, {}, false), std::nullopt);
}

TEST(ScaleUpHoldTest, HoldsUntilEveryExistingGroupIsUpdatedAndReady) {
  // Mid-rollout, with a surge group above the 4 held groups (it is group 4 of the 8 wanted).
  LeaderSetState sts = Set(5, 2, 4);
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("rruuu"), false), (ScaleUpHold{4, 8}));
  sts.partition = 0;
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("nuuuu"), false), (ScaleUpHold{4, 8}));
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("-uuuu"), false), (ScaleUpHold{4, 8}));
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("uuuuu"), false), std::nullopt);
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("uuuu"), false), std::nullopt);
}

TEST(ScaleUpHoldTest, AnIncreaseDuringARolloutWaitsToo) {
  LeaderSetState sts = Set(4, 2, 4);
  EXPECT_EQ(DecideScaleUpHold(true, 6, 0, &sts, Groups("rruu"), false), (ScaleUpHold{4, 6}));
}

TEST(ScaleUpHoldTest, NeverHoldsADecreaseOrAnIncreaseAtRest) {
  LeaderSetState sts = Set(4, 0, 4);
  EXPECT_EQ(DecideScaleUpHold(true, 4, 0, &sts, Groups("rrrr"), true), std::nullopt);
  EXPECT_EQ(DecideScaleUpHold(true, 2, 0, &sts, Groups("rrrr"), true), std::nullopt);
  EXPECT_EQ(DecideScaleUpHold(true, 8, 0, &sts, Groups("uuuu"), false), std::nullopt);
}

TEST(ScaleUpHoldTest, GroupsBelowThePartitionAreNotWaitedFor) {
  LeaderSetState sts = Set(4, 2, 4);
  EXPECT_EQ(DecideScaleUpHold(true, 8, 2, &sts, Groups("rrnu"), false), (ScaleUpHold{4, 8}));
  EXPECT_EQ(DecideScaleUpHold(true, 8, 2, &sts, Groups("rruu"), false), std::nullopt);
  // A partition at or above the existing groups: no existing group will change, grow at once.
  EXPECT_EQ(DecideScaleUpHold(true, 8, 4, &sts, Groups("rrrr"), true), std::nullopt);
}

TEST(ScaleUpHoldTest, AMissingReplicasAnnotationCountsTheSetOnATemplateChangeOnly) {
  LeaderSetState sts = Set(3, 0, Status::BadRequest("strconv.Atoi: parsing \"\": invalid syntax"));
  EXPECT_EQ(DecideScaleUpHold(true, 6, 0, &sts, Groups("rrr"), true), (ScaleUpHold{3, 6}));
  EXPECT_EQ(DecideScaleUpHold(true, 6, 0, &sts, Groups("rrr"), false), std::nullopt);
}

TEST(ScaleUpHoldTest, ConditionAndEventsFollowTheHold) {
  api::LeaderWorkerSet lws;
  lws.metadata.generation = 3;
  lws.spec.replicas = 8;
  std::vector<api::Condition> conditions;
  std::optional<std::pair<std::string, std::string>> event;
  // Never held: nothing shown.
  EXPECT_FALSE(SetScaleUpHeldCondition(lws, std::nullopt, &conditions, "t0", &event));
  EXPECT_TRUE(conditions.empty());
  EXPECT_FALSE(event.has_value());

  EXPECT_TRUE(SetScaleUpHeldCondition(lws, ScaleUpHold{4, 8}, &conditions, "t1", &event));
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].type, "ScaleUpHeld");
  EXPECT_EQ(conditions[0].status, "True");
  EXPECT_EQ(conditions[0].reason, "RolloutBeforeScaleUp");
  const std::string message =
      "Scaling up from 4 to 8 groups waits until the existing groups run the current revision "
      "and are Ready (lws-cpp.dev/rollout-before-scale-up)";
  EXPECT_EQ(conditions[0].message, message);
  EXPECT_EQ(conditions[0].observed_generation, 3);
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(*event, std::make_pair(std::string("RolloutBeforeScaleUp"), message));

  // Still held: nothing changes, no second event.
  event.reset();
  EXPECT_FALSE(SetScaleUpHeldCondition(lws, ScaleUpHold{4, 8}, &conditions, "t2", &event));
  EXPECT_FALSE(event.has_value());
  EXPECT_EQ(conditions[0].last_transition_time, "t1");

  // Released.
  EXPECT_TRUE(SetScaleUpHeldCondition(lws, std::nullopt, &conditions, "t3", &event));
  EXPECT_EQ(conditions[0].status, "False");
  EXPECT_EQ(conditions[0].reason, "ScaleUpReleased");
  EXPECT_EQ(conditions[0].message, "No scale-up waits for a rollout");
  EXPECT_EQ(conditions[0].last_transition_time, "t3");
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(event->first, "ScaleUpReleased");
  EXPECT_EQ(event->second, "Scaling to 8 groups no longer waits for the rollout");
  event.reset();
  EXPECT_FALSE(SetScaleUpHeldCondition(lws, std::nullopt, &conditions, "t4", &event));
  EXPECT_FALSE(event.has_value());
}

}  // namespace
}  // namespace lws::controllers
