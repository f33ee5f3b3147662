// Fuzzes the JSON patch. Input: "<original JSON>\0<patch JSON>" (without a NUL byte the whole
// input is the patch and the original is {"a":[1,{"b":null}],"c":"x"}). Applying must never
// crash or exhaust memory (copies are capped); a success on an object yields an object unless a
// root replace swapped in an array; applying is deterministic.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "apiserver/patch.h"

namespace {

using lws::apiserver::Json;

bool ReplacesRootWithArray(const Json& patch) {
  if (!patch.is_array()) return false;
  for (const auto& op : patch) {
    if (op.is_object() && op.value("op", Json()) == "replace" && op.value("path", Json()) == "" &&
        op.contains("value") && op["value"].is_array()) {
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view original_text =
      nul == std::string_view::npos ? R"({"a":[1,{"b":null}],"c":"x"})" : input.substr(0, nul);
  const std::string_view patch_text = nul == std::string_view::npos ? input : input.substr(nul + 1);
  const Json original = Json::parse(original_text, nullptr, false);
  const Json patch = Json::parse(patch_text, nullptr, false);
  if (original.is_discarded() || patch.is_discarded()) return 0;

  auto result = lws::apiserver::ApplyJsonPatch(original, patch);
  auto again = lws::apiserver::ApplyJsonPatch(original, patch);
  if (result.ok() != again.ok() || (result.ok() && *result != *again)) std::abort();
  if (!result.ok()) {
    if (result.status() != again.status()) std::abort();
    return 0;
  }
  if (original.is_object() && !result->is_object() && !ReplacesRootWithArray(patch)) std::abort();
  return 0;
}
