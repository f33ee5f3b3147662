// Fuzzes the pod mutating webhook on arbitrary JSON: decoding, MutateLwsPod and MutationPatch must
// never crash, and the patch applied to the re-encoded request must give the mutated pod.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "api/pod_mutation.h"

namespace {

using lws::api::Json;

[[noreturn]] void Fail(const char* what, const Json& request) {
  std::fprintf(stderr, "%s for request %s\n", what, request.dump().c_str());
  std::abort();
}

void Check(const Json& request, bool gang_scheduling) {
  const lws::api::PodMutationOptions options{.gang_scheduling = gang_scheduling};
  auto patch = lws::api::MutationPatch(request, options);
  auto pod = lws::api::Decode<lws::api::Pod>(request);
  if (!pod.ok()) {
    if (patch.ok()) Fail("MutationPatch accepted an undecodable pod", request);
    return;
  }
  const Json before = lws::api::Encode(*pod);
  const lws::Status status = lws::api::MutateLwsPod(&*pod, options);
  if (status.ok() != patch.ok()) Fail("MutationPatch and MutateLwsPod disagree", request);
  if (!status.ok()) {
    if (lws::api::Encode(*pod) != before) Fail("a rejected pod was changed", request);
    return;
  }
  try {
    if (before.patch(*patch) != lws::api::Encode(*pod)) Fail("patch does not reproduce", request);
  } catch (const std::exception& e) {
    Fail(e.what(), request);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Json request = Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) return 0;
  Check(request, false);
  Check(request, true);
  return 0;
}
