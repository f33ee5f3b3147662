// File: operator/endpoints.h
//
// What the operator's two small HTTP servers answer, as plain handlers (transport/http.h), apart
// from the transport that serves them (operator/probe_servers.h):
//   - the health probe server: the liveness and readiness endpoints (spec 21.2:
//     health.livenessEndpointName "/healthz", readinessEndpointName "/readyz"), each running a
//     set of named checks exactly as controller-runtime's healthz.Handler does;
//   - the metrics server: GET /metrics, the registry's text exposition.
// and the bind addresses both take (":8443", "127.0.0.1:8081", "0" to disable).
//
// controller-runtime's healthz answers, reproduced:
//   GET /readyz                  200 "ok" when every check passes;
//   GET /readyz?verbose          200 "[+]ping ok\n...healthz check passed\n";
//   any check failing            500 "[+]ping ok\n[-]certs failed: reason withheld\n
//                                healthz check failed\n" (always verbose; the reason stays
//                                in the log, the endpoint is public);
//   ?exclude=<name> (repeatable) skips a check ("[+]<name> excluded: ok"), and an exclude that
//                                matches nothing adds "warn: some health checks cannot be
//                                excluded: no matches for \"x\"";
//   GET /readyz/<name>           that check alone: 200 "ok" or 500 "internal server error: ..";
//   a set without checks         serves a "ping" check.
//
// Threading: HealthChecks is thread-safe (checks are added while the server already serves);
// a check runs on the server's I/O thread and must be quick.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "transport/http.h"

namespace lws::op {

class Registry;

// One named check: Ok when healthy, else why not.
using HealthCheck = std::function<Status()>;

// controller-runtime's healthz.Ping: always healthy.
inline Status Ping() { return Status::Ok(); }

class HealthChecks {
 public:
  // Adds (or replaces) the check called `name`.
  void Add(const std::string& name, HealthCheck check);
  // Answers `subpath`, the part of the request path after the endpoint ("" or "/": every
  // check; "/<name>": one check), with the query's `verbose` and `exclude` values.
  transport::HttpResponse Serve(std::string_view subpath, bool verbose,
                                const std::vector<std::string>& excludes) const;

 private:
  mutable Mutex mu_;
  std::map<std::string, HealthCheck> checks_ GUARDED_BY(mu_);  // sorted: the verbose output's order
};

// The probe server's handler: `liveness_path` and `readiness_path` ("/healthz", "/readyz")
// serve their check sets, with or without a sub-path; anything else is 404.
// REQUIRES: both sets outlive the handler.
transport::HttpHandler HealthProbeHandler(std::string liveness_path, const HealthChecks* liveness,
                                          std::string readiness_path,
                                          const HealthChecks* readiness);

// The metrics server's handler: /metrics serves `registry`'s exposition; anything else is 404.
// REQUIRES: registry outlives the handler.
transport::HttpHandler MetricsHandler(const Registry* registry);

// A plain-text answer as Go's http.Error writes it: the message and a newline, text/plain,
// X-Content-Type-Options: nosniff.
transport::HttpResponse TextError(int status, std::string_view message);

// Where a server listens.
struct BindAddress {
  std::string host;  // an IP address; "0.0.0.0" for every interface
  std::uint16_t port = 0;
  bool operator==(const BindAddress&) const = default;
};

// Go's listen address forms: ":8443" (every IPv4 interface), "127.0.0.1:8081",
// "[::1]:8443", "localhost:8080"; nullopt for "0" and "" (the server is disabled). BadRequest
// naming `text` for anything else (a host name other than localhost, a port out of range).
Result<std::optional<BindAddress>> ParseBindAddress(std::string_view text);

// The request target split: the path (percent-decoded) and the query's values for `key`
// in order (a key without a value gives ""). Used by both handlers.
std::string TargetPath(std::string_view target);
std::vector<std::string> QueryValues(std::string_view target, std::string_view key);

}  // namespace lws::op
