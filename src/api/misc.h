// File: api/misc.h
//
// coordination.k8s.io/v1 Lease, events.k8s.io/v1 Event, autoscaling/v1 Scale and
// admission.k8s.io/v1 AdmissionReview.
#pragma once

#include "api/core.h"

namespace lws::api {

struct LeaseSpec {
  std::optional<std::string> holder_identity;
  std::optional<std::int32_t> lease_duration_seconds;
  std::optional<std::string> acquire_time;  // MicroTime
  std::optional<std::string> renew_time;    // MicroTime
  std::optional<std::int32_t> lease_transitions;
  Json rest;  // strategy, preferredHolder
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("holderIdentity", s.holder_identity);
    v("leaseDurationSeconds", s.lease_duration_seconds);
    v("acquireTime", s.acquire_time);
    v("renewTime", s.renew_time);
    v("leaseTransitions", s.lease_transitions);
  }
};

struct Lease {
  std::string api_version = "coordination.k8s.io/v1";
  std::string kind = "Lease";
  ObjectMeta metadata;
  LeaseSpec spec;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("spec", s.spec);
  }
};

// events.k8s.io/v1 Event: what the LWS controller records (recorder name "leaderworkerset").
struct EventV1 {
  std::string api_version = "events.k8s.io/v1";
  std::string kind = "Event";
  ObjectMeta metadata;
  std::string event_time;  // MicroTime, required
  std::string reporting_controller;
  std::string reporting_instance;
  std::string action;
  std::string reason;
  ObjectReference regarding;
  std::optional<ObjectReference> related;
  std::string note;
  std::string type;
  Json rest;  // series, deprecated* fields
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata);
    v("eventTime", s.event_time, kAlways);
    v("reportingController", s.reporting_controller);
    v("reportingInstance", s.reporting_instance);
    v("action", s.action);
    v("reason", s.reason);
    v("regarding", s.regarding);
    v("related", s.related);
    v("note", s.note);
    v("type", s.type);
  }
};

struct ScaleSpec {
  std::int32_t replicas = 0;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas);
  }
};

struct ScaleStatus {
  std::int32_t replicas = 0;
  std::string selector;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("replicas", s.replicas, kAlways);
    v("selector", s.selector);
  }
};

struct Scale {
  std::string api_version = "autoscaling/v1";
  std::string kind = "Scale";
  ObjectMeta metadata;
  ScaleSpec spec;
  ScaleStatus status;
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

struct GroupVersionKind {
  std::string group;
  std::string version;
  std::string kind;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("group", s.group, kAlways);
    v("version", s.version, kAlways);
    v("kind", s.kind, kAlways);
  }
};

struct GroupVersionResource {
  std::string group;
  std::string version;
  std::string resource;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("group", s.group, kAlways);
    v("version", s.version, kAlways);
    v("resource", s.resource, kAlways);
  }
};

struct AdmissionRequest {
  std::string uid;
  GroupVersionKind kind;
  GroupVersionResource resource;
  std::string sub_resource;
  std::optional<GroupVersionKind> request_kind;
  std::optional<GroupVersionResource> request_resource;
  std::string request_sub_resource;
  std::string name;
  std::string namespace_;
  std::string operation;  // CREATE, UPDATE, DELETE, CONNECT
  Json user_info;
  Json object;
  Json old_object;
  std::optional<bool> dry_run;
  Json options;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("uid", s.uid, kAlways);
    v("kind", s.kind, kAlways);
    v("resource", s.resource, kAlways);
    v("subResource", s.sub_resource);
    v("requestKind", s.request_kind);
    v("requestResource", s.request_resource);
    v("requestSubResource", s.request_sub_resource);
    v("name", s.name);
    v("namespace", s.namespace_);
    v("operation", s.operation, kAlways);
    v("userInfo", s.user_info, kAlways);
    v("object", s.object);
    v("oldObject", s.old_object);
    v("dryRun", s.dry_run);
    v("options", s.options);
  }
};

struct AdmissionResponse {
  std::string uid;
  bool allowed = false;
  Json status;                            // metav1.Status when denied
  std::string patch;                      // base64 of a JSON patch
  std::optional<std::string> patch_type;  // "JSONPatch"
  StringMap audit_annotations;
  std::vector<std::string> warnings;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("uid", s.uid, kAlways);
    v("allowed", s.allowed, kAlways);
    v("status", s.status);
    v("patch", s.patch);
    v("patchType", s.patch_type);
    v("auditAnnotations", s.audit_annotations);
    v("warnings", s.warnings);
  }
};

struct AdmissionReview {
  std::string api_version = "admission.k8s.io/v1";
  std::string kind = "AdmissionReview";
  std::optional<AdmissionRequest> request;
  std::optional<AdmissionResponse> response;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("request", s.request);
    v("response", s.response);
  }
};

}  // namespace lws::api
