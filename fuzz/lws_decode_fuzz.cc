// Fuzz target: arbitrary bytes as a LeaderWorkerSet JSON body. Parsing must fail cleanly or
// yield an object whose typed decode, defaulting, validation and encode never crash, and whose
// encoding decodes again to the same encoding (the codec is a fixed point after one pass). The
// lws-cpp.dev annotations are read as the controllers read them, and must not crash either.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "api/group_restarts.h"
#include "api/lws_defaults.h"
#include "api/lws_validation.h"
#include "api/rollout_annotations.h"

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
  (void)ReadGroupRestartConfig(lws->metadata);
  (void)ReadRolloutBehaviours(lws->metadata);
  (void)ReadSurgeFallbackState(lws->metadata);
  (void)ReadFailedRevision(lws->metadata);
  if (auto counts = ReadGroupRestartCounts(lws->metadata); counts.ok()) {
    (void)PruneGroupRestartCounts(*counts, "r", true, 3);
    if (ReadGroupRestartCounts(lws->metadata)->size() != counts->size()) std::abort();
    (void)EncodeGroupRestartCounts(*counts);
  }
  return 0;
}
