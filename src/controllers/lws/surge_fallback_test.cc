// The surge fallback's decision (surge_fallback.h): when it engages, what it leaves the rollout,
// and when it cannot help.
#include "controllers/lws/surge_fallback.h"

#include <gtest/gtest.h>

namespace lws::controllers {
namespace {

using namespace std::chrono_literals;

const Time kT0 = *ParseRfc3339("2026-01-01T00:00:00Z");

api::Pod Pod(const std::string& name, bool placed, Time unschedulable_since = kT0) {
  api::Pod pod;
  pod.metadata.name = name;
  if (placed) {
    pod.spec.node_name = "gpu-0";
    return pod;
  }
  api::PodCondition c;
  c.type = "PodScheduled";
  c.status = "False";
  c.reason = "Unschedulable";
  c.message = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.";
  c.last_transition_time = FormatRfc3339(unschedulable_since);
  pod.status.conditions = {c};
  return pod;
}

struct Case {
  api::LeaderWorkerSet lws;
  std::vector<api::Pod> pods;  // of surge group 4 (two per group)
  SurgeFallbackInputs in;

  Case(std::int32_t max_unavailable, std::int32_t max_surge, api::StringMap annotations) {
    lws.metadata.name = "llama";
    lws.spec.replicas = 4;
    lws.spec.leader_worker_template.size = 2;
    lws.metadata.annotations = std::move(annotations);
    in.settings = RolloutSettings{4, 0, max_surge, max_unavailable};
    in.revision_key = "new";
    in.update_in_progress = true;
    in.now = kT0 + 6min;
  }
  SurgeFallbackDecision Decide() {
    in.lws = &lws;
    in.surge.clear();
    for (std::size_t i = 0; i < pods.size(); i += 2) {
      in.surge.push_back({static_cast<std::int32_t>(4 + i / 2), {&pods[i], &pods[i + 1]}});
    }
    return DecideSurgeFallback(in);
  }
};

TEST(SurgeFallbackTest, EngagesWithTheSurgeThatRuns) {
  Case c(1, 2, {{api::kSurgeFallbackAfterAnnotation, "5m"}});
  c.pods = {Pod("llama-4", true), Pod("llama-4-1", true), Pod("llama-5", false),
            Pod("llama-5-1", false)};
  SurgeFallbackDecision d = c.Decide();
  ASSERT_TRUE(d.engage.has_value());
  EXPECT_EQ(d.effective.max_surge, 1);
  EXPECT_EQ(d.effective.max_unavailable, 1);
  EXPECT_EQ(d.engage->reason,
            "surge group 5 unschedulable for 5m0s (pod llama-5: 0/4 nodes are available: 4 "
            "Insufficient nvidia.com/gpu.): rolling out with maxSurge 1 and maxUnavailable 1 "
            "instead of maxSurge 2 and maxUnavailable 1");
  // Recorded for the revision: the next reconcile reads the same settings from the LWS.
  c.lws.metadata.annotations[api::kSurgeFallbackAnnotation] =
      api::SurgeFallbackPatch(*d.engage,
                              "1")["metadata"]["annotations"][api::kSurgeFallbackAnnotation]
          .get<std::string>();
  SurgeFallbackDecision again = c.Decide();
  EXPECT_FALSE(again.engage.has_value());
  EXPECT_EQ(again.effective.max_surge, 1);
  // Another revision starts with the user's settings.
  c.in.revision_key = "newer";
  c.pods.clear();
  EXPECT_EQ(c.Decide().effective.max_surge, 2);
}

TEST(SurgeFallbackTest, WaitsUntilTheTimeAndSaysWhenToLookAgain) {
  Case c(1, 1, {{api::kSurgeFallbackAfterAnnotation, "5m"}});
  c.pods = {Pod("llama-4", false, kT0 + 3min), Pod("llama-4-1", false, kT0 + 4min)};
  SurgeFallbackDecision d = c.Decide();
  EXPECT_FALSE(d.engage.has_value());
  EXPECT_EQ(d.effective.max_surge, 1);
  EXPECT_EQ(d.recheck_after, Duration(2min));
}

TEST(SurgeFallbackTest, ReleasingAGroupNeedsItsOwnOptIn) {
  Case c(0, 1, {{api::kSurgeFallbackAfterAnnotation, "5m"}});
  c.pods = {Pod("llama-4", false), Pod("llama-4-1", false)};
  SurgeFallbackDecision d = c.Decide();
  EXPECT_FALSE(d.engage.has_value());
  ASSERT_TRUE(d.blocked.has_value());
  EXPECT_EQ(d.effective.max_surge, 1);
  c.lws.metadata.annotations[api::kSurgeFallbackReleaseAnnotation] = "true";
  d = c.Decide();
  ASSERT_TRUE(d.engage.has_value());
  EXPECT_EQ(d.effective.max_surge, 0);
  EXPECT_EQ(d.effective.max_unavailable, 1);
}

TEST(SurgeFallbackTest, NothingWithoutTheAnnotationOrOutsideARollout) {
  Case c(0, 1, {});
  c.pods = {Pod("llama-4", false), Pod("llama-4-1", false)};
  SurgeFallbackDecision d = c.Decide();
  EXPECT_FALSE(d.engage || d.blocked || d.recheck_after);
  EXPECT_EQ(d.effective.max_surge, 1);
  Case idle(1, 1, {{api::kSurgeFallbackAfterAnnotation, "5m"}});
  idle.pods = {Pod("llama-4", false), Pod("llama-4-1", false)};
  idle.in.update_in_progress = false;
  EXPECT_FALSE(idle.Decide().engage.has_value());
}

}  // namespace
}  // namespace lws::controllers
