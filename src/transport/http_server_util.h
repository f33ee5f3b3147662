// File: transport/http_server_util.h
//
// The transport's small decisions that need no socket (internal to http_server*.cc and
// http_connection.cc): the metav1.Status answers it gives by itself, which header fields are its
// own, and endpoint formatting. Messages follow apimachinery's errors package where Kubernetes
// has the error (413 "Request entity too large: ...", 429 "Too many requests: ...", 500
// "Internal error occurred: ...", 504 "Timeout: ..."); 400 and 431 are answered by Go's net/http
// before the API server sees the request, in plain text, so their Status here is our own wording.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "transport/http.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace lws::transport::internal {

// 413 RequestEntityTooLarge.
HttpResponse BodyTooLargeResponse(std::size_t limit_bytes);
// 431, no Kubernetes reason exists for it.
HttpResponse HeaderTooLargeResponse(std::size_t limit_bytes);
// 400 BadRequest for a request Beast could not parse; `parse_error` is Beast's message.
HttpResponse MalformedRequestResponse(std::string_view parse_error);
// 429 TooManyRequests with Retry-After: 1, when max_streams streams are open.
HttpResponse TooManyStreamsResponse(std::size_t limit);
// 500 InternalError for a handler that threw `what`.
HttpResponse InternalErrorResponse(std::string_view what);
// 504 Timeout for a request whose handler ran past HttpServerOptions::request_timeout, worded as
// kube-apiserver's timeout filter words it.
HttpResponse RequestTimeoutResponse();
// 503 ServiceUnavailable for a request the server stopped waiting for because it shuts down.
HttpResponse ShuttingDownResponse();
// 500 InternalError for a handler that answered a status code HTTP cannot carry.
HttpResponse InvalidStatusResponse(int status);

// GET, HEAD and OPTIONS: they read, and run on the readers' handler pool.
bool IsReadMethod(std::string_view method);

// A final status code: 200-599 (a handler never sends 1xx).
bool ValidStatusCode(int status);
// False for 204 and 304, which carry neither body nor Content-Length.
bool StatusHasBody(int status);
// Content-Length, Transfer-Encoding and Connection: the transport sets them, a handler's copy
// is dropped.
bool IsTransportHeader(std::string_view name);

// "127.0.0.1:8080", "[::1]:8080".
std::string FormatEndpoint(const std::string& address, uint16_t port);

// Calls stream.Cancel(); an exception from it is logged, never propagated.
void CancelStream(ResponseStream& stream, spdlog::logger& log);

}  // namespace lws::transport::internal
