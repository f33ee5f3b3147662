// File: cli/apiserver.cc
#include "cli/apiserver.h"

#include <signal.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "api/yaml.h"
#include "apiserver/api_server.h"
#include "base/log.h"
#include "cli/serve.h"
#include "cli/shutdown.h"
#include "client/local/local_client.h"
#include "cluster/garbage_collector.h"
#include "cluster/namespace_deleter.h"
#include "store/store.h"
#include "transport/http_server.h"

namespace lws::cli {
namespace {

constexpr auto kTickInterval = std::chrono::milliseconds(250);
constexpr auto kBookmarkInterval = std::chrono::seconds(30);

// Background work of the control plane, run on the transport's tick: the garbage collector and
// the namespace deleter after any write (a pass reads what changed since the last one), and
// periodic watch bookmarks.
class ControlLoop {
 public:
  ControlLoop(store::Store* store, apiserver::ApiServer* server, const Clock* clock)
      : store_(store),
        server_(server),
        clock_(clock),
        gc_client_(server, store, "generic-garbage-collector"),
        namespace_client_(server, store, "namespace-controller"),
        kubelet_client_(server, store, "kubelet"),
        last_bookmark_(clock->Now()) {}

  void Tick() {
    std::uint64_t rv = store_->CurrentResourceVersion();
    const bool namespace_due = namespace_due_ && clock_->Now() >= *namespace_due_;
    if (rv != collected_rv_ || namespace_due) {
      auto served = server_->served();
      cluster::GarbageCollector gc(store_, &gc_client_, &served->registry, &gc_graph_);
      Result<int> actions = gc.RunUntilStable(100);
      if (!actions.ok()) {
        Logger("gc")->warn("garbage collection pass failed: {}", actions.status().message());
      }
      namespace_due_.reset();
      Result<int> terminated =
          cluster::NamespaceDeleter(store_, &namespace_client_, &served->registry)
              .RunOnce(clock_->Now(), &namespace_due_);
      if (!terminated.ok()) {
        Logger("namespace-controller")
            ->warn("namespace deletion pass failed: {}", terminated.status().message());
      }
      FinishPodTerminations(served->registry);
      RefreshQuotas(store_, server_);
      collected_rv_ = store_->CurrentResourceVersion();
    }
    if (clock_->Now() - last_bookmark_ >= kBookmarkInterval) {
      store_->SendBookmarks();
      last_bookmark_ = clock_->Now();
    }
  }

 private:
  // With no kubelet behind this API, nothing stops a deleted pod's containers: complete graceful
  // pod deletions at once, as a kubelet does when its containers exit promptly (otherwise
  // `kubectl delete pod` of a bound pod would wait out its grace period).
  void FinishPodTerminations(const api::ResourceRegistry& registry) {
    const api::ResourceInfo* pods = registry.Find("", "v1", "pods");
    Result<store::ListResult> list = store_->List(*pods, {});
    if (!list.ok()) return;
    for (const store::ObjectPtr& pod : list->items) {
      const api::Json& meta = pod->document()["metadata"];
      bool finalizers = meta.contains("finalizers") && !meta["finalizers"].empty();
      if (!meta.contains("deletionTimestamp") || finalizers) continue;
      client::DeleteOptions options;
      options.grace_period_seconds = 0;
      options.precondition_uid = pod->uid();
      (void)kubelet_client_.Delete(client::kPods, pod->name().namespace_, pod->name().name,
                                   options);
    }
  }

