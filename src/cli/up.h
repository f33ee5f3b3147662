// File: cli/up.h
//
// `lws up`: a whole local Kubernetes cluster in one process, for trying LeaderWorkerSet on a
// laptop. The embedded API server (kubectl talks to it over HTTPS as the administrator through the
// kubeconfig this writes; every other caller is subject to RBAC, cli/serve.h), node
// pools of simulated GPU nodes with an autoscaler, the scheduler, kubelets, the StatefulSet
// controller and the garbage collector, all on the real clock (cluster/local_cluster.h), and the
// LWS controllers and webhooks in process unless --no-controller.
#pragma once

#include <cstdint>
#include <string>

#include "cli/tls_flags.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct UpOptions {
  std::uint16_t port = 6443;     // 0 picks a free port
  std::string config;            // cluster file; "" uses the default cluster
  std::string kubelet = "auto";  // "manual": API clients drive pod phase and readiness
  std::string data_dir;          // "" keeps everything in memory; else resume from it
  bool no_fsync = false;         // with data_dir: acknowledge writes before they are flushed
  std::string kubeconfig_out = ".lws/kubeconfig";
  std::uint64_t seed = 1;
  std::string token;
  // HTTP I/O threads. They only read, parse and write: handlers run on their own pools, and a
  // durable write waits for its flush without a thread (base/deferred_ack.h), so a few suffice;
  // more cost context switches (docs/performance.md, "Durable writes against etcd").
  int threads = 4;
  int request_timeout_seconds = 60;  // --request-timeout; 0: none
  std::string audit_log_path;        // --audit-log-path; "" keeps none
  bool webhooks = true;              // the LWS webhooks (defaulting, validation, pod mutation)
  // The in-process LWS controllers and webhooks. --no-controller leaves both to an operator run
  // against this cluster (`lws controller`, with deploy/local/ registering its webhooks), so it
  // is exercised as deployed.
  bool controller = true;
  TlsFlags tls;  // HTTPS (cli/tls_flags.h) unless tls.insecure_plain_http
  // Run the demo rollout of cli/demo.h once the cluster is up, then stop (unless keep_running).
  // Without `config` it uses the built-in examples/cluster/demo-cluster.yaml.
  bool demo = false;
  bool keep_running = false;
  // How the demo shows the rollout, as `docker build --progress` does: "tty" redraws it in
  // place, "plain" appends a row per change, "auto" redraws only when stdout is a terminal
  // (and TERM is not "dumb").
  std::string progress = "auto";
};

// Runs until SIGINT or SIGTERM, or until the demo ends. Returns the process exit code.
int RunUp(const UpOptions& options);

void AddUpCommand(CLI::App& app, int* exit_code);

}  // namespace lws::cli
