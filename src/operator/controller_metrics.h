// File: operator/controller_metrics.h
//
// The metrics the upstream Go controller-manager exposes, by the names, labels, help texts and
// buckets of controller-runtime and client-go, so that dashboards and alerts written for it
// work unchanged (spec 21.3):
//   controller_runtime_reconcile_total{controller,result}   result: success, error, requeue,
//                                                           requeue_after
//   controller_runtime_reconcile_errors_total{controller}
//   controller_runtime_terminal_reconcile_errors_total{controller}   (always 0: no terminal
//                                                           errors here, kept for dashboards)
//   controller_runtime_reconcile_time_seconds{controller}   histogram
//   controller_runtime_max_concurrent_reconciles{controller}, controller_runtime_active_workers
//   workqueue_depth, _adds_total, _retries_total, _queue_duration_seconds,
//   _work_duration_seconds, _unfinished_work_seconds, _longest_running_processor_seconds
//                                                           {name,controller}
//   leader_election_master_status{name}
//   controller_runtime_webhook_requests_total{code,webhook},
//   controller_runtime_webhook_latency_seconds{webhook}, _requests_in_flight{webhook}
// plus lws-cpp's own rollout metrics (operator/rollout_metrics.h):
//   lws_rollout_groups_updated{namespace,name}, lws_rollout_surge_groups{namespace,name},
//   lws_rollout_duration_seconds{namespace,name} histogram.
//
// A controller's WorkQueue reports to a ControllerMetrics (runtime::WorkQueueObserver), which
// turns adds, runs and outcomes into the workqueue_* and controller_runtime_reconcile* series.
//
// Threading: as the registry (thread-safe). A ControllerMetrics is called by its queue on one
// loop and read by scrapes from other threads; its in-flight bookkeeping has its own mutex.
#pragma once

#include <map>
#include <string>

#include "base/clock.h"
#include "base/mutex.h"
#include "operator/metrics_registry.h"
#include "runtime/work_queue.h"

namespace lws::op {

// controller-runtime's reconcile_time_seconds buckets.
std::vector<double> ReconcileTimeBuckets();
// prometheus.DefBuckets, the webhook latency histogram's.
std::vector<double> DefaultBuckets();

// Every family above, registered in one registry.
struct OperatorMetrics {
  explicit OperatorMetrics(Registry* registry);

  Registry* registry;
  CounterVec* reconcile_total;
  CounterVec* reconcile_errors_total;
  CounterVec* terminal_reconcile_errors_total;
  HistogramVec* reconcile_time_seconds;
  GaugeVec* max_concurrent_reconciles;
  GaugeVec* active_workers;

  GaugeVec* workqueue_depth;
  CounterVec* workqueue_adds_total;
  CounterVec* workqueue_retries_total;
  HistogramVec* workqueue_queue_duration_seconds;
  HistogramVec* workqueue_work_duration_seconds;
  GaugeVec* workqueue_unfinished_work_seconds;
  GaugeVec* workqueue_longest_running_processor_seconds;

  GaugeVec* leader_election_master_status;

  CounterVec* webhook_requests_total;
  HistogramVec* webhook_latency_seconds;
  GaugeVec* webhook_requests_in_flight;

  GaugeVec* rollout_groups_updated;
  GaugeVec* rollout_surge_groups;
  HistogramVec* rollout_duration_seconds;
  GaugeVec* rollout_progress_deadline_exceeded;
};

// One controller's reconcile and work-queue metrics, fed by its WorkQueue:
//   WorkQueueOptions options;  options.observer = &controller_metrics;
// `controller` is the controller's name ("leaderworkerset", "pod"), which controller-runtime
// also uses as the queue's name. Registers a scrape hook for the in-flight gauges (removed on
// destruction). REQUIRES: metrics and clock outlive it.
class ControllerMetrics final : public runtime::WorkQueueObserver {
 public:
  ControllerMetrics(const OperatorMetrics* metrics, std::string controller, const Clock* clock);
  ~ControllerMetrics() override;
  ControllerMetrics(const ControllerMetrics&) = delete;
  ControllerMetrics& operator=(const ControllerMetrics&) = delete;

  void Added(const runtime::Key& key, Time now) override;
  void Started(const runtime::Key& key, Time now) override;
  void Finished(const runtime::Key& key, const runtime::ReconcileResult& result, Time started,
                Time now) override;
  void Requeued(const runtime::Key& key, Duration delay) override;

  // workqueue_unfinished_work_seconds and _longest_running_processor_seconds as of now.
  void UpdateInFlight();

 private:
  const OperatorMetrics* const metrics_;
  const std::string controller_;
  const LabelValues controller_label_;  // {controller}
  const LabelValues queue_labels_;      // {name, controller}
  const Clock* const clock_;
  int hook_ = 0;
  Mutex mu_;
  std::map<runtime::Key, Time> added_ GUARDED_BY(mu_);    // queued keys: when they were added
  std::map<runtime::Key, Time> running_ GUARDED_BY(mu_);  // keys whose reconcile runs: since when
};

// "success", "error", "requeue" or "requeue_after", as controller-runtime labels a result.
std::string_view ReconcileResultLabel(const runtime::ReconcileResult& result);

// Accounting of one admission request, for the webhook server: In flight from construction to
// Finish, which counts the request by HTTP code and observes its latency.
class WebhookRequestMetrics {
 public:
  WebhookRequestMetrics(const OperatorMetrics* metrics, std::string webhook, const Clock* clock);
  ~WebhookRequestMetrics();  // Finish(500) when not finished (the handler failed)
  void Finish(int http_code);

 private:
  const OperatorMetrics* const metrics_;
  const std::string webhook_;
  const Clock* const clock_;
  const Time start_;
  bool finished_ = false;
};

// A finished admission request, for a server that reports after the fact (the webhook server's
// observer): counted by HTTP code, its latency observed; no in-flight accounting.
void RecordWebhookRequest(const OperatorMetrics& metrics, const std::string& webhook, int http_code,
                          Duration latency);

}  // namespace lws::op
