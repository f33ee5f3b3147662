// Tests of the Job controller's pure sync (job_plan.h). The table cases port upstream
// pkg/controller/job/job_controller_test.go TestControllerSyncJob (the facts: parallelism,
// completions, backoffLimit, pod phases in; creations, deletions, counts and conditions out),
// with the JobPodReplacementPolicy gate on as in v1.32 (terminating counted, FailureTarget and
// SuccessCriteriaMet before the terminal condition).
#include "cluster/job_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "api/codec.h"

namespace lws::cluster {
namespace {

using api::Json;
using Kind = JobActionKind;

const Time kNow = *ParseRfc3339("2026-12-05T12:00:00Z");

api::Job NewJob(int parallelism, std::optional<int> completions, int backoff_limit,
                std::string_view mode = "NonIndexed") {
  Result<api::Job> job = api::Decode<api::Job>(Json::parse(R"({
    "metadata": {"name": "pi", "namespace": "default", "uid": "u-job", "generation": 1},
    "spec": {
      "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u-job"}},
      "template": {"metadata": {"labels": {"batch.kubernetes.io/controller-uid": "u-job",
                                           "batch.kubernetes.io/job-name": "pi"}},
                   "spec": {"restartPolicy": "Never",
                            "containers": [{"name": "pi", "image": "perl"}]}}
    }})"));
  EXPECT_TRUE(job.ok()) << job.status().ToString();
  job->spec.parallelism = parallelism;
  job->spec.completions = completions;
  job->spec.backoff_limit = backoff_limit;
  job->spec.completion_mode = std::string(mode);
  job->status.start_time = "2026-12-05T11:00:00Z";
  return *job;
}

std::shared_ptr<const api::Pod> PodOf(const std::string& name, const std::string& phase,
                                      bool ready = false, std::optional<std::string> index = {},
                                      std::string finished = "2026-12-05T11:30:00Z") {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.uid = "u-" + name;
  pod.metadata.namespace_ = "default";
  pod.metadata.creation_timestamp = "2026-12-05T11:00:00Z";
  if (index) pod.metadata.annotations[std::string(api::kJobCompletionIndexAnnotation)] = *index;
  pod.status.phase = phase;
  if (ready) {
    api::PodCondition c;
    c.type = "Ready";
    c.status = "True";
    pod.status.conditions.push_back(c);
  }
  if (phase == "Succeeded" || phase == "Failed") {
    api::ContainerStatus c;
    c.name = "pi";
    c.state = {{"terminated", {{"exitCode", phase == "Failed" ? 1 : 0}, {"finishedAt", finished}}}};
    pod.status.container_statuses.push_back(c);
  }
  return std::make_shared<const api::Pod>(std::move(pod));
}

struct Pods {
  int pending = 0, active = 0, ready = 0, succeeded = 0, failed = 0, terminating = 0;
};

JobSnapshot Snapshot(api::Job job, Pods pods) {
  JobSnapshot snap{std::move(job), {}, kNow};
  int n = 0;
  auto add = [&](int count, const std::string& phase, bool ready) {
    for (int i = 0; i < count; ++i)
      snap.pods.push_back(PodOf("p" + std::to_string(n++), phase, ready));
  };
  add(pods.pending, "Pending", false);
  add(pods.ready, "Running", true);
  add(pods.active - pods.ready, "Running", false);
  add(pods.succeeded, "Succeeded", false);
  add(pods.failed, "Failed", false);
  for (int i = 0; i < pods.terminating; ++i) {
    api::Pod pod = *PodOf("t" + std::to_string(i), "Running");
    pod.metadata.deletion_timestamp = "2026-12-05T11:59:00Z";
    snap.pods.push_back(std::make_shared<const api::Pod>(std::move(pod)));
  }
  return snap;
}

int CountOf(const JobPlan& plan, Kind kind) {
  return static_cast<int>(std::count_if(plan.actions.begin(), plan.actions.end(),
                                        [&](const JobAction& a) { return a.kind == kind; }));
}

std::vector<std::string> Conditions(const JobPlan& plan) {
  std::vector<std::string> out;
  for (const api::JobCondition& c : plan.status.conditions) {
    out.push_back(c.type + "=" + c.status + ":" + c.reason);
  }
  return out;
}

std::set<std::string> CreatedIndexes(const JobPlan& plan) {
  std::set<std::string> out;
  for (const JobAction& a : plan.actions) {
    if (a.kind == Kind::kCreatePod) {
      out.insert(a.pod->metadata.annotations.at(std::string(api::kJobCompletionIndexAnnotation)));
    }
  }
  return out;
}

struct Case {
  const char* name;  // upstream's case name
  int parallelism;
  std::optional<int> completions;
  int backoff_limit;
  Pods pods;
  int creations, deletions, active, succeeded, failed;
  std::vector<std::string> conditions;
};

