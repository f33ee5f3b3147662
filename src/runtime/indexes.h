// File: runtime/indexes.h
//
// Ready-made index functions for TypedInformer::AddIndex, generic over any api type with an
// ObjectMeta `metadata` (they are generic lambdas, so one object serves every informer):
//
//   pods.AddIndex(kByOwner, IndexByControllerUid);
//   sets.AddIndex(kByLws, IndexByControllerName);
//   pods.AddIndex(kByGroup, IndexByLabel(api::kGroupIndexLabel));
//
// The controllers find an object's dependents with them: the StatefulSets a LeaderWorkerSet
// controls, the pods of one group. The controller uid is the exact answer (a namesake object
// recreated under the same name has a new uid); the controller name answers for a handler that
// has only the owner's name at hand, e.g. to enqueue the LeaderWorkerSet a pod event concerns.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/meta.h"

namespace lws::runtime {

// The value IndexByControllerName files an object under: "<kind>/<namespace>/<name>" of its
// controller, e.g. "LeaderWorkerSet/default/demo". The owner lives in the dependent's namespace
// (ownerReferences cannot cross namespaces).
inline std::string ControllerNameKey(std::string_view kind, std::string_view ns,
                                     std::string_view name) {
  std::string key;
  key.reserve(kind.size() + ns.size() + name.size() + 2);
  key.append(kind).append("/").append(ns).append("/").append(name);
  return key;
}

// The uid of the object's controller ownerReference; nothing when it has none.
inline constexpr auto IndexByControllerUid = [](const auto& object) -> std::vector<std::string> {
  const api::OwnerReference* ref = object.metadata.ControllerRef();
  if (ref == nullptr || ref->uid.empty()) return {};
  return {ref->uid};
};

// ControllerNameKey of the object's controller ownerReference; nothing when it has none.
inline constexpr auto IndexByControllerName = [](const auto& object) -> std::vector<std::string> {
  const api::OwnerReference* ref = object.metadata.ControllerRef();
  if (ref == nullptr || ref->name.empty()) return {};
  return {ControllerNameKey(ref->kind, object.metadata.namespace_, ref->name)};
};

// The value of label `key`; nothing when the label is absent (an empty value is a value).
inline auto IndexByLabel(std::string key) {
  return [key = std::move(key)](const auto& object) -> std::vector<std::string> {
    auto it = object.metadata.labels.find(key);
    if (it == object.metadata.labels.end()) return {};
    return {it->second};
  };
}

}  // namespace lws::runtime
