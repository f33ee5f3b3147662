// The opt-in rollout annotations (rollout_annotations.h): webhook checks with field paths, and
// upstream manifests unchanged.
#include "api/rollout_annotations.h"

#include <gtest/gtest.h>

#include "api/lws_testing.h"
#include "api/lws_validation.h"

namespace lws::api {
namespace {

using namespace std::chrono_literals;
using testing::DefaultLws;
using testing::Describe;

LeaderWorkerSet WithDeadline(const std::string& value) {
  LeaderWorkerSet lws = DefaultLws();
  lws.metadata.annotations[kProgressDeadlineAnnotation] = value;
  return lws;
}

TEST(RolloutAnnotationsTest, ProgressDeadline) {
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(WithDeadline("10m"))), "");
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(WithDeadline("1h30m"))), "");
  EXPECT_EQ(ReadRolloutBehaviours(WithDeadline("90s").metadata).progress_deadline, Duration(90s));
  const std::string path = "metadata.annotations[lws-cpp.dev/progress-deadline]";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(WithDeadline("5s"))),
            path + ": Invalid value: \"5s\": must be between 10s and 24h\n");
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(WithDeadline("48h"))),
            path + ": Invalid value: \"48h\": must be between 10s and 24h\n");
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(WithDeadline("600"))),
            path + ": Invalid value: \"600\": time: missing unit in duration \"600\"\n");
  EXPECT_FALSE(ReadRolloutBehaviours(WithDeadline("600").metadata).progress_deadline.has_value());
}

TEST(RolloutAnnotationsTest, CapacityHandOff) {
  LeaderWorkerSet lws = DefaultLws();
  EXPECT_FALSE(ReadRolloutBehaviours(lws.metadata).capacity_hand_off.has_value());
  lws.metadata.annotations[kCapacityHandOffAnnotation] = "10m";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)), "");
  EXPECT_EQ(ReadRolloutBehaviours(lws.metadata).capacity_hand_off, Duration(10min));
  const std::string path = "metadata.annotations[lws-cpp.dev/capacity-hand-off]";
  lws.metadata.annotations[kCapacityHandOffAnnotation] = "true";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)),
            path + ": Invalid value: \"true\": time: invalid duration \"true\"\n");
  EXPECT_FALSE(ReadRolloutBehaviours(lws.metadata).capacity_hand_off.has_value());
  lws.metadata.annotations[kCapacityHandOffAnnotation] = "25h";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)),
            path + ": Invalid value: \"25h\": must be between 10s and 24h\n");
  lws.metadata.annotations[kCapacityHandOffAnnotation] = "10m";
  lws.metadata.annotations[kHandOffPriorityClassAnnotation] = "serving-hold";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)), "");
  EXPECT_EQ(ReadRolloutBehaviours(lws.metadata).hand_off_priority_class, "serving-hold");
  lws.metadata.annotations[kHandOffPriorityClassAnnotation] = "Serving_Hold";
  EXPECT_NE(Describe(ValidateLeaderWorkerSet(lws))
                .find("metadata.annotations[lws-cpp.dev/capacity-hand-off-priority-class]: "
                      "Invalid value: \"Serving_Hold\": a lowercase RFC 1123 subdomain"),
            std::string::npos)
      << Describe(ValidateLeaderWorkerSet(lws));
  EXPECT_EQ(ReadRolloutBehaviours(lws.metadata).hand_off_priority_class, "");
}

TEST(RolloutAnnotationsTest, SurgeFallback) {
  LeaderWorkerSet lws = DefaultLws();
  lws.metadata.annotations[kSurgeFallbackAfterAnnotation] = "5m";
  lws.metadata.annotations[kSurgeFallbackReleaseAnnotation] = "true";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)), "");
  RolloutBehaviours b = ReadRolloutBehaviours(lws.metadata);
  EXPECT_EQ(b.surge_fallback_after, Duration(5min));
  EXPECT_TRUE(b.surge_fallback_release);

  lws.metadata.annotations[kSurgeFallbackAfterAnnotation] = "1s";
  lws.metadata.annotations[kSurgeFallbackReleaseAnnotation] = "yes";
  lws.metadata.annotations[kSurgeFallbackAnnotation] = R"({"revision":"r","maxSurge":-1})";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)),
            "metadata.annotations[lws-cpp.dev/surge-fallback-after]: Invalid value: \"1s\": must "
            "be between 10s and 24h\n"
            "metadata.annotations[lws-cpp.dev/surge-fallback-release]: Invalid value: \"yes\": "
            "must be \"true\" or \"false\"\n"
            "metadata.annotations[lws-cpp.dev/surge-fallback]: Invalid value: "
            "\"{\\\"revision\\\":\\\"r\\\",\\\"maxSurge\\\":-1}\": must be a JSON object "
            "with revision (a string), maxSurge and maxUnavailable (integers >= 0) and reason (a "
            "string)\n");
  EXPECT_FALSE(ReadRolloutBehaviours(lws.metadata).surge_fallback_release);
  EXPECT_FALSE(ReadSurgeFallbackState(lws.metadata).has_value());
}

