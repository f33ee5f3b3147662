// File: apiserver/apply_value.h
//
// The four operations of structured-merge-diff's typed package over plain JSON values, guided by
// a ListTypeProvider (see apply_schema.h):
//
//   ToFieldSet   which paths a value sets (what an applier claims)
//   Compare      which paths were added, removed or modified between two values
//   Merge        an applied configuration merged into a live object
//   RemoveItems  a value with the given paths taken out (what pruning removes)
//
// Node rules shared by all four: an object merges key by key unless the schema calls it atomic;
// a list follows its list type; everything else (scalars, null, atomic lists and maps, and
// objects or lists that are empty on both sides) is a leaf compared and replaced whole. An object
// field is a path of its own only when it is a leaf or when it appears or disappears as a whole;
// list items of associative lists are always paths of their own.
//
// REQUIRES for every function: each value passed ValidateShape (items of associative lists yield
// path elements). Items that do not are kept unchanged rather than crashing.
#pragma once

#include "apiserver/apply_schema.h"
#include "apiserver/field_set.h"

namespace lws::apiserver {

// The paths `value` sets, as typed.ToFieldSet: leaves (including null and {} fields), and each
// item of an associative list together with the paths below it.
FieldSet ToFieldSet(const Json& value, const ListTypeProvider& provider);

struct Comparison {
  FieldSet added;
  FieldSet removed;
  FieldSet modified;
  bool empty() const { return added.empty() && removed.empty() && modified.empty(); }
  // Each set RecursiveDifference'd with `ignored` (Comparison.ExcludeFields).
  Comparison Excluding(const FieldSet& ignored) const;
};

// Changes from `before` to `after` (typed.Compare). A non-leaf node that appears or disappears
// is itself added or removed, besides every path below it. With `skip`, the walk never enters
// the paths that are members of `skip`: the result equals Compare(...).Excluding(*skip), at the
// cost of the parts that are compared (a status write compares .status alone).
Comparison Compare(const Json& before, const Json& after, const ListTypeProvider& provider,
                   const FieldSet* skip = nullptr);

// What a create records, written straight as FieldsV1: the paths Compare({}, after, provider,
// skip) adds, less `strip` as FieldSet::Subtract takes it away, in the JSON ToFieldsV1 gives for
// that set, without building the set. REQUIRES: `after` is an object.
Json AddedFieldsV1(const Json& after, const ListTypeProvider& provider, const FieldSet* skip,
                   const FieldSet* strip);

// `config` merged into `live` (typed.Merge): config wins on leaves; objects keep live-only keys;
// associative lists keep live-only items, merge shared ones, and order the result so that
// config items keep config order and live-only items stay next to their live neighbours.
Json Merge(const Json& live, const Json& config, const ListTypeProvider& provider);

// `value` without the paths in `paths` (typed.RemoveItems). A member removes the whole field or
// item; objects and lists left empty by the removal disappear rather than turning into null.
Json RemoveItems(const Json& value, const FieldSet& paths, const ListTypeProvider& provider);

}  // namespace lws::apiserver
