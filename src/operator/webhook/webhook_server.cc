// File: operator/webhook/webhook_server.cc
#include "operator/webhook/webhook_server.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <utility>

#include "base/file.h"
#include "base/log.h"

namespace lws::operator_webhook {

// The endpoints and observer the handler reads on the I/O threads; immutable once serving.
struct WebhookServer::Shared {
  std::vector<WebhookEndpoint> endpoints;
  WebhookObserver observer;
  const Clock* clock = nullptr;

  transport::HttpResponse Handle(const transport::HttpRequest& request) const {
    const WebhookEndpoint* endpoint = FindEndpoint(endpoints, request.target);
    if (endpoint == nullptr) return NotFoundResponse();
    const Time start = clock->Now();
    transport::HttpResponse response = ServeWebhook(*endpoint, request);
    if (observer) observer({endpoint->path, response.status, clock->Now() - start});
    return response;
  }
};

WebhookServer::WebhookServer(EventLoop* loop, WebhookServerOptions options)
    : loop_(loop), options_(std::move(options)), shared_(std::make_shared<Shared>()) {}

Result<std::unique_ptr<WebhookServer>> WebhookServer::Start(
    EventLoop* loop, WebhookServerOptions options, std::vector<WebhookEndpoint> endpoints) {
  std::unique_ptr<WebhookServer> server(new WebhookServer(loop, std::move(options)));
  server->shared_->endpoints = std::move(endpoints);
  server->shared_->observer = server->options_.observer;
  server->shared_->clock = &loop->clock();
  ASSIGN_OR_RETURN(server->serving_, server->ReadCertificates());

  transport::HttpServerOptions http;
  http.bind_address = server->options_.host.empty() ? "0.0.0.0" : server->options_.host;
  http.port = server->options_.port;
  http.threads = server->options_.threads;
  // Room above controller-runtime's limit, so that the handler answers its own 413 review.
  http.max_body_bytes = kMaxReviewBytes + 1024 * 1024;
  http.tls = server->serving_;
  std::shared_ptr<const Shared> shared = server->shared_;
  ASSIGN_OR_RETURN(server->http_, transport::HttpServer::Start(
                                      std::move(http), [shared](const transport::HttpRequest& r) {
                                        return shared->Handle(r);
                                      }));
  Logger("webhook")->info("serving {} webhooks on https://{}", server->shared_->endpoints.size(),
                          server->address());
  server->ScheduleCheck();
  return server;
}

WebhookServer::~WebhookServer() { Stop(); }

Result<transport::HttpTlsOptions> WebhookServer::ReadCertificates() const {
  const std::filesystem::path dir(options_.cert_dir);
  transport::HttpTlsOptions tls;
  ASSIGN_OR_RETURN(tls.cert_chain_pem, ReadFile((dir / options_.cert_name).string()));
  ASSIGN_OR_RETURN(tls.key_pem, ReadFile((dir / options_.key_name).string()));
  tls.policy = options_.tls_policy;
  return tls;
}

Status WebhookServer::ReloadCertificates() {
  if (stopped_) return Status::Ok();
  ASSIGN_OR_RETURN(transport::HttpTlsOptions tls, ReadCertificates());
  if (tls.cert_chain_pem == serving_.cert_chain_pem && tls.key_pem == serving_.key_pem) {
    return Status::Ok();
  }
  RETURN_IF_ERROR(http_->SetTls(tls));
  serving_ = std::move(tls);
  Logger("webhook")->info("serving the new certificate from {}", options_.cert_dir);
  return Status::Ok();
}

void WebhookServer::ScheduleCheck() {
  if (options_.cert_check_interval <= Duration::zero()) return;
  check_task_ = loop_->After(options_.cert_check_interval, [this] {
    check_task_ = 0;
    if (Status reloaded = ReloadCertificates(); !reloaded.ok()) {
      Logger("webhook")->warn("keeping the current certificate: {}", reloaded.message());
    }
    ScheduleCheck();
  });
}

void WebhookServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (check_task_ != 0) loop_->Cancel(check_task_);
  if (http_) http_->Stop();
}

}  // namespace lws::operator_webhook
