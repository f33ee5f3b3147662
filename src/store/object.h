// File: store/object.h
//
// One stored version of an object, and the small helpers every part of the store shares: the
// serialisation rule, object keys, field-selector values and the Kubernetes error messages the
// store returns.
//
// A StoredObject is immutable once built and is shared (ObjectPtr) between the object map, the
// watch history, every watcher's queue and every GET/LIST result (DESIGN.md section 6: serialise
// each version once). Its bytes() are `json` serialised once, compact with sorted keys, and
// include metadata.resourceVersion; readers send them as they are. They are made on first use:
// in simulation most versions are never sent over HTTP, and a version's bytes, once made, live
// as long as the version.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include "api/field.h"
#include "api/field_selector.h"
#include "api/meta.h"
#include "api/resources.h"
#include "base/mutex.h"
#include "base/status.h"

namespace lws::store {

using api::Json;

// Where an object lives inside one resource: (namespace, name); namespace is "" for
// cluster-scoped resources. Ordered by namespace, then name, which is the LIST order.
struct ObjectName {
  std::string namespace_;
  std::string name;
  auto operator<=>(const ObjectName&) const = default;
};

// One metadata.managedFields entry of a stored version. Immutable and shared: the versions a
// write leaves an entry unchanged in hold the same one (a pod's status writes do not copy the
// spec owner's entry, usually the largest part of the object).
using ManagedEntry = std::shared_ptr<const Json>;
using ManagedEntries = std::vector<ManagedEntry>;

// Makes a version's entries from the version's own `json` (without managedFields) when they are
// first read: the API server records a write's managedFields this way (deferred recording,
// apiserver/managed_fields.h), because in-process readers seldom read them.
using EntriesMaker = std::function<ManagedEntries(const Json& json)>;

// How many deferred versions may follow one another: each holds the version before it until its
// entries are made, so the chain is cut (the entries made at once) past this depth.
inline constexpr int kMaxDeferredDepth = 8;

// A version's entries to be made when first read, and how many deferred versions `maker`
// reaches, the new one included.
struct DeferredEntries {
  EntriesMaker maker;
  int depth = 1;
};

class StoredObject {
 public:
  // A version of `json` at `rv` (0 for dry-run results that were never stored); `body_rv` 0
  // means rv (see body_rv()). `json` is kept as given: MakeStoredObject writes its
  // resourceVersion and takes its managedFields apart first.
  StoredObject(Json json, std::uint64_t rv, std::uint64_t body_rv = 0);
  // Frees the document depth first (FreeDepthFirst in object.cc): most versions die when the
  // watch history lets them go, and this is not recursive in nlohmann's way.
  ~StoredObject();
  StoredObject(const StoredObject&) = delete;
  StoredObject& operator=(const StoredObject&) = delete;

  // What in-process readers read: identity, labels and versions here, every other field through
  // a typed view (DecodedView, store/decoded_view.h).

  // NameOf(document()), read once on first use (every informer a version reaches asks); safe
  // from any thread.
  const ObjectName& name() const;
  // metadata.uid, or "" when absent or not a string.
  const std::string& uid() const;
  // Whether metadata.deletionTimestamp is set: the object is being deleted.
  bool deleting() const;
  // metadata.labels (non-string values left out), kept for selector matching.
  const api::StringMap& labels() const { return labels_; }
  // The value of label `key`, or "" when absent.
  const std::string& label(std::string_view key) const { return api::ValueOf(labels_, key); }
  // Owner references, finalizers and annotations: store/object_meta.h.
  std::uint64_t resource_version() const { return resource_version_; }
  // The resourceVersion of the write that last changed anything but the status: a status write
  // keeps its predecessor's. Two versions with the same non-zero body_rv differ only in
  // status, resourceVersion and managedFields, which lets readers skip comparing the rest.
  // Versions the store did not make carry their own resourceVersion.
  std::uint64_t body_rv() const { return body_rv_; }
  // For a status write's version, the version it was written over while someone still holds
  // it: a reader decoding this version starts from that one's view (store/decoded_view.h),
  // since the two differ only in status and resourceVersion. Null otherwise.
  std::shared_ptr<const StoredObject> status_written_over() const {
    return status_written_over_.lock();
  }
  // Links a status write's version to the one it replaces (REQUIRES: before it is shared).
  void SetStatusWrittenOver(const std::shared_ptr<const StoredObject>& over);