TEST(JobPlan, ControllerSyncJobCases) {
  const std::vector<Case> cases = {
      {"job start", 2, 5, 6, {}, 2, 0, 2, 0, 0, {}},
      {"WQ job start", 2, std::nullopt, 6, {}, 2, 0, 2, 0, 0, {}},
      {"correct # of pods", 2, 5, 6, {.active = 2}, 0, 0, 2, 0, 0, {}},
      {"too few active pods", 2, 5, 6, {.active = 1, .succeeded = 1}, 1, 0, 2, 1, 0, {}},
      {"too few active pods with a dynamic job",
       2,
       std::nullopt,
       6,
       {.active = 1},
       1,
       0,
       2,
       0,
       0,
       {}},
      {"too many active pods", 2, 5, 6, {.active = 3}, 0, 1, 2, 0, 0, {}},
      {"more active pods than parallelism", 2, 5, 6, {.active = 10}, 0, 8, 2, 0, 0, {}},
      {"more active pods than remaining completions",
       3,
       4,
       6,
       {.active = 3, .succeeded = 2},
       0,
       1,
       2,
       2,
       0,
       {}},
      {"status change", 2, 5, 6, {.active = 2, .succeeded = 2}, 0, 0, 2, 2, 0, {}},
      {"WQ job finishing", 2, std::nullopt, 6, {.active = 1, .succeeded = 1}, 0, 0, 1, 1, 0, {}},
      {"job finish",
       2,
       5,
       6,
       {.succeeded = 5},
       0,
       0,
       0,
       5,
       0,
       {"SuccessCriteriaMet=True:CompletionsReached", "Complete=True:CompletionsReached"}},
      {"WQ job all finished",
       2,
       std::nullopt,
       6,
       {.succeeded = 2},
       0,
       0,
       0,
       2,
       0,
       {"SuccessCriteriaMet=True:CompletionsReached", "Complete=True:CompletionsReached"}},
      {"WQ job all finished despite one failure",
       2,
       std::nullopt,
       6,
       {.succeeded = 1, .failed = 1},
       0,
       0,
       0,
       1,
       1,
       {"SuccessCriteriaMet=True:CompletionsReached", "Complete=True:CompletionsReached"}},
      {"too many job failures",
       2,
       5,
       0,
       {.failed = 1},
       0,
       0,
       0,
       0,
       1,
       {"FailureTarget=True:BackoffLimitExceeded", "Failed=True:BackoffLimitExceeded"}},
      // The two stopped pods count as failed, and the Job waits for them to go.
      {"count ready pods when job fails",
       2,
       3,
       0,
       {.active = 2, .ready = 2, .failed = 1},
       0,
       2,
       0,
       0,
       3,
       {"FailureTarget=True:BackoffLimitExceeded"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // The backoff of a new failure is over: the failures finished long before kNow.
    const JobPlan plan =
        PlanJob(Snapshot(NewJob(c.parallelism, c.completions, c.backoff_limit), c.pods));
    EXPECT_EQ(CountOf(plan, Kind::kCreatePod), c.creations);
    EXPECT_EQ(CountOf(plan, Kind::kDeletePod), c.deletions);
    EXPECT_EQ(plan.status.active, c.active);
    EXPECT_EQ(plan.status.succeeded, c.succeeded);
    EXPECT_EQ(plan.status.failed, c.failed);
    EXPECT_EQ(Conditions(plan), c.conditions);
  }
}

// Upstream "count terminating pods when indexed job fails and PodReplacementPolicy enabled".
TEST(JobPlan, IndexedJobFailsAndWaitsForItsTerminatingPods) {
  JobSnapshot snap{NewJob(2, 3, 0, "Indexed"), {}, kNow};
  snap.pods = {PodOf("a", "Succeeded", false, "0"), PodOf("b", "Failed", false, "1"),
               PodOf("c", "Running", false, "2")};
  const JobPlan plan = PlanJob(snap);
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 1);
  EXPECT_EQ(plan.status.succeeded, 1);
  EXPECT_EQ(plan.status.failed, 2);
  EXPECT_EQ(plan.status.terminating, 1);
  EXPECT_EQ(plan.status.completed_indexes, "0");
  EXPECT_EQ(Conditions(plan), std::vector<std::string>{"FailureTarget=True:BackoffLimitExceeded"});
}

// Upstream "indexed job start", "indexed job some running and completed pods", "indexed job
// repeated completed index" and "indexed job completed".
TEST(JobPlan, IndexedJobCreatesTheLowestMissingIndexes) {
  EXPECT_EQ(CreatedIndexes(PlanJob(Snapshot(NewJob(2, 5, 6, "Indexed"), {}))),
            (std::set<std::string>{"0", "1"}));

  JobSnapshot some{NewJob(8, 20, 6, "Indexed"), {}, kNow};
  some.pods = {PodOf("a", "Running", false, "0"),   PodOf("b", "Succeeded", false, "2"),
               PodOf("c", "Pending", false, "3"),   PodOf("d", "Succeeded", false, "4"),
               PodOf("e", "Succeeded", false, "5"), PodOf("f", "Succeeded", false, "7"),
               PodOf("g", "Succeeded", false, "8"), PodOf("h", "Succeeded", false, "9")};
  JobPlan plan = PlanJob(some);
  EXPECT_EQ(CreatedIndexes(plan), (std::set<std::string>{"1", "6", "10", "11", "12", "13"}));
  EXPECT_EQ(plan.status.succeeded, 6);
  EXPECT_EQ(plan.status.completed_indexes, "2,4,5,7-9");

  JobSnapshot repeated{NewJob(2, 3, 6, "Indexed"), {}, kNow};
  repeated.pods = {PodOf("a", "Succeeded", false, "0"), PodOf("b", "Succeeded", false, "1"),
                   PodOf("c", "Succeeded", false, "1")};
  plan = PlanJob(repeated);
  EXPECT_EQ(CreatedIndexes(plan), std::set<std::string>{"2"});
  EXPECT_EQ(plan.status.succeeded, 2);
  EXPECT_EQ(plan.status.completed_indexes, "0,1");

  JobSnapshot done{NewJob(2, 3, 6, "Indexed"), {}, kNow};
  done.pods = {PodOf("a", "Succeeded", false, "0"), PodOf("b", "Failed", false, "1"),
               PodOf("c", "Succeeded", false, "1"), PodOf("d", "Succeeded", false, "2")};
  plan = PlanJob(done);
  EXPECT_EQ(plan.status.succeeded, 3);
  EXPECT_EQ(plan.status.failed, 1);
  EXPECT_EQ(plan.status.completed_indexes, "0-2");
  EXPECT_TRUE(plan.status.conditions.size() == 2 && plan.status.conditions[1].type == "Complete");
}

// Upstream "indexed job with indexes outside of range" and "indexed job repeated indexes".
TEST(JobPlan, IndexedJobDeletesStrayPodsBeforeCreating) {
  JobSnapshot snap{NewJob(2, 5, 6, "Indexed"), {}, kNow};
  snap.pods = {PodOf("a", "Succeeded", false, "0"), PodOf("b", "Running", false, "5"),
               PodOf("c", "Succeeded", false, "6"), PodOf("d", "Pending", false, "7"),
               PodOf("e", "Failed", false, "8")};
  JobPlan plan = PlanJob(snap);
  EXPECT_EQ(CountOf(plan, Kind::kCreatePod), 0);
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 2);
  EXPECT_EQ(plan.status.succeeded, 1);
  EXPECT_EQ(plan.status.failed, 0);
  EXPECT_EQ(plan.status.completed_indexes, "0");

  JobSnapshot repeated{NewJob(5, 5, 6, "Indexed"), {}, kNow};
  repeated.pods = {PodOf("a", "Running", false, "invalid"), PodOf("b", "Succeeded", false, "0"),
                   PodOf("c", "Running", false, "1"), PodOf("d", "Running", false, "2"),
                   PodOf("e", "Pending", false, "2")};
  plan = PlanJob(repeated);
  EXPECT_EQ(CountOf(plan, Kind::kCreatePod), 0);
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 2);
}

