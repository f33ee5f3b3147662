// File: apiserver/service_account_token.cc
#include "apiserver/service_account_token.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

#include <algorithm>
#include <chrono>

#include "api/base64.h"
#include "api/field.h"
#include "apiserver/rbac_policy.h"
#include "base/file.h"
#include "transport/tls_certificates.h"

namespace lws::apiserver {
namespace {

using Json = api::Json;
using std::chrono::seconds;

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

std::string Base64Url(std::string_view bytes) {
  std::string out = api::Base64Encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return out;
}

Result<std::string> FromBase64Url(std::string_view text) {
  std::string padded(text);
  for (char& c : padded) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (padded.size() % 4 != 0) padded.push_back('=');
  return api::Base64Decode(padded);
}

std::int64_t Unix(Time t) {
  return std::chrono::duration_cast<seconds>(t.time_since_epoch()).count();
}
Time FromUnix(std::int64_t s) { return Time(std::chrono::duration_cast<Duration>(seconds(s))); }

Status Invalid(std::string_view why) {
  return Status(Code::kUnauthorized, "invalid bearer token, " + std::string(why));
}

Json ClaimsJson(const TokenClaims& c) {
  Json k8s = {{"namespace", c.namespace_},
              {"serviceaccount", {{"name", c.service_account}, {"uid", c.service_account_uid}}}};
  if (!c.bound_kind.empty()) {
    std::string key = c.bound_kind == "Pod" ? "pod" : "secret";
    k8s[key] = {{"name", c.bound_name}, {"uid", c.bound_uid}};
  }
  return {{"aud", c.audiences},
          {"exp", Unix(c.expires_at)},
          {"iat", Unix(c.issued_at)},
          {"iss", kTokenIssuer},
          {"jti", c.id},
          {"kubernetes.io", std::move(k8s)},
          {"nbf", Unix(c.issued_at)},
          {"sub", ServiceAccountUserName(c.namespace_, c.service_account)}};
}

Result<TokenClaims> ParseClaims(const Json& j) {
  if (!j.is_object() || api::StringMember(j, "iss") != kTokenIssuer) {
    return Invalid("the token was not issued by this server");
  }
  TokenClaims c;
  for (const Json& aud : api::ChildOrNull(j, "aud")) {
    if (aud.is_string()) c.audiences.push_back(aud.get<std::string>());
  }
  const Json& exp = api::ChildOrNull(j, "exp");
  const Json& nbf = api::ChildOrNull(j, "nbf");
  if (!exp.is_number_integer() || !nbf.is_number_integer())
    return Invalid("the token has no lifetime");
  c.expires_at = FromUnix(exp.get<std::int64_t>());
  c.issued_at = FromUnix(nbf.get<std::int64_t>());
  const Json& k8s = api::ChildOrNull(j, "kubernetes.io");
  c.namespace_ = api::StringMember(k8s, "namespace");
  const Json& sa = api::ChildOrNull(k8s, "serviceaccount");
  c.service_account = api::StringMember(sa, "name");
  c.service_account_uid = api::StringMember(sa, "uid");
  for (const char* kind : {"pod", "secret"}) {
    const Json& bound = api::ChildOrNull(k8s, kind);
    if (!bound.is_object()) continue;
    c.bound_kind = std::string(kind) == "pod" ? "Pod" : "Secret";
    c.bound_name = api::StringMember(bound, "name");
    c.bound_uid = api::StringMember(bound, "uid");
  }
  c.id = api::StringMember(j, "jti");
  if (c.namespace_.empty() || c.service_account.empty())
    return Invalid("the token names no service account");
  return c;
}

}  // namespace

struct TokenSigner::Key {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> pkey{nullptr, &EVP_PKEY_free};
  std::string id;  // kid: base64url of the SHA-256 of the public key's DER, as
                   // upstream derives it

