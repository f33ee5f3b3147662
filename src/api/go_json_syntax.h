// File: api/go_json_syntax.h
//
// The syntax error Go's encoding/json reports for a malformed JSON text, so that the API server
// words a bad body as kube-apiserver does ("couldn't get version/kind; json parse error: invalid
// character 'b' looking for beginning of object key string") instead of with the JSON library's
// internals. The checker is a state machine with the states of Go's scanner (scanner.go): it
// stops at the first byte Go would refuse and names it as Go does (quoteChar: 'x', '\'', '"',
// '\n', '\x01'), with Go's context for each state. Iterative; nesting beyond 10,000 levels is
// Go's "exceeded max depth" (api/json_depth.h).
#pragma once

#include <string>
#include <string_view>

#include "api/field.h"
#include "base/result.h"

namespace lws::api {

// "" when `text` is one valid JSON value (with optional surrounding whitespace), else Go's
// message: "unexpected end of JSON input", "invalid character 'x' looking for beginning of
// value", "invalid character '}' after object key", ...
std::string GoJsonSyntaxError(std::string_view text);

// A JSON body decoded as kube-apiserver reports its problems: a malformed or too deep text is a
// 400 BadRequest whose message is `<context>: <Go's message>` ("couldn't get version/kind; json
// parse error: ..."). Nothing throws.
Result<Json> DecodeJsonBody(const std::string& body, std::string_view context);

}  // namespace lws::api
