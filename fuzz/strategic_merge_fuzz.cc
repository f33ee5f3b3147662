// Fuzzes the strategic merge patch. Input: one byte choosing the kind, then
// "<original JSON>\0<patch JSON>" (without a NUL byte the original is a small Pod). Applying must
// never crash; a success yields an object free of directive keys the patch introduced; applying
// is deterministic.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "apiserver/strategic_merge.h"

namespace {

constexpr std::string_view kKinds[] = {"Pod", "StatefulSet", "Service", "Node", "ConfigMap"};

constexpr std::string_view kPod = R"({"metadata":{"name":"p","finalizers":["a","b"],
  "ownerReferences":[{"uid":"u"}]},"spec":{"containers":[{"name":"c","env":[{"name":"E"}],
  "ports":[{"containerPort":80}]},{"name":"d"}],"volumes":[{"name":"v","emptyDir":{}}]}})";

bool HasDirectiveKey(const lws::apiserver::Json& v) {
  if (v.is_object()) {
    for (const auto& [key, value] : v.items()) {
      if (key == "$patch" || key == "$retainKeys" || key.starts_with("$setElementOrder/") ||
          key.starts_with("$deleteFromPrimitiveList/") || HasDirectiveKey(value)) {
        return true;
      }
    }
  } else if (v.is_array()) {
    for (const auto& e : v) {
      if (HasDirectiveKey(e)) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using lws::apiserver::Json;
  if (size == 0) return 0;
  const std::string_view kind = kKinds[data[0] % std::size(kKinds)];
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t nul = input.find('\0');
  const std::string_view original_text =
      nul == std::string_view::npos ? kPod : input.substr(0, nul);
  const std::string_view patch_text = nul == std::string_view::npos ? input : input.substr(nul + 1);
  const Json original = Json::parse(original_text, nullptr, false);
  const Json patch = Json::parse(patch_text, nullptr, false);
  if (original.is_discarded() || patch.is_discarded()) return 0;

  auto result = lws::apiserver::ApplyStrategicMergePatch(original, patch, kind);
  auto again = lws::apiserver::ApplyStrategicMergePatch(original, patch, kind);
  if (result.ok() != again.ok() || (result.ok() && *result != *again)) std::abort();
  if (!result.ok()) return 0;
  if (!result->is_object()) std::abort();
  if (!patch.is_null() && !HasDirectiveKey(original) && HasDirectiveKey(*result)) std::abort();
  return 0;
}
