// The controller-runtime metric families and the work-queue observer (controller_metrics.h).
#include "operator/controller_metrics.h"

#include <algorithm>
#include <optional>

namespace lws::op {
namespace {

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

std::vector<double> ReconcileTimeBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1,  0.15, 0.2,  0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6,
          0.7,   0.8,  0.9,   1.0,  1.25, 1.5,  1.75, 2.0,  2.5, 3.0,  3.5, 4.0,  4.5, 5,
          6,     7,    8,     9,    10,   15,   20,   25,   30,  40,   50,  60};
}

std::vector<double> DefaultBuckets() { return {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}; }

// Help texts are controller-runtime's and client-go's, word for word: dashboards show them.
OperatorMetrics::OperatorMetrics(Registry* r) : registry(r) {
  const std::vector<std::string> controller = {"controller"};
  const std::vector<std::string> queue = {"name", "controller"};
  reconcile_total =
      r->Counter("controller_runtime_reconcile_total",
                 "Total number of reconciliations per controller", {"controller", "result"});
  reconcile_errors_total =
      r->Counter("controller_runtime_reconcile_errors_total",
                 "Total number of reconciliation errors per controller", controller);
  terminal_reconcile_errors_total =
      r->Counter("controller_runtime_terminal_reconcile_errors_total",
                 "Total number of terminal reconciliation errors per controller", controller);
  reconcile_time_seconds = r->Histogram("controller_runtime_reconcile_time_seconds",
                                        "Length of time per reconciliation per controller",
                                        controller, ReconcileTimeBuckets());
  max_concurrent_reconciles =
      r->Gauge("controller_runtime_max_concurrent_reconciles",
               "Maximum number of concurrent reconciles per controller", controller);
  active_workers = r->Gauge("controller_runtime_active_workers",
                            "Number of currently used workers per controller", controller);

  const std::vector<double> queue_buckets = ExponentialBuckets(10e-9, 10, 12);
  workqueue_depth = r->Gauge("workqueue_depth", "Current depth of workqueue", queue);
  workqueue_adds_total =
      r->Counter("workqueue_adds_total", "Total number of adds handled by workqueue", queue);
  workqueue_retries_total =
      r->Counter("workqueue_retries_total", "Total number of retries handled by workqueue", queue);
  workqueue_queue_duration_seconds =
      r->Histogram("workqueue_queue_duration_seconds",
                   "How long in seconds an item stays in workqueue before being requested", queue,
                   queue_buckets);
  workqueue_work_duration_seconds = r->Histogram(
      "workqueue_work_duration_seconds",
      "How long in seconds processing an item from workqueue takes.", queue, queue_buckets);
  workqueue_unfinished_work_seconds = r->Gauge(
      "workqueue_unfinished_work_seconds",
      "How many seconds of work has been done that is in progress and hasn't been observed by "
      "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
      "threads by observing the rate at which this increases.",
      queue);
  workqueue_longest_running_processor_seconds = r->Gauge(
      "workqueue_longest_running_processor_seconds",
      "How many seconds has the longest running processor for workqueue been running.", queue);

  leader_election_master_status = r->Gauge(
      "leader_election_master_status",
      "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 "
      "indicates master. 'name' is the string used to identify the lease. Please make sure to "
      "group by name.",
      {"name"});

  webhook_requests_total =
      r->Counter("controller_runtime_webhook_requests_total",
                 "Total number of admission requests by HTTP status code.", {"webhook", "code"});
  webhook_latency_seconds = r->Histogram(
      "controller_runtime_webhook_latency_seconds",
      "Histogram of the latency of processing admission requests", {"webhook"}, DefaultBuckets());
  webhook_requests_in_flight =
      r->Gauge("controller_runtime_webhook_requests_in_flight",
               "Current number of admission requests being served.", {"webhook"});

  const std::vector<std::string> lws = {"namespace", "name"};
  rollout_groups_updated = r->Gauge(
      "lws_rollout_groups_updated",
      "Groups of a LeaderWorkerSet on its current revision (status.updatedReplicas).", lws);
  rollout_surge_groups = r->Gauge(
      "lws_rollout_surge_groups",
      "Groups a LeaderWorkerSet runs beyond spec.replicas during a rolling update (maxSurge).",
      lws);
  rollout_duration_seconds = r->Histogram(
      "lws_rollout_duration_seconds",
      "How long rolling updates took, from UpdateInProgress turning True to turning False.", lws,
      {1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400});
  rollout_progress_deadline_exceeded = r->Gauge(
      "lws_rollout_progress_deadline_exceeded",
      "1 while a LeaderWorkerSet's Progressing condition is False for its progress deadline "
      "(lws-cpp.dev/progress-deadline), else 0.",
      lws);
}

