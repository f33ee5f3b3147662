// File: apiserver/request_body.h
//
// Request bodies decoded the way kube-apiserver reports their problems: a malformed JSON body
// is a 400 whose message is `<context>: <parser's message>`, a malformed YAML (apply) body
// `error decoding YAML: <message>`. Nothing throws.
#pragma once

#include <string>
#include <string_view>

#include "api/codec.h"
#include "api/go_json_syntax.h"
#include "apiserver/patch.h"
#include "base/result.h"

namespace lws::apiserver {

using api::DecodeJsonBody;
Result<api::Json> DecodeYamlBody(const std::string& body);
// An object body (POST, PUT, DELETE options) by its Content-Type: YAML, JSON, or 415 for
// protobuf, which this server does not read.
Result<api::Json> ParseObjectBody(std::string_view content_type, const std::string& body);
// A PATCH body: YAML for apply, JSON for the other types.
Result<api::Json> ParsePatchBody(PatchType type, const std::string& body);

}  // namespace lws::apiserver
