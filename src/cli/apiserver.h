// File: cli/apiserver.h
//
// `lws apiserver [--port N] [--bind ADDR] [--data-dir DIR] [--token TOKEN]`: the embedded
// Kubernetes API server alone (no scheduler, kubelets or controllers besides the garbage
// collector), for kubectl, client libraries and tests. HTTPS on 127.0.0.1 with its own CA
// (cli/tls_flags.h), an administrator's token (made unless --token gives one) in the kubeconfig
// it writes, and RBAC for every other caller (docs/security.md); --insecure-plain-http gives all
// of that up. With --data-dir every acknowledged write survives a crash.
#pragma once

#include <cstdint>
#include <string>

#include "cli/tls_flags.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct ApiServerCommandOptions {
  std::uint16_t port = 6443;  // 0 picks a free port (printed at start)
  std::string bind = "127.0.0.1";
  std::string data_dir;   // "" keeps everything in memory
  bool no_fsync = false;  // with data_dir: acknowledge writes before they are flushed
  std::string token;
  // HTTP I/O threads. They only read, parse and write: handlers run on their own pools, and a
  // durable write waits for its flush without a thread (base/deferred_ack.h), so a few suffice;
  // more cost context switches (docs/performance.md, "Durable writes against etcd").
  int threads = 4;
  int request_timeout_seconds = 60;                // --request-timeout; 0: none
  std::string audit_log_path;                      // --audit-log-path; "" keeps none
  std::string kubeconfig_out = ".lws/kubeconfig";  // "" writes none
  std::size_t watch_history = 10'000;              // changes kept for watch resumption (older: 410)
  bool webhooks = true;  // the LWS webhooks (defaulting, validation, pod mutation)
  bool allow_unauthenticated_remote = false;  // --insecure-allow-unauthenticated-remote
  TlsFlags tls;  // HTTPS (cli/tls_flags.h) unless tls.insecure_plain_http
};

// Serves until SIGINT or SIGTERM. Returns the process exit code.
int RunApiServer(const ApiServerCommandOptions& options);

void AddApiServerCommand(CLI::App& app, int* exit_code);

}  // namespace lws::cli
