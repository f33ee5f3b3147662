// File: api/lws_types.h
//
// leaderworkerset.x-k8s.io/v1 LeaderWorkerSet, with the constants (labels, annotations, env
// names, enum values) of spec sections 3 and 4. Field names follow the upstream Go types.
#pragma once

#include "api/apps.h"

namespace lws::api {

inline constexpr std::string_view kLwsGroup = "leaderworkerset.x-k8s.io";
inline constexpr std::string_view kLwsVersion = "v1";
inline constexpr std::string_view kLwsApiVersion = "leaderworkerset.x-k8s.io/v1";
inline constexpr std::string_view kLwsKind = "LeaderWorkerSet";
inline constexpr std::string_view kLwsQualifiedKind = "LeaderWorkerSet.leaderworkerset.x-k8s.io";

// Labels (spec 4.1).
inline const std::string kSetNameLabel = "leaderworkerset.sigs.k8s.io/name";
inline const std::string kRevisionLabel = "leaderworkerset.sigs.k8s.io/template-revision-hash";
inline const std::string kWorkerIndexLabel = "leaderworkerset.sigs.k8s.io/worker-index";
inline const std::string kGroupIndexLabel = "leaderworkerset.sigs.k8s.io/group-index";
// On the leader StatefulSet ("leader") and the worker StatefulSets ("worker"), not on pods
// (upstream PRs 1002 and 1017, newer than spec section 4).
inline const std::string kRoleLabel = "leaderworkerset.sigs.k8s.io/role";
inline const std::string kRoleLeader = "leader";
inline const std::string kRoleWorker = "worker";
inline const std::string kGroupUniqueHashLabel = "leaderworkerset.sigs.k8s.io/group-key";
inline const std::string kSubGroupIndexLabel = "leaderworkerset.sigs.k8s.io/subgroup-index";
inline const std::string kSubGroupUniqueHashLabel = "leaderworkerset.sigs.k8s.io/subgroup-key";

// Annotations (spec 4.2).
inline const std::string kSizeAnnotation = "leaderworkerset.sigs.k8s.io/size";
inline const std::string kReplicasAnnotation = "leaderworkerset.sigs.k8s.io/replicas";
inline const std::string kLeaderPodNameAnnotation = "leaderworkerset.sigs.k8s.io/leader-name";
inline const std::string kExclusiveKeyAnnotation = "leaderworkerset.sigs.k8s.io/exclusive-topology";
inline const std::string kSubGroupExclusiveKeyAnnotation =
    "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
inline const std::string kSubGroupSizeAnnotation = "leaderworkerset.sigs.k8s.io/subgroup-size";
inline const std::string kSubGroupPolicyTypeAnnotation =
    "leaderworkerset.sigs.k8s.io/subgroup-policy-type";
inline const std::string kSubdomainPolicyAnnotation = "leaderworkerset.sigs.k8s.io/subdomainPolicy";
inline const std::string kLeaderRequestsTpusAnnotation =
    "leaderworkerset.sigs.k8s.io/leader-requests-tpus";
inline const std::string kRecreateGroupAfterStartAnnotation =
    "leaderworkerset.sigs.k8s.io/experimental-recreate-group-after-start";
inline const std::string kGangGroupNameAnnotation = "scheduling.k8s.io/group-name";

// Environment variables (spec 4.3).
inline const std::string kLwsLeaderAddressEnv = "LWS_LEADER_ADDRESS";
inline const std::string kLwsGroupSizeEnv = "LWS_GROUP_SIZE";
inline const std::string kLwsWorkerIndexEnv = "LWS_WORKER_INDEX";

// Enum values.
inline const std::string kRecreateGroupOnPodRestart = "RecreateGroupOnPodRestart";
inline const std::string kRecreateGroupAfterStart = "RecreateGroupAfterStart";
inline const std::string kRestartPolicyNone = "None";
inline const std::string kRestartPolicyDefault = "Default";  // deprecated, defaulted to None
inline const std::string kLeaderCreatedStartupPolicy = "LeaderCreated";
inline const std::string kLeaderReadyStartupPolicy = "LeaderReady";
inline const std::string kRollingUpdateStrategy = "RollingUpdate";
inline const std::string kSubdomainShared = "Shared";
inline const std::string kSubdomainUniquePerReplica = "UniquePerReplica";
inline const std::string kSubGroupLeaderWorker = "LeaderWorker";
inline const std::string kSubGroupLeaderExcluded = "LeaderExcluded";
// KEP 898 (upstream after the spec): how groups are identified and when a replaced group's
// leader may be scheduled.
inline const std::string kGroupIdentityOrdinal = "Ordinal";
inline const std::string kGroupIdentityHash = "Hash";
inline const std::string kGroupReplacementPostTermination = "PostTermination";
inline const std::string kGroupReplacementImmediate = "Immediate";

// Condition types and reasons (spec 12).
inline const std::string kConditionAvailable = "Available";
inline const std::string kConditionProgressing = "Progressing";
inline const std::string kConditionUpdateInProgress = "UpdateInProgress";
// Ours (KEP 820's proposed type): a group spent its opt-in restart budget (api/group_restarts.h).
inline const std::string kConditionDegraded = "Degraded";

struct SubGroupPolicy {
  std::optional<std::string> type;  // subGroupPolicyType: LeaderWorker | LeaderExcluded
  std::optional<std::int32_t> sub_group_size;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("subGroupPolicyType", s.type);
    v("subGroupSize", s.sub_group_size);
  }
};

