// File: operator/webhook/webhook_server.h
//
// The operator's admission webhook server (spec 21.2, 21.6): HTTPS on webhook.host:webhook.port
// (default 9443), serving the LWS webhook endpoints (webhook_handler.h) with the certificate in
// webhook.certDir (tls.crt, tls.key), as controller-runtime's webhook.Server does.
//
// Certificates rotate underneath a running server (the cert manager, or cert-manager's Secret
// volume, rewrites the files): the server re-reads them every cert_check_interval on its
// EventLoop, as controller-runtime's certwatcher polls, and ReloadCertificates does it at once.
// A changed pair that loads serves every connection accepted from then on; a pair that does not
// load (a half-written rotation) is ignored until the next check, so the old one keeps serving.
//
// Start fails when the files cannot be read or loaded: as in upstream, whoever owns the
// certificates starts the server once they are in place (the cert manager's Ready()).
//
// Each webhook request is reported to an optional observer, for controller-runtime's metrics
// controller_runtime_webhook_requests_total{code, webhook} and
// controller_runtime_webhook_latency_seconds{webhook}, `webhook` being the path. The observer is
// called on the transport's I/O threads and must be thread-safe.
//
// Threading: Start, ReloadCertificates and Stop on the loop's thread (or before it runs / after
// it stopped); requests are served on the transport's own I/O threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/event_loop.h"
#include "base/result.h"
#include "operator/webhook/webhook_handler.h"
#include "transport/http_server.h"

namespace lws::operator_webhook {

struct WebhookRequestRecord {
  std::string_view webhook;  // the endpoint's path, controller-runtime's `webhook` label
  int code = 0;              // the HTTP status sent
  Duration latency{};
};
using WebhookObserver = std::function<void(const WebhookRequestRecord&)>;

struct WebhookServerOptions {
  std::string host;           // webhook.host; "" listens on every IPv4 address
  std::uint16_t port = 9443;  // 0: an ephemeral port (tests)
  std::string cert_dir = "/tmp/k8s-webhook-server/serving-certs";
  std::string cert_name = "tls.crt";
  std::string key_name = "tls.key";
  int threads = 2;
  Duration cert_check_interval = std::chrono::seconds(10);
  transport::TlsPolicy tls_policy;  // the Configuration's `tls` section
  WebhookObserver observer;         // optional
};

class WebhookServer {
 public:
  // Reads the certificate, binds and serves `endpoints` (normally LwsWebhookEndpoints()).
  // REQUIRES: `loop` outlives the server.
  static Result<std::unique_ptr<WebhookServer>> Start(EventLoop* loop, WebhookServerOptions options,
                                                      std::vector<WebhookEndpoint> endpoints);
  WebhookServer(const WebhookServer&) = delete;
  WebhookServer& operator=(const WebhookServer&) = delete;
  ~WebhookServer();  // Stop()

  std::uint16_t port() const { return http_->port(); }
  std::string address() const { return http_->address(); }

  // Re-reads the certificate files; when they changed, new connections get them. An error names
  // the file or OpenSSL's reason, and the certificate in use stays.
  Status ReloadCertificates();

  // Stops the periodic check and the HTTPS server. Idempotent.
  void Stop();

 private:
  struct Shared;
  WebhookServer(EventLoop* loop, WebhookServerOptions options);
  Result<transport::HttpTlsOptions> ReadCertificates() const;
  void ScheduleCheck();

  EventLoop* loop_;
  WebhookServerOptions options_;
  std::shared_ptr<Shared> shared_;  // what the I/O threads' handler reads
  std::unique_ptr<transport::HttpServer> http_;
  transport::HttpTlsOptions serving_;  // the pair in use
  TaskId check_task_ = 0;
  bool stopped_ = false;
};

}  // namespace lws::operator_webhook
