#include "client/rest/retry_policy.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "api/go_duration.h"

namespace lws::rest {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsTransientServerError(int code) {
  return code == 500 || code == 502 || code == 503 || code == 504;
}

// "429 TooManyRequests", or "connection error (reset by peer)" for an attempt without an answer.
std::string DescribeOutcome(const AttemptOutcome& outcome) {
  if (outcome.http_code == 0) return "connection error (" + outcome.connection_error + ")";
  std::string text = std::to_string(outcome.http_code);
  std::string_view reason = StatusReasonForCode(outcome.http_code);
  if (!reason.empty()) text += " " + std::string(reason);
  return text;
}

}  // namespace

std::optional<long long> ParseRetryAfterSeconds(std::string_view header) {
  std::string_view digits = header;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  // More than 18 digits could overflow; Atoi would fail on them too (out of range).
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  long long value = 0;
  for (char c : digits) {
    if (!IsDigit(c)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

bool IsIdempotentMethod(std::string_view method) {
  return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" ||
         method == "OPTIONS";
}

std::string_view StatusReasonForCode(int http_code) {
  switch (http_code) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 406:
      return "NotAcceptable";
    case 409:
      return "Conflict";
    case 410:
      return "Expired";
    case 413:
      return "RequestEntityTooLarge";
    case 415:
      return "UnsupportedMediaType";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 502:
      return "BadGateway";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "Timeout";
    default:
      return "";
  }
}

bool RetryPolicy::IsRetryable(std::string_view method, const AttemptOutcome& outcome) {
  if (outcome.http_code == 0) return method == "GET" || method == "HEAD";
  if (outcome.http_code == 429) return true;
  return IsTransientServerError(outcome.http_code) && IsIdempotentMethod(method);
}

Duration RetryPolicy::Backoff(int attempt) {
  // Doubling stops once past the cap, so a large attempt number cannot overflow.
  Duration delay = options_.base;
  for (int i = 1; i < attempt && delay < options_.cap; ++i) delay *= 2;
  delay = std::min(delay, options_.cap);
  double extra = options_.jitter * rng_.UniformDouble() * static_cast<double>(delay.count());
  return std::min(delay + Duration(static_cast<Duration::rep>(extra)), options_.cap);
}

RetryDecision RetryPolicy::Decide(const RetryRequest& request, const AttemptOutcome& outcome,
                                  int attempt) {
  const std::string what =
      request.method + " " + request.path + " after " + DescribeOutcome(outcome);
  if (!IsRetryable(request.method, outcome)) return {false, {}, "not retrying " + what};
  if (attempt >= options_.max_attempts) {
    return {false,
            {},
            "giving up on " + what + " (attempt " + std::to_string(attempt) + " of " +
                std::to_string(options_.max_attempts) + ")"};
  }
  Duration delay;
  if (auto seconds = ParseRetryAfterSeconds(outcome.retry_after); seconds.has_value()) {
    // The server knows its load: wait what it asks, without jitter, within a sane bound.
    long long bounded = std::clamp<long long>(
        *seconds, 0,
        std::chrono::duration_cast<std::chrono::seconds>(options_.max_retry_after).count());
    delay = std::chrono::seconds(bounded);
  } else {
    delay = Backoff(attempt);
  }
  std::string message = "retrying " + what + " in " + api::FormatGoDuration(delay) + " (attempt " +
                        std::to_string(attempt + 1) + " of " +
                        std::to_string(options_.max_attempts) + ")";
  return {true, delay, std::move(message)};
}

}  // namespace lws::rest
