// File: operator/webhook/cert_manager.h
//
// Self-managed webhook certificates (internalCertManagement.enable, spec 21.4): what
// open-policy-agent/cert-controller's CertRotator does for the Go operator, on an EventLoop over
// a client::Client, so that it runs against a real cluster (REST client) and on the virtual loop
// in tests (LocalClient).
//
// One sync, run at start, every check_interval (12 h), whenever the Secret or one of the webhook
// configurations changes, and after a failure with backoff:
//   1. read Secret <secret_name> in <namespace>; issue what cert_secret.h's plan says and write
//      the Secret back (Update with the resourceVersion read). A conflict means another replica
//      wrote it first: the next sync, at once, re-reads and keeps theirs. A missing Secret is
//      created (deploy/ ships it empty so that the operator needs only `update`; a local
//      `lws up` setup has none);
//   2. write tls.crt, tls.key and ca.crt into cert_dir where they differ (never ca.key), then
//      call on_files_written (the webhook server's ReloadCertificates);
//   3. set caBundle in every webhook of the named Mutating/ValidatingWebhookConfigurations where
//      it differs; a configuration that does not exist (or is being deleted) is skipped, as
//      upstream does, and is injected once it appears (the watch triggers a sync).
// Ready() turns true after the first sync that did all three, and stays true: the readiness
// check, and the signal to start the webhook server and the controllers (spec 21.4).
//
// Threading: Start and Stop on the loop's thread (or before it runs); Ready() from any thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/event_loop.h"
#include "client/client.h"
#include "operator/webhook/cert_secret.h"

namespace lws::operator_webhook {

struct CertManagerOptions {
  std::string namespace_ = "lws-system";  // the operator namespace
  std::string secret_name = "lws-webhook-server-cert";
  std::string service_name = "lws-webhook-service";
  std::string cert_dir = "/tmp/k8s-webhook-server/serving-certs";
  std::vector<std::string> extra_dns_names;
  std::vector<std::string> extra_ip_addresses;  // e.g. "127.0.0.1" for deploy/local
  std::vector<std::string> mutating_configurations = {"lws-mutating-webhook-configuration"};
  std::vector<std::string> validating_configurations = {"lws-validating-webhook-configuration"};
  CertificateValidity validity;
  Duration check_interval = std::chrono::hours(12);  // cert-controller's rotation check
  Duration retry_delay_min = std::chrono::milliseconds(100);
  Duration retry_delay_max = std::chrono::seconds(30);
  std::function<void()> on_files_written;  // optional
};

class CertManager {
 public:
  // REQUIRES: `loop` and `client` outlive the manager.
  CertManager(EventLoop* loop, const client::Client* client, CertManagerOptions options);
  CertManager(const CertManager&) = delete;
  CertManager& operator=(const CertManager&) = delete;
  ~CertManager();  // Stop()

  // Starts the watches and posts the first sync. Fails when a watch cannot start.
  Status Start();
  void Stop();

  // True once certificates were in the Secret, in cert_dir and in every existing webhook
  // configuration; never false again.
  bool Ready() const { return ready_.load(); }

  const CertificateNames& names() const { return names_; }
  // The number of syncs run: for tests.
  int syncs() const { return syncs_; }

 private:
  void RequestSync();
  void Sync();
  Status SyncOnce();
  Result<CertificateMaterial> EnsureSecret();
  Status WriteFiles(const CertificateMaterial& material);
  Status InjectCaBundles(const std::string& ca_cert_pem);
  void ScheduleNext(Duration delay);

  EventLoop* loop_;
  const client::Client* client_;
  CertManagerOptions options_;
  CertificateNames names_;
  std::vector<std::unique_ptr<client::Subscription>> watches_;
  TaskId sync_task_ = 0;  // a posted sync (watch events coalesce into it)
  TaskId next_task_ = 0;  // the periodic check or the retry
  int failures_ = 0;      // consecutive failed syncs, for the backoff
  int syncs_ = 0;
  bool stopped_ = false;
  std::atomic<bool> ready_{false};
};

}  // namespace lws::operator_webhook