// Upstream "suspending a job with satisfied expectations" and "resuming a suspended job".
TEST(JobPlan, SuspendDeletesActivePodsAndResumeRecreatesThem) {
  api::Job job = NewJob(2, 4, 6);
  job.spec.suspend = true;
  JobPlan plan = PlanJob(Snapshot(job, {.active = 2}));
  EXPECT_EQ(CountOf(plan, Kind::kDeletePod), 2);
  EXPECT_EQ(plan.status.active, 0);
  EXPECT_EQ(Conditions(plan), std::vector<std::string>{"Suspended=True:JobSuspended"});

  job.status = plan.status;
  job.spec.suspend = false;
  plan = PlanJob(Snapshot(job, {}));
  EXPECT_EQ(CountOf(plan, Kind::kCreatePod), 2);
  EXPECT_EQ(Conditions(plan), std::vector<std::string>{"Suspended=False:JobResumed"});
  EXPECT_EQ(plan.status.start_time, FormatRfc3339(kNow));
}

// Upstream TestJobPodsBackoff-style facts (getRemainingTime): 10 s doubling, capped at 6 min.
TEST(JobPlan, PodFailureBackoff) {
  EXPECT_EQ(JobPodBackoff(0), Duration{0});
  EXPECT_EQ(JobPodBackoff(1), std::chrono::seconds(10));
  EXPECT_EQ(JobPodBackoff(2), std::chrono::seconds(20));
  EXPECT_EQ(JobPodBackoff(3), std::chrono::seconds(40));
  EXPECT_EQ(JobPodBackoff(7), std::chrono::seconds(360));
  EXPECT_EQ(JobPodBackoff(30), std::chrono::seconds(360));

  // Two failures, the last 5 s ago: the replacement waits 15 s more.
  JobSnapshot snap{NewJob(1, 1, 6), {}, kNow};
  snap.pods = {PodOf("a", "Failed", false, {}, "2026-12-05T11:59:00Z"),
               PodOf("b", "Failed", false, {}, "2026-12-05T11:59:55Z")};
  JobPlan plan = PlanJob(snap);
  EXPECT_EQ(CountOf(plan, Kind::kCreatePod), 0);
  ASSERT_EQ(CountOf(plan, Kind::kRequeueAfter), 1);
  for (const JobAction& a : plan.actions) {
    if (a.kind == Kind::kRequeueAfter) {
      EXPECT_EQ(a.requeue_after, std::chrono::seconds(15));
    }
  }
  snap.now = kNow + std::chrono::seconds(15);
  EXPECT_EQ(CountOf(PlanJob(snap), Kind::kCreatePod), 1);
}

