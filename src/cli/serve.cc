#include "cli/serve.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "api/base64.h"
#include "api/yaml.h"
#include "apiserver/quota_admission.h"
#include "base/file.h"
#include "base/log.h"
#include "cli/admin_token.h"
#include "cli/webhook_caller.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::cli {
namespace {

constexpr int kHandlerThreads = 16;  // per pool: reads, writes

}  // namespace

Result<std::unique_ptr<Serving>> Serving::Start(const std::string& command, const Clock* clock,
                                                ServeOptions options,
                                                admission::AdmissionChain admission) {
  RETURN_IF_ERROR(CheckExposure(command, options));
  std::unique_ptr<Serving> serving(new Serving());
  serving->command_ = command;
  store::StoreOptions store_options;
  store_options.clock = clock;
  store_options.seed = options.seed != 0
                           ? options.seed
                           : static_cast<std::uint64_t>(clock->Now().time_since_epoch().count());
  store_options.data_dir = options.data_dir;
  store_options.sync_writes = options.sync_writes;
  store_options.history_size = options.watch_history;
  store_options.watch_queue_size = options.watch_queue;
  if (!options.data_dir.empty()) {
    if (Status made = CreatePrivateDirectory(options.data_dir); !made.ok()) {
      return Status(made.code(), command + ": " + made.message());
    }
  }
  Result<std::optional<transport::TlsIdentity>> tls =
      ResolveTls(options.tls, options.data_dir, clock->Now());
  if (!tls.ok())
    return Status(tls.status().code(), command + ": " + std::string(tls.status().message()));
  serving->tls_ = std::move(*tls);
  if (!options.tls.insecure_plain_http) {
    Result<std::string> token = AdminToken(options.token, options.data_dir);
    if (!token.ok())
      return Status(token.status().code(), command + ": " + std::string(token.status().message()));
    options.token = std::move(*token);
  }
  Result<std::unique_ptr<store::Store>> store = store::Store::Open(store_options);
  if (!store.ok())
    return Status::Internal(command +
                            ": cannot open the store: " + std::string(store.status().message()));
  serving->store_ = std::move(*store);
  apiserver::ApiServerOptions server_options;
  server_options.store = serving->store_.get();
  server_options.clock = clock;
  server_options.token = options.token;
  server_options.audit_log_path = options.audit_log_path;
  // `lws up` and `lws apiserver` serve DisaggregatedSets as a cluster with upstream's chart does.
  server_options.install_disaggregatedset_crds = true;
  // ServiceAccount tokens outlive a restart on the same data directory.
  if (!options.data_dir.empty()) {
    server_options.token_key_file = std::filesystem::path(options.data_dir) / "sa.key";
  }
  if (!options.pod_mutation.random_key_suffix) {
    // Hash leaders' group keys follow the seed, as generated names do.
    options.pod_mutation.random_key_suffix =
        api::SeededKeySuffix(Rng(store_options.seed).Derive("group-key"));
  }
  if (options.webhooks) controllers::InstallLwsWebhooks(&admission, options.pod_mutation);
  server_options.admission = std::move(admission);
  // Webhooks registered by configuration objects are called over HTTPS unless a test injects
  // its own transport.
  server_options.webhook_caller =
      options.webhook_caller ? options.webhook_caller : HttpsWebhookCaller();
  Result<std::unique_ptr<apiserver::ApiServer>> server =
      apiserver::ApiServer::Create(std::move(server_options));
  if (!server.ok())
    return Status::Internal(command + ": " + std::string(server.status().message()));
  serving->server_ = std::move(*server);
  serving->options_ = std::move(options);
  return serving;
}

