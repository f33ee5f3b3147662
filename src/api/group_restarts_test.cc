// The opt-in restart budget and backoff annotations (group_restarts.h): webhook checks with field
// paths, reading and encoding the controller's counts, and the backoff arithmetic.
#include "api/group_restarts.h"

#include <gtest/gtest.h>

#include "api/lws_testing.h"
#include "api/lws_validation.h"

namespace lws::api {
namespace {

using namespace std::chrono_literals;
using testing::DefaultLws;
using testing::Describe;

LeaderWorkerSet With(const StringMap& annotations, const std::string& policy = "") {
  LeaderWorkerSet lws = DefaultLws();
  for (const auto& [k, v] : annotations) lws.metadata.annotations[k] = v;
  if (!policy.empty()) lws.spec.leader_worker_template.restart_policy = policy;
  return lws;
}

TEST(GroupRestartsTest, ValidValuesAreAccepted) {
  for (const StringMap& annotations :
       {StringMap{{kMaxGroupRestartsAnnotation, "0"}},
        StringMap{{kMaxGroupRestartsAnnotation, "3"}},
        StringMap{{kGroupRestartBackoffAnnotation, "30s"}},
        StringMap{{kGroupRestartBackoffAnnotation, "1m30s"}, {kMaxGroupRestartsAnnotation, "5"}},
        StringMap{{kGroupRestartsAnnotation, R"({"abc/0":{"restarts":2,"exhausted":true}})"}},
        StringMap{{kGroupRestartsAnnotation, "{}"}}}) {
    EXPECT_EQ(Describe(ValidateLeaderWorkerSet(With(annotations))), "");
  }
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(
                With({{kMaxGroupRestartsAnnotation, "2"}}, kRecreateGroupAfterStart))),
            "");
}

TEST(GroupRestartsTest, UpstreamManifestsAreUnchanged) {
  // The default LWS carries none of the annotations: nothing is checked, nothing configured.
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(DefaultLws())), "");
  EXPECT_FALSE(ReadGroupRestartConfig(DefaultLws().metadata).enabled());
  EXPECT_TRUE(ReadGroupRestartCounts(DefaultLws().metadata)->empty());
}

TEST(GroupRestartsTest, InvalidValuesNameTheAnnotation) {
  const std::string max = "metadata.annotations[lws-cpp.dev/max-group-restarts]";
  const std::string backoff = "metadata.annotations[lws-cpp.dev/group-restart-backoff]";
  const std::string state = "metadata.annotations[lws-cpp.dev/group-restarts]";
  struct Case {
    StringMap annotations;
    std::string want;
  };
  const std::vector<Case> cases = {
      {{{kMaxGroupRestartsAnnotation, "-1"}},
       max + ": Invalid value: \"-1\": must be a non-negative integer\n"},
      {{{kMaxGroupRestartsAnnotation, "three"}},
       max + ": Invalid value: \"three\": must be a non-negative integer\n"},
      {{{kMaxGroupRestartsAnnotation, "99999999999"}},
       max + ": Invalid value: \"99999999999\": must be a non-negative integer\n"},
      {{{kGroupRestartBackoffAnnotation, "30"}},
       backoff + ": Invalid value: \"30\": time: missing unit in duration \"30\"\n"},
      {{{kGroupRestartBackoffAnnotation, "500ms"}},
       backoff + ": Invalid value: \"500ms\": must be between 1s and 1h\n"},
      {{{kGroupRestartBackoffAnnotation, "2h"}},
       backoff + ": Invalid value: \"2h\": must be between 1s and 1h\n"},
      {{{kGroupRestartsAnnotation, "[1]"}},
       state + ": Invalid value: \"[1]\": must be a JSON object\n"},
      {{{kGroupRestartsAnnotation, R"({"nokey":{"restarts":1}})"}},
       state + ": Invalid value: \"{\\\"nokey\\\":{\\\"restarts\\\":1}}\": key \"nokey\" is not "
               "<revision>/<groupIndex>\n"},
      {{{kGroupRestartsAnnotation, R"({"r/0":{"restarts":-2}})"}},
       state + ": Invalid value: \"{\\\"r/0\\\":{\\\"restarts\\\":-2}}\": field \"restarts\" of "
               "\"r/0\" is not restarts (a non-negative integer) or exhausted (a bool)\n"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Describe(ValidateLeaderWorkerSet(With(c.annotations))), c.want);
  }
}

