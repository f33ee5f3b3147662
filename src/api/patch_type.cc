// Patch types (patch_type.h).
#include "api/patch_type.h"

namespace lws::api {

std::string_view PatchContentType(PatchType type) {
  switch (type) {
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kStrategic:
      return "application/strategic-merge-patch+json";
    case PatchType::kApply:
      return "application/apply-patch+yaml";
  }
  return "";
}

}  // namespace lws::api
