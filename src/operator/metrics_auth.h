// File: operator/metrics_auth.h
//
// The metrics server's authentication and authorization filter, as controller-runtime's
// filters.WithAuthenticationAndAuthorization (spec 21.3): the caller's bearer token is checked
// with a TokenReview, and the user it names must be allowed `get` on the non-resource URL
// /metrics by a SubjectAccessReview, both asked of the API server through the client
// (RBAC: the operator creates tokenreviews and subjectaccessreviews; a scraper needs a
// ClusterRole with nonResourceURLs ["/metrics"], verbs ["get"]).
//
// Answers, as Go's http.Error writes them (text/plain, message and newline):
//   no or empty bearer token, or TokenReview not authenticated   401 "Unauthorized"
//   TokenReview request failed                                  500 "Authentication failed"
//   SubjectAccessReview denies                                  403 "Authorization denied for user
//   <name>" SubjectAccessReview request failed                          500 "Authorization for user
//   <name> failed"
//
// Results are cached as the delegating authenticator and authorizer do: token reviews (either
// answer) for 1 minute, keyed by the token's SHA-256 (the token itself is never kept); allowed
// for 5 minutes, denied for 30 seconds. Failed requests are not cached. Each cache is bounded.
//
// Threading: thread-safe; reviews run on the calling (server I/O) thread and block it for the
// round trip to the API server, which is fine for a scrape every few seconds.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/codec.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "client/client.h"
#include "transport/http.h"

namespace lws::op {

using api::Json;

inline const client::Resource kTokenReviews{"authentication.k8s.io", "v1", "tokenreviews", false};
inline const client::Resource kSubjectAccessReviews{"authorization.k8s.io", "v1",
                                                    "subjectaccessreviews", false};

// authentication.k8s.io/v1 UserInfo.
struct UserInfo {
  std::string username;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;
  bool operator==(const UserInfo&) const = default;
};

// The token of an "Authorization: Bearer <token>" header ("bearer" in any case); nullopt
// when the header is absent, of another scheme, or the token is empty.
std::optional<std::string> BearerToken(const transport::HttpHeaders& headers);

// The TokenReview to create for `token`.
Json TokenReviewFor(const std::string& token);
// The user a TokenReview answer authenticates; nullopt when status.authenticated is not true.
// BadRequest when the answer is not a TokenReview-shaped object.
Result<std::optional<UserInfo>> UserFromTokenReview(const Json& answer);

// The SubjectAccessReview asking whether `user` may `verb` the non-resource `path`.
Json SubjectAccessReviewFor(const UserInfo& user, const std::string& verb, const std::string& path);
// status.allowed of an answer (denied when absent); BadRequest when it is not an object.
Result<bool> AllowedBySubjectAccessReview(const Json& answer);

struct MetricsAuthOptions {
  Duration token_cache_ttl = std::chrono::minutes(1);
  Duration allow_cache_ttl = std::chrono::minutes(5);
  Duration deny_cache_ttl = std::chrono::seconds(30);
  std::size_t cache_entries_max = 4096;
};

class MetricsAuthorizer {
 public:
  // REQUIRES: client and clock outlive it.
  MetricsAuthorizer(const client::Client* client, const Clock* clock,
                    MetricsAuthOptions options = {});

  // nullopt when the request may pass; otherwise the answer to send instead.
  std::optional<transport::HttpResponse> Check(const transport::HttpRequest& request);

  // Reviews sent to the API server so far (cache misses), for tests and logs.
  std::uint64_t token_reviews() const;
  std::uint64_t access_reviews() const;

 private:
  struct CachedUser {
    std::optional<UserInfo> user;
    Time expires;
  };
  struct CachedDecision {
    bool allowed;
    Time expires;
  };
  Result<std::optional<UserInfo>> Authenticate(const std::string& token);
  Result<bool> Authorize(const UserInfo& user, const std::string& verb, const std::string& path);

  const client::Client* const client_;
  const Clock* const clock_;
  const MetricsAuthOptions options_;
  mutable Mutex mu_;
  std::map<std::string, CachedUser> users_ GUARDED_BY(mu_);          // by SHA-256 of the token
  std::map<std::string, CachedDecision> decisions_ GUARDED_BY(mu_);  // by user, groups, verb, path
  std::uint64_t token_reviews_ GUARDED_BY(mu_) = 0;
  std::uint64_t access_reviews_ GUARDED_BY(mu_) = 0;
};

// `inner` behind the filter; the handler shares the authorizer (and its caches).
transport::HttpHandler WithAuthenticationAndAuthorization(
    std::shared_ptr<MetricsAuthorizer> authorizer, transport::HttpHandler inner);

}  // namespace lws::op
