#include "apiserver/strategic_merge.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/json_depth.h"
#include "apiserver/patch_go.h"
#include "apiserver/strategic_merge_internal.h"

namespace lws::apiserver {

namespace internal {

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The functions off the recursion path (MergeMap -> MergeKey -> MergeMap) are kept out of line
// so that the recursion's frames stay small: Go accepts 10000 nesting levels.

// handleDirectiveInMergeMap.
[[gnu::noinline]] Result<Json> HandleMapDirective(Json patch) {
  const Json& directive = patch[std::string(kPatchDirective)];
  if (directive == "replace") {
    patch.erase(std::string(kPatchDirective));
    return patch;
  }
  if (directive == "delete") return Json::object();
  return SmpInternal(ErrBadPatchType(directive, patch));
}

// applyRetainKeysDirective.
[[gnu::noinline]] Status ApplyRetainKeys(Json& original, Json& patch) {
  auto it = patch.find(std::string(kRetainKeysDirective));
  if (it == patch.end()) return Status::Ok();
  Json retain = std::move(*it);
  patch.erase(it);
  if (!retain.is_array()) return SmpBadRequest("invalid patch format of retainKeys");
  std::set<std::string, std::less<>> keys;
  for (const Json& k : retain) {
    RequireHashable(k);  // the list becomes the keys of a Go map
    if (k.is_string()) keys.insert(k.get<std::string>());
  }
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null() || StartsWith(key, kDeleteFromPrimitiveListPrefix) ||
        StartsWith(key, kSetElementOrderPrefix)) {
      continue;
    }
    if (!keys.contains(key)) return SmpBadRequest("invalid patch format of retainKeys");
  }
  for (auto o = original.begin(); o != original.end();) {
    o = keys.contains(o.key()) ? std::next(o) : original.erase(o);
  }
  return Status::Ok();
}

// discardNullValuesFromPatch: null object members go, recursively (null list elements stay).
void DiscardNulls(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) {
        it = v.erase(it);
      } else {
        DiscardNulls(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) DiscardNulls(e);
  }
}

// Sets original[key] to a value taken from the patch, cleaned as upstream cleans it.
[[gnu::noinline]] void TakePatchValue(Json& original, const std::string& key, Json value,
                                      bool discard_nulls) {
  if (discard_nulls) DiscardNulls(value);
  if (RemoveDirectives(value)) {
    original[key] = std::move(value);
  } else {
    original.erase(key);
  }
}

// One key of the main loop of mergeMap.
[[gnu::noinline]] Status MergeKey(Json& original, std::string key, Json patch_value,
                                  const PatchSchema* schema) {
  bool is_delete_list = false;
  if (StartsWith(key, kDeleteFromPrimitiveListPrefix)) {
    ASSIGN_OR_RETURN(key, ExtractKey(key, kDeleteFromPrimitiveListPrefix));
    is_delete_list = true;
  }
  if (patch_value.is_null()) {  // IgnoreUnmatchedNulls: a null never lands in the result
    original.erase(key);
    return Status::Ok();
  }
  auto it = original.find(key);
  if (it == original.end() || KindOf(*it) != KindOf(patch_value)) {
    if (!is_delete_list) TakePatchValue(original, key, std::move(patch_value), true);
    return Status::Ok();
  }
  const FieldPatchMeta& meta = LookupField(schema, key);
  if (it->is_object()) {
    if (meta.strategy == PatchStrategy::kReplace) {
      *it = std::move(patch_value);
      return Status::Ok();
    }
    ASSIGN_OR_RETURN(*it, MergeMap(std::move(*it), std::move(patch_value), meta.type));
    return Status::Ok();
  }
  if (it->is_array()) {
    ASSIGN_OR_RETURN(
        *it, MergeSliceHandler(std::move(*it), std::move(patch_value), meta, is_delete_list));
    return Status::Ok();
  }
  TakePatchValue(original, key, std::move(patch_value), false);
  return Status::Ok();
}

// The start of mergeMap: a null original becomes {}, then $retainKeys and $setElementOrder.
[[gnu::noinline]] Status PrepareMerge(Json& original, Json& patch, const PatchSchema* schema) {
  if (original.is_null()) original = Json::object();
  RETURN_IF_ERROR(ApplyRetainKeys(original, patch));
  return MergeOrderedLists(original, patch, schema);
}

