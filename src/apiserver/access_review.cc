// File: apiserver/access_review.cc
#include "apiserver/access_review.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "apiserver/admission_review.h"

namespace lws::apiserver {
namespace {

bool HasObject(const Json& spec, std::string_view key) {
  auto it = spec.find(key);
  return it != spec.end() && it->is_object();
}

}  // namespace

bool TokenMatches(std::string_view presented, std::string_view expected) {
  unsigned char a[SHA256_DIGEST_LENGTH];
  unsigned char b[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(presented.data()), presented.size(), a);
  SHA256(reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), b);
  return CRYPTO_memcmp(a, b, sizeof a) == 0;
}

Json TokenReviewStatus(const Json& spec, std::string_view server_token) {
  std::string token = api::StringMember(spec, "token");
  if (!server_token.empty() && !TokenMatches(token, server_token)) {
    return {{"user", Json::object()}, {"error", "invalid bearer token"}};
  }
  Json status = {{"authenticated", true}, {"user", LocalUserInfo()}};
  // An audience-agnostic authenticator answers with the audiences it was asked for.
  auto audiences = spec.find("audiences");
  if (audiences != spec.end() && audiences->is_array() && !audiences->empty()) {
    status["audiences"] = *audiences;
  }
  return status;
}

Status ValidateTokenReview(const Json& spec) {
  if (api::StringMember(spec, "token").empty()) {
    return Status::BadRequest("token is required for TokenReview in authentication");
  }
  return Status::Ok();
}

api::ErrorList ValidateSubjectAccessReview(const Json& spec, bool self) {
  api::ErrorList errors;
  const bool resource = HasObject(spec, "resourceAttributes");
  const bool non_resource = HasObject(spec, "nonResourceAttributes");
  api::FieldPath path("spec");
  if (resource && non_resource) {
    errors.push_back(api::Invalid(path.Child("nonResourceAttributes"),
                                  spec["nonResourceAttributes"],
                                  "cannot be specified in combination with resourceAttributes"));
  } else if (!resource && !non_resource) {
    // Go prints the nil *NonResourceAttributes upstream passes as "null".
    errors.push_back(api::Invalid(path.Child("resourceAttributes"), "null",
                                  "exactly one of nonResourceAttributes or resourceAttributes "
                                  "must be specified"));
  }
  auto groups = spec.find("groups");
  const bool has_groups = groups != spec.end() && groups->is_array() && !groups->empty();
  if (!self && api::StringMember(spec, "user").empty() && !has_groups) {
    errors.push_back(api::Invalid(path.Child("user"), "",
                                  "at least one of user or group must be specified"));
  }
  return errors;
}

Json SubjectRulesReviewStatus() {
  return {{"resourceRules", {{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}}},
          {"nonResourceRules", {{{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}}},
          {"incomplete", false}};
}

Json SelfSubjectReviewStatus() { return {{"userInfo", LocalUserInfo()}}; }

Json SubjectAccessReviewStatus() {
  return {{"allowed", true},
          {"reason", "lws local cluster: every authenticated caller is an administrator"}};
}

}  // namespace lws::apiserver
