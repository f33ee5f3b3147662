#include "operator/controller_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>

#include "base/virtual_loop.h"
#include "operator/rollout_metrics.h"

namespace lws::op {
namespace {

using runtime::Key;
using runtime::ReconcileResult;
using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;

const LabelValues kQueue = {"leaderworkerset", "leaderworkerset"};
const LabelValues kController = {"leaderworkerset"};

TEST(ControllerMetricsTest, ResultLabelsAsControllerRuntime) {
  EXPECT_EQ(ReconcileResultLabel(ReconcileResult::Done()), "success");
  EXPECT_EQ(ReconcileResultLabel(ReconcileResult::Error(Status::Internal("x"))), "error");
  EXPECT_EQ(ReconcileResultLabel(ReconcileResult::After(seconds(1))), "requeue_after");
  EXPECT_EQ(ReconcileResultLabel(ReconcileResult::After(Duration::zero())), "requeue");
}

// A work queue on the virtual loop reporting to the metrics: an error, a requeue-after, a success.
TEST(ControllerMetricsTest, WorkQueueRunsBecomeReconcileAndQueueSeries) {
  VirtualLoop loop;
  Registry registry;
  OperatorMetrics metrics(&registry);
  ControllerMetrics observer(&metrics, "leaderworkerset", &loop.clock());
  std::deque<ReconcileResult> script = {ReconcileResult::Error(Status::Internal("boom")),
                                        ReconcileResult::After(seconds(1)),
                                        ReconcileResult::Done()};
  runtime::WorkQueueOptions options;
  options.observer = &observer;
  runtime::WorkQueue queue(
      &loop, "leaderworkerset",
      [&](const Key&) {
        ReconcileResult next = script.front();
        script.pop_front();
        return next;
      },
      options);
  queue.Add({"default", "lws"});
  EXPECT_EQ(metrics.workqueue_depth->Value(kQueue), 1);  // held until the gate opens
  loop.RunFor(milliseconds(100));
  queue.SetReady(true);
  loop.RunFor(seconds(5));

  EXPECT_EQ(metrics.reconcile_total->Value({"leaderworkerset", "error"}), 1);
  EXPECT_EQ(metrics.reconcile_total->Value({"leaderworkerset", "requeue_after"}), 1);
  EXPECT_EQ(metrics.reconcile_total->Value({"leaderworkerset", "success"}), 1);
  EXPECT_EQ(metrics.reconcile_errors_total->Value(kController), 1);
  EXPECT_EQ(metrics.workqueue_adds_total->Value(kQueue), 3);
  EXPECT_EQ(metrics.workqueue_retries_total->Value(kQueue), 2);
  EXPECT_EQ(metrics.workqueue_depth->Value(kQueue), 0);
  EXPECT_EQ(metrics.active_workers->Value(kController), 0);
  EXPECT_EQ(metrics.max_concurrent_reconciles->Value(kController), 1);
  HistogramVec::Sample waited = metrics.workqueue_queue_duration_seconds->Get(kQueue);
  EXPECT_EQ(waited.count, 3u);
  EXPECT_DOUBLE_EQ(waited.sum, 0.1);  // the first add waited at the gate; the others ran at once
  EXPECT_EQ(metrics.reconcile_time_seconds->Get(kController).count, 3u);

  std::string text = registry.Exposition();
  EXPECT_THAT(text, HasSubstr("controller_runtime_reconcile_total{controller=\"leaderworkerset\","
                              "result=\"error\"} 1\n"));
  EXPECT_THAT(
      text,
      HasSubstr(
          "workqueue_adds_total{controller=\"leaderworkerset\",name=\"leaderworkerset\"} 3\n"));
  EXPECT_THAT(text,
              HasSubstr("workqueue_queue_duration_seconds_bucket{controller=\"leaderworkerset\","
                        "name=\"leaderworkerset\",le=\"9.999999999999999e-06\"} 2\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE controller_runtime_reconcile_time_seconds histogram\n"));
  EXPECT_THAT(text, HasSubstr("controller_runtime_reconcile_time_seconds_bucket{controller="
                              "\"leaderworkerset\",le=\"60\"} 3\n"));
}

TEST(ControllerMetricsTest, DurationsAndInFlightWorkFromTheClock) {
  ManualClock clock;
  Registry registry;
  OperatorMetrics metrics(&registry);
  ControllerMetrics observer(&metrics, "leaderworkerset", &clock);
  const Key key{"default", "lws"};
  const Time t0 = clock.Now();
  observer.Added(key, t0);
  observer.Started(key, t0 + seconds(1));
  clock.Advance(seconds(4));
  registry.Exposition();  // the scrape hook computes the in-flight gauges
  EXPECT_EQ(metrics.workqueue_unfinished_work_seconds->Value(kQueue), 3);
  EXPECT_EQ(metrics.workqueue_longest_running_processor_seconds->Value(kQueue), 3);
  EXPECT_EQ(metrics.active_workers->Value(kController), 1);
  observer.Finished(key, ReconcileResult::Done(), t0 + seconds(1),
                    t0 + seconds(3) + milliseconds(500));
  registry.Exposition();
  EXPECT_EQ(metrics.workqueue_unfinished_work_seconds->Value(kQueue), 0);
  HistogramVec::Sample took = metrics.reconcile_time_seconds->Get(kController);
  EXPECT_EQ(took.sum, 2.5);
  // 2.5 s falls in the bucket bounded by 2.5 (inclusive): index 22 of controller-runtime's.
  EXPECT_EQ(took.buckets.at(22), 1u);
  EXPECT_EQ(ReconcileTimeBuckets().at(22), 2.5);
  EXPECT_EQ(metrics.workqueue_queue_duration_seconds->Get(kQueue).sum, 1);
}

TEST(ControllerMetricsTest, WebhookRequestsCountedByCodeWithInFlight) {
  ManualClock clock;
  Registry registry;
  OperatorMetrics metrics(&registry);
  {
    WebhookRequestMetrics request(&metrics, "/mutate--v1-pod", &clock);
    EXPECT_EQ(metrics.webhook_requests_in_flight->Value({"/mutate--v1-pod"}), 1);
    clock.Advance(milliseconds(20));
    request.Finish(200);
  }
  { WebhookRequestMetrics abandoned(&metrics, "/mutate--v1-pod", &clock); }  // counts as 500
  EXPECT_EQ(metrics.webhook_requests_in_flight->Value({"/mutate--v1-pod"}), 0);
  EXPECT_EQ(metrics.webhook_requests_total->Value({"/mutate--v1-pod", "200"}), 1);
  EXPECT_EQ(metrics.webhook_requests_total->Value({"/mutate--v1-pod", "500"}), 1);
  EXPECT_EQ(metrics.webhook_latency_seconds->Get({"/mutate--v1-pod"}).count, 2u);
  EXPECT_THAT(registry.Exposition(), HasSubstr("controller_runtime_webhook_requests_total{code="
                                               "\"200\",webhook=\"/mutate--v1-pod\"} 1\n"));
}

api::Json Lws(int replicas, int status_replicas, int updated, const char* in_progress,
              const char* when) {
  api::Json lws = {{"metadata", {{"namespace", "default"}, {"name", "vllm"}}},
                   {"spec", {{"replicas", replicas}}},
                   {"status", {{"replicas", status_replicas}, {"updatedReplicas", updated}}}};
  if (in_progress != nullptr) {
    lws["status"]["conditions"] = {
        {{"type", "Available"}, {"status", "False"}},
        {{"type", "UpdateInProgress"}, {"status", in_progress}, {"lastTransitionTime", when}}};
  }
  return lws;
}

TEST(RolloutMetricsTest, SampleFromTheObject) {
  RolloutSample sample = RolloutSampleOf(Lws(4, 5, 2, "True", "2024-01-02T03:04:05Z"));
  EXPECT_EQ(sample.groups_updated, 2);
  EXPECT_EQ(sample.surge_groups, 1);
  EXPECT_TRUE(sample.update_in_progress);
  EXPECT_EQ(sample.update_transition, *ParseRfc3339("2024-01-02T03:04:05Z"));
  EXPECT_EQ(RolloutSampleOf(Lws(4, 3, 3, nullptr, nullptr)).surge_groups, 0);
  EXPECT_EQ(RolloutSampleOf(api::Json::parse(R"({"status":{"replicas":"x","conditions":7}})")),
            RolloutSample{});
}

TEST(RolloutMetricsTest, ProgressDeadlineExceededFromTheProgressingCondition) {
  Registry registry;
  OperatorMetrics metrics(&registry);
  RolloutMetrics rollouts(&metrics);
  const LabelValues lws = {"default", "vllm"};
  api::Json stalled = Lws(4, 4, 1, "True", "2024-01-02T03:00:00Z");
  stalled["status"]["conditions"].push_back(
      {{"type", "Progressing"}, {"status", "False"}, {"reason", "ProgressDeadlineExceeded"}});
  EXPECT_TRUE(RolloutSampleOf(stalled).progress_deadline_exceeded);
  rollouts.OnChange(nullptr, store::MakeStoredObject(stalled, 1));
  EXPECT_EQ(metrics.rollout_progress_deadline_exceeded->Value(lws), 1);
  // Upstream's Progressing=False (flipped by Available) is not a stall.
  stalled["status"]["conditions"].back()["reason"] = "GroupsProgressing";
  rollouts.OnChange(nullptr, store::MakeStoredObject(stalled, 2));
  EXPECT_EQ(metrics.rollout_progress_deadline_exceeded->Value(lws), 0);
}

TEST(RolloutMetricsTest, DurationFromUpdateInProgressTransitions) {
  Registry registry;
  OperatorMetrics metrics(&registry);
  RolloutMetrics rollouts(&metrics);
  auto stored = [](const api::Json& json) { return store::MakeStoredObject(json, 1); };
  const LabelValues lws = {"default", "vllm"};

  store::ObjectPtr before = stored(Lws(4, 4, 4, "False", "2024-01-02T02:00:00Z"));
  rollouts.OnChange(nullptr, before);  // a finished rollout whose start was never seen
  EXPECT_EQ(metrics.rollout_duration_seconds->Get(lws).count, 0u);
  store::ObjectPtr rolling = stored(Lws(4, 5, 1, "True", "2024-01-02T03:00:00Z"));
  rollouts.OnChange(before, rolling);
  EXPECT_EQ(metrics.rollout_surge_groups->Value(lws), 1);
  EXPECT_EQ(metrics.rollout_groups_updated->Value(lws), 1);
  store::ObjectPtr done = stored(Lws(4, 4, 4, "False", "2024-01-02T03:02:30Z"));
  rollouts.OnChange(rolling, done);
  rollouts.OnChange(done, done);  // a resync observes nothing twice
  HistogramVec::Sample took = metrics.rollout_duration_seconds->Get(lws);
  EXPECT_EQ(took.count, 1u);
  EXPECT_EQ(took.sum, 150);
  EXPECT_EQ(metrics.rollout_surge_groups->Value(lws), 0);

  rollouts.OnChange(done, nullptr);
  EXPECT_THAT(registry.Exposition(), ::testing::Not(HasSubstr("lws_rollout_groups_updated{")));
}

}  // namespace
}  // namespace lws::op