Status Serving::Listen() {
  transport::HttpServerOptions http_options;
  http_options.bind_address = options_.bind;
  http_options.port = options_.port;
  http_options.threads = options_.threads;
  // Handlers run on their own pools; a durable write does not hold its thread while it waits
  // for the flush (base/deferred_ack.h), so these threads are only held by handlers that block
  // on something else: an admission webhook (up to its 30 s timeout) or a slow client's body.
  http_options.handler_threads = kHandlerThreads;
  http_options.request_timeout = options_.request_timeout;
  http_options.tick_interval =
      options_.tick ? options_.tick_interval : std::chrono::milliseconds(0);
  http_options.tick = options_.tick;
  if (tls_) http_options.tls = transport::HttpTlsOptions{tls_->cert_pem, tls_->key_pem};
  apiserver::ApiServer* api = server_.get();
  Result<std::unique_ptr<transport::HttpServer>> http = transport::HttpServer::Start(
      http_options, [api](const transport::HttpRequest& request) { return api->Handle(request); });
  if (!http.ok())
    return Status(http.status().code(), command_ + ": " + std::string(http.status().message()));
  http_ = std::move(*http);
  server_->set_server_address(http_->address());
  if (!options_.kubeconfig_out.empty()) {
    Status written = WriteFile(options_.kubeconfig_out,
                               LocalKubeconfig(url(), options_.token, tls_ ? tls_->ca_pem : ""));
    if (!written.ok())
      return Status(written.code(), command_ + ": " + std::string(written.message()));
  }
  return Status::Ok();
}

void Serving::Stop() {
  if (http_) http_->Stop();
}

Serving::~Serving() { Stop(); }

Status CheckExposure(const std::string& command, const ServeOptions& options) {
  if (options.tls.insecure_plain_http && !options.token.empty()) {
    return Status::BadRequest(command +
                              ": --token cannot be combined with --insecure-plain-http, "
                              "which turns authentication off (and would send the token in "
                              "clear); leave out --insecure-plain-http to serve HTTPS with it");
  }
  const std::string& bind = options.bind;
  const bool loopback = bind.rfind("127.", 0) == 0 || bind == "::1" || bind == "localhost";
  if (loopback || !options.tls.insecure_plain_http || options.allow_unauthenticated_remote) {
    return Status::Ok();
  }
  return Status::BadRequest(
      command + ": --bind " + bind +
      " listens beyond this machine, and with "
      "--insecure-plain-http anyone who can reach the port can read and change every object, "
      "Secrets included. Leave out --insecure-plain-http (HTTPS and a token are the default), or "
      "pass --insecure-allow-unauthenticated-remote to accept that.");
}

void RefreshQuotas(store::Store* store, apiserver::ApiServer* server) {
  if (Status refreshed = apiserver::RefreshQuotaStatus(store, server->served()->registry);
      !refreshed.ok()) {
    Logger("resourcequota-controller")->warn("quota status pass failed: {}", refreshed.message());
  }
}

std::string AccessSummary(const Serving& serving, const std::string& kubeconfig) {
  if (!serving.access_control()) {
    return "WARNING: --insecure-plain-http: no TLS, no authentication, no RBAC; anyone who can "
           "reach the port can read and change every object\n";
  }
  const std::string where = kubeconfig.empty() ? "pass --kubeconfig-out to have them written"
                                               : "in " + kubeconfig + " (0600)";
  const char* https =
      serving.own_certificate() ? "HTTPS with the --tls-cert certificate" : "HTTPS with its own CA";
  return std::string(https) + ", authentication and RBAC on; the administrator's credentials " +
         where + "\n";
}

// The kubeconfig carries the admin's credentials: owner-only (0600), as kind and k3s write theirs.
Status WriteFile(const std::string& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  return WriteFileAtomically(path, text, /*owner_only=*/true);
}

std::string LocalKubeconfig(const std::string& server, const std::string& token,
                            const std::string& ca_pem) {
  api::Json user = api::Json::object();
  if (!token.empty()) user["token"] = token;
  api::Json cluster = {{"server", server}};
  if (!ca_pem.empty()) cluster["certificate-authority-data"] = api::Base64Encode(ca_pem);
  api::Json config = {
      {"apiVersion", "v1"},
      {"kind", "Config"},
      {"clusters", {{{"name", "lws"}, {"cluster", cluster}}}},
      {"users", {{{"name", "lws"}, {"user", user}}}},
      {"contexts",
       {{{"name", "lws"},
         {"context", {{"cluster", "lws"}, {"user", "lws"}, {"namespace", "default"}}}}}},
      {"current-context", "lws"}};
  return api::EmitYaml(config);
}

}  // namespace lws::cli
