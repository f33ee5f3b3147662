// File: apiserver/managed_fields_internal.h
//
// What managed_fields.cc (the entries' encoding) shares with managed_fields_record.cc (recording
// a write). Not for other callers: managed_fields.h is the interface.
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

// The order the API server lists entries in: operation, time, manager, apiVersion, subresource.
using EntryOrder = std::tuple<std::string, std::int64_t, std::string, std::string, std::string>;
EntryOrder SortKey(const ManagedFieldsEntry& e);

}  // namespace lws::apiserver