TEST(GroupRestartsTest, ABudgetNeedsAPolicyThatRecreatesGroups) {
  EXPECT_EQ(Describe(ValidateLeaderWorkerSet(With({{kMaxGroupRestartsAnnotation, "1"}}, "None"))),
            "spec.leaderWorkerTemplate.restartPolicy: Invalid value: \"None\": must be "
            "RecreateGroupOnPodRestart or RecreateGroupAfterStart when "
            "lws-cpp.dev/max-group-restarts or lws-cpp.dev/group-restart-backoff is set\n");
  EXPECT_NE(
      Describe(ValidateLeaderWorkerSet(With({{kGroupRestartBackoffAnnotation, "10s"}}, "None"))),
      "");
}

TEST(GroupRestartsTest, ConfigIgnoresWhatDoesNotParse) {
  GroupRestartConfig c = ReadGroupRestartConfig(
      With({{kMaxGroupRestartsAnnotation, "x"}, {kGroupRestartBackoffAnnotation, "45s"}}).metadata);
  EXPECT_FALSE(c.max_restarts.has_value());
  EXPECT_EQ(c.backoff, Duration(45s));
  EXPECT_TRUE(c.enabled());
}

TEST(GroupRestartsTest, CountsRoundTripInKeyOrder) {
  GroupRestartCounts counts;
  counts[GroupRestartKey("rev", "3")] = {3, true};
  counts[GroupRestartKey("rev", "10")] = {1, false};
  const std::string text = EncodeGroupRestartCounts(counts);
  EXPECT_EQ(text, R"({"rev/10":{"restarts":1},"rev/3":{"exhausted":true,"restarts":3}})");
  LeaderWorkerSet lws = With({{kGroupRestartsAnnotation, text}});
  EXPECT_EQ(*ReadGroupRestartCounts(lws.metadata), counts);
  lws.metadata.annotations[kGroupRestartsAnnotation] = "{";
  EXPECT_EQ(ReadGroupRestartCounts(lws.metadata).status().message(),
            "annotation lws-cpp.dev/group-restarts: must be a JSON object");
}

TEST(GroupRestartsTest, PruneDropsGroupsThatCanNoLongerExist) {
  const GroupRestartCounts counts = {
      {"new/0", {1, false}}, {"new/4", {2, true}}, {"old/1", {3, true}}, {"junk/x", {1, false}}};
  // Scaled down to 3 groups mid-rollout: group 4 and the unparsable index go, "old" stays.
  auto pruned = PruneGroupRestartCounts(counts, "new", /*rollout_done=*/false, 3);
  ASSERT_TRUE(pruned.has_value());
  EXPECT_EQ(*pruned, (GroupRestartCounts{{"new/0", {1, false}}, {"old/1", {3, true}}}));
  // Rollout done: the old revision goes too.
  pruned = PruneGroupRestartCounts(*pruned, "new", /*rollout_done=*/true, 3);
  EXPECT_EQ(*pruned, (GroupRestartCounts{{"new/0", {1, false}}}));
  EXPECT_FALSE(PruneGroupRestartCounts(*pruned, "new", true, 3).has_value());
}

TEST(GroupRestartsTest, PatchCarriesTheResourceVersionAndRemovesAnEmptyMap) {
  EXPECT_EQ(
      GroupRestartCountsPatch({{"r/0", {1, false}}}, "42").dump(),
      R"({"metadata":{"annotations":{"lws-cpp.dev/group-restarts":"{\"r/0\":{\"restarts\":1}}"},"resourceVersion":"42"}})");
  EXPECT_EQ(
      GroupRestartCountsPatch({}, "7").dump(),
      R"({"metadata":{"annotations":{"lws-cpp.dev/group-restarts":null},"resourceVersion":"7"}})");
}

TEST(GroupRestartsTest, DelayDoublesUpToFiveMinutes) {
  EXPECT_EQ(GroupRestartDelay(30s, 0), Duration::zero());
  EXPECT_EQ(GroupRestartDelay(30s, 1), Duration(30s));
  EXPECT_EQ(GroupRestartDelay(30s, 2), Duration(60s));
  EXPECT_EQ(GroupRestartDelay(30s, 4), Duration(240s));
  EXPECT_EQ(GroupRestartDelay(30s, 5), Duration(300s));
  EXPECT_EQ(GroupRestartDelay(30s, 1'000'000), Duration(300s));
  // A base above the cap is used as it is.
  EXPECT_EQ(GroupRestartDelay(10min, 3), Duration(10min));
}

}  // namespace
}  // namespace lws::api
