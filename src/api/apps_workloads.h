// File: api/apps_workloads.h
//
// apps/v1 ReplicaSet, Deployment and DaemonSet (k8s.io/api/apps/v1 types.go), the fields their
// controllers read and write; everything else rides along in `rest`.
#pragma once

#include "api/core.h"
#include "api/pod.h"

namespace lws::api {

struct ReplicaSetSpec {
  std::optional<std::int32_t> replicas;
  std::int32_t min_ready_seconds = 0;
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas);
    v("minReadySeconds", s.min_ready_seconds);
    v("selector", s.selector);
    v("template", s.template_);
  }
};

// ReplicaSetCondition and DeploymentCondition: Deployment's has lastUpdateTime too.
struct WorkloadCondition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string last_update_time;
  std::string last_transition_time;
  std::string reason;
  std::string message;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type, kAlways);
    v("status", s.status, kAlways);
    v("lastUpdateTime", s.last_update_time);
    v("lastTransitionTime", s.last_transition_time);
    v("reason", s.reason);
    v("message", s.message);
  }
};

// The condition of `type`, or null.
inline const WorkloadCondition* FindCondition(const std::vector<WorkloadCondition>& conditions,
                                              std::string_view type) {
  for (const WorkloadCondition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

struct ReplicaSetStatus {
  std::int32_t replicas = 0;
  std::int32_t fully_labeled_replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t available_replicas = 0;
  std::optional<std::int32_t> terminating_replicas;
  std::int64_t observed_generation = 0;
  std::vector<WorkloadCondition> conditions;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas, kAlways);
    v("fullyLabeledReplicas", s.fully_labeled_replicas);
    v("readyReplicas", s.ready_replicas);
    v("availableReplicas", s.available_replicas);
    v("terminatingReplicas", s.terminating_replicas);
    v("observedGeneration", s.observed_generation);
    v("conditions", s.conditions);
  }
};

struct ReplicaSet {
  std::string api_version = "apps/v1";
  std::string kind = "ReplicaSet";
  ObjectMeta metadata;
  ReplicaSetSpec spec;
  ReplicaSetStatus status;
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

struct RollingUpdateDeployment {
  std::optional<IntOrString> max_unavailable;
  std::optional<IntOrString> max_surge;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("maxUnavailable", s.max_unavailable);
    v("maxSurge", s.max_surge);
  }
};

inline constexpr std::string_view kRecreateDeployment = "Recreate";
inline constexpr std::string_view kRollingUpdateDeployment = "RollingUpdate";

struct DeploymentStrategy {
  std::string type;  // Recreate, RollingUpdate
  std::optional<RollingUpdateDeployment> rolling_update;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type);
    v("rollingUpdate", s.rolling_update);
  }
};

struct DeploymentSpec {
  std::optional<std::int32_t> replicas;
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  DeploymentStrategy strategy;
  std::int32_t min_ready_seconds = 0;
  std::optional<std::int32_t> revision_history_limit;
  bool paused = false;
  std::optional<std::int32_t> progress_deadline_seconds;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas);
    v("selector", s.selector);
    v("template", s.template_);
    v("strategy", s.strategy);
    v("minReadySeconds", s.min_ready_seconds);
    v("revisionHistoryLimit", s.revision_history_limit);
    v("paused", s.paused);
    v("progressDeadlineSeconds", s.progress_deadline_seconds);
  }
};

struct DeploymentStatus {
  std::int64_t observed_generation = 0;
  std::int32_t replicas = 0;
  std::int32_t updated_replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t available_replicas = 0;
  std::int32_t unavailable_replicas = 0;
  std::optional<std::int32_t> terminating_replicas;
  std::vector<WorkloadCondition> conditions;
  std::optional<std::int32_t> collision_count;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("observedGeneration", s.observed_generation);
    v("replicas", s.replicas);
    v("updatedReplicas", s.updated_replicas);
    v("readyReplicas", s.ready_replicas);
    v("availableReplicas", s.available_replicas);
    v("unavailableReplicas", s.unavailable_replicas);
    v("terminatingReplicas", s.terminating_replicas);
    v("conditions", s.conditions);
    v("collisionCount", s.collision_count);
  }
};

struct Deployment {
  std::string api_version = "apps/v1";
  std::string kind = "Deployment";
  ObjectMeta metadata;
  DeploymentSpec spec;
  DeploymentStatus status;
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

struct RollingUpdateDaemonSet {
  std::optional<IntOrString> max_unavailable;
  std::optional<IntOrString> max_surge;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("maxUnavailable", s.max_unavailable);
    v("maxSurge", s.max_surge);
  }
};

struct DaemonSetUpdateStrategy {
  std::string type;  // RollingUpdate, OnDelete
  std::optional<RollingUpdateDaemonSet> rolling_update;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type);
    v("rollingUpdate", s.rolling_update);
  }
};

struct DaemonSetSpec {
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  DaemonSetUpdateStrategy update_strategy;
  std::int32_t min_ready_seconds = 0;
  std::optional<std::int32_t> revision_history_limit;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("selector", s.selector);
    v("template", s.template_);
    v("updateStrategy", s.update_strategy);
    v("minReadySeconds", s.min_ready_seconds);
    v("revisionHistoryLimit", s.revision_history_limit);
  }
};

struct DaemonSetStatus {
  std::int32_t current_number_scheduled = 0;
  std::int32_t number_misscheduled = 0;
  std::int32_t desired_number_scheduled = 0;
  std::int32_t number_ready = 0;
  std::int64_t observed_generation = 0;
  std::int32_t updated_number_scheduled = 0;
  std::int32_t number_available = 0;
  std::int32_t number_unavailable = 0;
  std::optional<std::int32_t> collision_count;
  std::vector<WorkloadCondition> conditions;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("currentNumberScheduled", s.current_number_scheduled, kAlways);
    v("numberMisscheduled", s.number_misscheduled, kAlways);
    v("desiredNumberScheduled", s.desired_number_scheduled, kAlways);
    v("numberReady", s.number_ready, kAlways);
    v("observedGeneration", s.observed_generation);
    v("updatedNumberScheduled", s.updated_number_scheduled);
    v("numberAvailable", s.number_available);
    v("numberUnavailable", s.number_unavailable);
    v("collisionCount", s.collision_count);
    v("conditions", s.conditions);
  }
};

struct DaemonSet {
  std::string api_version = "apps/v1";
  std::string kind = "DaemonSet";
  ObjectMeta metadata;
  DaemonSetSpec spec;
  DaemonSetStatus status;
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
