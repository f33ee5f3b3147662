// File: store/object_meta.h
//
// Typed reads of a stored version's metadata for readers on per-event paths: the owner
// controllers' indexes read every owned object's controller reference on every event, the
// garbage collector every version's references and finalizers. They are views into the
// version's document, neither decoded nor copied, valid as long as the version (hold its
// ObjectPtr). A missing or mistyped field reads as empty, and a reference that is not an object
// is skipped, as the API server never stores either.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "store/object.h"

namespace lws::store {

// One metadata.ownerReferences entry.
struct OwnerRefView {
  std::string_view api_version;
  std::string_view kind;
  std::string_view name;
  std::string_view uid;
  bool controller = false;            // controller: true
  bool block_owner_deletion = false;  // blockOwnerDeletion: true
};

// metadata.ownerReferences, in order.
std::vector<OwnerRefView> OwnerReferences(const StoredObject& object);
// The first reference with controller: true (metav1.GetControllerOf; there is at most one), or
// nullopt.
std::optional<OwnerRefView> ControllerReference(const StoredObject& object);
// metadata.finalizers (non-string entries left out).
std::vector<std::string_view> Finalizers(const StoredObject& object);
// metadata.annotations[key], or "".
std::string_view Annotation(const StoredObject& object, std::string_view key);
// metadata.deletionTimestamp, or "" when the object is not being deleted.
std::string_view DeletionTimestamp(const StoredObject& object);

}  // namespace lws::store