// pastBackoffLimitOnFailure: under OnFailure the restarts of running pods count.
TEST(JobPlan, OnFailureRestartsReachTheBackoffLimit) {
  api::Job job = NewJob(1, 1, 2);
  job.spec.template_.spec.restart_policy = "OnFailure";
  api::Pod pod = *PodOf("a", "Running");
  api::ContainerStatus c;
  c.name = "pi";
  c.restart_count = 1;
  pod.status.container_statuses.push_back(c);
  JobSnapshot snap{job, {std::make_shared<const api::Pod>(pod)}, kNow};
  EXPECT_TRUE(PlanJob(snap).status.conditions.empty());
  pod.status.container_statuses[0].restart_count = 2;
  snap.pods = {std::make_shared<const api::Pod>(pod)};
  EXPECT_EQ(Conditions(PlanJob(snap)),
            std::vector<std::string>{"FailureTarget=True:BackoffLimitExceeded"});
}

TEST(JobPlan, PodsCarryTheTemplateOwnerAndIndex) {
  const api::Pod pod = NewJobPod(NewJob(1, 3, 6, "Indexed"), 2);
  EXPECT_EQ(pod.metadata.generate_name, "pi-2-");
  EXPECT_EQ(pod.spec.hostname, "pi-2");
  EXPECT_EQ(pod.metadata.labels.at("batch.kubernetes.io/job-completion-index"), "2");
  EXPECT_EQ(pod.metadata.annotations.at("batch.kubernetes.io/job-completion-index"), "2");
  EXPECT_EQ(pod.metadata.labels.at("batch.kubernetes.io/job-name"), "pi");
  ASSERT_EQ(pod.metadata.owner_references.size(), 1u);
  const api::OwnerReference& ref = pod.metadata.owner_references[0];
  EXPECT_EQ(ref.api_version, "batch/v1");
  EXPECT_EQ(ref.kind, "Job");
  EXPECT_EQ(ref.uid, "u-job");
  EXPECT_TRUE(ref.controller.value_or(false));
  EXPECT_TRUE(ref.block_owner_deletion.value_or(false));
  EXPECT_EQ(NewJobPod(NewJob(1, 1, 6), std::nullopt).metadata.generate_name, "pi-");
}

TEST(JobPlan, FinishedJobsAreLeftAlone) {
  api::Job job = NewJob(1, 1, 6);
  JobPlan plan = PlanJob(Snapshot(job, {.succeeded = 1}));
  EXPECT_EQ(plan.status.completion_time, FormatRfc3339(kNow));
  ASSERT_EQ(CountOf(plan, Kind::kEvent), 1);
  EXPECT_EQ(plan.actions.back().reason, "Completed");
  EXPECT_EQ(plan.actions.back().message, "Job completed");
  job.status = plan.status;
  EXPECT_TRUE(PlanJob(Snapshot(job, {.succeeded = 1})).actions.empty());
}

TEST(JobPlan, FormatIndexes) {
  EXPECT_EQ(FormatIndexes({}), "");
  EXPECT_EQ(FormatIndexes({0}), "0");
  EXPECT_EQ(FormatIndexes({0, 1, 2, 4, 6, 7}), "0-2,4,6,7");
  EXPECT_EQ(FormatIndexes({2, 4, 5, 7, 8, 9}), "2,4,5,7-9");
}

}  // namespace
}  // namespace lws::cluster
