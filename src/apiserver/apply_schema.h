// File: apiserver/apply_schema.h
//
// The little server-side apply needs to know about an object's schema: how each list merges
// (x-kubernetes-list-type: atomic, set or map with x-kubernetes-list-map-keys) and which objects
// are atomic (x-kubernetes-map-type: atomic). Everything else is deduced from the values: objects
// merge key by key, scalars are replaced.
//
// The answer comes from a ListTypeProvider, so one implementation serves custom resources
// (FromOpenApiSchema, from the CRD's openAPIV3Schema) and built-in kinds (FromMergeKeys, over the
// strategic-merge-patch table: containers by name, ports by containerPort+protocol, ...).
// Questions are asked by SchemaPath: the field names from the object root, with list steps
// left out ({"spec","template","spec","containers","ports"}). ObjectMeta's own lists at the root
// (ownerReferences by uid, finalizers as a set) are answered here for every kind.
//
// The shape checks report problems with structured-merge-diff's wording, e.g.
// `.spec.ports: element 0: associative list with keys has an element that omits key field
// "protocol" (and doesn't have default value)`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apiserver/field_set.h"

namespace lws::apiserver {

enum class ListType { kAtomic, kSet, kMap };

struct ListSchema {
  ListType type = ListType::kAtomic;
  std::vector<std::string> keys;       // kMap: x-kubernetes-list-map-keys
  Json key_defaults = Json::object();  // kMap: key field -> default for items that omit it
  bool operator==(const ListSchema&) const = default;
};

using SchemaPath = std::vector<std::string>;

struct ListTypeProvider {
  // Type of the list at `path`; unset means every list is atomic.
  std::function<ListSchema(const SchemaPath&)> list_type;
  // Whether the object at `path` is atomic; unset means every object is granular.
  std::function<bool(const SchemaPath&)> atomic_map;

  // list_type's answer, with ObjectMeta's lists at the root filled in.
  ListSchema ListAt(const SchemaPath& path) const;
  bool AtomicMapAt(const SchemaPath& path) const;
};

// A provider reading x-kubernetes-list-type, x-kubernetes-list-map-keys (with the key fields'
// `default`s) and x-kubernetes-map-type from an OpenAPI v3 structural schema (the CRD version's
// schema.openAPIV3Schema). The provider keeps its own copy of `schema`.
ListTypeProvider FromOpenApiSchema(const Json& schema);

// A provider over a merge-key table keyed by dotted path ("spec.template.spec.containers");
// `lookup` returns nullopt for lists that are atomic. For built-in kinds the strategic-merge
// table gives the answer as upstream's schema conversion derives it: patchStrategy merge with a
// merge key is a map list keyed by it, without one a set, anything else atomic; except where
// the types carry explicit list markers: container ports are keyed by containerPort+protocol
// and service ports by port+protocol, protocol defaulting to "TCP".
using MergeKeyLookup = std::function<std::optional<ListSchema>(std::string_view dotted_path)>;
ListTypeProvider FromMergeKeys(MergeKeyLookup lookup);

// Convenience for FromMergeKeys tables: a map list keyed by `keys`, or a set.
ListSchema MapList(std::vector<std::string> keys, Json key_defaults = Json::object());
ListSchema SetList();

// The path element naming `item` in an associative list, or an error whose message is
// structured-merge-diff's ("associative list with keys may not have a null element", ...).
// REQUIRES: list.type != kAtomic.
Result<PathElement> ListItemElement(const ListSchema& list, const Json& item);

// A problem with the shape of a value, located at the list it concerns.
struct ShapeError {
  Path path;
  std::string message;
  // "<path>: <message>", or the message alone at the root (typed.ValidationError).
  std::string Text() const;
  bool operator==(const ShapeError&) const = default;
};

// One error as its Text(); several as "errors:\n  <text>\n  <text>" (typed.ValidationErrors).
std::string ShapeErrorsText(const std::vector<ShapeError>& errors);

// Checks every associative list in `value`: each item must yield a path element, and (unless
// `allow_duplicates`, which live objects need) no two items may share one. Also rejects nesting
// deeper than kMaxFieldDepth. Fields that are members of `skip` are not looked at, as if `value`
// did not have them (metadata.managedFields, for a write's before and after).
//
// `twin`, when set, is a value that passed this check with the same provider and
// `allow_duplicates`, leaving out `twin.skipped`: where the checked value equals the twin at the
// same place, and the twin's check left nothing out there, it is valid without a second look.
// A write's after is mostly its before.
struct ValidTwin {
  const Json* value = nullptr;
  const FieldSet* skipped = nullptr;
};
std::vector<ShapeError> ValidateShape(const Json& value, const ListTypeProvider& provider,
                                      bool allow_duplicates, const FieldSet* skip = nullptr,
                                      ValidTwin twin = {});

}  // namespace lws::apiserver