  store::Store* store_;
  apiserver::ApiServer* server_;
  const Clock* clock_;
  // The control plane's own writers, as kube-controller-manager's and a kubelet's go through
  // the API: admission sees them and managedFields name them.
  client::LocalClient gc_client_;
  client::LocalClient namespace_client_;
  client::LocalClient kubelet_client_;
  std::uint64_t collected_rv_ = 0;
  std::optional<Time> namespace_due_;  // a terminating namespace's grace period ends
  cluster::GcGraph gc_graph_;          // kept across passes: each reads only what changed
  Time last_bookmark_;
};

// How kubectl reaches this server: over HTTPS only through the kubeconfig, which carries the CA
// and the administrator's token.
std::string ConnectHint(const ApiServerCommandOptions& options, const std::string& url) {
  if (!options.kubeconfig_out.empty()) return "--kubeconfig " + options.kubeconfig_out;
  if (options.tls.insecure_plain_http) return "--server " + url;
  return "--server " + url + " --certificate-authority <CA FILE> --token <TOKEN>";
}

}  // namespace

int RunApiServer(const ApiServerCommandOptions& options) {
  auto log = Logger("apiserver");
  sigset_t signals = BlockShutdownSignals();
  RealClock clock;
  ServeOptions serve;
  serve.port = options.port;
  serve.bind = options.bind;
  serve.data_dir = options.data_dir;
  serve.sync_writes = !options.no_fsync;
  serve.token = options.token;
  serve.threads = options.threads;
  serve.request_timeout = std::chrono::seconds(options.request_timeout_seconds);
  serve.audit_log_path = options.audit_log_path;
  serve.watch_history = options.watch_history;
  serve.kubeconfig_out = options.kubeconfig_out;
  serve.webhooks = options.webhooks;
  serve.tls = options.tls;
  serve.allow_unauthenticated_remote = options.allow_unauthenticated_remote;
  serve.tick_interval = kTickInterval;
  std::unique_ptr<ControlLoop> loop;
  serve.tick = [&loop] {
    if (loop) loop->Tick();
  };
  Result<std::unique_ptr<Serving>> serving = Serving::Start("lws apiserver", &clock, serve);
  if (!serving.ok()) {
    std::cerr << serving.status().message() << "\n";
    return 1;
  }
  loop = std::make_unique<ControlLoop>((*serving)->store(), (*serving)->server(), &clock);
  if (Status listening = (*serving)->Listen(); !listening.ok()) {
    std::cerr << listening.message() << "\n";
    return 1;
  }
  std::string url = (*serving)->url();
  std::cout << "lws apiserver: serving the Kubernetes API on " << url << " ("
            << (options.data_dir.empty()
                    ? "in memory"
                    : "data in " + options.data_dir +
                          (options.no_fsync ? ", not flushed: --unsafe-no-fsync" : ""))
            << ")\n"
            << AccessSummary(**serving, options.kubeconfig_out) << "  kubectl "
            << ConnectHint(options, url) << " get namespaces\n"
            << std::flush;
  int signal = WaitForShutdownSignal(signals);
  log->info("received {}, shutting down", signal == SIGINT ? "SIGINT" : "SIGTERM");
  ExitIfShutdownHangs("lws apiserver", kShutdownGrace);
  (*serving)->Stop();
  return 0;
}

void AddApiServerCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ApiServerCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "apiserver",
      "Serve the embedded Kubernetes API server alone (kubectl-compatible, HTTP or HTTPS)");
  cmd->add_option("--port", options->port, "Port to listen on (0: any free port)");
  cmd->add_option("--bind", options->bind, "Address to listen on");
  cmd->add_flag("--insecure-allow-unauthenticated-remote", options->allow_unauthenticated_remote,
                "Allow --bind beyond loopback with --insecure-plain-http: anyone who can reach the "
                "port can read and change every object, Secrets included");
  cmd->add_option("--data-dir", options->data_dir,
                  "Persist every object in DIR/store.db (SQLite); default: memory only");
  cmd->add_flag("--unsafe-no-fsync", options->no_fsync,
                "With --data-dir: acknowledge a write before it is flushed to disk (faster; a "
                "power loss can lose acknowledged writes, a killed process cannot)");
  cmd->add_option(
         "--threads", options->threads,
         "HTTP I/O threads (handlers run on two pools of 16 threads, reads apart from writes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->add_option("--watch-history", options->watch_history,
                  "Changes kept for watch resumption; a watch from an older resourceVersion "
                  "gets 410 Gone")
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--kubeconfig-out", options->kubeconfig_out,
                  "Write a kubeconfig for this server, with the administrator's credentials, to "
                  "FILE (0600; \"\": none)")
      ->capture_default_str();
  AddAccessFlags(cmd, &options->token, &options->request_timeout_seconds, &options->audit_log_path);
  cmd->add_flag("!--no-webhooks", options->webhooks,
                "Leave out the LWS webhooks (LeaderWorkerSet defaulting and validation, LWS pod "
                "labels and env)");
  AddTlsFlags(cmd, &options->tls);
  cmd->callback([options, exit_code] { *exit_code = RunApiServer(*options); });
}

}  // namespace lws::cli
