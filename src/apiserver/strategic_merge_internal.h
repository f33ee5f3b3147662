// File: apiserver/strategic_merge_internal.h
//
// The pieces strategic_merge.cc (object level) and strategic_merge_list.cc (list level) share.
// Names follow upstream's strategicpatch functions so that the two can be read side by side;
// every function may throw internal::GoPanic where upstream's Go code panics (caught by the
// public entry points).
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "api/field.h"
#include "apiserver/merge_keys.h"
#include "base/result.h"

namespace lws::apiserver::internal {

using api::Json;

inline constexpr std::string_view kPatchDirective = "$patch";
inline constexpr std::string_view kRetainKeysDirective = "$retainKeys";
inline constexpr std::string_view kSetElementOrderPrefix = "$setElementOrder";
inline constexpr std::string_view kDeleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";

// Errors the handler maps to 400, 422 and 500 (see strategic_merge.h).
Status SmpBadRequest(std::string_view message);
Status SmpNoListOfLists();
Status SmpInternal(std::string message);

// mergepatch's error texts.
std::string ErrNoMergeKey(const Json& map, std::string_view key);
std::string ErrBadArgType(std::string_view expected_type, const Json& actual);
std::string ErrBadPatchType(const Json& directive, const Json& map);

// extractKey: the list name after "<prefix>/"; a 400 when the key is not of that form.
Result<std::string> ExtractKey(std::string_view key, std::string_view prefix);

// removeDirectives: drops objects holding "$patch" (from lists and as object members). Returns
// false when `v` itself is such an object.
bool RemoveDirectives(Json& v);

// mergeMap: merges `patch` (an object) into `original` (an object or null) under `schema`.
Result<Json> MergeMap(Json original, Json patch, const PatchSchema* schema);

// mergePatchIntoOriginal: handles every $setElementOrder/<list> of `patch` together with
// <list>, removing both from `patch`.
Status MergeOrderedLists(Json& original, Json& patch, const PatchSchema* schema);

// mergeSliceHandler: merges two lists when the field's strategy is merge or `is_delete_list`
// (a $deleteFromPrimitiveList directive), else returns `patch`.
Result<Json> MergeSliceHandler(Json original, Json patch, const FieldPatchMeta& meta,
                               bool is_delete_list);

}  // namespace lws::apiserver::internal
