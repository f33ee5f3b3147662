// File: api/disaggregatedset_types.h
//
// disaggregatedset.x-k8s.io/v1 DisaggregatedSet and DisaggregatedSetRoleScaler (spec section 22;
// docs/disaggregatedset-upstream.md sections 1.1-1.6), with upstream's well-known keys. Field
// names follow upstream's Go types. A role embeds a LeaderWorkerSet template: `metadata` (labels
// and annotations copied onto the role's LeaderWorkerSets) and an LWS `spec`.
#pragma once

#include "api/lws_types.h"

namespace lws::api {

inline constexpr std::string_view kDsGroup = "disaggregatedset.x-k8s.io";
inline constexpr std::string_view kDsApiVersion = "disaggregatedset.x-k8s.io/v1";
inline constexpr std::string_view kDsKind = "DisaggregatedSet";
inline constexpr std::string_view kDsRoleScalerKind = "DisaggregatedSetRoleScaler";
inline constexpr std::string_view kDsResource = "disaggregatedsets";
inline constexpr std::string_view kDsRoleScalerResource = "disaggregatedsetrolescalers";

// Labels on every child LeaderWorkerSet and its pod templates (sheet 3.3).
inline const std::string kDsNameLabel = "disaggregatedset.x-k8s.io/name";
inline const std::string kDsRoleLabel = "disaggregatedset.x-k8s.io/role";
inline const std::string kDsSliceLabel = "disaggregatedset.x-k8s.io/slice";
inline const std::string kDsRevisionLabel = "disaggregatedset.x-k8s.io/revision";
// On an old revision's LeaderWorkerSets while a rollout replaces them (sheet 3.5).
inline const std::string kDsInitialReplicasAnnotation =
    "disaggregatedset.x-k8s.io/initial-replicas";

inline const std::string kDsScalingStatic = "Static";
inline const std::string kDsScalingExternal = "External";
inline const std::string kDsPlacementNone = "None";
inline const std::string kDsPlacementExclusiveSlice = "ExclusiveSlice";
inline const std::string kDsPlacementExclusiveTopology = "ExclusiveTopology";

// Conditions (sheet 5.4): Available and Progressing, never both True.
inline const std::string kDsReasonAllRolesReady = "AllRolesReady";
inline const std::string kDsReasonRolloutInProgress = "RolloutInProgress";
// The role scaler's condition (sheet 1.6).
inline const std::string kDsScalerReady = "Ready";

struct RoleScaling {
  std::string mode;  // Static (default) | External
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("mode", s.mode);
  }
};

struct DisaggregatedRoleSpec {
  std::string name;
  std::optional<RoleScaling> scaling;
  ObjectMeta metadata;       // of the LeaderWorkerSets made from this role
  LeaderWorkerSetSpec spec;  // an LWS spec, with the LWS CRD's defaults
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("name", s.name, kAlways);
    v("scaling", s.scaling);
    v("metadata", s.metadata);
    v("spec", s.spec);
  }
  // A nil scaling and mode Static mean the same everywhere upstream.
  bool IsExternal() const { return scaling && scaling->mode == kDsScalingExternal; }
  // The CRD defaults replicas to 1; a nil value reads as 1, as upstream's executor reads it.
  std::int32_t Replicas() const { return spec.replicas.value_or(1); }
};

struct PlacementPolicy {
  std::string type;  // None (default) | ExclusiveSlice | ExclusiveTopology
  std::string topology;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type);
    v("topology", s.topology);
  }
  bool IsNone() const { return type.empty() || type == kDsPlacementNone; }
};

struct DisaggregatedSetSpec {
  std::vector<DisaggregatedRoleSpec> roles;
  std::optional<std::int32_t> slices;
  std::optional<PlacementPolicy> placement_policy;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("roles", s.roles);
    v("slices", s.slices);
    v("placementPolicy", s.placement_policy);
  }
};

struct RoleStatus {
  std::string name;
  std::int32_t replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t updated_replicas = 0;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("name", s.name, kAlways);
    v("replicas", s.replicas);
    v("readyReplicas", s.ready_replicas);
    v("updatedReplicas", s.updated_replicas);
  }
};

struct DisaggregatedSetStatus {
  std::int64_t observed_generation = 0;
  std::vector<RoleStatus> role_statuses;
  std::vector<Condition> conditions;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("observedGeneration", s.observed_generation);
    v("roleStatuses", s.role_statuses);
    v("conditions", s.conditions);
  }
};

struct DisaggregatedSet {
  std::string api_version{kDsApiVersion};
  std::string kind{kDsKind};
  ObjectMeta metadata;
  DisaggregatedSetSpec spec;
  DisaggregatedSetStatus status;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("spec", s.spec);
    v("status", s.status);
  }
  std::int32_t Slices() const { return spec.slices.value_or(1); }
  // The role named `name`, or null.
  const DisaggregatedRoleSpec* FindRole(std::string_view name) const;
};

struct RoleScalerSpec {
  std::int32_t replicas = 0;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas, kAlways);  // required by the CRD, and read by /scale
  }
};

struct RoleScalerStatus {
  std::int32_t replicas = 0;
  std::string selector;
  std::int64_t observed_generation = 0;
  std::vector<Condition> conditions;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("conditions", s.conditions);
    v("observedGeneration", s.observed_generation);
    v("replicas", s.replicas);
    v("selector", s.selector);
  }
};

struct DisaggregatedSetRoleScaler {
  std::string api_version{kDsApiVersion};
  std::string kind{kDsRoleScalerKind};
  ObjectMeta metadata;
  RoleScalerSpec spec;
  RoleScalerStatus status;
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
