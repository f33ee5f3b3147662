// File: apiserver/fields_v1_edit.h
//
// A managedFields entry's FieldsV1 read and edited as the JSON it is stored as, without decoding
// it into a FieldSet: recording a write (managed_fields_record.cc) edits the writer's entry in
// place and leaves the entries the write cannot touch as they were, so that recording a write
// costs what the write changes rather than a decode and encode of every entry.
//
// FieldsV1 spells each path element one way (PathElement::Serialize), except keys and values
// ("k:" and "v:" elements), whose fields may come in any order. Where such an element could be
// spelled another way, the functions say so (false) instead of guessing, and the caller takes the
// path that decodes the entry.
#pragma once

#include "apiserver/field_set.h"

namespace lws::apiserver {

// True unless the FieldsV1 node `fields_v1` provably shares no path with `set`.
bool MayShare(const Json& fields_v1, const FieldSet& set);
// True when every path of `set` is a member of the FieldsV1 node `fields_v1`; false also when
// unsure.
bool OwnsAll(const Json& fields_v1, const FieldSet& set);
// Removes every path of `set` from the FieldsV1 node `node`, keeping what lies below a removed
// path (FieldSet::Subtract). False when unsure; `node` is then partly edited and must be dropped.
bool RemoveFieldsV1(Json& node, const FieldSet& set);
// Adds every path of `set` to the FieldsV1 node `node` as a member (FieldSet::Add). False when
// unsure; `node` is then partly edited and must be dropped.
bool AddFieldsV1(Json& node, const FieldSet& set);

}  // namespace lws::apiserver