// The flags: "true" turns the behaviour on, "false" or nothing leaves it off, anything else is
// refused with the annotation's path.
TEST(RolloutAnnotationsTest, Flags) {
  const std::vector<std::pair<std::string, bool RolloutBehaviours::*>> flags = {
      {kRolloutBeforeScaleUpAnnotation, &RolloutBehaviours::rollout_before_scale_up},
      {kPausedAnnotation, &RolloutBehaviours::paused},
      {kSurgeFallbackReleaseAnnotation, &RolloutBehaviours::surge_fallback_release}};
  for (const auto& [key, field] : flags) {
    LeaderWorkerSet lws = DefaultLws();
    EXPECT_FALSE(ReadRolloutBehaviours(lws.metadata).*field) << key;
    lws.metadata.annotations[key] = "true";
    EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)), "") << key;
    EXPECT_TRUE(ReadRolloutBehaviours(lws.metadata).*field) << key;
    lws.metadata.annotations[key] = "false";
    EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)), "") << key;
    EXPECT_FALSE(ReadRolloutBehaviours(lws.metadata).*field) << key;
    lws.metadata.annotations[key] = "True";
    EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)),
              "metadata.annotations[" + key +
                  "]: Invalid value: \"True\": must be \"true\" or \"false\"\n");
    EXPECT_FALSE(ReadRolloutBehaviours(lws.metadata).*field) << key;
  }
}

TEST(RolloutAnnotationsTest, SurgeFallbackStateRoundTrips) {
  SurgeFallbackState state{"abc", 0, 1, "why"};
  Json patch = SurgeFallbackPatch(state, "12");
  EXPECT_EQ(patch["metadata"]["resourceVersion"], "12");
  ObjectMeta meta;
  meta.annotations[kSurgeFallbackAnnotation] =
      patch["metadata"]["annotations"][kSurgeFallbackAnnotation].get<std::string>();
  EXPECT_EQ(ReadSurgeFallbackState(meta), state);
  EXPECT_TRUE(
      SurgeFallbackPatch(std::nullopt, "13")["metadata"]["annotations"][kSurgeFallbackAnnotation]
          .is_null());
}

TEST(RolloutAnnotationsTest, FailurePolicy) {
  LeaderWorkerSet lws = DefaultLws();
  lws.metadata.annotations[kFailurePolicyAnnotation] = "Rollback";
  lws.metadata.annotations[kFailureThresholdAnnotation] = "5";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)), "");
  RolloutBehaviours b = ReadRolloutBehaviours(lws.metadata);
  EXPECT_EQ(b.failure_policy, "Rollback");
  EXPECT_EQ(b.failure_threshold, 5);
  lws.metadata.annotations.erase(kFailureThresholdAnnotation);
  EXPECT_EQ(ReadRolloutBehaviours(lws.metadata).failure_threshold, 3);

  lws.metadata.annotations[kFailurePolicyAnnotation] = "Retry";
  lws.metadata.annotations[kFailureThresholdAnnotation] = "0";
  lws.metadata.annotations[kFailedRevisionAnnotation] = "{}";
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(lws)),
            "metadata.annotations[lws-cpp.dev/failure-policy]: Unsupported value: \"Retry\": "
            "supported values: \"Pause\", \"Rollback\"\n"
            "metadata.annotations[lws-cpp.dev/failure-threshold]: Invalid value: \"0\": must be an "
            "integer between 1 and 999999\n"
            "metadata.annotations[lws-cpp.dev/failed-revision]: Invalid value: \"{}\": must be a "
            "JSON object with revision and policy (strings), and rolledBackTo and reason "
            "(strings)\n");
  EXPECT_EQ(ReadRolloutBehaviours(lws.metadata).failure_policy, "");
}

TEST(RolloutAnnotationsTest, FailedRevisionRoundTrips) {
  FailedRevision failed{"abc", "Rollback", "def", "why"};
  ObjectMeta meta;
  meta.annotations[kFailedRevisionAnnotation] = EncodeFailedRevision(failed);
  EXPECT_EQ(ReadFailedRevision(meta), failed);
}

TEST(RolloutAnnotationsTest, UpstreamManifestsAreUnchanged) {
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(DefaultLws())), "");
  EXPECT_FALSE(ReadRolloutBehaviours(DefaultLws().metadata).progress_deadline.has_value());
  EXPECT_FALSE(ReadRolloutBehaviours(DefaultLws().metadata).surge_fallback_after.has_value());
  EXPECT_FALSE(ReadSurgeFallbackState(DefaultLws().metadata).has_value());
}

}  // namespace
}  // namespace lws::api
