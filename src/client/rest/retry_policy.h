// File: client/rest/retry_policy.h
//
// Which failed requests to the API server are tried again, after how long, and what the log line
// says. Pure: the transport reports an attempt's outcome and gets a RetryDecision back; it never
// sleeps here (it schedules the next attempt on its loop after `delay`).
//
// The rules, and where they follow or leave client-go (rest/request.go, rest/with_retry.go):
//  - 429 TooManyRequests is retried for every verb. The API server's priority-and-fairness and
//    max-in-flight filters answer 429 before the request reaches storage, so even a POST is safe
//    to repeat. client-go retries 429 too, but only when a Retry-After header came with it
//    (checkWait); we also retry without one, on our own backoff.
//  - 500, 502, 503, 504 are retried for idempotent verbs only (GET, HEAD, PUT, DELETE, OPTIONS).
//    client-go's checkWait accepts any status >= 500 for any verb, again only with Retry-After.
//    A 5xx may come after the write was applied, so repeating a POST or PATCH could apply it
//    twice; PUT carries a resourceVersion and DELETE is idempotent, so they at worst come back
//    as Conflict or NotFound, which callers already handle. 501 NotImplemented and 505+ are
//    never transient and are not retried.
//  - Connection errors (no HTTP answer: reset, EOF, timeout, refused) are retried for GET and
//    HEAD, i.e. get, list and watch. client-go's Do retries GET on connection reset or probable
//    EOF, and Watch on probable EOF or timeout, each with a made-up Retry-After of 1 second; we
//    use the backoff below instead of a fixed second.
//  - Retry-After in whole seconds (strconv.Atoi, as client-go's retryAfterSeconds) is honoured
//    exactly, capped at max_retry_after; otherwise the delay is exponential:
//    base * 2^(attempt-1), plus up to `jitter` of itself, at most `cap`. client-go's default
//    backoff is none at all (NoBackoff unless KUBE_CLIENT_BACKOFF_BASE is set).
//  - At most max_attempts attempts in all (client-go: maxRetries 10, counting retries).
//
//   RetryPolicy policy(RetryPolicy::Options{}, rng.Derive("rest-retry"));
//   RetryDecision d = policy.Decide({"GET", "/api/v1/pods"}, AttemptOutcome::Http(429, "1"), 1);
//   if (d.retry) { LOG(d.message); loop->After(d.delay, resend); }
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/rng.h"

namespace lws::rest {

struct RetryRequest {
  std::string method;  // HTTP verb, upper case: "GET", "POST", ...
  std::string path;    // request path for the log line: "/api/v1/pods"
};

// What one attempt came back with: an HTTP status, or a connection error (http_code 0).
struct AttemptOutcome {
  int http_code = 0;
  std::string retry_after;       // the Retry-After header, "" when absent
  std::string connection_error;  // when http_code == 0: what went wrong ("connection reset")

  static AttemptOutcome Http(int code, std::string retry_after_header = "") {
    return {code, std::move(retry_after_header), ""};
  }
  static AttemptOutcome ConnectionError(std::string error) { return {0, "", std::move(error)}; }
};

struct RetryDecision {
  bool retry = false;
  Duration delay{};     // wait before the next attempt (when retry)
  std::string message;  // the log line, for retries and for giving up alike
};

// Retry-After as client-go reads it: strconv.Atoi of the header (optional sign, decimal digits,
// no spaces), nullopt when absent or malformed. HTTP-date values are not understood (neither by
// client-go). A negative value is returned as is; the policy treats it as 0.
std::optional<long long> ParseRetryAfterSeconds(std::string_view header);

// True for the verbs whose repetition cannot apply a change twice.
bool IsIdempotentMethod(std::string_view method);

// HTTP reason phrase as the API server's Status reason names it: 429 -> "TooManyRequests",
// 503 -> "ServiceUnavailable"; "" for codes without one.
std::string_view StatusReasonForCode(int http_code);

class RetryPolicy {
 public:
  struct Options {
    int max_attempts = 10;  // attempts in all, the first one included
    Duration base = std::chrono::milliseconds(500);
    Duration cap = std::chrono::seconds(30);             // the backoff never exceeds this
    double jitter = 0.2;                                 // up to 20% added, drawn from the Rng
    Duration max_retry_after = std::chrono::minutes(5);  // bound on what a server may ask
  };

  RetryPolicy(Options options, Rng rng) : options_(options), rng_(rng) {}

  // Decision after attempt number `attempt` (1-based) failed with `outcome`. Draws from the Rng
  // only when a backoff delay is computed, so the sequence is reproducible from the seed.
  RetryDecision Decide(const RetryRequest& request, const AttemptOutcome& outcome, int attempt);

  // True when `outcome` is worth another attempt for `method` (ignores the attempt count).
  static bool IsRetryable(std::string_view method, const AttemptOutcome& outcome);

  // base * 2^(attempt-1) with jitter, at most cap.
  Duration Backoff(int attempt);

  const Options& options() const { return options_; }

 private:
  Options options_;
  Rng rng_;
};

}  // namespace lws::rest
