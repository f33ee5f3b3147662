#include "base/status.h"

namespace lws {

namespace {

struct CodeInfo {
  std::string_view reason;
  int http;
};

CodeInfo Info(Code code) {
  switch (code) {
    case Code::kOk:
      return {"", 200};
    case Code::kBadRequest:
      return {"BadRequest", 400};
    case Code::kUnauthorized:
      return {"Unauthorized", 401};
    case Code::kForbidden:
      return {"Forbidden", 403};
    case Code::kNotFound:
      return {"NotFound", 404};
    case Code::kMethodNotAllowed:
      return {"MethodNotAllowed", 405};
    case Code::kNotAcceptable:
      return {"NotAcceptable", 406};
    case Code::kAlreadyExists:
      return {"AlreadyExists", 409};
    case Code::kConflict:
      return {"Conflict", 409};
    case Code::kGone:
      return {"Expired", 410};
    case Code::kRequestEntityTooLarge:
      return {"RequestEntityTooLarge", 413};
    case Code::kUnsupportedMediaType:
      return {"UnsupportedMediaType", 415};
    case Code::kInvalid:
      return {"Invalid", 422};
    case Code::kTooManyRequests:
      return {"TooManyRequests", 429};
    case Code::kInternal:
      return {"InternalError", 500};
    case Code::kServiceUnavailable:
      return {"ServiceUnavailable", 503};
    case Code::kTimeout:
      return {"Timeout", 504};
  }
  return {"InternalError", 500};
}

}  // namespace

std::string_view Status::reason() const { return Info(code_).reason; }

int Status::http_code() const { return Info(code_).http; }

std::string_view CodeName(Code code) {
  return code == Code::kOk ? std::string_view("OK") : Info(code).reason;
}

Code CodeFromReason(std::string_view reason, int http_code) {
  constexpr Code kAll[] = {Code::kBadRequest,
                           Code::kUnauthorized,
                           Code::kForbidden,
                           Code::kNotFound,
                           Code::kMethodNotAllowed,
                           Code::kNotAcceptable,
                           Code::kAlreadyExists,
                           Code::kConflict,
                           Code::kGone,
                           Code::kRequestEntityTooLarge,
                           Code::kUnsupportedMediaType,
                           Code::kInvalid,
                           Code::kTooManyRequests,
                           Code::kInternal,
                           Code::kServiceUnavailable,
                           Code::kTimeout};
  for (Code code : kAll) {
    if (!reason.empty() && Info(code).reason == reason) return code;
  }
  for (Code code : kAll) {
    if (Info(code).http == http_code) return code;
  }
  return Code::kInternal;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(CodeName(code_));
  out += ": ";
  out += message_;
  return out;
}

}  // namespace lws
