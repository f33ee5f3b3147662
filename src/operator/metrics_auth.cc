// TokenReview / SubjectAccessReview filter for the metrics server (metrics_auth.h).
#include "operator/metrics_auth.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>

#include "base/log.h"
#include "operator/endpoints.h"

namespace lws::op {
namespace {

std::string Sha256(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

// Drops expired entries; when the cache is still full, drops it all (a burst of distinct
// tokens must not grow memory without bound, and a re-review is cheap).
template <class Map>
void MakeRoom(Map* cache, Time now, std::size_t max) {
  if (cache->size() < max) return;
  std::erase_if(*cache, [now](const auto& entry) { return entry.second.expires <= now; });
  if (cache->size() >= max) cache->clear();
}

Result<std::vector<std::string>> Strings(const Json& value, const std::string& field) {
  std::vector<std::string> out;
  if (value.is_null()) return out;
  if (!value.is_array())
    return Status::BadRequest("TokenReview answer: " + field + ": want a list of strings");
  for (const Json& item : value) {
    if (!item.is_string())
      return Status::BadRequest("TokenReview answer: " + field + ": want a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

std::optional<std::string> BearerToken(const transport::HttpHeaders& headers) {
  std::string value = headers.Get("Authorization");
  std::size_t space = value.find(' ');
  if (space == std::string::npos) return std::nullopt;
  std::string scheme = value.substr(0, space);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "bearer") return std::nullopt;
  // Go: strings.SplitN(auth, " ", 3)[1]: the token ends at the next space.
  std::string token = value.substr(space + 1);
  token = token.substr(0, token.find(' '));
  if (token.empty()) return std::nullopt;
  return token;
}

Json TokenReviewFor(const std::string& token) {
  return Json{{"apiVersion", "authentication.k8s.io/v1"},
              {"kind", "TokenReview"},
              {"spec", {{"token", token}}}};
}

Result<std::optional<UserInfo>> UserFromTokenReview(const Json& answer) {
  if (!answer.is_object()) return Status::BadRequest("TokenReview answer: not an object");
  const Json status = answer.value("status", Json::object());
  if (!status.is_object()) return Status::BadRequest("TokenReview answer: status: want an object");
  if (status.value("authenticated", Json(false)) != Json(true)) return std::optional<UserInfo>();
  const Json user = status.value("user", Json::object());
  if (!user.is_object())
    return Status::BadRequest("TokenReview answer: status.user: want an object");
  UserInfo info;
  for (auto [field, out] : {std::pair{"username", &info.username}, std::pair{"uid", &info.uid}}) {
    const Json value = user.value(field, Json(""));
    if (!value.is_string()) {
      return Status::BadRequest(std::string("TokenReview answer: status.user.") + field +
                                ": want a string");
    }
    *out = value.get<std::string>();
  }
  ASSIGN_OR_RETURN(info.groups, Strings(user.value("groups", Json()), "status.user.groups"));
  const Json extra = user.value("extra", Json::object());
  if (!extra.is_object())
    return Status::BadRequest("TokenReview answer: status.user.extra: want an object");
  for (const auto& [key, values] : extra.items()) {
    ASSIGN_OR_RETURN(info.extra[key], Strings(values, "status.user.extra." + key));
  }
  return std::optional<UserInfo>(std::move(info));
}

Json SubjectAccessReviewFor(const UserInfo& user, const std::string& verb,
                            const std::string& path) {
  Json spec = {{"user", user.username},
               {"nonResourceAttributes", {{"path", path}, {"verb", verb}}}};
  if (!user.uid.empty()) spec["uid"] = user.uid;
  if (!user.groups.empty()) spec["groups"] = user.groups;
  if (!user.extra.empty()) spec["extra"] = user.extra;
  return Json{
      {"apiVersion", "authorization.k8s.io/v1"}, {"kind", "SubjectAccessReview"}, {"spec", spec}};
}

Result<bool> AllowedBySubjectAccessReview(const Json& answer) {
  if (!answer.is_object()) return Status::BadRequest("SubjectAccessReview answer: not an object");
  const Json status = answer.value("status", Json::object());
  if (!status.is_object())
    return Status::BadRequest("SubjectAccessReview answer: status: want an object");
  // An explicit denial wins; otherwise only `allowed: true` allows.
  if (status.value("denied", Json(false)) == Json(true)) return false;
  return status.value("allowed", Json(false)) == Json(true);
}

MetricsAuthorizer::MetricsAuthorizer(const client::Client* client, const Clock* clock,
                                     MetricsAuthOptions options)
    : client_(client), clock_(clock), options_(options) {}

std::uint64_t MetricsAuthorizer::token_reviews() const {
  MutexLock lock(&mu_);
  return token_reviews_;
}

std::uint64_t MetricsAuthorizer::access_reviews() const {
  MutexLock lock(&mu_);
  return access_reviews_;
}

Result<std::optional<UserInfo>> MetricsAuthorizer::Authenticate(const std::string& token) {
  const std::string key = Sha256(token);
  {
    MutexLock lock(&mu_);
    auto it = users_.find(key);
    if (it != users_.end() && clock_->Now() < it->second.expires) return it->second.user;
    ++token_reviews_;
  }
  // Unlocked: the review is a round trip, and other scrapes need not wait for it.
  ASSIGN_OR_RETURN(store::ObjectPtr answer, client_->Create(kTokenReviews, TokenReviewFor(token)));
  ASSIGN_OR_RETURN(std::optional<UserInfo> user, UserFromTokenReview(answer->document()));
  MutexLock lock(&mu_);
  Time now = clock_->Now();
  MakeRoom(&users_, now, options_.cache_entries_max);
  users_[key] = {user, now + options_.token_cache_ttl};
  return user;
}

Result<bool> MetricsAuthorizer::Authorize(const UserInfo& user, const std::string& verb,
                                          const std::string& path) {
  // Everything the review depends on, unambiguously joined.
  Json key_json = SubjectAccessReviewFor(user, verb, path)["spec"];
  const std::string key = key_json.dump();
  {
    MutexLock lock(&mu_);
    auto it = decisions_.find(key);
    if (it != decisions_.end() && clock_->Now() < it->second.expires) return it->second.allowed;
    ++access_reviews_;
  }
  ASSIGN_OR_RETURN(
      store::ObjectPtr answer,
      client_->Create(kSubjectAccessReviews, SubjectAccessReviewFor(user, verb, path)));
  ASSIGN_OR_RETURN(bool allowed, AllowedBySubjectAccessReview(answer->document()));
  MutexLock lock(&mu_);
  Time now = clock_->Now();
  MakeRoom(&decisions_, now, options_.cache_entries_max);
  decisions_[key] = {allowed, now + (allowed ? options_.allow_cache_ttl : options_.deny_cache_ttl)};
  return allowed;
}

std::optional<transport::HttpResponse> MetricsAuthorizer::Check(
    const transport::HttpRequest& request) {
  std::optional<std::string> token = BearerToken(request.headers);
  if (!token) return TextError(401, "Unauthorized");
  Result<std::optional<UserInfo>> user = Authenticate(*token);
  if (!user.ok()) {
    Logger("metrics")->error("Authentication failed: {}", user.status().ToString());
    return TextError(500, "Authentication failed");
  }
  if (!user->has_value()) return TextError(401, "Unauthorized");
  const UserInfo& info = **user;
  std::string verb = request.method;
  std::transform(verb.begin(), verb.end(), verb.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  Result<bool> allowed = Authorize(info, verb, TargetPath(request.target));
  if (!allowed.ok()) {
    std::string message = "Authorization for user " + info.username + " failed";
    Logger("metrics")->error("{}: {}", message, allowed.status().ToString());
    return TextError(500, message);
  }
  if (!*allowed) return TextError(403, "Authorization denied for user " + info.username);
  return std::nullopt;
}

transport::HttpHandler WithAuthenticationAndAuthorization(
    std::shared_ptr<MetricsAuthorizer> authorizer, transport::HttpHandler inner) {
  return [authorizer = std::move(authorizer),
          inner = std::move(inner)](const transport::HttpRequest& request) {
    if (std::optional<transport::HttpResponse> refused = authorizer->Check(request))
      return *refused;
    return inner(request);
  };
}

}  // namespace lws::op
