// File: base/status.h
//
// Status is the error channel between layers: no exception crosses a layer boundary. Its codes map
// one to one onto Kubernetes StatusReasons (metav1.StatusReason) and HTTP codes, so an error raised
// deep in the store or in validation reaches kubectl as the Status object a real API server sends.
//
//   Status s = Status::Invalid("LeaderWorkerSet", "demo", {FieldCause{...}});
//   if (!s.ok()) return s;
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lws {

enum class Code {
  kOk,
  kBadRequest,             // 400 BadRequest: malformed input.
  kUnauthorized,           // 401 Unauthorized.
  kForbidden,              // 403 Forbidden.
  kNotFound,               // 404 NotFound.
  kMethodNotAllowed,       // 405 MethodNotAllowed.
  kNotAcceptable,          // 406 NotAcceptable.
  kAlreadyExists,          // 409 AlreadyExists.
  kConflict,               // 409 Conflict: stale resourceVersion, apply conflict.
  kGone,                   // 410 Expired: resourceVersion too old for a watch or list.
  kRequestEntityTooLarge,  // 413 RequestEntityTooLarge.
  kUnsupportedMediaType,   // 415 UnsupportedMediaType.
  kInvalid,                // 422 Invalid: validation failed, see causes.
  kTooManyRequests,        // 429 TooManyRequests.
  kInternal,               // 500 InternalError.
  kServiceUnavailable,     // 503 ServiceUnavailable.
  kTimeout,                // 504 Timeout.
};

// One field-level reason for a failure, as metav1.StatusCause.
struct FieldCause {
  std::string type;     // e.g. "FieldValueInvalid", "FieldValueRequired".
  std::string message;  // e.g. "Invalid value: -1: replicas must be equal or greater than 0".
  std::string field;    // e.g. "spec.replicas".
  bool operator==(const FieldCause&) const = default;
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  Status(Code code, std::string message, std::vector<FieldCause> causes)
      : code_(code), message_(std::move(message)), causes_(std::move(causes)) {}

  static Status Ok() { return Status(); }
  static Status BadRequest(std::string m) { return {Code::kBadRequest, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {Code::kAlreadyExists, std::move(m)}; }
  static Status Conflict(std::string m) { return {Code::kConflict, std::move(m)}; }
  static Status Gone(std::string m) { return {Code::kGone, std::move(m)}; }
  static Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }
  static Status Invalid(std::string m, std::vector<FieldCause> causes) {
    return {Code::kInvalid, std::move(m), std::move(causes)};
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::vector<FieldCause>& causes() const { return causes_; }

  // Kubernetes StatusReason for this code ("NotFound", "Invalid", ...); "" for kOk.
  std::string_view reason() const;
  // HTTP status code that a Kubernetes API server sends with this reason.
  int http_code() const;
  // "NotFound: pods \"x\" not found"; "OK" when ok.
  std::string ToString() const;

  bool operator==(const Status&) const = default;

 private:
  Code code_ = Code::kOk;
  std::string message_;
  std::vector<FieldCause> causes_;
};

std::string_view CodeName(Code code);

// The Code of a metav1.Status answer: by its reason, else by its HTTP code (500 when neither is
// known). The inverse of Status::reason() / http_code(), for in-process clients of the API.
Code CodeFromReason(std::string_view reason, int http_code);

}  // namespace lws
