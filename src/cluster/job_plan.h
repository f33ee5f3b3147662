// File: cluster/job_plan.h
//
// The decisions of kube-controller-manager's Job controller (upstream
// pkg/controller/job/job_controller.go, v1.32) as one pure function: a Job, the pods it
// controls and the time in; the writes of one sync and the status out (DESIGN.md 2.1).
//
// Rules, in the order of one sync (upstream syncJob and manageJob):
//   1. A finished Job (Complete or Failed True) gets nothing.
//   2. Pods are active (not Succeeded, not Failed, not being deleted), terminating (being
//      deleted, not terminal), succeeded or failed. The counts never fall below the status
//      (a counted pod deleted by hand stays counted, as upstream's finalizer tracking keeps it).
//   3. Failure: more failed pods than spec.backoffLimit, or (restartPolicy OnFailure) as many
//      container restarts in active pods as the limit, gives FailureTarget (reason
//      BackoffLimitExceeded, "Job has reached the specified backoff limit"); running longer than
//      activeDeadlineSeconds gives DeadlineExceeded ("Job was active longer than specified
//      deadline"). Success: succeeded pods reach spec.completions (every index, Indexed), or,
//      without completions, one pod succeeded and none is active: SuccessCriteriaMet (reason
//      CompletionsReached, "Reached expected number of succeeded pods"). Either way the active
//      pods are deleted, and once none is left running or terminating the terminal condition
//      follows (Failed, or Complete with completionTime), as 1.32 delays it.
//   4. Suspended: active pods deleted, condition Suspended True (JobSuspended, "Job
//      suspended"), startTime cleared; resumed: Suspended False (JobResumed, "Job resumed").
//   5. Otherwise pods are created up to min(parallelism, completions - succeeded) active
//      (parallelism while nothing succeeded, without completions), at most kJobBurst per sync,
//      named by generateName "<job>-" ("<job>-<index>-" Indexed) with the template's labels
//      and annotations and a controller ownerReference (blockOwnerDeletion). Indexed pods get
//      the lowest indexes neither succeeded nor active: annotation and label
//      batch.kubernetes.io/job-completion-index, hostname "<job>-<index>". Extra active pods
//      are deleted, the not-ready and newest first.
//   6. Pod failure backoff: after n failures since the last success, new pods wait
//      10 s * 2^(n-1), at most 6 min, from the last failure (kRequeueAfter meanwhile).
//   7. Status: active, ready, terminating, succeeded, failed, completedIndexes (Indexed),
//      uncountedTerminatedPods {}, startTime on the first unsuspended sync; kUpdateStatus only
//      when it differs. Events: SuccessfulCreate, SuccessfulDelete, Completed "Job completed",
//      BackoffLimitExceeded / DeadlineExceeded (Warning), Suspended, Resumed.
//
// Left out (upstream has it): podFailurePolicy, successPolicy, backoffLimitPerIndex,
// ttlSecondsAfterFinished, the job-tracking finalizer, adopting orphans.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/batch.h"
#include "base/clock.h"

namespace lws::cluster {

// Upstream's burst: at most this many pods are created or deleted per sync.
inline constexpr int kJobBurst = 500;
inline constexpr Duration kJobBackoffBase = std::chrono::seconds(10);
inline constexpr Duration kJobBackoffMax = std::chrono::minutes(6);

struct JobSnapshot {
  api::Job job;
  std::vector<std::shared_ptr<const api::Pod>> pods;  // controlled by the Job, any state
  Time now;
};

enum class JobActionKind {
  kCreatePod,     // create `pod` (generateName)
  kDeletePod,     // delete pod `name` with precondition `uid`
  kUpdateStatus,  // write the plan's status
  kEvent,         // record event `type`, `reason`, `message` on the Job
  kRequeueAfter,  // sync again after `requeue_after`
};

struct JobAction {
  JobActionKind kind = JobActionKind::kCreatePod;
  std::string name;
  std::string uid;
  std::optional<api::Pod> pod;
  std::string type;  // kEvent: Normal or Warning
  std::string reason;
  std::string message;
  Duration requeue_after{0};
};

struct JobPlan {
  std::vector<JobAction> actions;
  api::JobStatus status;
};

JobPlan PlanJob(const JobSnapshot& snapshot);

// The pod upstream's manageJob makes for `job`; `index` for an Indexed Job.
api::Pod NewJobPod(const api::Job& job, std::optional<int> index);

// The delay before the next pod after `failures` failures since the last success: 0 for none,
// else kJobBackoffBase doubled per further failure, at most kJobBackoffMax.
Duration JobPodBackoff(int failures);

// The Indexed Job's completedIndexes form of sorted indexes: "0-2,4,6,7".
std::string FormatIndexes(const std::vector<int>& sorted);

}  // namespace lws::cluster
