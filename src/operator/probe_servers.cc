// Starting the metrics and health-probe servers (probe_servers.h). The only file of the layer
// that starts a transport; fuzz builds leave it out.
#include "operator/probe_servers.h"

#include "base/log.h"
#include "transport/tls_certificates.h"

namespace lws::op {
namespace {

// Small servers: one I/O thread each (a scrape or a probe every few seconds).
transport::HttpServerOptions ServerOptions(const BindAddress& address) {
  transport::HttpServerOptions options;
  options.bind_address = address.host;
  options.port = address.port;
  options.threads = 1;
  options.max_body_bytes = 64 * 1024;
  return options;
}

}  // namespace

Result<std::unique_ptr<transport::HttpServer>> StartMetricsServer(
    const MetricsServerOptions& options, const Registry* registry, const client::Client* client,
    const Clock* clock) {
  ASSIGN_OR_RETURN(std::optional<BindAddress> address, ParseBindAddress(options.bind_address));
  if (!address) return std::unique_ptr<transport::HttpServer>();
  transport::HttpServerOptions server_options = ServerOptions(*address);
  transport::HttpHandler handler = MetricsHandler(registry);
  if (options.secure) {
    if (options.tls) {
      server_options.tls = options.tls;
    } else {
      // As controller-runtime without a CertDir: a self-signed certificate kept in memory.
      // Scrapers of an operator's metrics skip verification or trust the Service's CA.
      ASSIGN_OR_RETURN(transport::TlsIdentity identity,
                       transport::CreateSelfSigned({}, clock->Now()));
      server_options.tls = transport::HttpTlsOptions{identity.cert_pem, identity.key_pem};
    }
    server_options.tls->policy = options.tls_policy;
    auto authorizer = std::make_shared<MetricsAuthorizer>(client, clock, options.auth);
    handler = WithAuthenticationAndAuthorization(std::move(authorizer), std::move(handler));
  }
  ASSIGN_OR_RETURN(auto server,
                   transport::HttpServer::Start(std::move(server_options), std::move(handler)));
  Logger("metrics")->info("Serving metrics server on {} (secure: {})", server->address(),
                          options.secure);
  return server;
}

Result<std::unique_ptr<transport::HttpServer>> StartHealthProbeServer(
    const HealthProbeOptions& options, const HealthChecks* liveness,
    const HealthChecks* readiness) {
  ASSIGN_OR_RETURN(std::optional<BindAddress> address, ParseBindAddress(options.bind_address));
  if (!address) return std::unique_ptr<transport::HttpServer>();
  transport::HttpHandler handler = HealthProbeHandler(options.liveness_endpoint, liveness,
                                                      options.readiness_endpoint, readiness);
  ASSIGN_OR_RETURN(auto server,
                   transport::HttpServer::Start(ServerOptions(*address), std::move(handler)));
  Logger("health")->info("Serving health probes on {} ({}, {})", server->address(),
                         options.liveness_endpoint, options.readiness_endpoint);
  return server;
}

}  // namespace lws::op
