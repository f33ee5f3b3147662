// File: admission/user_info.h
//
// Who a request comes from, as an authenticator found it:
// authentication.k8s.io/v1 UserInfo, the groups every request carries
// (system:authenticated, or system:unauthenticated for the anonymous user) and
// the privileged group system:masters, which no RBAC rule can narrow.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"

namespace lws::admission {

struct UserInfo {
  std::string name;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  bool InGroup(std::string_view group) const;
  bool operator==(const UserInfo&) const = default;
};

inline constexpr std::string_view kAllAuthenticated = "system:authenticated";
inline constexpr std::string_view kAllUnauthenticated = "system:unauthenticated";
inline constexpr std::string_view kMastersGroup = "system:masters";

// The user's JSON, as TokenReview, SelfSubjectReview and AdmissionReview carry
// it.
api::Json UserInfoJson(const UserInfo& user);

// system:anonymous in system:unauthenticated: a request without credentials.
UserInfo AnonymousUser();
// system:admin in system:masters: the cluster's administrator (the admin token,
// in-process callers that name no user).
UserInfo AdminUser();

}  // namespace lws::admission
