// File: apiserver/authenticator.cc
#include "apiserver/authenticator.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "admission/admission.h"
#include "api/string_list.h"
#include "apiserver/access_review.h"

namespace lws::apiserver {
namespace {

using Json = api::Json;

constexpr std::int64_t kDefaultTokenSeconds = 3600;
constexpr std::int64_t kMinTokenSeconds = 600;

std::string_view BearerToken(std::string_view header) {
  constexpr std::string_view kPrefix = "Bearer ";
  if (header.substr(0, kPrefix.size()) != kPrefix) return {};
  header.remove_prefix(kPrefix.size());
  while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
  return header;
}

std::vector<std::string> Intersection(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end()) out.push_back(x);
  }
  return out;
}

Status NotFound(std::string_view resource, std::string_view name) {
  return Status(Code::kNotFound, fmt::format("{} {} not found", resource, api::GoQuote(name)));
}

}  // namespace

Authenticator::Authenticator(store::Store* store, const Clock* clock, std::string admin_token,
                             std::unique_ptr<TokenSigner> signer)
    : store_(store),
      clock_(clock),
      admin_token_(std::move(admin_token)),
      signer_(std::move(signer)) {}

Result<admission::UserInfo> Authenticator::Authenticate(
    const transport::HttpRequest& request) const {
  if (!enabled()) return admission::AdminUser();
  const std::string header = request.headers.Get("Authorization");
  if (header.empty()) return admission::AnonymousUser();
  std::string_view token = BearerToken(header);
  if (token.empty()) return Status(Code::kUnauthorized, "Unauthorized");
  Result<Credential> credential = FromToken(token);
  if (credential.ok() && credential->Granted({std::string(kTokenIssuer)}).empty()) {
    credential = Status(Code::kUnauthorized,
                        fmt::format("token audiences [{}] is invalid for the target audiences [{}]",
                                    fmt::join(*credential->audiences, " "), kTokenIssuer));
  }
  if (!credential.ok()) {
    // The client gets kube-apiserver's bare "Unauthorized"; why stays in the log.
    spdlog::info("401 {} {}: {}", request.method, request.target, credential.status().message());
    return Status(Code::kUnauthorized, "Unauthorized");
  }
  return std::move(credential->user);
}

std::vector<std::string> Authenticator::Credential::Granted(
    const std::vector<std::string>& wanted) const {
  return audiences.has_value() ? Intersection(*audiences, wanted) : wanted;
}

Result<Authenticator::Credential> Authenticator::FromToken(std::string_view token) const {
  if (!admin_token_.empty() && TokenMatches(token, admin_token_)) {
    return Credential{.user = admission::AdminUser(), .audiences = std::nullopt};
  }
  if (signer_ == nullptr || !TokenSigner::LooksLikeJwt(token)) {
    return Status(Code::kUnauthorized, "invalid bearer token");
  }
  ASSIGN_OR_RETURN(TokenClaims claims, signer_->Verify(token, clock_->Now()));
  RETURN_IF_ERROR(StillBound(claims));
  return Credential{.user = ServiceAccountUser(claims), .audiences = claims.audiences};
}

Status Authenticator::StillBound(const TokenClaims& claims) const {
  auto check = [&](const char* resource, const std::string& name,
                   const std::string& uid) -> Status {
    Result<store::ObjectPtr> object =
        store_->Get(admission::BuiltinResource("", resource), claims.namespace_, name);
    if (!object.ok()) {
      return Status(Code::kUnauthorized,
                    fmt::format("invalid bearer token, {} {}/{} has been deleted", resource,
                                claims.namespace_, name));
    }
    if ((*object)->uid() != uid) {
      return Status(Code::kUnauthorized,
                    fmt::format("invalid bearer token, {} {}/{} has been "
                                "deleted and created again "
                                "(uid {} is not {})",
                                resource, claims.namespace_, name, uid, (*object)->uid()));
    }
    return Status::Ok();
  };
  RETURN_IF_ERROR(check("serviceaccounts", claims.service_account, claims.service_account_uid));
  if (claims.bound_kind == "Pod") return check("pods", claims.bound_name, claims.bound_uid);
  if (claims.bound_kind == "Secret") return check("secrets", claims.bound_name, claims.bound_uid);
  return Status::Ok();
}

