// File: api/core.h
//
// core/v1 objects besides Pod: Service, Node, Namespace, ServiceAccount, Event,
// PersistentVolumeClaim.
#pragma once

#include "api/pod.h"

namespace lws::api {

struct ServiceSpec {
  StringMap selector;
  std::string cluster_ip;
  std::vector<std::string> cluster_ips;
  std::string type;
  bool publish_not_ready_addresses = false;
  Json rest;  // ports, sessionAffinity, ipFamilies, ...
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("selector", s.selector);
    v("clusterIP", s.cluster_ip);
    v("clusterIPs", s.cluster_ips);
    v("type", s.type);
    v("publishNotReadyAddresses", s.publish_not_ready_addresses);
  }
};

struct Service {
  std::string api_version = "v1";
  std::string kind = "Service";
  ObjectMeta metadata;
  ServiceSpec spec;
  Json status;
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

struct Taint {
  std::string key;
  std::string value;
  std::string effect;
  std::string time_added;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("key", s.key, kAlways);
    v("value", s.value);
    v("effect", s.effect, kAlways);
    v("timeAdded", s.time_added);
  }
};

struct NodeSpec {
  bool unschedulable = false;
  std::vector<Taint> taints;
  Json rest;  // podCIDR, providerID, ...
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("unschedulable", s.unschedulable);
    v("taints", s.taints);
  }
};

struct NodeCondition {
  std::string type;
  std::string status;
  std::string last_heartbeat_time;
  std::string last_transition_time;
  std::string reason;
  std::string message;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type, kAlways);
    v("status", s.status, kAlways);
    v("lastHeartbeatTime", s.last_heartbeat_time);
    v("lastTransitionTime", s.last_transition_time);
    v("reason", s.reason);
    v("message", s.message);
  }
};

struct NodeStatus {
  ResourceList capacity;
  ResourceList allocatable;
  std::vector<NodeCondition> conditions;
  Json rest;  // addresses, nodeInfo, images, ...
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("capacity", s.capacity);
    v("allocatable", s.allocatable);
    v("conditions", s.conditions);
  }
};

struct Node {
  std::string api_version = "v1";
  std::string kind = "Node";
  ObjectMeta metadata;
  NodeSpec spec;
  NodeStatus status;
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

struct NamespaceStatus {
  std::string phase;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("phase", s.phase);
  }
};

struct Namespace {
  std::string api_version = "v1";
  std::string kind = "Namespace";
  ObjectMeta metadata;
  Json spec;
  NamespaceStatus status;
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

struct ServiceAccount {
  std::string api_version = "v1";
  std::string kind = "ServiceAccount";
  ObjectMeta metadata;
  Json rest;  // secrets, imagePullSecrets, automountServiceAccountToken
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
  }
};

// core/v1 Event (kubectl get events / describe read these).
struct Event {
  std::string api_version = "v1";
  std::string kind = "Event";
  ObjectMeta metadata;
  ObjectReference involved_object;
  std::string reason;
  std::string message;
  std::string first_timestamp;
  std::string last_timestamp;
  std::int32_t count = 0;
  std::string type;  // Normal, Warning
  std::string event_time;
  std::string action;
  std::string reporting_component;
  std::string reporting_instance;
  Json rest;  // source, series, related
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("involvedObject", s.involved_object, kAlways);
    v("reason", s.reason);
    v("message", s.message);
    v("firstTimestamp", s.first_timestamp);
    v("lastTimestamp", s.last_timestamp);
    v("count", s.count);
    v("type", s.type);
    v("eventTime", s.event_time);
    v("action", s.action);
    v("reportingComponent", s.reporting_component, kAlways);
    v("reportingInstance", s.reporting_instance, kAlways);
  }
};

struct VolumeResourceRequirements {
  ResourceList limits;
  ResourceList requests;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("limits", s.limits);
    v("requests", s.requests);
  }
};

struct PersistentVolumeClaimSpec {
  std::vector<std::string> access_modes;
  std::optional<LabelSelector> selector;
  VolumeResourceRequirements resources;
  std::string volume_name;
  std::optional<std::string> storage_class_name;
  std::optional<std::string> volume_mode;
  Json rest;  // dataSource, dataSourceRef, volumeAttributesClassName
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("accessModes", s.access_modes);
    v("selector", s.selector);
    v("resources", s.resources);
    v("volumeName", s.volume_name);
    v("storageClassName", s.storage_class_name);
    v("volumeMode", s.volume_mode);
  }
};

struct PersistentVolumeClaim {
  std::string api_version;
  std::string kind;
  ObjectMeta metadata;
  PersistentVolumeClaimSpec spec;
  Json status;
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
