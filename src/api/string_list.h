// File: api/string_list.h
//
// A []string member of a loosely typed document (RBAC rules, webhook rules, token claims, CRD
// names), read without a typed decode.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/json_fwd.h"

namespace lws::api {

// The string items of the array member `key` of `object`; items of other types are skipped, and
// a missing or non-array member (or a non-object `object`) is empty.
std::vector<std::string> StringList(const Json& object, std::string_view key);

}  // namespace lws::api