Json Authenticator::Review(const Json& spec) const {
  const std::string token = api::StringMember(spec, "token");
  Result<Credential> credential = FromToken(token);
  if (!credential.ok()) {
    return {{"user", Json::object()}, {"error", credential.status().message()}};
  }
  // The audiences the caller asks about (default: the API server's); a ServiceAccount token
  // must name one of them.
  std::vector<std::string> wanted = api::StringList(spec, "audiences");
  const bool defaulted = wanted.empty();
  if (defaulted) wanted = {std::string(kTokenIssuer)};
  std::vector<std::string> granted = credential->Granted(wanted);
  if (granted.empty()) {
    return {{"user", Json::object()},
            {"error", fmt::format("token audiences [{}] is invalid for the target audiences [{}]",
                                  fmt::join(*credential->audiences, " "), fmt::join(wanted, " "))}};
  }
  Json status = {{"authenticated", true}, {"user", admission::UserInfoJson(credential->user)}};
  if (!defaulted) status["audiences"] = granted;
  return status;
}

Result<Json> Authenticator::IssueToken(const std::string& namespace_, const std::string& name,
                                       Json request) const {
  if (signer_ == nullptr) return Status(Code::kInternal, "this server issues no tokens");
  Result<store::ObjectPtr> account =
      store_->Get(admission::BuiltinResource("", "serviceaccounts"), namespace_, name);
  if (!account.ok()) return NotFound("serviceaccounts", name);
  Json& spec = request["spec"];
  if (!spec.is_object()) spec = Json::object();
  if (!spec.contains("expirationSeconds")) spec["expirationSeconds"] = kDefaultTokenSeconds;
  const Json& seconds = spec["expirationSeconds"];
  const std::int64_t lifetime = seconds.is_number_integer() ? seconds.get<std::int64_t>() : 0;
  api::ErrorList errors;
  api::FieldPath path = api::FieldPath("spec").Child("expirationSeconds");
  if (lifetime < kMinTokenSeconds) {
    errors.push_back(
        api::Invalid(path, seconds, "may not specify a duration less than 10 minutes"));
  } else if (lifetime > std::int64_t{std::numeric_limits<std::uint32_t>::max()}) {
    errors.push_back(
        api::Invalid(path, seconds, "may not specify a duration larger than 2^32 seconds"));
  }
  if (!errors.empty())
    return api::InvalidStatus("TokenRequest.authentication.k8s.io", name, errors);
  TokenClaims claims;
  claims.audiences = api::StringList(spec, "audiences");
  if (claims.audiences.empty()) claims.audiences = {std::string(kTokenIssuer)};
  spec["audiences"] = claims.audiences;
  claims.issued_at = clock_->Now();
  claims.expires_at = claims.issued_at + std::chrono::seconds(lifetime);
  claims.namespace_ = namespace_;
  claims.service_account = name;
  claims.service_account_uid = (*account)->uid();
  const Json& bound = api::ChildOrNull(spec, "boundObjectRef");
  if (bound.is_object()) {
    claims.bound_kind = api::StringMember(bound, "kind");
    claims.bound_name = api::StringMember(bound, "name");
    if (claims.bound_kind != "Pod" && claims.bound_kind != "Secret") {
      return api::InvalidStatus(
          "TokenRequest.authentication.k8s.io", name,
          {api::NotSupported(api::FieldPath("spec").Child("boundObjectRef").Child("kind"),
                             bound["kind"], {"Pod", "Secret"})});
    }
    const char* resource = claims.bound_kind == "Pod" ? "pods" : "secrets";
    Result<store::ObjectPtr> object =
        store_->Get(admission::BuiltinResource("", resource), namespace_, claims.bound_name);
    if (!object.ok()) return NotFound(resource, claims.bound_name);
    claims.bound_uid = (*object)->uid();
  }
  claims.id = store_->ReserveUid();
  request["metadata"] = {{"name", name},
                         {"namespace", namespace_},
                         {"creationTimestamp", FormatRfc3339(claims.issued_at)}};
  ASSIGN_OR_RETURN(std::string token, signer_->Sign(claims));
  request["status"] = {{"token", std::move(token)},
                       {"expirationTimestamp", FormatRfc3339(claims.expires_at)}};
  return request;
}

}  // namespace lws::apiserver
