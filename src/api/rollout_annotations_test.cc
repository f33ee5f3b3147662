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

TEST(RolloutAnnotationsTest, UpstreamManifestsAreUnchanged) {
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(DefaultLws())), "");
  EXPECT_FALSE(ReadRolloutBehaviours(DefaultLws().metadata).progress_deadline.has_value());
}

}  // namespace
}  // namespace lws::api
