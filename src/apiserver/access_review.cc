// File: apiserver/access_review.cc
#include "apiserver/access_review.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "api/string_list.h"

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
    errors.push_back(
        api::Invalid(path.Child("user"), "", "at least one of user or group must be specified"));
  }
  return errors;
}

admission::UserInfo SubjectOf(const Json& spec) {
  admission::UserInfo user{.name = api::StringMember(spec, "user"),
                           .uid = api::StringMember(spec, "uid")};
  user.groups = api::StringList(spec, "groups");
  const Json& extra = api::ChildOrNull(spec, "extra");
  if (extra.is_object()) {
    for (const auto& item : extra.items())
      user.extra[item.key()] = api::StringList(extra, item.key());
  }
  return user;
}

Json SubjectAccessReviewStatus(const Json& spec, const admission::UserInfo& user,
                               const Authorizer* authorizer) {
  if (authorizer == nullptr) {
    return {{"allowed", true}, {"reason", "lws local cluster: authorization is off (no --token)"}};
  }
  AuthorizationAttributes a;
  a.user = user;
  if (HasObject(spec, "resourceAttributes")) {
    const Json& r = spec["resourceAttributes"];
    a.resource_request = true;
    a.namespace_ = api::StringMember(r, "namespace");
    a.verb = api::StringMember(r, "verb");
    a.api_group = api::StringMember(r, "group");
    a.api_version = api::StringMember(r, "version");
    a.resource = api::StringMember(r, "resource");
    a.subresource = api::StringMember(r, "subresource");
    a.name = api::StringMember(r, "name");
  } else {
    const Json& n = spec["nonResourceAttributes"];
    a.path = api::StringMember(n, "path");
    a.verb = api::StringMember(n, "verb");
  }
  AuthorizationDecision decision = authorizer->Authorize(a);
  Json status = {{"allowed", decision.allowed}};
  if (!decision.reason.empty()) status["reason"] = decision.reason;
  return status;
}

Json SubjectRulesReviewStatus(const Json& spec, const admission::UserInfo& user,
                              const Authorizer* authorizer) {
  if (authorizer == nullptr) {
    return {{"resourceRules", {{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}}},
            {"nonResourceRules", {{{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}}},
            {"incomplete", false}};
  }
  Json resource_rules = Json::array();
  Json non_resource_rules = Json::array();
  const std::string ns = api::StringMember(spec, "namespace");
  for (const PolicyRule& rule : authorizer->Policy()->RulesFor(user, ns)) {
    if (!rule.resources.empty()) {
      Json r = {
          {"verbs", rule.verbs}, {"apiGroups", rule.api_groups}, {"resources", rule.resources}};
      if (!rule.resource_names.empty()) r["resourceNames"] = rule.resource_names;
      resource_rules.push_back(std::move(r));
    }
    if (!rule.non_resource_urls.empty()) {
      non_resource_rules.push_back(
          {{"verbs", rule.verbs}, {"nonResourceURLs", rule.non_resource_urls}});
    }
  }
  return {{"resourceRules", std::move(resource_rules)},
          {"nonResourceRules", std::move(non_resource_rules)},
          {"incomplete", false}};
}

Json SelfSubjectReviewStatus(const admission::UserInfo& user) {
  return {{"userInfo", admission::UserInfoJson(user)}};
}

}  // namespace lws::apiserver
