// File: apiserver/managed_fields.h
//
// metadata.managedFields: who owns which fields of an object, as the Kubernetes API server
// records it (k8s.io/apimachinery/pkg/util/managedfields). Each entry belongs to one manager
// identity: (manager, "Apply", subresource) for appliers, (manager, "Update", apiVersion,
// subresource) for every other write. Entries serialise as
//
//   {"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","time":"2025-01-01T00:00:00Z",
//    "fieldsType":"FieldsV1","fieldsV1":{...},"subresource":"status"}   (subresource if set)
//
// sorted by operation, time, manager, apiVersion and subresource.
//
// UpdateManagedFields records a non-apply write (create, update, merge/JSON/strategic patch,
// status and scale writes); Apply (apply.h) records an apply. Both are pure: the caller supplies
// the time. Rules shared by both:
//   1. apiVersion, kind, metadata.{name, namespace, uid, resourceVersion, generation,
//      creationTimestamp, selfLink, managedFields} are never tracked (upstream stripMetaManager).
//   2. A write to the main resource of a kind with a status subresource ignores .status; a
//      write to /status ignores what the store keeps of the live object (the reset fields of
//      the strategies, api::StatusWriteOf): everything but .status for custom resources, the
//      top-level fields other than metadata and status for built-in kinds, and for pods also
//      metadata.deletionTimestamp and metadata.ownerReferences.
//   3. Entries left without fields are dropped.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include "api/resources.h"
#include "apiserver/apply_schema.h"
#include "apiserver/field_set.h"
#include "base/clock.h"
#include "store/object.h"

namespace lws::apiserver {

inline constexpr std::string_view kOperationApply = "Apply";
inline constexpr std::string_view kOperationUpdate = "Update";
// The Update manager that takes over the fields of an untracked object on its first apply.
inline constexpr std::string_view kBeforeFirstApplyManager = "before-first-apply";

struct ManagedFieldsEntry {
  std::string manager;
  std::string operation;    // "Apply" or "Update"
  std::string api_version;  // version the fields are expressed in
  std::string time;         // RFC 3339; empty when never recorded
  std::string subresource;  // "", "status", "scale"
  FieldSet fields;

  // The identity key (BuildManagerIdentifier): {"manager":"m","operation":"Update",
  // "apiVersion":"v1","subresource":"status"}, apiVersion left out for Apply, empty parts omitted.
  std::string Identifier() const;
  // The manager as conflict messages name it: `"m"`, `"m" with subresource "status"`, and for
  // Update entries ` using apps/v1` appended.
  std::string Describe() const;
  Json ToJson() const;
  // The same with `fields_v1` as its fieldsV1 instead of `fields` encoded.
  Json ToJson(Json fields_v1) const;
};

// Entries keyed by Identifier(), so that iteration order is deterministic.
using ManagedFieldSets = std::map<std::string, ManagedFieldsEntry>;

// Decodes metadata.managedFields (an array; null or absent decode to no entries). Errors follow
// DecodeManagedFields: "operation must be `Apply` or `Update`", "apiVersion must not be empty",
// "missing fieldsType in managed fields entry 0", ...
Result<ManagedFieldSets> DecodeManagedFields(const Json& managed_fields);
// The managedFields array, sorted as the API server sorts it.
Json EncodeManagedFields(const ManagedFieldSets& managed);

// The object's metadata.managedFields (null when absent).
const Json& ManagedFieldsOf(const Json& object);
// Replaces metadata.managedFields with `managed`; removes the key when `managed` is empty.
void SetManagedFields(Json* object, const ManagedFieldSets& managed);

// The live object's metadata.managedFields as a write reads them: the JSON value an object holds
// (any value: a write must cope with what a client stored), or a stored version's entries, kept
// apart from it and shared (store::StoredObject::managed_fields).
class LiveEntries {
 public:
  explicit LiveEntries(const Json& value) : value_(&value) {}
  explicit LiveEntries(const store::ManagedEntries& shared) : shared_(&shared) {}
  // The entries of a stored version, wherever it keeps them.
  static LiveEntries Of(const store::StoredObject& version);

