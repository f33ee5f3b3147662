// File: api/apps.h
//
// apps/v1 StatefulSet and ControllerRevision.
#pragma once

#include "api/core.h"

namespace lws::api {

struct RollingUpdateStatefulSetStrategy {
  std::optional<std::int32_t> partition;
  std::optional<IntOrString> max_unavailable;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("partition", s.partition);
    v("maxUnavailable", s.max_unavailable);
  }
};

struct StatefulSetUpdateStrategy {
  std::string type;  // RollingUpdate, OnDelete
  std::optional<RollingUpdateStatefulSetStrategy> rolling_update;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type);
    v("rollingUpdate", s.rolling_update);
  }
};

struct PersistentVolumeClaimRetentionPolicy {
  std::string when_deleted;  // Retain, Delete
  std::string when_scaled;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("whenDeleted", s.when_deleted);
    v("whenScaled", s.when_scaled);
  }
};

struct StatefulSetOrdinals {
  std::int32_t start = 0;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("start", s.start);
  }
};

struct StatefulSetSpec {
  std::optional<std::int32_t> replicas;
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  std::vector<PersistentVolumeClaim> volume_claim_templates;
  std::string service_name;
  std::string pod_management_policy;  // OrderedReady, Parallel
  StatefulSetUpdateStrategy update_strategy;
  std::optional<std::int32_t> revision_history_limit;
  std::int32_t min_ready_seconds = 0;
  std::optional<PersistentVolumeClaimRetentionPolicy> persistent_volume_claim_retention_policy;
  std::optional<StatefulSetOrdinals> ordinals;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas);
    v("selector", s.selector);
    v("template", s.template_);
    v("volumeClaimTemplates", s.volume_claim_templates);
    v("serviceName", s.service_name);
    v("podManagementPolicy", s.pod_management_policy);
    v("updateStrategy", s.update_strategy);
    v("revisionHistoryLimit", s.revision_history_limit);
    v("minReadySeconds", s.min_ready_seconds);
    v("persistentVolumeClaimRetentionPolicy", s.persistent_volume_claim_retention_policy);
    v("ordinals", s.ordinals);
  }
};

struct StatefulSetStatus {
  std::int64_t observed_generation = 0;
  std::int32_t replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t current_replicas = 0;
  std::int32_t updated_replicas = 0;
  std::string current_revision;
  std::string update_revision;
  std::optional<std::int32_t> collision_count;
  std::int32_t available_replicas = 0;
  Json rest;  // conditions
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("observedGeneration", s.observed_generation);
    v("replicas", s.replicas, kAlways);
    v("readyReplicas", s.ready_replicas);
    v("currentReplicas", s.current_replicas);
    v("updatedReplicas", s.updated_replicas);
    v("currentRevision", s.current_revision);
    v("updateRevision", s.update_revision);
    v("collisionCount", s.collision_count);
    v("availableReplicas", s.available_replicas, kAlways);
  }
};

struct StatefulSet {
  std::string api_version = "apps/v1";
  std::string kind = "StatefulSet";
  ObjectMeta metadata;
  StatefulSetSpec spec;
  StatefulSetStatus status;
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

struct ControllerRevision {
  std::string api_version = "apps/v1";
  std::string kind = "ControllerRevision";
  ObjectMeta metadata;
  Json data;  // raw revision content; for LWS, the patch of section 7.2 of the spec
  std::int64_t revision = 0;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("data", s.data);
    v("revision", s.revision, kAlways);
  }
};

}  // namespace lws::api
