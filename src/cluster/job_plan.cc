// The Job controller's decisions (job_plan.h).
#include "cluster/job_plan.h"

#include <algorithm>
#include <set>

#include "api/codec.h"
#include "api/intstr.h"
#include "cluster/owner_controller.h"

namespace lws::cluster {

namespace {

using Kind = JobActionKind;

constexpr std::string_view kCompletionsReached = "CompletionsReached";
constexpr std::string_view kCompletionsMessage = "Reached expected number of succeeded pods";

bool IsTrue(const api::JobStatus& status, std::string_view type) {
  for (const api::JobCondition& c : status.conditions) {
    if (c.type == type) return c.status == "True";
  }
  return false;
}

// Sets condition `type`; its times move only when its status changes (ensureJobConditionStatus).
bool SetCondition(api::JobStatus* status, std::string_view type, std::string_view value,
                  std::string_view reason, std::string_view message, Time now) {
  for (api::JobCondition& c : status->conditions) {
    if (c.type != type) continue;
    if (c.status == value && c.reason == reason && c.message == message) return false;
    if (c.status != value) c.last_probe_time = c.last_transition_time = FormatRfc3339(now);
    c.status = value;
    c.reason = reason;
    c.message = message;
    return true;
  }
  if (value != "True") return false;  // a False condition is added only over a True one
  api::JobCondition c;
  c.type = type;
  c.status = value;
  c.last_probe_time = c.last_transition_time = FormatRfc3339(now);
  c.reason = reason;
  c.message = message;
  status->conditions.push_back(std::move(c));
  return true;
}

bool IsReady(const api::Pod& pod) {
  const api::PodCondition* ready = pod.status.FindCondition("Ready");
  return ready != nullptr && ready->status == "True";
}

std::optional<int> CompletionIndex(const api::Pod& pod) {
  auto it = pod.metadata.annotations.find(std::string(api::kJobCompletionIndexAnnotation));
  if (it == pod.metadata.annotations.end()) return std::nullopt;
  Result<std::int64_t> index = api::GoAtoi(it->second);
  if (!index.ok() || *index < 0 || *index > INT32_MAX) return std::nullopt;
  return static_cast<int>(*index);
}

// When the pod's containers last finished; its creation when none says so.
Time FinishTime(const api::Pod& pod, Time fallback) {
  std::optional<Time> latest;
  for (const api::ContainerStatus& c : pod.status.container_statuses) {
    const api::Json& at = api::ChildOrNull(api::ChildOrNull(c.state, "terminated"), "finishedAt");
    if (!at.is_string()) continue;
    Result<Time> t = ParseRfc3339(at.get<std::string>());
    if (t.ok() && (!latest || *t > *latest)) latest = *t;
  }
  if (latest) return *latest;
  Result<Time> created = ParseRfc3339(pod.metadata.creation_timestamp);
  return created.ok() ? *created : fallback;
}

struct PodCounts {
  std::vector<const api::Pod*> active;
  int terminating = 0;
  int ready = 0;
  int succeeded = 0;
  int failed = 0;
  std::set<int> succeeded_indexes;
  std::set<int> active_indexes;
  int restarts = 0;  // of active pods' containers: what OnFailure's backoff limit counts
  int failures_since_success = 0;
  std::optional<Time> last_failure;
};

bool Indexed(const api::Job& job) {
  return job.spec.completion_mode.value_or(std::string(api::kNonIndexedCompletion)) ==
         api::kIndexedCompletion;
}

// The pod's index when the Job is Indexed and it is in [0, completions); else nullopt.
std::optional<int> ValidIndex(const api::Job& job, const api::Pod& pod) {
  std::optional<int> index = CompletionIndex(pod);
  if (!index || *index >= job.spec.completions.value_or(0)) return std::nullopt;
  return index;
}

PodCounts Count(const JobSnapshot& snap) {
  PodCounts counts;
  const bool indexed = Indexed(snap.job);
  std::optional<Time> last_success;
  std::vector<Time> failures;
  for (const auto& pod : snap.pods) {
    const std::string& phase = pod->status.phase;
    // An Indexed Job counts only the finished pods of its indexes.
    const std::optional<int> index = ValidIndex(snap.job, *pod);
    if ((phase == "Succeeded" || phase == "Failed") && indexed && !index) continue;
    if (phase == "Succeeded") {
      ++counts.succeeded;
      if (index) counts.succeeded_indexes.insert(*index);
      const Time t = FinishTime(*pod, snap.now);
      if (!last_success || t > *last_success) last_success = t;
    } else if (phase == "Failed") {
      ++counts.failed;
      failures.push_back(FinishTime(*pod, snap.now));
    } else if (pod->metadata.IsDeleting()) {
      ++counts.terminating;
    } else {
      counts.active.push_back(pod.get());
      if (IsReady(*pod)) ++counts.ready;
      if (index) counts.active_indexes.insert(*index);
      for (const api::ContainerStatus& c : pod->status.container_statuses)
        counts.restarts += c.restart_count;
      for (const api::ContainerStatus& c : pod->status.init_container_statuses)
        counts.restarts += c.restart_count;
    }
  }
  for (Time t : failures) {
    if (!last_success || t > *last_success) ++counts.failures_since_success;
    if (!counts.last_failure || t > *counts.last_failure) counts.last_failure = t;
  }
  return counts;
}

// The active pods to delete first: not ready before ready, then the newest (upstream's
// ActivePods order, reversed).
std::vector<const api::Pod*> ByDeletionOrder(std::vector<const api::Pod*> pods) {
  std::stable_sort(pods.begin(), pods.end(), [](const api::Pod* a, const api::Pod* b) {
    if (IsReady(*a) != IsReady(*b)) return !IsReady(*a);
    if (a->metadata.creation_timestamp != b->metadata.creation_timestamp) {
      return a->metadata.creation_timestamp > b->metadata.creation_timestamp;
    }
    return a->metadata.name > b->metadata.name;
  });
  return pods;
}

void DeletePods(const std::vector<const api::Pod*>& pods, std::size_t count, JobPlan* plan) {
  for (std::size_t i = 0; i < std::min<std::size_t>(count, pods.size()); ++i) {
    plan->actions.push_back(
        {.kind = Kind::kDeletePod, .name = pods[i]->metadata.name, .uid = pods[i]->metadata.uid});
  }
}

void Event(JobPlan* plan, std::string type, std::string reason, std::string message) {
  plan->actions.push_back({.kind = Kind::kEvent,
                           .type = std::move(type),
                           .reason = std::move(reason),
                           .message = std::move(message)});
}

// Why the Job fails now (reason and message), if it does.
std::optional<std::pair<std::string, std::string>> FailureOf(const JobSnapshot& snap,
                                                             const api::JobStatus& status,
                                                             const PodCounts& counts) {
  const api::Job& job = snap.job;
  const int limit = job.spec.backoff_limit.value_or(6);
  const bool on_failure = job.spec.template_.spec.restart_policy == "OnFailure";
  const bool restarts_exceed =
      on_failure && (limit == 0 ? counts.restarts > 0 : counts.restarts >= limit);
  if (status.failed > limit || restarts_exceed) {
    return std::pair{std::string("BackoffLimitExceeded"),
                     std::string("Job has reached the specified backoff limit")};
  }
  const std::optional<std::int64_t> deadline = job.spec.active_deadline_seconds;
  Result<Time> start = ParseRfc3339(status.start_time);
  if (deadline && start.ok() && snap.now - *start >= std::chrono::seconds(*deadline)) {
    return std::pair{std::string("DeadlineExceeded"),
                     std::string("Job was active longer than specified deadline")};
  }
  return std::nullopt;
}

bool Succeeded(const api::Job& job, const api::JobStatus& status, const PodCounts& counts) {
  if (!job.spec.completions) return status.succeeded > 0 && counts.active.empty();
  return status.succeeded >= *job.spec.completions;
}

// Step 5: create or delete pods towards the wanted number of active ones.
void ManagePods(const JobSnapshot& snap, const api::JobStatus& status, const PodCounts& counts,
                JobPlan* plan) {
  const api::Job& job = snap.job;
  const int parallelism = job.spec.parallelism.value_or(1);
  int want = parallelism;
  if (job.spec.completions) {
    want = std::min(parallelism, std::max(0, *job.spec.completions - status.succeeded));
  } else if (status.succeeded > 0) {
    // A work queue: once one pod succeeded, the running ones finish on their own.
    want = static_cast<int>(counts.active.size());
  }
  if (Indexed(job)) {
    // Pods of no index, of an index out of range, already succeeded or held by an older pod go
    // first; a sync that deletes creates nothing (upstream's manageJob).
    std::vector<const api::Pod*> stray;
    std::set<int> seen;
    std::vector<const api::Pod*> oldest_first = ByDeletionOrder(counts.active);
    std::reverse(oldest_first.begin(), oldest_first.end());
    for (const api::Pod* pod : oldest_first) {
      std::optional<int> index = ValidIndex(job, *pod);
      if (!index || counts.succeeded_indexes.contains(*index) || !seen.insert(*index).second) {
        stray.push_back(pod);
      }
    }
    if (!stray.empty()) return DeletePods(stray, kJobBurst, plan);
  }
  const int active = static_cast<int>(counts.active.size());
  if (active > want) {
    return DeletePods(ByDeletionOrder(counts.active), std::min(active - want, kJobBurst), plan);
  }
  int missing = std::min(want - active, kJobBurst);
  if (missing <= 0) return;
  if (counts.failures_since_success > 0 && counts.last_failure) {
    const Time ready_at = *counts.last_failure + JobPodBackoff(counts.failures_since_success);
    if (ready_at > snap.now) {
      plan->actions.push_back({.kind = Kind::kRequeueAfter, .requeue_after = ready_at - snap.now});
      return;
    }
  }
  if (!Indexed(job)) {
    api::Pod pod = NewJobPod(job, std::nullopt);
    for (int i = 0; i < missing; ++i)
      plan->actions.push_back({.kind = Kind::kCreatePod, .pod = pod});
    return;
  }
  for (int index = 0; index < job.spec.completions.value_or(0) && missing > 0; ++index) {
    if (counts.succeeded_indexes.contains(index) || counts.active_indexes.contains(index)) continue;
    plan->actions.push_back({.kind = Kind::kCreatePod, .pod = NewJobPod(job, index)});
    --missing;
  }
}

api::JobStatus CountedStatus(const JobSnapshot& snap, const PodCounts& counts) {
  const api::Job& job = snap.job;
  api::JobStatus status = job.status;
  status.active = static_cast<int>(counts.active.size());
  status.ready = counts.ready;
  status.terminating = counts.terminating;
  status.failed = std::max(job.status.failed, counts.failed);
  if (Indexed(job)) {
    std::vector<int> indexes(counts.succeeded_indexes.begin(), counts.succeeded_indexes.end());
    std::erase_if(indexes, [&](int i) { return i >= job.spec.completions.value_or(0); });
    status.completed_indexes = FormatIndexes(indexes);
    status.succeeded = std::max(job.status.succeeded, static_cast<int>(indexes.size()));
  } else {
    status.succeeded = std::max(job.status.succeeded, counts.succeeded);
  }
  status.uncounted_terminated_pod_uids = api::Json::object();
  return status;
}

// Steps 3 and its terminal conditions: true when the Job is finishing (no pods to create).
bool Finish(const JobSnapshot& snap, const PodCounts& counts, JobPlan* plan) {
  api::JobStatus& status = plan->status;
  const std::string now = FormatRfc3339(snap.now);
  if (!IsTrue(status, "FailureTarget") && !IsTrue(status, "SuccessCriteriaMet")) {
    if (auto failure = FailureOf(snap, status, counts)) {
      SetCondition(&status, "FailureTarget", "True", failure->first, failure->second, snap.now);
    } else if (Succeeded(snap.job, status, counts)) {
      SetCondition(&status, "SuccessCriteriaMet", "True", kCompletionsReached, kCompletionsMessage,
                   snap.now);
    } else {
      return false;
    }
  }
  DeletePods(ByDeletionOrder(counts.active), kJobBurst, plan);
  // The pods a failing Job stops count as failed, and as terminating until they are gone.
  if (IsTrue(status, "FailureTarget")) status.failed += static_cast<int>(counts.active.size());
  status.terminating = counts.terminating + static_cast<int>(counts.active.size());
  status.active = 0;
  status.ready = 0;
  if (!counts.active.empty() || counts.terminating > 0) return true;
  if (IsTrue(status, "FailureTarget")) {
    const api::JobCondition* target = nullptr;
    for (const api::JobCondition& c : status.conditions) {
      if (c.type == "FailureTarget") target = &c;
    }
    const std::string reason = target->reason, message = target->message;
    SetCondition(&status, "Failed", "True", reason, message, snap.now);
    Event(plan, "Warning", reason, message);
  } else {
    SetCondition(&status, "Complete", "True", kCompletionsReached, kCompletionsMessage, snap.now);
    status.completion_time = now;
    Event(plan, "Normal", "Completed", "Job completed");
  }
  return true;
}

// Step 4: true when the Job is suspended.
bool Suspend(const JobSnapshot& snap, const PodCounts& counts, JobPlan* plan) {
  api::JobStatus& status = plan->status;
  if (snap.job.spec.suspend.value_or(false)) {
    DeletePods(ByDeletionOrder(counts.active), kJobBurst, plan);
    status.terminating = counts.terminating + static_cast<int>(counts.active.size());
    status.active = 0;
    status.ready = 0;
    if (SetCondition(&status, "Suspended", "True", "JobSuspended", "Job suspended", snap.now)) {
      Event(plan, "Normal", "Suspended", "Job suspended");
    }
    return true;
  }
  if (SetCondition(&status, "Suspended", "False", "JobResumed", "Job resumed", snap.now)) {
    Event(plan, "Normal", "Resumed", "Job resumed");
    status.start_time = FormatRfc3339(snap.now);  // the active deadline counts from here
  }
  if (status.start_time.empty()) status.start_time = FormatRfc3339(snap.now);
  return false;
}

}  // namespace

Duration JobPodBackoff(int failures) {
  if (failures <= 0) return Duration{0};
  Duration delay = kJobBackoffBase;
  for (int i = 1; i < failures && delay < kJobBackoffMax; ++i) delay *= 2;
  return std::min(delay, kJobBackoffMax);
}

std::string FormatIndexes(const std::vector<int>& sorted) {
  std::string out;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(sorted[i]);
    // Two neighbours are listed, longer runs are ranges (upstream orderedIntervals.String).
    if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(sorted[j]);
    i = j + 1;
  }
  return out;
}

