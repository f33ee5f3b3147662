// File: cli/apiserver.cc
#include "cli/apiserver.h"

#include <CLI/CLI.hpp>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "api/yaml.h"
#include "apiserver/api_server.h"
#include "apiserver/http_server.h"
#include "base/log.h"
#include "cluster/garbage_collector.h"
#include "store/store.h"

namespace lws::cli {
namespace {

constexpr auto kTickInterval = std::chrono::milliseconds(250);
constexpr auto kBookmarkInterval = std::chrono::seconds(30);

// Background work of the control plane, run on the transport's tick: the garbage collector
// after any write (a pass lists every object, so it runs only when something changed), and
// periodic watch bookmarks.
class ControlLoop {
 public:
  ControlLoop(store::Store* store, apiserver::ApiServer* server, const Clock* clock)
      : store_(store), server_(server), clock_(clock), last_bookmark_(clock->Now()) {}

  void Tick() {
    std::uint64_t rv = store_->CurrentResourceVersion();
    if (rv != collected_rv_) {
      auto served = server_->served();
      cluster::GarbageCollector gc(store_, &served->registry);
      Result<int> actions = gc.RunUntilStable(100);
      if (!actions.ok()) {
        Logger("gc")->warn("garbage collection pass failed: {}", actions.status().message());
      }
      FinishPodTerminations(served->registry);
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
      const api::Json& meta = pod->json["metadata"];
      bool finalizers = meta.contains("finalizers") && !meta["finalizers"].empty();
      if (!meta.contains("deletionTimestamp") || finalizers) continue;
      store::DeleteOptions options;
      options.grace_period_seconds = 0;
      options.precondition_uid = store::MetaString(pod->json, "uid");
      (void)store_->Delete(*pods, store::MetaString(pod->json, "namespace"),
                           store::MetaString(pod->json, "name"), options);
    }
  }

  store::Store* store_;
  apiserver::ApiServer* server_;
  const Clock* clock_;
  std::uint64_t collected_rv_ = 0;
  Time last_bookmark_;
};

// Blocks SIGINT and SIGTERM in every thread (the transport's threads inherit the mask) so that
// WaitForShutdownSignal receives them synchronously.
sigset_t BlockShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

int WaitForShutdownSignal(const sigset_t& set) {
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

Status WriteFile(const std::string& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status(Code::kInternal, "cannot write " + path);
  return Status::Ok();
}

}  // namespace

std::string LocalKubeconfig(const std::string& server, const std::string& token) {
  api::Json user = api::Json::object();
  if (!token.empty()) user["token"] = token;
  api::Json config = {
      {"apiVersion", "v1"},
      {"kind", "Config"},
      {"clusters", {{{"name", "lws"}, {"cluster", {{"server", server}}}}}},
      {"users", {{{"name", "lws"}, {"user", user}}}},
      {"contexts", {{{"name", "lws"}, {"context", {{"cluster", "lws"}, {"user", "lws"}, {"namespace", "default"}}}}}},
      {"current-context", "lws"}};
  return api::EmitYaml(config);
}

int RunApiServer(const ApiServerCommandOptions& options) {
  auto log = Logger("apiserver");
  sigset_t signals = BlockShutdownSignals();
  RealClock clock;
  store::StoreOptions store_options;
  store_options.clock = &clock;
  store_options.seed = static_cast<std::uint64_t>(clock.Now().time_since_epoch().count());
  store_options.data_dir = options.data_dir;
  store_options.history_size = options.watch_history;
  if (!options.data_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.data_dir, ec);
  }
  Result<std::unique_ptr<store::Store>> store = store::Store::Open(store_options);
  if (!store.ok()) {
    std::cerr << "lws apiserver: cannot open the store: " << store.status().message() << "\n";
    return 1;
  }
  apiserver::ApiServerOptions server_options;
  server_options.store = store->get();
  server_options.clock = &clock;
  server_options.token = options.token;
  Result<std::unique_ptr<apiserver::ApiServer>> server =
      apiserver::ApiServer::Create(std::move(server_options));
  if (!server.ok()) {
    std::cerr << "lws apiserver: " << server.status().message() << "\n";
    return 1;
  }
  ControlLoop loop(store->get(), server->get(), &clock);
  apiserver::HttpServerOptions http_options;
  http_options.bind_address = options.bind;
  http_options.port = options.port;
  http_options.threads = options.threads;
  http_options.tick_interval = kTickInterval;
  http_options.tick = [&loop] { loop.Tick(); };
  apiserver::ApiServer* api = server->get();
  Result<std::unique_ptr<apiserver::HttpServer>> http = apiserver::HttpServer::Start(
      http_options, [api](const apiserver::HttpRequest& request) { return api->Handle(request); });
  if (!http.ok()) {
    std::cerr << "lws apiserver: " << http.status().message() << "\n";
    return 1;
  }
  std::string url = "http://" + (*http)->address();
  api->set_server_address((*http)->address());
  if (!options.kubeconfig_out.empty()) {
    Status written = WriteFile(options.kubeconfig_out, LocalKubeconfig(url, options.token));
    if (!written.ok()) {
      std::cerr << "lws apiserver: " << written.message() << "\n";
      return 1;
    }
  }
  std::cout << "lws apiserver: serving the Kubernetes API on " << url << " ("
            << (options.data_dir.empty() ? "in memory" : "data in " + options.data_dir) << ")\n"
            << "  kubectl --server " << url << (options.token.empty() ? "" : " --token <TOKEN>")
            << " get namespaces\n"
            << std::flush;
  int signal = WaitForShutdownSignal(signals);
  log->info("received {}, shutting down", signal == SIGINT ? "SIGINT" : "SIGTERM");
  (*http)->Stop();
  return 0;
}

void AddApiServerCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ApiServerCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "apiserver", "Serve the embedded Kubernetes API server alone (kubectl-compatible, HTTP)");
  cmd->add_option("--port", options->port, "Port to listen on (0: any free port)");
  cmd->add_option("--bind", options->bind, "Address to listen on");
  cmd->add_option("--data-dir", options->data_dir,
                  "Persist every object in DIR/store.db (SQLite); default: memory only");
  cmd->add_option("--token", options->token,
                  "Require `Authorization: Bearer TOKEN` on every API request");
  cmd->add_option("--threads", options->threads, "HTTP I/O threads")->check(CLI::Range(1, 64));
  cmd->add_option("--watch-history", options->watch_history,
                  "Changes kept for watch resumption; a watch from an older resourceVersion "
                  "gets 410 Gone")
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--kubeconfig-out", options->kubeconfig_out,
                  "Write a kubeconfig for this server to FILE");
  cmd->callback([options, exit_code] { *exit_code = RunApiServer(*options); });
}

}  // namespace lws::cli
