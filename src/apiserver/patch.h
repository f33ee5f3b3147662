// File: apiserver/patch.h
//
// PATCH bodies as kube-apiserver (v1.32) applies them, as pure functions over JSON: the
// Content-Type dispatch, JSON merge patch (RFC 7386) and JSON patch (RFC 6902). Strategic merge
// patch lives in strategic_merge.h; server-side apply elsewhere.
//
// Upstream applies merge and JSON patches with gopkg.in/evanphx/json-patch.v4, after decoding
// the body under the default fieldValidation (Warn). Its quirks are kept, because clients see
// them:
//   Merge patch: nulls delete keys; objects merge recursively; anything else replaces. Values
//     copied from the patch lose their null members, and arrays copied from the patch lose null
//     elements and the null members of their objects (but an array replacing an object is copied
//     as is).
//   JSON patch: negative array indices count from the end ("-1" is the last element); "-"
//     appends on add; a path not starting with "/" behaves as if its first segment were empty;
//     replace on a missing object key adds it; add/replace without "value" write null; test treats
//     a missing key like null; copy operations may grow the document by 3 MiB in total.
//
// Errors are the Status kube-apiserver sends:
//   - body of the wrong JSON type: 400 BadRequest "error decoding patch: json: cannot unmarshal
//     array into Go value of type map[string]interface {}" (Go's decoder wording);
//   - null merge patch: 400 "Invalid JSON Patch";
//   - more than 10000 JSON patch operations: 413 "The allowed maximum operations in a JSON patch
//     is 10000, got N";
//   - any JSON patch operation that fails: 422 Invalid "the server rejected our request due to an
//     error in our request" with no details (upstream drops the library's message; the detailed
//     text is available from internal::ApplyJsonPatchDetailed for logs and tests);
//   - inputs on which upstream's Go code panics: 500 with the panic filter's message.
// Nothing throws. The result of a successful patch is whatever JSON the patch produced; the
// caller decodes it into the object (a non-object result then fails as the object decode fails).
#pragma once

#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/patch_type.h"
#include "api/resources.h"
#include "base/result.h"

namespace lws::apiserver {

using api::Json;

using api::PatchContentType;
using api::PatchType;

// The patch types `resource` accepts, in upstream's order: JSON, merge, strategic (built-in
// resources only), apply.
std::vector<PatchType> SupportedPatchTypes(const api::ResourceInfo& resource);

// The patch type of a PATCH request's Content-Type, as upstream decides it: everything from the
// first ';' (at a position > 0) is dropped and the rest must equal a supported type exactly.
// Otherwise 415 UnsupportedMediaType "the body of the request was in an unknown format -
// accepted media types include: application/json-patch+json, application/merge-patch+json,
// application/apply-patch+yaml" (the list for `resource`). This is also the answer to a
// strategic merge patch on a custom resource, which kubectl turns into its friendly message.
Result<PatchType> PatchTypeFromContentType(std::string_view content_type,
                                           const api::ResourceInfo& resource);

// RFC 7386 with evanphx v4 semantics (see above). REQUIRES nothing: any JSON values.
Result<Json> ApplyMergePatch(const Json& original, const Json& patch);

// RFC 6902 with evanphx v4 semantics (see above).
Result<Json> ApplyJsonPatch(const Json& original, const Json& patch);

// The maximum number of operations upstream accepts in one JSON patch.
inline constexpr std::size_t kMaxJsonPatchOperations = 10000;
// The total bytes "copy" operations may add (kube-apiserver's JSONPatchMaxCopyBytes).
inline constexpr std::size_t kMaxJsonPatchCopyBytes = 3 * 1024 * 1024;

namespace internal {
// ApplyJsonPatch, except that a failed operation is reported with evanphx's own message
// ("add operation does not apply: doc is missing path: \"/a/b\": missing value") as an Invalid
// Status, instead of upstream's generic 422 text.
Result<Json> ApplyJsonPatchDetailed(const Json& original, const Json& patch);
}  // namespace internal

}  // namespace lws::apiserver
