// File: apiserver/user_info.h
//
// Who a request comes from (admission/user_info.h) by the names the server's authenticator,
// authorizer and handlers use.
#pragma once

#include "admission/user_info.h"

namespace lws::apiserver {

using admission::AdminUser;
using admission::AnonymousUser;
using admission::kAllAuthenticated;
using admission::kAllUnauthenticated;
using admission::kMastersGroup;
using admission::UserInfo;
using admission::UserInfoJson;

}  // namespace lws::apiserver
