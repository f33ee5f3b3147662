// Fuzz target for api/revision: arbitrary JSON as a ControllerRevision's data must never crash
// ApplyRevision or the equality checks, and the normal form must be a fixed point: re-applying the
// patch regenerated from a restored LWS yields the same bytes again.
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/revision.h"

namespace {

lws::api::LeaderWorkerSet BaseLws() {
  auto lws = lws::api::Decode<lws::api::LeaderWorkerSet>(lws::api::Json::parse(R"({
    "metadata": {"name": "fuzz", "namespace": "default", "uid": "u", "generation": 1},
    "spec": {"replicas": 2, "leaderWorkerTemplate": {"size": 2,
      "workerTemplate": {"spec": {"containers": [{"name": "w", "image": "i"}]}}}}})"));
  if (!lws.ok()) __builtin_trap();
  return *lws;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const lws::api::LeaderWorkerSet base = BaseLws();
  const std::string input(reinterpret_cast<const char*>(data), size);
  const lws::api::Json doc = lws::api::Json::parse(input, nullptr, false);
  if (doc.is_discarded()) return 0;

  lws::api::ControllerRevision stored = lws::api::NewRevision(base, 1);
  stored.data = doc;
  (void)lws::api::RevisionMatchesTemplate(stored, base);
  (void)lws::api::IsTemplateUpdate(base, stored);
  auto restored = lws::api::ApplyRevision(base, stored);
  if (!restored.ok()) return 0;

  const lws::api::ControllerRevision first = lws::api::NewRevision(*restored, 2);
  auto again = lws::api::ApplyRevision(base, first);
  if (!again.ok()) __builtin_trap();
  const lws::api::ControllerRevision second = lws::api::NewRevision(*again, 2);
  if (!lws::api::EqualRevision(&first, &second)) __builtin_trap();
  if (!lws::api::RevisionMatchesTemplate(first, *restored)) __builtin_trap();
  return 0;
}
