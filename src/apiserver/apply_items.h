// File: apiserver/apply_items.h
//
// Small pieces the walks of apply_value.cc share: what a node may be merged as, and the items
// of an associative list by their path elements. Internal to apply_value.cc.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "apiserver/apply_schema.h"
#include "apiserver/field_set.h"

namespace lws::apiserver::items {

// Absent (null pointer), JSON null, or an empty object or list. Inline: asked at every node.
inline bool IsEmptyOrNull(const Json* v) {
  return v == nullptr || v->is_null() || ((v->is_object() || v->is_array()) && v->empty());
}
// Whether `v` can take part in an object merge (absent, null or an object), or a list merge.
inline bool FitsObject(const Json* v) { return v == nullptr || v->is_null() || v->is_object(); }
inline bool FitsArray(const Json* v) { return v == nullptr || v->is_null() || v->is_array(); }
// `object[key]`, or null when `object` is not an object or has no such key.
const Json* Find(const Json* object, const std::string& key);

struct Item {
  PathElement pe;
  const Json* value;
};

// The valid items of `list` in order (all occurrences), and the first occurrence of each key.
struct IndexedItems {
  std::vector<Item> order;
  std::map<PathElement, const Json*> first;
};
IndexedItems Index(const Json* list, const ListSchema& schema);

// The first occurrence of each key alone: what a walk that does not care about order needs,
// without a second copy of every path element.
std::map<PathElement, const Json*> FirstItems(const Json* list, const ListSchema& schema);

// True when `a` and `b` are lists of the same length whose items have the same keys at the same
// positions, each key once: pairing their items by key (FirstItems) then pairs them by position.
// False when an item has no key (FirstItems leaves it out), for atomic lists, and for lists
// longer than a pairwise check of their keys is worth.
bool SameKeysInOrder(const Json& a, const Json& b, const ListSchema& schema);

}  // namespace lws::apiserver::items
