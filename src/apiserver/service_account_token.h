// File: apiserver/service_account_token.h
//
// ServiceAccount tokens as kube-apiserver issues them through the TokenRequest
// API (POST .../serviceaccounts/{name}/token, what `kubectl create token`
// calls): a JWT signed with RS256 by the server's key, naming the issuer, the
// audiences, the ServiceAccount (namespace, name, uid), an optional bound Pod
// or Secret, and a lifetime. A token authenticates as
// system:serviceaccount:{namespace}:{name} in system:serviceaccounts,
// system:serviceaccounts:{namespace} and system:authenticated, only while its
// signature, times and audience check, and the ServiceAccount (and bound
// object) still exist with the uid it names: deleting the ServiceAccount
// revokes its tokens, as upstream.
//
// The key (RSA 2048) is made when the first token is issued, since generating
// one is slow and most servers never issue a token; with a data
// directory it is kept in sa.key (0600), so tokens outlive a restart. Signing
// and verifying are pure; the object checks read the store.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "admission/user_info.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"

namespace lws::apiserver {

// What a token says.
struct TokenClaims {
  std::vector<std::string> audiences;
  Time issued_at;
  Time expires_at;
  std::string namespace_;
  std::string service_account;
  std::string service_account_uid;
  std::string bound_kind;  // "Pod", "Secret" or ""
  std::string bound_name;
  std::string bound_uid;
  std::string id;  // jti
};

// The issuer and default audience, as a kubeadm cluster names them.
inline constexpr std::string_view kTokenIssuer = "https://kubernetes.default.svc.cluster.local";

class TokenSigner {
 public:
  // Loads the key from `key_file` when it exists; else the first Sign makes one
  // (and writes it there, 0600, when a path is given).
  static Result<std::unique_ptr<TokenSigner>> Create(std::optional<std::filesystem::path> key_file);
  ~TokenSigner();
  TokenSigner(const TokenSigner&) = delete;
  TokenSigner& operator=(const TokenSigner&) = delete;

  Result<std::string> Sign(const TokenClaims& claims) const;
  // The claims of a token this signer made, checked at `now` (a minute of
  // leeway, as go-jose): Unauthorized "invalid bearer token, ..." when the
  // token is malformed, not ours, forged, expired or not yet valid. Whether the
  // ServiceAccount still exists is the caller's check.
  Result<TokenClaims> Verify(std::string_view token, Time now) const;
  // Whether `token` looks like a JWT naming our issuer (so a failure is worth
  // its message).
  static bool LooksLikeJwt(std::string_view token);

 private:
  struct Key;
  TokenSigner(std::unique_ptr<Key> key, std::optional<std::filesystem::path> key_file);
  // The key, made (and written) on first use; null until a token was issued or
  // one was loaded.
  Result<const Key*> KeyForSigning() const;
  const Key* LoadedKey() const;

  std::optional<std::filesystem::path> key_file_;
  mutable Mutex mu_;
  mutable std::unique_ptr<Key> key_ GUARDED_BY(mu_);  // set once, never replaced
};

// The user a verified token authenticates as.
admission::UserInfo ServiceAccountUser(const TokenClaims& claims);

}  // namespace lws::apiserver