struct LeaderWorkerTemplate {
  std::optional<PodTemplateSpec> leader_template;
  PodTemplateSpec worker_template;
  std::optional<std::int32_t> size;
  std::string restart_policy;
  std::optional<SubGroupPolicy> sub_group_policy;
  std::vector<PersistentVolumeClaim> volume_claim_templates;
  std::optional<PersistentVolumeClaimRetentionPolicy> persistent_volume_claim_retention_policy;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("leaderTemplate", s.leader_template);
    v("workerTemplate", s.worker_template, kAlways);
    v("size", s.size);
    v("restartPolicy", s.restart_policy);
    v("subGroupPolicy", s.sub_group_policy);
    v("volumeClaimTemplates", s.volume_claim_templates);
    v("persistentVolumeClaimRetentionPolicy", s.persistent_volume_claim_retention_policy);
  }
};

struct RollingUpdateConfiguration {
  std::optional<std::int32_t> partition;
  IntOrString max_unavailable;
  IntOrString max_surge;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("partition", s.partition);
    // Go never omits these struct-typed members, and a zero maxSurge is meaningful.
    v("maxUnavailable", s.max_unavailable, kAlways);
    v("maxSurge", s.max_surge, kAlways);
  }
};

struct RolloutStrategy {
  std::string type;
  std::optional<RollingUpdateConfiguration> rolling_update_configuration;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type);
    v("rollingUpdateConfiguration", s.rolling_update_configuration);
  }
};

struct NetworkConfig {
  std::optional<std::string> subdomain_policy;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("subdomainPolicy", s.subdomain_policy);
  }
};

struct LeaderWorkerSetSpec {
  std::optional<std::int32_t> replicas;
  LeaderWorkerTemplate leader_worker_template;
  RolloutStrategy rollout_strategy;
  std::string startup_policy;
  std::optional<NetworkConfig> network_config;
  std::string group_identity;            // Ordinal, Hash (KEP 898)
  std::string group_replacement_policy;  // PostTermination, Immediate (KEP 898)
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas);
    v("leaderWorkerTemplate", s.leader_worker_template, kAlways);
    v("rolloutStrategy", s.rollout_strategy);
    v("startupPolicy", s.startup_policy);
    v("networkConfig", s.network_config);
    v("groupIdentity", s.group_identity);
    v("groupReplacementPolicy", s.group_replacement_policy);
  }
};

struct LeaderWorkerSetStatus {
  std::vector<Condition> conditions;
  std::int32_t ready_replicas = 0;
  std::int32_t updated_replicas = 0;
  std::int32_t replicas = 0;
  std::string hpa_pod_selector;
  std::int64_t observed_generation = 0;
  Json rest;
  // The condition of `type`, or null.
  const Condition* FindCondition(std::string_view type) const {
    return api::FindCondition(conditions, type);
  }
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("conditions", s.conditions);
    v("readyReplicas", s.ready_replicas);
    v("updatedReplicas", s.updated_replicas);
    v("replicas", s.replicas);
    v("hpaPodSelector", s.hpa_pod_selector);
    v("observedGeneration", s.observed_generation);
  }
};

struct LeaderWorkerSet {
  std::string api_version{kLwsApiVersion};
  std::string kind{kLwsKind};
  ObjectMeta metadata;
  LeaderWorkerSetSpec spec;
  LeaderWorkerSetStatus status;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("spec", s.spec);
    v("status", s.status);
  }

  // Accessors that read defaulted values (REQUIRES: defaulting has run, or a default applies).
  std::int32_t Replicas() const { return spec.replicas.value_or(1); }
  std::int32_t Size() const { return spec.leader_worker_template.size.value_or(1); }
  // The leader pod template: leaderTemplate if set, else workerTemplate.
  const PodTemplateSpec& LeaderTemplate() const;
  // True when the subdomain policy is UniquePerReplica (nil networkConfig means Shared).
  bool UniquePerReplica() const;
};

}  // namespace lws::api
