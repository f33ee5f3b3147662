// File: apiserver/managed_fields_internal.h
//
// What managed_fields.cc (the entries' encoding), managed_fields_record.cc (recording a write)
// and managed_fields_defer.cc (recording it later) share. Not for other callers:
// managed_fields.h is the interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "apiserver/managed_fields.h"

namespace lws::apiserver {

// One entry of metadata.managedFields (`index` names it in errors). `with_fields` false checks
// and reads everything but fieldsV1, which stays undecoded.
Result<ManagedFieldsEntry> DecodeEntry(const Json& item, std::size_t index,
                                       bool with_fields = true);

// Whether a non-apply write starts from the live object's entries, whatever they hold
// (decodeLiveOrNew): a subresource write, or a body that carries no managedFields.
bool KeepsLiveEntries(const Json& updated, std::string_view subresource);

// SetManagedFields with the entries already encoded (a JSON array): an empty one removes the
// field. The record paths that write entries straight to JSON share it.
void SetEncodedManagedFields(Json* object, Json entries);

// {}: the `before` of a create.
const Json& EmptyObject();

// The checks every recording of a write starts with: `updated` loses its metadata.managedFields,
// then `before` (unless the scope says it was checked) and `updated` must pass ValidateShape
// with duplicates allowed, managedFields left out, for anything to be recorded. Returns that,
// also written to `shapes_checked` when given.
bool StripAndCheckShapes(const Json& before, Json* updated, const FieldManagerScope& scope,
                         bool* shapes_checked);

// The entries a write that keeps the live ones leaves (RecordManagedFields past its checks):
// `updated` without managedFields, both shapes passed.
store::ManagedEntries RecordKeepingLive(const Json& before, const LiveEntries& live,
                                        const Json& updated, const FieldManagerScope& scope);

// The order the API server lists entries in: operation, time, manager, apiVersion, subresource.
using EntryOrder = std::tuple<std::string, std::int64_t, std::string, std::string, std::string>;
EntryOrder SortKey(const ManagedFieldsEntry& e);

}  // namespace lws::apiserver