  void SetId() {
    unsigned char* der = nullptr;
    int length = i2d_PUBKEY(pkey.get(), &der);
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(der, static_cast<std::size_t>(std::max(length, 0)), digest);
    OPENSSL_free(der);
    id = Base64Url(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
  }
};

TokenSigner::TokenSigner(std::unique_ptr<Key> key, std::optional<std::filesystem::path> key_file)
    : key_file_(std::move(key_file)), key_(std::move(key)) {}

TokenSigner::~TokenSigner() = default;

Result<std::unique_ptr<TokenSigner>> TokenSigner::Create(
    std::optional<std::filesystem::path> key_file) {
  std::unique_ptr<Key> key;
  if (key_file && FileExists(key_file->string())) {
    ASSIGN_OR_RETURN(std::string pem, ReadFile(key_file->string()));
    std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    key = std::make_unique<Key>();
    key->pkey.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (key->pkey == nullptr) {
      return Status(Code::kInternal,
                    transport::OpenSslErrorMessage("reading " + key_file->string()));
    }
    key->SetId();
  }
  return std::unique_ptr<TokenSigner>(new TokenSigner(std::move(key), std::move(key_file)));
}

const TokenSigner::Key* TokenSigner::LoadedKey() const {
  MutexLock lock(&mu_);
  return key_.get();
}

Result<const TokenSigner::Key*> TokenSigner::KeyForSigning() const {
  MutexLock lock(&mu_);
  if (key_ != nullptr) return key_.get();
  auto key = std::make_unique<Key>();
  key->pkey.reset(EVP_RSA_gen(2048));
  if (key->pkey == nullptr)
    return Status(Code::kInternal, transport::OpenSslErrorMessage("making the token key"));
  key->SetId();
  if (key_file_) {
    std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
    PEM_write_bio_PrivateKey(bio.get(), key->pkey.get(), nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    RETURN_IF_ERROR(WriteFileAtomically(key_file_->string(), std::string(data, size), true));
  }
  key_ = std::move(key);
  return key_.get();
}

Result<std::string> TokenSigner::Sign(const TokenClaims& claims) const {
  ASSIGN_OR_RETURN(const Key* key, KeyForSigning());
  const Json header = {{"alg", "RS256"}, {"kid", key->id}};
  const std::string input = Base64Url(header.dump()) + "." + Base64Url(ClaimsJson(claims).dump());
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  std::size_t size = 0;
  EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key->pkey.get());
  EVP_DigestSign(ctx.get(), nullptr, &size, reinterpret_cast<const unsigned char*>(input.data()),
                 input.size());
  std::string signature(size, '\0');
  EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size,
                 reinterpret_cast<const unsigned char*>(input.data()), input.size());
  signature.resize(size);
  return input + "." + Base64Url(signature);
}

bool TokenSigner::LooksLikeJwt(std::string_view token) {
  return std::count(token.begin(), token.end(), '.') == 2;
}

Result<TokenClaims> TokenSigner::Verify(std::string_view token, Time now) const {
  const std::size_t first = token.find('.');
  const std::size_t last = token.rfind('.');
  if (first == std::string_view::npos || first == last) return Invalid("not a JWT");
  Result<std::string> header = FromBase64Url(token.substr(0, first));
  Result<std::string> payload = FromBase64Url(token.substr(first + 1, last - first - 1));
  Result<std::string> signature = FromBase64Url(token.substr(last + 1));
  if (!header.ok() || !payload.ok() || !signature.ok()) return Invalid("not a JWT");
  Json header_json = Json::parse(*header, nullptr, false);
  if (!header_json.is_object() || api::StringMember(header_json, "alg") != "RS256") {
    return Invalid("unsupported signing algorithm");
  }
  const Key* key = LoadedKey();
  if (key == nullptr) return Invalid("this server has issued no tokens");
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  const std::string_view input = token.substr(0, last);
  EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key->pkey.get());
  if (EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature->data()),
                       signature->size(), reinterpret_cast<const unsigned char*>(input.data()),
                       input.size()) != 1) {
    ERR_clear_error();
    return Invalid("the signature does not match this server's key");
  }
  ASSIGN_OR_RETURN(TokenClaims claims, ParseClaims(Json::parse(*payload, nullptr, false)));
  const auto leeway = std::chrono::minutes(1);
  if (now > claims.expires_at + leeway) return Invalid("the token has expired");
  if (now + leeway < claims.issued_at) return Invalid("the token is not valid yet");
  return claims;
}

admission::UserInfo ServiceAccountUser(const TokenClaims& claims) {
  admission::UserInfo user{
      .name = ServiceAccountUserName(claims.namespace_, claims.service_account),
      .uid = claims.service_account_uid,
      .groups = {"system:serviceaccounts", "system:serviceaccounts:" + claims.namespace_,
                 std::string(admission::kAllAuthenticated)}};
  if (!claims.bound_kind.empty()) {
    const std::string prefix = "authentication.kubernetes.io/" +
                               std::string(claims.bound_kind == "Pod" ? "pod" : "secret");
    user.extra[prefix + "-name"] = {claims.bound_name};
    user.extra[prefix + "-uid"] = {claims.bound_uid};
  }
  if (!claims.id.empty())
    user.extra["authentication.kubernetes.io/credential-id"] = {"JTI=" + claims.id};
  return user;
}

}  // namespace lws::apiserver
