// File: apiserver/authenticator.h
//
// Who a request comes from. With authentication on (the server has an admin token), in
// kube-apiserver's order:
//   - an in-process caller is the user it names, else the administrator;
//   - `Authorization: Bearer <admin token>` is system:admin in system:masters (compared in
//     constant time);
//   - a bearer ServiceAccount token (service_account_token.h) is that ServiceAccount, while the
//     token checks, names the API server's audience, and the ServiceAccount (and its bound
//     object) exist with the uid it names;
//   - any other bearer token is refused (401), as upstream refuses an invalid token even when
//     anonymous requests are allowed; the reason is logged, the answer is a bare Unauthorized;
//   - no credentials: system:anonymous in system:unauthenticated, which RBAC lets read /version
//     and the health paths and nothing else.
// With authentication off (no token: the local cluster's insecure mode) every caller is the
// administrator, and authorization allows everything.
//
// TokenReview answers from the same checks, and TokenRequest issues the tokens.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apiserver/service_account_token.h"
#include "store/store.h"
#include "transport/http.h"

namespace lws::apiserver {

class Authenticator {
 public:
  Authenticator(store::Store* store, const Clock* clock, std::string admin_token,
                std::unique_ptr<TokenSigner> signer);

  bool enabled() const { return !admin_token_.empty(); }
  // The user of `request`; Unauthorized for a bearer token nobody issued, one no longer valid,
  // or one whose audiences do not include the API server's (kTokenIssuer).
  Result<admission::UserInfo> Authenticate(const transport::HttpRequest& request) const;
  // status of a TokenReview with `spec` (token, audiences), as kube-apiserver answers it.
  api::Json Review(const api::Json& spec) const;
  // The TokenRequest `request` for ServiceAccount `name` in `namespace_`, answered:
  // status.token and status.expirationTimestamp filled in. NotFound without the ServiceAccount
  // (or the bound object), Invalid for a lifetime under 10 minutes or over 2^32 seconds.
  Result<api::Json> IssueToken(const std::string& namespace_, const std::string& name,
                               api::Json request) const;

 private:
  // Whom a bearer token names, and for which audiences.
  struct Credential {
    admission::UserInfo user;
    // The token's audiences; none for the admin token, which holds for any audience.
    std::optional<std::vector<std::string>> audiences;
    // The audiences of `wanted` this credential holds for.
    std::vector<std::string> Granted(const std::vector<std::string>& wanted) const;
  };
  // The credential of a bearer token: admin, a ServiceAccount, or Unauthorized.
  Result<Credential> FromToken(std::string_view token) const;
  // Ok while the ServiceAccount and bound object of `claims` exist with the uids it names.
  Status StillBound(const TokenClaims& claims) const;

  store::Store* store_;
  const Clock* clock_;
  std::string admin_token_;
  std::unique_ptr<TokenSigner> signer_;
};

}  // namespace lws::apiserver
