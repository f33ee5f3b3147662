// Fuzzes the JSON merge patch. Input: "<original JSON>\0<patch JSON>" (without a NUL byte the
// whole input is the patch and the original is {}). Applying must never crash; when it succeeds
// on an object, the result is an object whose keys come from the original or the patch.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "apiserver/patch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using lws::apiserver::Json;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view original_text =
      nul == std::string_view::npos ? "{}" : input.substr(0, nul);
  const std::string_view patch_text = nul == std::string_view::npos ? input : input.substr(nul + 1);
  const Json original = Json::parse(original_text, nullptr, false);
  const Json patch = Json::parse(patch_text, nullptr, false);
  if (original.is_discarded() || patch.is_discarded()) return 0;

  auto result = lws::apiserver::ApplyMergePatch(original, patch);
  if (!result.ok() || !original.is_object()) return 0;
  if (!result->is_object()) std::abort();
  for (const auto& [key, value] : result->items()) {
    if (!original.contains(key) && !patch.contains(key)) std::abort();
  }
  return 0;
}
