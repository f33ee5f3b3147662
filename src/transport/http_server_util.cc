// File: transport/http_server_util.cc
#include "transport/http_server_util.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <exception>
#include <nlohmann/json.hpp>

#include "base/assert.h"
#include "base/log.h"
#include "base/status.h"

namespace lws::transport::internal {
namespace {

// A failure as the metav1.Status answer every Kubernetes server sends, with `code` as the HTTP
// status: {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":...,
// "reason":...,"code":...}. An empty `reason` is left out (a code Kubernetes has no reason for).
// The transport's refusals concern no resource, so they carry no details; the API server's
// answers do (apiserver/status_json.h).
HttpResponse FailureResponse(int code, std::string_view reason, const std::string& message) {
  nlohmann::json body = nlohmann::json::object();  // members sorted, as the API server's are
  body["kind"] = "Status";
  body["apiVersion"] = "v1";
  body["metadata"] = nlohmann::json::object();
  body["status"] = "Failure";
  if (!message.empty()) body["message"] = message;
  if (!reason.empty()) body["reason"] = reason;
  body["code"] = code;
  HttpResponse response;
  response.status = code;
  response.headers.Add("Content-Type", "application/json");
  response.body = body.dump();
  return response;
}

HttpResponse StatusResponse(const Status& status) {
  LWS_ASSERT(!status.ok() && status.causes().empty(), "the transport refuses without causes");
  return FailureResponse(status.http_code(), status.reason(), status.message());
}

}  // namespace

HttpResponse BodyTooLargeResponse(std::size_t limit_bytes) {
  return StatusResponse(Status(Code::kRequestEntityTooLarge, "Request entity too large: limit is " +
                                                                 std::to_string(limit_bytes)));
}

HttpResponse HeaderTooLargeResponse(std::size_t limit_bytes) {
  // lws::Status has no code for 431, and a Status without a reason is what Kubernetes clients
  // expect for a code they have no reason for.
  return FailureResponse(
      431, "", "request header fields too large (limit " + std::to_string(limit_bytes) + " bytes)");
}

HttpResponse MalformedRequestResponse(std::string_view parse_error) {
  return StatusResponse(Status::BadRequest("malformed HTTP request: " + std::string(parse_error)));
}

HttpResponse TooManyStreamsResponse(std::size_t limit) {
  HttpResponse response = StatusResponse(
      Status(Code::kTooManyRequests,
             "Too many requests: too many open watches (limit " + std::to_string(limit) + ")"));
  response.headers.Add("Retry-After", "1");
  return response;
}

HttpResponse InternalErrorResponse(std::string_view what) {
  return StatusResponse(Status::Internal("Internal error occurred: " + std::string(what)));
}

HttpResponse RequestTimeoutResponse() {
  // apierrors.NewTimeoutError(fmt.Sprintf("request did not complete within requested timeout -
  // %s", ctx.Err()), 0) in k8s.io/apiserver's WithTimeoutForNonLongRunningRequests.
  return StatusResponse(Status(Code::kTimeout,
                               "Timeout: request did not complete within requested timeout - "
                               "context deadline exceeded"));
}

HttpResponse ShuttingDownResponse() {
  return StatusResponse(Status(Code::kServiceUnavailable, "the server is shutting down"));
}

bool IsReadMethod(std::string_view method) {
  return method == "GET" || method == "HEAD" || method == "OPTIONS";
}

HttpResponse InvalidStatusResponse(int status) {
  return InternalErrorResponse("handler answered HTTP status " + std::to_string(status));
}

bool ValidStatusCode(int status) { return status >= 200 && status <= 599; }

bool StatusHasBody(int status) { return status != 204 && status != 304; }

bool IsTransportHeader(std::string_view name) {
  static constexpr std::array<std::string_view, 3> kOwn = {"Content-Length", "Transfer-Encoding",
                                                           "Connection"};
  return std::any_of(kOwn.begin(), kOwn.end(),
                     [&](std::string_view own) { return EqualsIgnoreCase(own, name); });
}

std::string FormatEndpoint(const std::string& address, uint16_t port) {
  const bool v6 = address.find(':') != std::string::npos;
  return (v6 ? "[" + address + "]" : address) + ":" + std::to_string(port);
}

void CancelStream(ResponseStream& stream, spdlog::logger& log) {
  try {
    stream.Cancel();
  } catch (const std::exception& e) {
    log.error("stream Cancel failed: {}", e.what());
  } catch (...) {
    log.error("stream Cancel failed: unknown exception");
  }
}

}  // namespace lws::transport::internal
