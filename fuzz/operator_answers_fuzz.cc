// Fuzzes what the operator reads from outside besides its configuration: the Lease record an
// API server answers with, TokenReview and SubjectAccessReview answers, listen addresses, and
// probe and scrape request targets. The first byte picks the parser; the rest is its input.
// Any input must parse or fail with BadRequest, never crash; a Lease record that parses must
// survive being written and read back, and a bind address that parses must name a port.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "operator/endpoints.h"
#include "operator/lease.h"
#include "operator/metrics_auth.h"

namespace {

using lws::api::Json;

void CheckLease(const Json& lease) {
  auto record = lws::op::RecordFromLease(lease);
  if (!record.ok()) {
    if (record.status().code() != lws::Code::kBadRequest) std::abort();
    return;
  }
  auto back = lws::op::RecordFromLease(lws::op::NewLease("ns", "name", *record));
  if (!back.ok() || !(*back == *record)) std::abort();
}

void CheckReviews(const Json& answer) {
  auto user = lws::op::UserFromTokenReview(answer);
  if (!user.ok() && user.status().code() != lws::Code::kBadRequest) std::abort();
  if (user.ok() && user->has_value())
    lws::op::SubjectAccessReviewFor(**user, "get", "/metrics").dump();
  auto allowed = lws::op::AllowedBySubjectAccessReview(answer);
  if (!allowed.ok() && allowed.status().code() != lws::Code::kBadRequest) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t which = data[0] % 3;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (which == 2) {
    auto address = lws::op::ParseBindAddress(text);
    if (!address.ok() && address.status().code() != lws::Code::kBadRequest) std::abort();
    lws::op::TargetPath(text);
    lws::op::QueryValues(text, "exclude");
    return 0;
  }
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return 0;
  if (which == 0)
    CheckLease(json);
  else
    CheckReviews(json);
  return 0;
}