  // The object as a JSON document, metadata.resourceVersion included, for the generic pipeline
  // only: patches, schema validation, webhooks, field selectors, serialisation. Versions made by
  // the store keep metadata.managedFields apart, in managed_fields(); an object read from a
  // server (the REST client) keeps them here. ManagedFieldsJson and FullJson read either.
  const Json& document() const { return json_; }
  // The object as clients see it: document() with metadata.managedFields (a copy).
  Json FullJson() const;
  // The document serialised with its managedFields (Serialize(FullJson())), made once on first
  // use; safe from any thread.
  const std::string& bytes() const;
  // Gives the version the bytes it was read from (the database), so they are not made again.
  // REQUIRES: bytes() was not called yet and `text` is what Serialize(FullJson()) gives.
  void SetBytes(std::string text);

  // The entries kept apart, in order; empty when document() holds them or there are none. Made
  // on first use when deferred; safe from any thread.
  const ManagedEntries& managed_fields() const;
  // Sets the entries (REQUIRES: before the version is shared).
  void SetManagedFields(ManagedEntries entries);
  // Defers them to a maker, which may hold older versions (REQUIRES: before the version is
  // shared).
  void DeferManagedFields(DeferredEntries deferred);
  // The depth given to DeferManagedFields; 0 when the entries were given made. It stays as
  // given once they are made: a bound on the chain, not its current length.
  int deferred_depth() const { return deferred_depth_; }

  // The typed views of this version (store/decoded_view.h), held weakly: a view lives while
  // some reader keeps it, and the history's old versions do not pin theirs. Safe from any
  // thread.
  std::shared_ptr<const void> FindView(std::type_index type) const;
  void KeepView(std::type_index type, const std::shared_ptr<const void>& view) const;

 private:
  Json json_;
  std::uint64_t resource_version_ = 0;
  std::uint64_t body_rv_ = 0;
  std::weak_ptr<const StoredObject> status_written_over_;
  api::StringMap labels_;
  mutable std::once_flag entries_once_;
  mutable ManagedEntries managed_fields_;
  mutable EntriesMaker entries_maker_;  // reset once used: what it holds is freed
  int deferred_depth_ = 0;
  mutable std::once_flag bytes_once_;
  mutable std::string bytes_;
  mutable std::once_flag name_once_;
  mutable ObjectName name_;
  mutable Mutex views_mu_;
  mutable std::vector<std::pair<std::type_index, std::weak_ptr<const void>>> views_
      GUARDED_BY(views_mu_);
};
using ObjectPtr = std::shared_ptr<const StoredObject>;

// Serialises a JSON document as the store does: compact, keys sorted, invalid UTF-8 replaced by
// U+FFFD (never throws).
std::string Serialize(const Json& json);

// metadata.labels of an object (non-string values skipped).
api::StringMap LabelsOf(const Json& object);

// A copy of `object` without metadata.managedFields, which are never copied: a stored object's
// entries are often as large as the rest of it, and a write body without them keeps the live
// ones (status writes, updates; apiserver/managed_fields.h).
Json CopyWithoutManagedFields(const Json& object);

// Builds a stored version: writes metadata.resourceVersion (removes it when rv is 0), takes
// metadata.managedFields out into managed_fields when they are a non-empty array, and extracts the
// labels. REQUIRES: json is an object.
ObjectPtr MakeStoredObject(Json json, std::uint64_t rv);
// The same with the version's entries given apart: when there are any, they replace a non-empty
// managedFields array `json` holds; otherwise `json` is kept as it is.
ObjectPtr MakeStoredObject(Json json, std::uint64_t rv, ManagedEntries managed_fields);
// Whether a version written over `previous` (null: a create) may defer its entries: the chain of
// deferred versions behind it is shorter than kMaxDeferredDepth.
bool MayDeferAfter(const StoredObject* previous);

// A new version's entries as a write hands them to the store: made, or deferred.
struct NewEntries {
  NewEntries() = default;
  NewEntries(ManagedEntries entries) : made(std::move(entries)) {}       // NOLINT: implicit
  NewEntries(DeferredEntries entries) : deferred(std::move(entries)) {}  // NOLINT: implicit

