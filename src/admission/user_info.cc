// File: admission/user_info.cc
#include "admission/user_info.h"

#include <algorithm>

namespace lws::admission {

bool UserInfo::InGroup(std::string_view group) const {
  return std::find(groups.begin(), groups.end(), group) != groups.end();
}

api::Json UserInfoJson(const UserInfo& user) {
  api::Json out = {{"username", user.name}};
  if (!user.uid.empty()) out["uid"] = user.uid;
  if (!user.groups.empty()) out["groups"] = user.groups;
  if (!user.extra.empty()) out["extra"] = user.extra;
  return out;
}

UserInfo AnonymousUser() {
  return {.name = "system:anonymous", .groups = {std::string(kAllUnauthenticated)}};
}

UserInfo AdminUser() {
  return {.name = "system:admin",
          .groups = {std::string(kMastersGroup), std::string(kAllAuthenticated)}};
}

}  // namespace lws::admission
