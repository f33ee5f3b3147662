// Fuzzes the YAML loader: any input must load or fail with a Status, never crash; whatever loads
// must survive EmitYaml -> LoadYaml unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "api/yaml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto docs = lws::api::LoadYamlDocuments(text);
  if (!docs.ok()) return 0;
  for (const auto& doc : *docs) {
    std::string emitted = lws::api::EmitYaml(doc.value);
    auto back = lws::api::LoadYaml(emitted);
    if (!back.ok() || *back != doc.value) std::abort();
  }
  return 0;
}
