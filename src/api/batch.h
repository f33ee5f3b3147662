// File: api/batch.h
//
// batch/v1 Job (k8s.io/api/batch/v1 types.go): the fields the simulated cluster's Job controller
// reads and writes; everything else rides along in `rest`.
#pragma once

#include "api/apps_workloads.h"
#include "api/core.h"
#include "api/pod.h"

namespace lws::api {

inline constexpr std::string_view kNonIndexedCompletion = "NonIndexed";
inline constexpr std::string_view kIndexedCompletion = "Indexed";
// The annotation and label an Indexed Job's pods carry their index in.
inline constexpr std::string_view kJobCompletionIndexAnnotation =
    "batch.kubernetes.io/job-completion-index";

struct JobSpec {
  std::optional<std::int32_t> parallelism;
  std::optional<std::int32_t> completions;
  std::optional<std::int64_t> active_deadline_seconds;
  std::optional<std::int32_t> backoff_limit;
  std::optional<LabelSelector> selector;
  std::optional<bool> manual_selector;
  PodTemplateSpec template_;
  std::optional<std::string> completion_mode;
  std::optional<bool> suspend;
  Json rest;  // ttlSecondsAfterFinished, podFailurePolicy, successPolicy, ...
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("parallelism", s.parallelism);
    v("completions", s.completions);
    v("activeDeadlineSeconds", s.active_deadline_seconds);
    v("backoffLimit", s.backoff_limit);
    v("selector", s.selector);
    v("manualSelector", s.manual_selector);
    v("template", s.template_);
    v("completionMode", s.completion_mode);
    v("suspend", s.suspend);
  }
};

// JobCondition: WorkloadCondition's fields with lastProbeTime for lastUpdateTime.
struct JobCondition {
  std::string type;    // Complete, Failed, Suspended, SuccessCriteriaMet, FailureTarget
  std::string status;  // "True", "False", "Unknown"
  std::string last_probe_time;
  std::string last_transition_time;
  std::string reason;
  std::string message;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type, kAlways);
    v("status", s.status, kAlways);
    v("lastProbeTime", s.last_probe_time);
    v("lastTransitionTime", s.last_transition_time);
    v("reason", s.reason);
    v("message", s.message);
  }
};

struct JobStatus {
  std::vector<JobCondition> conditions;
  std::string start_time;
  std::string completion_time;
  std::int32_t active = 0;
  std::int32_t succeeded = 0;
  std::int32_t failed = 0;
  std::optional<std::int32_t> terminating;
  std::string completed_indexes;
  std::optional<std::int32_t> ready;
  Json uncounted_terminated_pod_uids;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("conditions", s.conditions);
    v("startTime", s.start_time);
    v("completionTime", s.completion_time);
    v("active", s.active);
    v("succeeded", s.succeeded);
    v("failed", s.failed);
    v("terminating", s.terminating);
    v("completedIndexes", s.completed_indexes);
    v("ready", s.ready);
    v("uncountedTerminatedPods", s.uncounted_terminated_pod_uids);
  }
};

struct Job {
  std::string api_version = "batch/v1";
  std::string kind = "Job";
  ObjectMeta metadata;
  JobSpec spec;
  JobStatus status;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("spec", s.spec);
    v("status", s.status);
  }
};

}  // namespace lws::api
