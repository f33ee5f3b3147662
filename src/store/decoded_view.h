// File: store/decoded_view.h
//
// A stored version decoded as an api type once, and shared by every in-process reader of that
// version (DESIGN.md section 6: the in-process path passes typed objects). In a simulated
// rollout the LWS controller's caches, the StatefulSet controller and the scheduler each read
// every pod version; decoding it once per reader was a tenth of the run.
//
// Views leave out metadata.managedFields (codec::DecodeOptions::drop_managed_fields): no reader
// plans with them, and they are most of a pod's metadata. A view encoded and written back
// carries none, so the API server keeps the live ones.
//
// A view is immutable and shared: readers hold `std::shared_ptr<const T>` and never change it.
// The stored version keeps it weakly, so it is freed once no reader holds it.
#pragma once

#include <memory>
#include <typeindex>

#include "api/codec.h"
#include "base/result.h"
#include "store/object.h"

namespace lws::store {

// `object` decoded as T, without managedFields, and not shared: what a reader that must not
// share (a cache whose memory is being measured) uses. Errors are Decode's.
template <api::Modeled T>
Result<std::shared_ptr<const T>> DecodePrivateView(const StoredObject& object) {
  Result<T> decoded = api::Decode<T>(object.json, api::FieldPath(), {.drop_managed_fields = true});
  if (!decoded.ok()) return decoded.status();
  // Not make_shared: the version's weak reference would keep a combined block, and so the
  // whole T, allocated for as long as the version lives.
  return std::shared_ptr<const T>(new T(std::move(*decoded)));
}

// The shared view of `object` as T: decoded by the first reader, then the same object for every
// reader while one holds it. An undecodable version is decoded (and fails) again per call.
template <api::Modeled T>
Result<std::shared_ptr<const T>> DecodedView(const StoredObject& object) {
  const std::type_index type(typeid(T));
  if (std::shared_ptr<const void> kept = object.FindView(type)) {
    return std::static_pointer_cast<const T>(kept);
  }
  Result<std::shared_ptr<const T>> view = DecodePrivateView<T>(object);
  if (view.ok()) object.KeepView(type, *view);
  return view;
}

}  // namespace lws::store
