// Fuzzes the structural schema pipeline with the real LWS schema: any JSON input goes through
// Prune -> ApplyDefaults -> Validate, which must never crash; pruning twice changes nothing more.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "api/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using lws::api::Json;
  Json obj = Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (obj.is_discarded()) return 0;
  const lws::api::StructuralSchema& schema = lws::api::LwsStructuralSchema();
  schema.Prune(&obj);
  schema.ApplyDefaults(&obj);
  (void)schema.Validate(obj);
  Json again = obj;
  if (!schema.Prune(&again).empty()) std::abort();
  return 0;
}
