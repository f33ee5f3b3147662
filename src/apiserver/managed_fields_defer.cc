// File: apiserver/managed_fields_defer.cc
//
// Recording a write's managedFields when they are first read instead of at once
// (RecordOrDeferManagedFields). In a simulated rollout nothing reads most versions' entries:
// the controllers' views leave them out, and only HTTP readers, applies and patches ask. The
// recording's checks run at once, because they decide what the write stores; the comparison of
// the two versions and the encoding of the entries wait in a store::EntriesMaker.

#include <optional>
#include <vector>

#include "apiserver/managed_fields.h"
#include "apiserver/managed_fields_internal.h"

namespace lws::apiserver {
namespace {

// The metadata the store writes over a main-resource body (store/object_rules.h). None of it
// is tracked, but the comparison of before and after still sees it, and what it sees decides
// which way the recording goes (RecordUpdateOnLive's shortcuts): the maker puts the body's
// values back before it compares.
constexpr const char* kStoreWrittenMeta[] = {"name", "uid", "creationTimestamp", "generation",
                                             "resourceVersion"};

// The body's values of kStoreWrittenMeta (null: absent).
using BodyMeta = std::vector<std::optional<Json>>;

BodyMeta BodyMetaOf(const Json& body) {
  const Json& meta = api::ChildOrNull(body, "metadata");
  BodyMeta out;
  for (const char* key : kStoreWrittenMeta) {
    auto found = meta.is_object() ? meta.find(key) : meta.end();
    out.push_back(meta.is_object() && found != meta.end() ? std::optional<Json>(*found)
                                                          : std::nullopt);
  }
  return out;
}

// `stored` with the body's kStoreWrittenMeta.
Json WithBodyMeta(const Json& stored, const BodyMeta& body_meta) {
  Json after = stored;
  Json& meta = after["metadata"];
  for (std::size_t i = 0; i < body_meta.size(); ++i) {
    if (body_meta[i]) {
      meta[kStoreWrittenMeta[i]] = *body_meta[i];
    } else {
      meta.erase(kStoreWrittenMeta[i]);
    }
  }
  return after;
}

// The live entries of `current`, none on create.
LiveEntries LiveOf(const store::ObjectPtr& current) {
  static const Json kNone;
  return current != nullptr ? LiveEntries::Of(*current) : LiveEntries(kNone);
}

// The `before` of a write over `current` (null on create).
const Json& BeforeOf(const store::ObjectPtr& current) {
  return current != nullptr && current->document().is_object() ? current->document()
                                                               : EmptyObject();
}

// What the maker runs on the version the store made: RecordManagedFields past its checks.
// `current` is the version the write was made over (null on create); `body_meta`, for a
// write that takes the body's metadata (main resource, a built-in kind's /status), the body's
// store-written metadata.
store::ManagedEntries RecordLater(const store::ObjectPtr& current, const Json& stored,
                                  const std::optional<BodyMeta>& body_meta,
                                  const FieldManagerScope& scope) {
  const Json& before = BeforeOf(current);
  const LiveEntries live = LiveOf(current);
  store::ManagedEntries entries =
      body_meta ? RecordKeepingLive(before, live, WithBodyMeta(stored, *body_meta), scope)
                : RecordKeepingLive(before, live, stored, scope);
  // A status write left with no entries keeps the live ones: the store's rule for a status body
  // without managedFields (RequestHandler::Update passes none of its own then).
  if (entries.empty() && scope.subresource == "status" && current != nullptr) {
    return current->managed_fields();
  }
  return entries;
}

}  // namespace

store::NewEntries RecordOrDeferManagedFields(const store::ObjectPtr& current, Json* updated,
                                             const FieldManagerScope& scope, bool may_defer,
                                             bool* shapes_checked) {
  const bool defer = may_defer && updated->is_object() &&
                     KeepsLiveEntries(*updated, scope.subresource) &&
                     store::MayDeferAfter(current.get());
  if (!defer) {
    static const Json kNone;
    return RecordManagedFields(current != nullptr ? current->document() : kNone, LiveOf(current),
                               updated, scope, shapes_checked);
  }
  if (!StripAndCheckShapes(BeforeOf(current), updated, scope, shapes_checked)) {
    return store::ManagedEntries{};
  }
  const int depth = (current != nullptr ? current->deferred_depth() : 0) + 1;
  std::optional<BodyMeta> body_meta;
  if (scope.subresource.empty() ||
      (scope.subresource == "status" && scope.status_write != api::StatusWrite::kOnlyStatus)) {
    body_meta = BodyMetaOf(*updated);
  }
  return store::DeferredEntries{
      [current, body_meta = std::move(body_meta), scope](const Json& stored) {
        return RecordLater(current, stored, body_meta, scope);
      },
      depth};
}

}  // namespace lws::apiserver
