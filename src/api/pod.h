// File: api/pod.h
//
// core/v1 Pod and the parts of PodSpec that the controllers, scheduler and kubelets read or
// write: containers with env and resources, node selection, affinity, tolerations, hostname and
// subdomain, and pod status. Everything else (volumes, probes, security contexts, ...) rides in
// the `rest` members untouched.
#pragma once

#include "api/meta.h"

namespace lws::api {

using ResourceList = std::map<std::string, Quantity>;

struct EnvVar {
  std::string name;
  std::string value;
  Json rest;  // valueFrom
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("name", s.name, kAlways);
    v("value", s.value);
  }
};

struct ResourceRequirements {
  ResourceList limits;
  ResourceList requests;
  Json rest;  // claims
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("limits", s.limits);
    v("requests", s.requests);
  }
};

struct Container {
  std::string name;
  std::string image;
  std::vector<EnvVar> env;
  ResourceRequirements resources;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("name", s.name, kAlways);
    v("image", s.image);
    v("env", s.env);
    v("resources", s.resources);
  }
  // Pointer to the env var named `name`, or null.
  const EnvVar* FindEnv(std::string_view name) const;
};

struct NodeSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("key", s.key, kAlways);
    v("operator", s.operator_, kAlways);
    v("values", s.values);
  }
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("matchExpressions", s.match_expressions);
    v("matchFields", s.match_fields);
  }
};

struct NodeSelector {
  std::vector<NodeSelectorTerm> node_selector_terms;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("nodeSelectorTerms", s.node_selector_terms, kAlways);
  }
};

struct NodeAffinity {
  std::optional<NodeSelector> required;  // requiredDuringSchedulingIgnoredDuringExecution
  Json rest;                             // preferredDuringSchedulingIgnoredDuringExecution
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("requiredDuringSchedulingIgnoredDuringExecution", s.required);
  }
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
  Json rest;  // namespaceSelector, matchLabelKeys, mismatchLabelKeys
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("labelSelector", s.label_selector);
    v("namespaces", s.namespaces);
    v("topologyKey", s.topology_key, kAlways);
  }
};

// PodAffinity and PodAntiAffinity have the same shape.
struct PodAffinity {
  std::vector<PodAffinityTerm> required;  // requiredDuringSchedulingIgnoredDuringExecution
  Json rest;                              // preferredDuringSchedulingIgnoredDuringExecution
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("requiredDuringSchedulingIgnoredDuringExecution", s.required);
  }
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("nodeAffinity", s.node_affinity);
    v("podAffinity", s.pod_affinity);
    v("podAntiAffinity", s.pod_anti_affinity);
  }
};

struct Toleration {
  std::string key;
  std::string operator_;  // Exists, Equal
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
  std::optional<std::int64_t> toleration_seconds;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("key", s.key);
    v("operator", s.operator_);
    v("value", s.value);
    v("effect", s.effect);
    v("tolerationSeconds", s.toleration_seconds);
  }
};

struct PodSpec {
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  std::string restart_policy;
  std::optional<std::int64_t> termination_grace_period_seconds;
  StringMap node_selector;
  std::string node_name;
  std::string hostname;
  std::string subdomain;
  std::optional<Affinity> affinity;
  std::string scheduler_name;
  std::vector<Toleration> tolerations;
  ResourceList overhead;
  Json rest;  // volumes, securityContext, ...
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("initContainers", s.init_containers);
    v("containers", s.containers, kAlways);
    v("restartPolicy", s.restart_policy);
    v("terminationGracePeriodSeconds", s.termination_grace_period_seconds);
    v("nodeSelector", s.node_selector);
    v("nodeName", s.node_name);
    v("hostname", s.hostname);
    v("subdomain", s.subdomain);
    v("affinity", s.affinity);
    v("schedulerName", s.scheduler_name);
    v("tolerations", s.tolerations);
    v("overhead", s.overhead);
  }
};

struct PodTemplateSpec {
  ObjectMeta metadata;
  PodSpec spec;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("metadata", s.metadata);
    v("spec", s.spec);
  }
};

struct PodCondition {
  std::string type;
  std::string status;
  std::string last_transition_time;
  std::string reason;
  std::string message;
  Json rest;  // lastProbeTime, observedGeneration
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type, kAlways);
    v("status", s.status, kAlways);
    v("lastTransitionTime", s.last_transition_time);
    v("reason", s.reason);
    v("message", s.message);
  }
};

struct ContainerStatus {
  std::string name;
  Json state;  // {"running": {"startedAt": ...}} | {"waiting": {...}} | {"terminated": {...}}
  Json last_state;
  bool ready = false;
  std::int32_t restart_count = 0;
  std::string image;
  std::string image_id;
  std::string container_id;
  std::optional<bool> started;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("name", s.name, kAlways);
    v("state", s.state);
    v("lastState", s.last_state);
    v("ready", s.ready, kAlways);
    v("restartCount", s.restart_count, kAlways);
    v("image", s.image, kAlways);
    v("imageID", s.image_id, kAlways);
    v("containerID", s.container_id);
    v("started", s.started);
  }
};

struct PodStatus {
  std::string phase;  // Pending, Running, Succeeded, Failed, Unknown
  std::vector<PodCondition> conditions;
  std::string message;
  std::string reason;
  std::string host_ip;
  std::string pod_ip;
  std::string start_time;
  std::vector<ContainerStatus> init_container_statuses;
  std::vector<ContainerStatus> container_statuses;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("phase", s.phase);
    v("conditions", s.conditions);
    v("message", s.message);
    v("reason", s.reason);
    v("hostIP", s.host_ip);
    v("podIP", s.pod_ip);
    v("startTime", s.start_time);
    v("initContainerStatuses", s.init_container_statuses);
    v("containerStatuses", s.container_statuses);
  }
  // The condition of that type, or null.
  const PodCondition* FindCondition(std::string_view type) const;

  // Phase Succeeded or Failed: the pod's containers have stopped for good.
  bool IsTerminal() const { return phase == "Succeeded" || phase == "Failed"; }
};

struct Pod {
  std::string api_version = "v1";
  std::string kind = "Pod";
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("spec", s.spec);
    v("status", s.status);
  }
  // phase Running and condition Ready=True (upstream podutils.PodRunningAndReady).
  bool IsRunningAndReady() const;
};

struct PodTemplate {
  std::string api_version = "v1";
  std::string kind = "PodTemplate";
  ObjectMeta metadata;
  PodTemplateSpec template_;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("template", s.template_);
  }
};

}  // namespace lws::api
