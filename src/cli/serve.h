// File: cli/serve.h
//
// What `lws apiserver` and `lws up` share: a store (in memory or under --data-dir), the API
// server over it, the HTTP transport in front of it, the kubeconfig file, and the shutdown
// signals. Each command adds its own background work: `lws apiserver` only the garbage collector
// and the completion of pod deletions, `lws up` the whole simulated cluster.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "api/pod_mutation.h"
#include "apiserver/api_server.h"
#include "base/clock.h"
#include "base/result.h"
#include "cli/tls_flags.h"
#include "store/store.h"
#include "transport/http_server.h"
#include "transport/tls_certificates.h"

namespace lws::cli {

struct ServeOptions {
  std::uint16_t port = 6443;  // 0 picks a free port
  std::string bind = "127.0.0.1";
  std::string data_dir;     // "" keeps everything in memory
  bool sync_writes = true;  // with data_dir: a write is acknowledged once flushed (fsync)
  // The administrator's bearer token (system:admin in system:masters). Empty: one is made
  // (cli/admin_token.h) unless tls.insecure_plain_http turns authentication off; with a token
  // every request is authenticated and authorized by RBAC (apiserver/authenticator.h).
  std::string token;
  // HTTP I/O threads. They only read, parse and write: handlers run on their own pools, and a
  // durable write waits for its flush without a thread (base/deferred_ack.h), so a few suffice;
  // more cost context switches (docs/performance.md, "Durable writes against etcd").
  int threads = 4;
  // A request not answered within it gets 504 (kube-apiserver's --request-timeout); 0: none.
  std::chrono::seconds request_timeout{60};
  std::size_t watch_history = 10'000;
  std::size_t watch_queue = 10'000;  // live events one watcher may lag behind
  std::uint64_t seed = 0;            // uids and generated names; 0: from the clock
  std::string kubeconfig_out;        // "" writes none
  std::string audit_log_path;        // --audit-log-path; "" keeps none
  std::chrono::milliseconds tick_interval{250};
  std::function<void()> tick;            // run on a transport thread every tick_interval
  bool webhooks = true;                  // the LWS webhooks in the admission chain (spec 3.3, 14)
  api::PodMutationOptions pod_mutation;  // the pod webhook's: gang scheduling's annotation
  // Posts AdmissionReviews to the webhooks registered by Mutating/ValidatingWebhookConfiguration
  // objects (apiserver/webhook_admission.h), which the server always consults. Null until the
  // client/rest HTTPS transport provides one (see Serving::Start): every call then fails and
  // the webhook's failurePolicy decides.
  apiserver::WebhookCaller webhook_caller;
  TlsFlags tls;  // HTTPS unless tls.insecure_plain_http
  // Listening beyond loopback with --insecure-plain-http is refused unless this is set (the flag
  // --insecure-allow-unauthenticated-remote says what it gives up).
  bool allow_unauthenticated_remote = false;
};

// Refuses, with what to do instead, a server that would listen beyond this machine with no
// authentication (--insecure-plain-http): anyone who reaches the port could read and change every
// object. Also refuses --token with --insecure-plain-http, which turns authentication off.
Status CheckExposure(const std::string& command, const ServeOptions& options);

// The store, API server and transport of one serving process, torn down in reverse order.
class Serving {
 public:
  // `command` prefixes error messages ("lws up"). The clock must outlive the result. With
  // options.webhooks the LWS webhooks are added to `admission` after its own plugins.
  static Result<std::unique_ptr<Serving>> Start(const std::string& command, const Clock* clock,
                                                ServeOptions options,
                                                admission::AdmissionChain admission = {});
  ~Serving();

  store::Store* store() const { return store_.get(); }
  apiserver::ApiServer* server() const { return server_.get(); }
  std::string url() const { return (tls_ ? "https://" : "http://") + http_->address(); }
  // False with --insecure-plain-http: every caller is the administrator.
  bool access_control() const { return !options_.token.empty(); }
  // True when --tls-cert gave the serving certificate, false for the self-signed CA's.
  bool own_certificate() const { return !options_.tls.cert_file.empty(); }
  // Starts answering HTTP requests (call once the background work is ready).
  Status Listen();
  void Stop();

 private:
  Serving() = default;
  ServeOptions options_;
  std::string command_;
  std::optional<transport::TlsIdentity> tls_;  // resolved in Start, so bad flags fail early
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<apiserver::ApiServer> server_;
  std::unique_ptr<transport::HttpServer> http_;
};

// The quota controller's pass (apiserver/quota_admission.h): status.hard and status.used of every
// ResourceQuota brought up to date; a failure is logged and left to the next pass.
void RefreshQuotas(store::Store* store, apiserver::ApiServer* server);

// One line on how the server is protected, for the start banner: HTTPS and RBAC with the
// administrator's credentials in `kubeconfig`, or a warning of what --insecure-plain-http gave up.
std::string AccessSummary(const Serving& serving, const std::string& kubeconfig);

// Writes `text` to `path`, creating parent directories.
Status WriteFile(const std::string& path, const std::string& text);

// A kubeconfig (YAML) whose only cluster, user and context point at `server` ("http://..." or
// "https://..."); a non-empty `ca_pem` becomes the cluster's certificate-authority-data.
std::string LocalKubeconfig(const std::string& server, const std::string& token,
                            const std::string& ca_pem = "");

}  // namespace lws::cli
