// File: apiserver/api_request.h
//
// One request to the Kubernetes API as the handlers see it, whichever door it came in by:
//   - HTTP (ApiServer::Handle): FromHttp takes the method, the parsed target, the headers the
//     handlers read and the body's bytes from an HttpRequest;
//   - the write port (ApiServer::Write, write_port.h): an in-process caller's typed WriteCall,
//     with no URL, no query string and no bytes in between; the body is the caller's value.
// The handlers read the write options (WriteOptions) from here, never from the query, so both
// doors mean the same thing by them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/json_fwd.h"
#include "apiserver/request_target.h"
#include "transport/http.h"

namespace lws::apiserver {

// What kube-apiserver reads from a write's query (CreateOptions, UpdateOptions, PatchOptions,
// DeleteOptions' dryRun).
struct WriteOptions {
  std::string field_manager;     // fieldManager=, "" when not given
  std::optional<bool> force;     // force= when given (only server-side apply accepts it)
  bool dry_run = false;          // dryRun=All
  std::string field_validation;  // fieldValidation= as given ("" is Warn)
};

struct ApiRequest {
  std::string method;  // "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"
  RequestTarget target;
  WriteOptions options;
  std::string content_type;  // of the body; a patch's media type names its patch type
  std::string accept;
  // The field manager when none is given: kube-apiserver takes the User-Agent up to its first
  // '/' ("kubectl/v1.32.4 ..." -> "kubectl"); the port's caller names itself.
  std::string default_field_manager;
  // The body: an HTTP request's bytes (they outlive the request), or an in-process caller's
  // value, which the handler takes (moves from) instead of copying: a body is read once.
  const std::string* body_bytes = nullptr;
  api::Json* body_value = nullptr;
  // The caller runs in this process and takes the stored object itself from the answer, so an
  // object answer is not serialised and its decoding checks (depth, unknown fields of built-in
  // kinds) are skipped: this project's controllers build their objects typed.
  bool in_process = false;
  // What logs name the request by: the URL as sent, or the port's method and resource path.
  std::string log_target;

  // The body's bytes; "" when there are none (or the body is a value).
  const std::string& bytes() const {
    static const std::string kNoBody;
    return body_bytes != nullptr ? *body_bytes : kNoBody;
  }
  bool has_body() const {
    return body_value != nullptr || (body_bytes != nullptr && !body_bytes->empty());
  }
};

// The request an HTTP request makes, `target` being its parsed URL.
ApiRequest FromHttp(const transport::HttpRequest& http, RequestTarget target);

}  // namespace lws::apiserver