  ManagedEntries made;  // when not deferred
  std::optional<DeferredEntries> deferred;
  // Set when these are `kept_from`'s entries, unchanged (KeptEntries).
  const StoredObject* kept_from = nullptr;
};
// The entries of a version that keeps `live`'s as they are: `live`'s own when given made (or
// when the chain behind it is at its bound: then made now), deferred to them otherwise.
NewEntries KeptEntries(const ObjectPtr& live);
// The version, its entries made or deferred as `entries` says (deferred: REQUIRES `json` holds
// no managedFields array). `status_written_over`: for a status write, the version it replaces
// (the new one keeps its body_rv and links to it); null otherwise.
ObjectPtr MakeStoredObject(Json json, std::uint64_t rv, NewEntries entries,
                           const ObjectPtr& status_written_over = nullptr);
// True when `entries` are `version`'s own: made (deferred ones are made now) and the same.
bool SameEntries(const NewEntries& entries, const Json& json, const StoredObject& version);

// metadata.managedFields of a version, wherever it keeps them: null when it has none.
Json ManagedFieldsJson(const StoredObject& version);
// Takes metadata.managedFields out of `object` when they are a non-empty array (the key is
// removed); other values stay where they are and give no entries.
ManagedEntries TakeManagedFields(Json* object);
// Writes `entries` into `object` as metadata.managedFields (copies); removes the key when empty.
void PutManagedFields(Json* object, const ManagedEntries& entries);
// The same with the entries already a JSON array (moved in).
void PutManagedFieldsJson(Json* object, Json entries);
// `entries` as a JSON array (copies).
Json ManagedEntriesJson(const ManagedEntries& entries);
// The items of the JSON array `array` as entries of their own (moved, not copied).
ManagedEntries ManagedEntriesOf(Json array);
// True when both hold the same entries in the same order (shared or equal).
bool SameManagedFields(const ManagedEntries& a, const ManagedEntries& b);

// The name of an object read from its metadata (missing fields read as "").
ObjectName NameOf(const Json& object);

// metadata.<field> as a string, or "" when absent or not a string.
std::string MetaString(const Json& object, std::string_view field);

// "pods", "statefulsets.apps": the resource as upstream qualifies it in messages.
inline std::string QualifiedResource(const api::ResourceInfo& info) { return info.GroupResource(); }
// "Pod", "StatefulSet.apps": the kind as upstream qualifies it in Invalid messages.
std::string QualifiedKind(const api::ResourceInfo& info);

// 404 `pods "x" not found`.
Status NotFoundError(const api::ResourceInfo& info, std::string_view name);
// 409 `pods "x" already exists`.
Status AlreadyExistsError(const api::ResourceInfo& info, std::string_view name);
// 409 `Operation cannot be fulfilled on <qualified> "x": <reason>`.
Status ConflictError(std::string_view qualified, std::string_view name, std::string_view reason);
// The optimistic-concurrency conflict: "... the object has been modified; please apply your
// changes to the latest version and try again".
Status ModifiedConflictError(const api::ResourceInfo& info, std::string_view name);

// The metav1.Status document of a failure, as a watch ERROR event or an HTTP body carries it.
Json StatusJson(const Status& status);

// Field selectors. Every resource supports metadata.name and metadata.namespace, plus its
// ResourceInfo::field_labels. Returns 400 `field label not supported: X` for any other field.
Status ValidateFieldSelector(const api::ResourceInfo& info, const api::FieldSelector& selector);
// The string value of field label `field` of `object` as upstream's field set renders it:
// strings as they are, booleans "true"/"false", numbers in decimal, missing fields "" (or "false"
// for the Go bool fields spec.hostNetwork and spec.unschedulable).
std::string FieldValue(const api::ResourceInfo& info, const Json& object, std::string_view field);
// True iff `object` matches `selector`. REQUIRES: ValidateFieldSelector(info, selector) is OK.
bool MatchesFields(const api::ResourceInfo& info, const Json& object,
                   const api::FieldSelector& selector);

}  // namespace lws::store