api::Pod NewJobPod(const api::Job& job, std::optional<int> index) {
  api::Pod pod;
  const api::PodTemplateSpec& tmpl = job.spec.template_;
  pod.metadata.generate_name = job.metadata.name + "-";
  pod.metadata.namespace_ = job.metadata.namespace_;
  pod.metadata.labels = tmpl.metadata.labels;
  pod.metadata.annotations = tmpl.metadata.annotations;
  pod.metadata.finalizers = tmpl.metadata.finalizers;
  pod.metadata.owner_references.push_back(ControllerRefTo("batch/v1", "Job", job.metadata));
  pod.spec = tmpl.spec;
  if (index) {
    const std::string text = std::to_string(*index);
    pod.metadata.generate_name = job.metadata.name + "-" + text + "-";
    pod.metadata.annotations[std::string(api::kJobCompletionIndexAnnotation)] = text;
    pod.metadata.labels[std::string(api::kJobCompletionIndexAnnotation)] = text;
    if (pod.spec.hostname.empty()) pod.spec.hostname = job.metadata.name + "-" + text;
  }
  return pod;
}

JobPlan PlanJob(const JobSnapshot& snap) {
  const api::Job& job = snap.job;
  JobPlan plan;
  plan.status = job.status;
  if (IsTrue(job.status, "Complete") || IsTrue(job.status, "Failed")) return plan;
  if (job.metadata.IsDeleting()) return plan;
  const PodCounts counts = Count(snap);
  plan.status = CountedStatus(snap, counts);
  if (!Finish(snap, counts, &plan) && !Suspend(snap, counts, &plan)) {
    ManagePods(snap, plan.status, counts, &plan);
    // As upstream's manageJob, the status counts the pods this sync creates and deletes.
    for (const JobAction& a : plan.actions) {
      if (a.kind == Kind::kCreatePod) ++plan.status.active;
      if (a.kind == Kind::kDeletePod) --plan.status.active, ++*plan.status.terminating;
    }
    const std::optional<std::int64_t> deadline = job.spec.active_deadline_seconds;
    Result<Time> start = ParseRfc3339(plan.status.start_time);
    if (deadline && start.ok()) {
      plan.actions.push_back(
          {.kind = Kind::kRequeueAfter,
           .requeue_after = *start + std::chrono::seconds(*deadline) - snap.now});
    }
  }
  if (api::Encode(plan.status) != api::Encode(job.status)) {
    plan.actions.push_back({.kind = Kind::kUpdateStatus, .name = job.metadata.name});
  }
  // Events last: one about a condition is recorded once its status write went through.
  std::stable_partition(plan.actions.begin(), plan.actions.end(),
                        [](const JobAction& a) { return a.kind != Kind::kEvent; });
  return plan;
}

}  // namespace lws::cluster
