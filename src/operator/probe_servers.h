// File: operator/probe_servers.h
//
// The operator's metrics and health-probe servers over transport::HttpServer (spec 21.2, 21.3),
// serving the handlers of operator/endpoints.h:
//
//   metrics  `metrics.bindAddress` (":8443"; "0" disables). Secure by default, as upstream:
//            HTTPS with the given certificate, or a self-signed one made at start
//            (apiserver/tls_certificates.h) when none is given, behind the TokenReview /
//            SubjectAccessReview filter (operator/metrics_auth.h). `secure = false` serves plain
//            HTTP without the filter, for local use (`lws controller --metrics-secure=false`).
//   health   `health.healthProbeBindAddress` (":8081"; "0" disables), plain HTTP as upstream:
//            the kubelet probes it. Liveness and readiness endpoints as configured.
//
//   ASSIGN_OR_RETURN(auto metrics_server, StartMetricsServer(options, &registry, &client, &clock));
//   ASSIGN_OR_RETURN(auto probe_server, StartHealthProbeServer(health, &liveness, &readiness));
//   // either is nullptr when its address is "0"
//
// Both are HTTP/1.1 only (upstream disables HTTP/2 on them too).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/clock.h"
#include "client/client.h"
#include "operator/endpoints.h"
#include "operator/metrics_auth.h"
#include "operator/metrics_registry.h"
#include "transport/http_server.h"

namespace lws::op {

struct MetricsServerOptions {
  std::string bind_address = ":8443";
  bool secure = true;
  // The serving certificate and key (PEM); unset with `secure`: a self-signed one.
  std::optional<transport::HttpTlsOptions> tls;
  transport::TlsPolicy tls_policy;  // the Configuration's `tls` section, for either certificate
  MetricsAuthOptions auth;
};

struct HealthProbeOptions {
  std::string bind_address = ":8081";
  std::string liveness_endpoint = "/healthz";
  std::string readiness_endpoint = "/readyz";
};

// nullptr when the bind address disables the server. The client answers the reviews of a
// secure server. REQUIRES: registry, client and clock outlive the server.
Result<std::unique_ptr<transport::HttpServer>> StartMetricsServer(
    const MetricsServerOptions& options, const Registry* registry, const client::Client* client,
    const Clock* clock);

// nullptr when the bind address disables the server. REQUIRES: both check sets outlive it.
Result<std::unique_ptr<transport::HttpServer>> StartHealthProbeServer(
    const HealthProbeOptions& options, const HealthChecks* liveness, const HealthChecks* readiness);

}  // namespace lws::op
