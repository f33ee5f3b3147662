#include "apiserver/patch.h"

#include <string>
#include <utility>

#include "api/go_json.h"
#include "api/json_depth.h"
#include "apiserver/patch_go.h"
#include "apiserver/strategic_merge.h"

namespace lws::apiserver {

namespace {

constexpr std::string_view kGenericInvalid =
    "the server rejected our request due to an error in our request";

// Copies of patch values drop their null members (and null array elements): evanphx's
// pruneNulls.
void PruneNulls(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) {
        it = v.erase(it);
      } else {
        PruneNulls(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    Json kept = Json::array();
    for (auto& e : v) {
      if (e.is_null()) continue;
      PruneNulls(e);
      kept.push_back(std::move(e));
    }
    v = std::move(kept);
  }
}

void MergeDocs(Json& doc, Json patch);

// evanphx's merge(cur, patch): a non-object current value is replaced by the pruned patch; a
// non-object patch replaces an object as is; two objects merge.
Json MergeValue(Json cur, Json patch) {
  if (!cur.is_object()) {
    PruneNulls(patch);
    return patch;
  }
  if (!patch.is_object()) return patch;
  MergeDocs(cur, std::move(patch));
  return cur;
}

void MergeDocs(Json& doc, Json patch) {
  for (auto& [key, value] : patch.items()) {
    if (value.is_null()) {
      doc.erase(key);
      continue;
    }
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) {
      PruneNulls(value);
      doc[key] = std::move(value);
    } else {
      *it = MergeValue(std::move(*it), std::move(value));
    }
  }
}

}  // namespace

std::vector<PatchType> SupportedPatchTypes(const api::ResourceInfo& resource) {
  if (!SupportsStrategicMerge(resource))
    return {PatchType::kJson, PatchType::kMerge, PatchType::kApply};
  return {PatchType::kJson, PatchType::kMerge, PatchType::kStrategic, PatchType::kApply};
}

Result<PatchType> PatchTypeFromContentType(std::string_view content_type,
                                           const api::ResourceInfo& resource) {
  if (std::size_t semi = content_type.find(';'); semi != std::string_view::npos && semi > 0) {
    content_type = content_type.substr(0, semi);
  }
  std::string accepted;
  for (PatchType type : SupportedPatchTypes(resource)) {
    if (content_type == PatchContentType(type)) return type;
    if (!accepted.empty()) accepted += ", ";
    accepted += PatchContentType(type);
  }
  return Status(Code::kUnsupportedMediaType,
                "the body of the request was in an unknown format - accepted media types "
                "include: " +
                    accepted);
}

Result<Json> ApplyMergePatch(const Json& original, const Json& patch) {
  // The handler first decodes the body into map[string]interface{} (fieldValidation Warn);
  // Go's decoder checks the syntax, nesting depth included, before the type.
  if (std::string deep = api::JsonDepthError(patch); !deep.empty()) {
    return Status::BadRequest("error decoding patch: " + deep);
  }
  if (!patch.is_object() && !patch.is_null()) {
    return Status::BadRequest("error decoding patch: json: cannot unmarshal " +
                              std::string(api::GoJsonKind(patch)) +
                              " into Go value of type map[string]interface {}");
  }
  if (patch.is_null()) return Status::BadRequest("Invalid JSON Patch");
  // evanphx returns this one unwrapped, so the server answers 500.
  if (original.is_null()) return Status::Internal("Invalid JSON Document");
  Json out = patch;
  if (!original.is_object()) {
    PruneNulls(out);
    return out;
  }
  Json doc = original;
  MergeDocs(doc, std::move(out));
  return doc;
}

Result<Json> ApplyJsonPatch(const Json& original, const Json& patch) {
  Result<Json> result = internal::ApplyJsonPatchDetailed(original, patch);
  if (!result.ok() && result.status().code() == Code::kInvalid) {
    return Status::Invalid(std::string(kGenericInvalid), {});
  }
  return result;
}

}  // namespace lws::apiserver
