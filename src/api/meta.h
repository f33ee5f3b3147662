// File: api/meta.h
//
// metav1 types shared by every object: ObjectMeta, OwnerReference, LabelSelector, ListMeta,
// Condition, and core/v1 ObjectReference. See codec.h for how unmodeled fields are carried.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/codec.h"
#include "base/flat_map.h"

namespace lws::api {

// Labels, annotations and selectors: few short members each, read far more often than changed.
// A sorted vector (base::FlatMap) copies as one block and looks a key up without walking tree
// nodes; controllers read labels of every group on every reconcile.
using StringMap = base::FlatMap<std::string, std::string>;

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version, kAlways);
    v("kind", s.kind, kAlways);
    v("name", s.name, kAlways);
    v("uid", s.uid, kAlways);
    v("controller", s.controller);
    v("blockOwnerDeletion", s.block_owner_deletion);
  }
  bool IsController() const { return controller.value_or(false); }
};

// The value of `key` in `map`, or "" when absent. The reference is valid until the map changes.
const std::string& ValueOf(const StringMap& map, std::string_view key);

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;
  std::string uid;
  std::string resource_version;
  std::int64_t generation = 0;
  std::string creation_timestamp;                 // RFC 3339; empty when unset
  std::optional<std::string> deletion_timestamp;  // set once deletion has started
  std::optional<std::int64_t> deletion_grace_period_seconds;
  StringMap labels;
  StringMap annotations;
  std::vector<OwnerReference> owner_references;
  std::vector<std::string> finalizers;
  Json rest;  // selfLink, managedFields, ...
  // managedFields live in `rest`; codec::DecodeOptions::drop_managed_fields leaves them out.
  static constexpr bool kCarriesManagedFields = true;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("name", s.name);
    v("generateName", s.generate_name);
    v("namespace", s.namespace_);
    v("uid", s.uid);
    v("resourceVersion", s.resource_version);
    v("generation", s.generation);
    v("creationTimestamp", s.creation_timestamp);
    v("deletionTimestamp", s.deletion_timestamp);
    v("deletionGracePeriodSeconds", s.deletion_grace_period_seconds);
    v("labels", s.labels);
    v("annotations", s.annotations);
    v("ownerReferences", s.owner_references);
    v("finalizers", s.finalizers);
  }

  // The controller owner reference, if any (metav1.GetControllerOf).
  const OwnerReference* ControllerRef() const;
  bool IsDeleting() const { return deletion_timestamp.has_value(); }
  // Value of a label, or "" when absent. The reference is valid until the labels change.
  const std::string& Label(std::string_view key) const;
  const std::string& Annotation(std::string_view key) const;
};

// Oldest first, then by name: RFC 3339 UTC stamps of one width compare as text, and an unset
// one sorts first, as Go's zero time (the order controllers rank objects by age in).
inline bool CreatedBefore(const ObjectMeta& a, const ObjectMeta& b) {
  if (a.creation_timestamp != b.creation_timestamp) {
    return a.creation_timestamp < b.creation_timestamp;
  }
  return a.name < b.name;
}

struct ListMeta {
  std::string resource_version;
  std::string continue_;
  std::optional<std::int64_t> remaining_item_count;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("resourceVersion", s.resource_version);
    v("continue", s.continue_);
    v("remainingItemCount", s.remaining_item_count);
  }
};

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("key", s.key, kAlways);
    v("operator", s.operator_, kAlways);
    v("values", s.values);
  }
};

// metav1.LabelSelector. The string grammar ("a=b,c in (d)") lives in api/selector.h.
struct LabelSelector {
  StringMap match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("matchLabels", s.match_labels);
    v("matchExpressions", s.match_expressions);
  }
};

// metav1.Condition, as used in LeaderWorkerSet status.
struct Condition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::int64_t observed_generation = 0;
  std::string last_transition_time;
  std::string reason;
  std::string message;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("type", s.type, kAlways);
    v("status", s.status, kAlways);
    v("observedGeneration", s.observed_generation);
    v("lastTransitionTime", s.last_transition_time, kAlways);
    v("reason", s.reason, kAlways);
    v("message", s.message, kAlways);
  }
};

// The condition of `type` in `conditions`, or null.
const Condition* FindCondition(const std::vector<Condition>& conditions, std::string_view type);

// core/v1 ObjectReference (events' involvedObject / regarding).
struct ObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
  std::string field_path;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("kind", s.kind);
    v("namespace", s.namespace_);
    v("name", s.name);
    v("uid", s.uid);
    v("apiVersion", s.api_version);
    v("resourceVersion", s.resource_version);
    v("fieldPath", s.field_path);
  }
};

// The JSON merge patch that sets annotation `key` to `value` (removes it when nullopt), with
// `resource_version` as a precondition: for state a controller keeps in an annotation, so that
// two writers of it get a Conflict instead of losing each other's update.
Json AnnotationPatch(const std::string& key, const std::optional<std::string>& value,
                     const std::string& resource_version);

// A typed list ("PodList", "LeaderWorkerSetList").
template <class T>
struct List {
  std::string api_version;
  std::string kind;
  ListMeta metadata;
  std::vector<T> items;
  Json rest;
  template <class S, class V>
  static void Fields(S& s, V& v) {
    v("apiVersion", s.api_version);
    v("kind", s.kind);
    v("metadata", s.metadata, kAlways);
    v("items", s.items, kAlways);
  }
};

}  // namespace lws::api