  bool is_array() const { return shared_ != nullptr || value_->is_array(); }
  bool is_null() const { return shared_ != nullptr ? shared_->empty() : value_->is_null(); }
  std::size_t size() const;  // 0 unless is_array()
  const Json& operator[](std::size_t i) const;
  // Item `i` as the stored version shares it; null for a JSON value.
  store::ManagedEntry Shared(std::size_t i) const;

 private:
  const Json* value_ = nullptr;
  const store::ManagedEntries* shared_ = nullptr;
};

// DecodeManagedFields of live entries (no copy of them).
Result<ManagedFieldSets> DecodeManagedFields(const LiveEntries& managed_fields);

// The entries a non-apply write starts from (decodeLiveOrNew): a request body that carries
// managedFields replaces them ([] or [{}] clears them); a body without them, or with entries
// that do not decode, keeps the live object's. Subresource writes always keep the live ones.
ManagedFieldSets ManagedFieldsForWrite(const LiveEntries& live, const Json& updated,
                                       std::string_view subresource);
// The same, reading the live entries from the object `live`.
ManagedFieldSets ManagedFieldsForWrite(const Json& live, const Json& updated,
                                       std::string_view subresource);

// Who writes, and where.
struct FieldManagerScope {
  std::string manager;              // the request's fieldManager
  std::string api_version;          // the served version written to: "apps/v1"
  std::string subresource;          // "", "status" or "scale"
  bool status_subresource = false;  // the kind serves /status (rule 2 above)
  // What a /status write of the kind takes from its body (rule 2 above): the status alone, or
  // the metadata too (built-in kinds).
  api::StatusWrite status_write = api::StatusWrite::kOnlyStatus;
  Time now;
  ListTypeProvider schema;
  // The live object is known to pass ValidateShape under `schema` (duplicates allowed,
  // managedFields left out): UpdateManagedFields then does not walk it again.
  bool live_shapes_checked = false;
};

// Fields the scope's writes ignore (rule 2), over the top-level keys of `objects`.
FieldSet IgnoredFields(const FieldManagerScope& scope, std::initializer_list<const Json*> objects);
// The untracked metadata paths (rule 1).
const FieldSet& StrippedFields();

// `managed` after `scope.manager` (as an Update entry) changed `before` into `after`: the fields
// it added or modified become its own and leave every other entry, removed fields leave every
// entry, and its entry's time becomes `scope.now` when it took any field. metadata.managedFields
// of either value are left out. REQUIRES: both values pass ValidateShape with duplicates allowed.
ManagedFieldSets RecordUpdate(const Json& before, const Json& after, ManagedFieldSets managed,
                              const FieldManagerScope& scope);

// `updated` (the object about to be stored by a create, update or non-apply patch; `old` is the
// stored object or null on create) with metadata.managedFields recording the write. Never fails:
// when an associative list in either object has an item without its key, managedFields are
// removed, as the API server's UpdateNoErrors does. `shapes_checked`, when given, tells whether
// both objects passed that check (the caller may then mark the version it stores).
Json UpdateManagedFields(const Json& old, Json updated, const FieldManagerScope& scope,
                         bool* shapes_checked = nullptr);
// UpdateManagedFields with the live entries read apart from `old` and the result given apart:
// returns the new version's entries and leaves `updated` without metadata.managedFields (when it
// is an object). Entries the write leaves as they were are the live ones, shared: a status write
// copies none of the others' entries. What the store takes as UpdateOptions::managed_fields.
store::ManagedEntries RecordManagedFields(const Json& old, const LiveEntries& live, Json* updated,
                                          const FieldManagerScope& scope,
                                          bool* shapes_checked = nullptr);

// RecordManagedFields over the live version `current` (null on create), deferred when
// `may_defer` and the write keeps the live entries: the checks run now (the body's
// managedFields leave `updated`, the shapes decide whether anything is recorded), and the rest
// runs on the version the store makes of `*updated` when its entries are first read. The
// caller allows it only where that version differs from `*updated` in fields the scope does
// not track (metadata the store sets, a status it keeps or a write ignores): the deferred
// entries are then exactly the ones recorded at once. A status write whose entries come out
// empty keeps the live ones either way (RequestHandler::Update).
store::NewEntries RecordOrDeferManagedFields(const store::ObjectPtr& current, Json* updated,
                                             const FieldManagerScope& scope, bool may_defer,
                                             bool* shapes_checked = nullptr);

}  // namespace lws::apiserver
