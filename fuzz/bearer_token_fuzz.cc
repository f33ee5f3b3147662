// File: fuzz/bearer_token_fuzz.cc
//
// A bearer token from arbitrary bytes, as any HTTP client can send one
// (apiserver/ service_account_token.h): verifying it gives an error or claims,
// never a crash; and a token the signer accepts names exactly the
// ServiceAccount of the one it issued (no byte string other than an encoding of
// that token may pass as another account).
#include <cstddef>
#include <cstdint>
#include <string>

#include "apiserver/service_account_token.h"

namespace {

using lws::apiserver::TokenClaims;
using lws::apiserver::TokenSigner;

const lws::Time kNow = lws::Time(std::chrono::seconds(1'800'000'000));

TokenClaims Issued() {
  return {.audiences = {std::string(lws::apiserver::kTokenIssuer)},
          .issued_at = kNow,
          .expires_at = kNow + std::chrono::hours(1),
          .namespace_ = "lws-system",
          .service_account = "lws-controller-manager",
          .service_account_uid = "uid-1"};
}

const TokenSigner& Signer() {
  static const auto* signer = [] {
    auto made = TokenSigner::Create(std::nullopt).value().release();
    (void)made->Sign(Issued()).value();  // makes the key
    return made;
  }();
  return *signer;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string token(reinterpret_cast<const char*>(data), size);
  auto claims = Signer().Verify(token, kNow);
  if (claims.ok()) {
    const TokenClaims want = Issued();
    if (claims->namespace_ != want.namespace_ || claims->service_account != want.service_account ||
        claims->service_account_uid != want.service_account_uid) {
      __builtin_trap();
    }
  }
  (void)TokenSigner::LooksLikeJwt(token);
  return 0;
}
