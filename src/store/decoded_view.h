// File: store/decoded_view.h
//
// A stored version decoded as an api type once, and shared by every in-process reader of that
// version (DESIGN.md section 6: the in-process path passes typed objects). In a simulated
// rollout the LWS controller's caches, the StatefulSet controller and the scheduler each read
// every pod version, and one decoding serves them all.
//
// Views leave out metadata.managedFields (codec::DecodeOptions::drop_managed_fields): no reader
// plans with them, and they are most of a pod's metadata. A view encoded and written back
// carries none, so the API server keeps the live ones.
//
// A view is immutable and shared: readers hold `std::shared_ptr<const T>` and never change it.
// The stored version keeps it weakly, so it is freed once no reader holds it.
#pragma once

#include <memory>
#include <string>
#include <typeindex>
#include <vector>

#include "api/codec.h"
#include "api/field.h"
#include "base/result.h"
#include "store/object.h"

namespace lws::store {

// `document` decoded as T, without managedFields, and not shared: what a reader that must not
// share (a cache whose memory is being measured) or has no stored version uses. Errors are
// Decode's.
template <api::Modeled T>
Result<std::shared_ptr<const T>> DecodePrivateView(const Json& document) {
  Result<T> decoded = api::Decode<T>(document, api::FieldPath(), {.drop_managed_fields = true});
  if (!decoded.ok()) return decoded.status();
  // Not make_shared: the version's weak reference would keep a combined block, and so the
  // whole T, allocated for as long as the version lives.
  return std::shared_ptr<const T>(new T(std::move(*decoded)));
}
template <api::Modeled T>
Result<std::shared_ptr<const T>> DecodePrivateView(const StoredObject& object) {
  return DecodePrivateView<T>(object.document());
}

// An api type with a status that a status write replaces (Pod, StatefulSet, ...).
template <class T>
concept WithStatus = requires(T t) {
  t.status;
  t.metadata.resource_version;
};

// The view of `object`, a status write's version, made from the shared view of the version it
// was written over (StoredObject::status_written_over): a copy with the status and the
// resourceVersion decoded from `object`. The two versions differ in nothing else (the store
// takes everything but the status from the old one), so this is what a full decode gives, and
// copying is cheaper than decoding. Null when there is no such view or the status does not
// decode (the full decode then gives the error).
template <api::Modeled T>
std::shared_ptr<const T> ViewAfterStatusWrite(const StoredObject& object) {
  if constexpr (!WithStatus<T>) {
    return nullptr;
  } else {
    ObjectPtr over = object.status_written_over();
    if (over == nullptr || !object.document().is_object()) return nullptr;
    std::shared_ptr<const void> kept = over->FindView(typeid(T));
    if (kept == nullptr) return nullptr;
    auto view = std::make_unique<T>(*static_cast<const T*>(kept.get()));
    view->status = {};
    view->metadata.resource_version.clear();
    api::ErrorList errs;
    const api::FieldPath root;
    const api::codec::DecodeOptions options{.drop_managed_fields = true};
    const api::codec::Where where(root, options);
    if (auto status = object.document().find("status");
        status != object.document().end() && !status->is_null()) {
      api::codec::DecodeValue(*status, view->status, where.Child("status"), errs);
    }
    const Json& meta = api::ChildOrNull(object.document(), "metadata");
    if (auto rv = meta.find("resourceVersion"); rv != meta.end() && !rv->is_null()) {
      api::codec::DecodeValue(*rv, view->metadata.resource_version,
                              where.Child("metadata").Child("resourceVersion"), errs);
    }
    if (!errs.empty()) return nullptr;
    return std::shared_ptr<const T>(view.release());
  }
}

// The shared view of `object` as T: decoded by the first reader, then the same object for every
// reader while one holds it. An undecodable version is decoded (and fails) again per call.
template <api::Modeled T>
Result<std::shared_ptr<const T>> DecodedView(const StoredObject& object) {
  const std::type_index type(typeid(T));
  if (std::shared_ptr<const void> kept = object.FindView(type)) {
    return std::static_pointer_cast<const T>(kept);
  }
  if (std::shared_ptr<const T> derived = ViewAfterStatusWrite<T>(object)) {
    object.KeepView(type, derived);
    return derived;
  }
  Result<std::shared_ptr<const T>> view = DecodePrivateView<T>(object);
  if (view.ok()) object.KeepView(type, *view);
  return view;
}

// Logs that `reader` skipped `object`: it did not decode (`why`).
void WarnUndecodable(const std::string& reader, const StoredObject& object, const Status& why);

// The shared views of `objects` as T, in order. A version that does not decode is left out with
// a warning naming `reader` (the API server validated it, so it is a bug, not an input error).
template <api::Modeled T>
std::vector<std::shared_ptr<const T>> DecodedViews(const std::vector<ObjectPtr>& objects,
                                                   const std::string& reader) {
  std::vector<std::shared_ptr<const T>> out;
  out.reserve(objects.size());
  for (const ObjectPtr& object : objects) {
    Result<std::shared_ptr<const T>> view = DecodedView<T>(*object);
    if (view.ok()) {
      out.push_back(std::move(*view));
    } else {
      WarnUndecodable(reader, *object, view.status());
    }
  }
  return out;
}

}  // namespace lws::store
