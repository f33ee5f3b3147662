// File: apiserver/strategic_merge.h
//
// Strategic merge patch (application/strategic-merge-patch+json) for built-in kinds, applied as
// kube-apiserver applies it: k8s.io/apimachinery/pkg/util/strategicpatch StrategicMergeMapPatch
// (MergeParallelList and IgnoreUnmatchedNulls on) over the object's JSON, with the patch
// metadata of merge_keys.h.
//
// Semantics, in the order upstream applies them at each object level:
//   1. `$patch: replace` makes the patch object (minus the directive) the new value;
//      `$patch: delete` makes it {}; any other value is an error.
//   2. `$retainKeys: [k...]` drops every other key of the original object; each non-null,
//      non-directive key of the patch must be listed.
//   3. `$setElementOrder/<list>: [...]` merges <list> (if the patch has it) and then orders the
//      result: listed items in the listed order, the original's other items interleaved where
//      they were.
//   4. Every other key, in key order: null deletes; `$deleteFromPrimitiveList/<list>` removes
//      those values from <list>; a key the original lacks, or of another JSON type, takes the
//      patch value (minus its nulls and `$patch` maps); objects merge recursively (or replace,
//      for `patchStrategy:"replace"`); lists with `patchStrategy:"merge"` merge by merge key
//      (items with `$patch: delete` remove matches, an item `{$patch: replace}` replaces the list)
//      or, for primitives, as a set; other lists and scalars are replaced.
// Where upstream iterates a Go map (step 4), the order is the JSON key order here; upstream's is
// random, which only matters for a patch holding both <list> and $deleteFromPrimitiveList/<list>
// without $setElementOrder/<list>.
//
// Directive keys left in the result (for instance under `$patch: replace`) are removed at the end:
// upstream drops them when it decodes the map into the typed object.
//
// Errors, classified as the handler classifies them: a patch that is not an object is 400 with
// Go's decoder wording; malformed directives ("invalid patch format of setElementOrder list",
// "... of primitive list", "... of retainKeys") are 400; a list of lists is 422 with the generic
// "the server rejected our request due to an error in our request"; every other strategicpatch
// error ("map: map[value:b] does not contain declared merge key: name", "The order in patch
// list: ... doesn't match $setElementOrder list: ...") is a 500 carrying upstream's message;
// inputs on which upstream panics are a 500 with the panic filter's message. Nothing throws.
#pragma once

#include <string_view>

#include "api/field.h"
#include "api/resources.h"
#include "apiserver/merge_keys.h"
#include "base/result.h"

namespace lws::apiserver {

using api::Json;

// True for built-in resources. Custom resources have no Go struct to take merge keys from;
// upstream answers 415 for them (PatchTypeFromContentType in patch.h gives that Status).
bool SupportsStrategicMerge(const api::ResourceInfo& resource);

// Applies `patch` to `original` (an object) with the metadata of built-in `kind`.
Result<Json> ApplyStrategicMergePatch(const Json& original, const Json& patch,
                                      std::string_view kind);

// The same with an explicit schema (tests use upstream's MergeItem test type).
Result<Json> ApplyStrategicMergePatchWithSchema(const Json& original, const Json& patch,
                                                const PatchSchema& schema);

}  // namespace lws::apiserver