// Removes directive keys a merge left behind (upstream's typed decode drops them).
void StripDirectives(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      std::string_view k = it.key();
      bool directive = k == kPatchDirective || k == kRetainKeysDirective ||
                       StartsWith(k, std::string(kSetElementOrderPrefix) + "/") ||
                       StartsWith(k, std::string(kDeleteFromPrimitiveListPrefix) + "/");
      if (directive) {
        it = v.erase(it);
      } else {
        StripDirectives(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) StripDirectives(e);
  }
}

std::string_view JsonTypeWord(const Json& v) {
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  return "number";
}

}  // namespace

Status SmpBadRequest(std::string_view message) { return Status::BadRequest(std::string(message)); }

Status SmpNoListOfLists() {
  // ErrNoListOfLists becomes a 422 whose message upstream replaces with the generic text.
  return Status::Invalid("the server rejected our request due to an error in our request", {});
}

Status SmpInternal(std::string message) { return Status::Internal(std::move(message)); }

std::string ErrNoMergeKey(const Json& map, std::string_view key) {
  return "map: " + GoSprintV(map) + " does not contain declared merge key: " + std::string(key);
}

std::string ErrBadArgType(std::string_view expected_type, const Json& actual) {
  return "expected a " + std::string(expected_type) + ", but received a " + GoTypeName(actual);
}

std::string ErrBadPatchType(const Json& directive, const Json& map) {
  return "unknown patch type: " + GoSprintS(directive) + " in map: " + GoSprintV(map);
}

Result<std::string> ExtractKey(std::string_view key, std::string_view prefix) {
  std::size_t slash = key.find('/');
  if (slash == std::string_view::npos || key.substr(0, slash) != prefix) {
    return SmpBadRequest(prefix == kDeleteFromPrimitiveListPrefix
                             ? "invalid patch format of primitive list"
                             : "invalid patch format of setElementOrder list");
  }
  return std::string(key.substr(slash + 1));
}

bool RemoveDirectives(Json& v) {
  if (v.is_object()) {
    if (v.contains(kPatchDirective)) return false;
    for (auto it = v.begin(); it != v.end();) {
      it = RemoveDirectives(*it) ? std::next(it) : v.erase(it);
    }
  } else if (v.is_array()) {
    Json kept = Json::array();
    for (Json& e : v) {
      if (RemoveDirectives(e)) kept.push_back(std::move(e));
    }
    v = std::move(kept);
  }
  return true;
}

Result<Json> MergeMap(Json original, Json patch, const PatchSchema* schema) {
  if (patch.contains(kPatchDirective)) return HandleMapDirective(std::move(patch));
  Status status = PrepareMerge(original, patch, schema);
  for (auto it = patch.begin(); status.ok() && it != patch.end(); ++it) {
    status = MergeKey(original, it.key(), std::move(*it), schema);
  }
  if (!status.ok()) return status;
  return original;
}

}  // namespace internal

bool SupportsStrategicMerge(const api::ResourceInfo& resource) { return !resource.custom; }

Result<Json> ApplyStrategicMergePatch(const Json& original, const Json& patch,
                                      std::string_view kind) {
  return ApplyStrategicMergePatchWithSchema(original, patch, PatchSchemaForKind(kind));
}

Result<Json> ApplyStrategicMergePatchWithSchema(const Json& original, const Json& patch,
                                                const PatchSchema& schema) {
  // The handler decodes the body into map[string]interface{} first; a JSON null decodes to a
  // nil map, which patches nothing.
  if (std::string deep = api::JsonDepthError(patch); !deep.empty()) {
    return Status::BadRequest(deep);
  }
  if (patch.is_null()) return original;
  if (!patch.is_object()) {
    return Status::BadRequest("json: cannot unmarshal " +
                              std::string(internal::JsonTypeWord(patch)) +
                              " into Go value of type map[string]interface {}");
  }
  if (!original.is_object()) return Status::BadRequest("invalid JSON document");
  try {
    ASSIGN_OR_RETURN(Json merged, internal::MergeMap(original, patch, &schema));
    internal::StripDirectives(merged);
    return merged;
  } catch (const internal::GoPanic&) {
    return Status::Internal(std::string(internal::kApiserverPanicMessage));
  }
}

}  // namespace lws::apiserver
