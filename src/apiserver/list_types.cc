// File: apiserver/list_types.cc
#include "apiserver/list_types.h"

#include <string>

#include "apiserver/merge_keys.h"

namespace lws::apiserver {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Built-in list types: merge with a key is a map list, merge without one a set, the rest atomic;
// ports carry explicit list markers keyed with the protocol (apply_schema.h, FromMergeKeys).
std::optional<ListSchema> BuiltinListType(const std::string& kind, std::string_view path) {
  if (EndsWith(path, "containers.ports") || EndsWith(path, "initContainers.ports") ||
      EndsWith(path, "ephemeralContainers.ports")) {
    return MapList({"containerPort", "protocol"}, {{"protocol", "TCP"}});
  }
  if (kind == "Service" && path == "spec.ports") {
    return MapList({"port", "protocol"}, {{"protocol", "TCP"}});
  }
  FieldPatchMeta meta = LookupPatchMeta(kind, path);
  if (meta.strategy != PatchStrategy::kMerge) return std::nullopt;
  if (meta.merge_key.empty()) return SetList();
  return MapList({meta.merge_key});
}

}  // namespace

ListTypeProvider ListTypesFor(const api::ResourceInfo& resource) {
  if (resource.custom) return FromOpenApiSchema(resource.openapi_schema);
  std::string kind = resource.kind;
  return FromMergeKeys([kind](std::string_view path) { return BuiltinListType(kind, path); });
}

}  // namespace lws::apiserver
