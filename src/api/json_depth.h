// File: api/json_depth.h
//
// Go's encoding/json refuses documents nested deeper than 10,000 levels; kube-apiserver inherits
// that bound on every body it decodes. Enforcing it on every input (bodies, patches, patched
// objects, raw JSON inside protobuf) bounds the recursion of everything downstream: serializers,
// merges and validation recurse once per level. Both checks below are iterative.
#pragma once

#include <string>
#include <string_view>

#include "api/field.h"

namespace lws::api {

inline constexpr int kMaxJsonDepth = 10000;

// The offset of the first '{' or '[' that opens level `limit + 1` of the JSON text, or npos when
// it nests at most `limit` levels. Strings are skipped, so brackets inside them do not count; the
// text need not be valid JSON.
std::size_t FirstTooDeep(std::string_view text, int limit);

// "" when the JSON text nests at most kMaxJsonDepth levels, else Go's decoder message
// "invalid character '{' exceeded max depth" (with the bracket that went too deep).
std::string JsonTextDepthError(std::string_view text);

// The same for a parsed document.
std::string JsonDepthError(const Json& v);

}  // namespace lws::api
