// Fuzz target: arbitrary bytes as a LeaderWorkerSet JSON body. Parsing must fail cleanly or
// yield an object whose typed decode, defaulting, validation and encode never crash, and whose
// encoding decodes again to the same encoding (the codec is a fixed point after one pass).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "api/lws_defaults.h"
#include "api/lws_validation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lws::api;
  Json input = Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (input.is_discarded()) return 0;
  auto lws = Decode<LeaderWorkerSet>(input);
  if (!lws.ok()) return 0;
  const Json once = Encode(*lws);
  auto again = Decode<LeaderWorkerSet>(once);
  if (!again.ok() || Encode(*again) != once) std::abort();
  LeaderWorkerSet defaulted = *lws;
  DefaultLeaderWorkerSet(&defaulted);
  ErrorList errs = ValidateLeaderWorkerSet(defaulted);
  ErrorList update_errs = ValidateLeaderWorkerSetUpdate(defaulted, *lws);
  for (const auto& e : errs) (void)e.Error();
  (void)update_errs;
  return 0;
}