std::string_view ReconcileResultLabel(const runtime::ReconcileResult& result) {
  if (!result.status.ok()) return "error";
  if (!result.requeue_after) return "success";
  return *result.requeue_after > Duration::zero() ? "requeue_after" : "requeue";
}

ControllerMetrics::ControllerMetrics(const OperatorMetrics* metrics, std::string controller,
                                     const Clock* clock)
    : metrics_(metrics),
      controller_(std::move(controller)),
      controller_label_({controller_}),
      queue_labels_({controller_, controller_}),
      clock_(clock) {
  // One worker: a controller's reconciles run one at a time on its loop.
  metrics_->max_concurrent_reconciles->Set(controller_label_, 1);
  metrics_->active_workers->Set(controller_label_, 0);
  metrics_->workqueue_depth->Set(queue_labels_, 0);
  hook_ = metrics_->registry->AddScrapeHook([this] { UpdateInFlight(); });
}

ControllerMetrics::~ControllerMetrics() { metrics_->registry->RemoveScrapeHook(hook_); }

void ControllerMetrics::Added(const runtime::Key& key, Time now) {
  metrics_->workqueue_adds_total->Inc(queue_labels_);
  metrics_->workqueue_depth->Add(queue_labels_, 1);
  MutexLock lock(&mu_);
  added_.emplace(key, now);  // the first add's time is kept, as client-go's addTimes
}

void ControllerMetrics::Started(const runtime::Key& key, Time now) {
  metrics_->workqueue_depth->Add(queue_labels_, -1);
  metrics_->active_workers->Add(controller_label_, 1);
  std::optional<Time> added;
  {
    MutexLock lock(&mu_);
    if (auto it = added_.find(key); it != added_.end()) {
      added = it->second;
      added_.erase(it);
    }
    running_[key] = now;
  }
  if (added)
    metrics_->workqueue_queue_duration_seconds->Observe(queue_labels_, Seconds(now - *added));
}

void ControllerMetrics::Finished(const runtime::Key& key, const runtime::ReconcileResult& result,
                                 Time started, Time now) {
  {
    MutexLock lock(&mu_);
    running_.erase(key);
  }
  const double seconds = Seconds(now - started);
  metrics_->active_workers->Add(controller_label_, -1);
  metrics_->workqueue_work_duration_seconds->Observe(queue_labels_, seconds);
  metrics_->reconcile_time_seconds->Observe(controller_label_, seconds);
  metrics_->reconcile_total->Inc({controller_, std::string(ReconcileResultLabel(result))});
  if (!result.status.ok()) metrics_->reconcile_errors_total->Inc(controller_label_);
}

void ControllerMetrics::Requeued(const runtime::Key&, Duration) {
  metrics_->workqueue_retries_total->Inc(queue_labels_);
}

void ControllerMetrics::UpdateInFlight() {
  const Time now = clock_->Now();
  double total = 0;
  double longest = 0;
  {
    MutexLock lock(&mu_);
    for (const auto& [key, since] : running_) {
      double seconds = Seconds(now - since);
      total += seconds;
      longest = std::max(longest, seconds);
    }
  }
  metrics_->workqueue_unfinished_work_seconds->Set(queue_labels_, total);
  metrics_->workqueue_longest_running_processor_seconds->Set(queue_labels_, longest);
}

WebhookRequestMetrics::WebhookRequestMetrics(const OperatorMetrics* metrics, std::string webhook,
                                             const Clock* clock)
    : metrics_(metrics), webhook_(std::move(webhook)), clock_(clock), start_(clock->Now()) {
  metrics_->webhook_requests_in_flight->Add({webhook_}, 1);
}

WebhookRequestMetrics::~WebhookRequestMetrics() {
  if (!finished_) Finish(500);
}

void WebhookRequestMetrics::Finish(int http_code) {
  if (finished_) return;
  finished_ = true;
  metrics_->webhook_requests_in_flight->Add({webhook_}, -1);
  RecordWebhookRequest(*metrics_, webhook_, http_code, clock_->Now() - start_);
}

void RecordWebhookRequest(const OperatorMetrics& metrics, const std::string& webhook, int http_code,
                          Duration latency) {
  metrics.webhook_requests_total->Inc({webhook, std::to_string(http_code)});
  metrics.webhook_latency_seconds->Observe({webhook}, Seconds(latency));
}

}  // namespace lws::op
