// File: cli/up.cc
#include "cli/up.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

#include "api/quantity.h"
#include "base/event_loop.h"
#include "base/log.h"
#include "base/run_on_loop.h"
#include "cli/demo.h"
#include "cli/serve.h"
#include "cli/shutdown.h"
#include "client/local/local_client.h"
#include "cluster/cluster_config.h"
#include "cluster/local_cluster.h"
#include "controllers/disaggregatedset/ds_manager.h"
#include "controllers/lws/manager.h"

namespace lws::cli {

namespace {

constexpr auto kBookmarkInterval = std::chrono::seconds(30);
constexpr auto kQuotaInterval = std::chrono::seconds(1);

std::int64_t TotalOf(const cluster::NodePoolSpec& pool, const std::string& resource, int nodes) {
  auto it = pool.allocatable.find(resource);
  if (it == pool.allocatable.end()) return 0;
  Result<api::Quantity> q = api::Quantity::Parse(it->second);
  return q.ok() ? q->Value() * nodes : 0;
}

// What the cluster is made of, as `lws up` prints it at start.
// `where`: "in memory, kubelets auto, seed 1" and the like.
std::string DescribeCluster(const cluster::ClusterSpec& spec, const std::string& where) {
  std::string out;
  int nodes = 0;
  std::int64_t gpus = 0;
  for (const cluster::NodePoolSpec& pool : spec.pools) {
    std::int64_t pool_gpus = TotalOf(pool, "nvidia.com/gpu", pool.initial_nodes) +
                             TotalOf(pool, "google.com/tpu", pool.initial_nodes);
    // Two lines a pool, so that the banner fits 80 columns as the demo's view does.
    out += fmt::format(
        "  pool {}: {} nodes (min {}, max {}), {} accelerators\n"
        "    zones [{}], startup {}\n",
        pool.name, pool.initial_nodes, pool.min_nodes, pool.max_nodes, pool_gpus,
        fmt::join(pool.zones, ", "), pool.startup.ToString());
    nodes += pool.initial_nodes;
    gpus += pool_gpus;
  }
  for (const cluster::CapacityChange& change : spec.changes) {
    out += fmt::format("  at +{}: {}\n", cluster::FormatGoDuration(change.at), change.ToString());
  }
  return fmt::format("{} nodes, {} accelerators ({})\n", nodes, gpus, where) + out;
}

Result<cluster::ClusterSpec> ClusterSpecFor(const UpOptions& options) {
  if (options.config.empty() && options.demo) {
    return cluster::ParseClusterConfig(DemoClusterConfig(),
                                       "examples/cluster/demo-cluster.yaml (built in)");
  }
  if (options.config.empty()) return cluster::DefaultClusterSpec();
  return cluster::LoadClusterConfig(options.config);
}

// Sleeps up to `d` unless SIGINT or SIGTERM arrives first (they are blocked in every thread,
// so they wait in the process's queue until someone asks). Returns false when one arrived.
bool SleepUnlessSignalled(const sigset_t& signals, Duration d) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(d);
  timespec timeout{static_cast<time_t>(seconds.count()), static_cast<long>((d - seconds).count())};
  return sigtimedwait(&signals, nullptr, &timeout) < 0;  // EAGAIN: the time passed
}

// COLUMNS when it holds a positive number: what a shell exports, or what scripts/demo.sh passes
// along when stdout is a file that a terminal shows.
std::optional<int> ColumnsFromEnvironment() {
  const char* columns = std::getenv("COLUMNS");
  if (columns == nullptr) return std::nullopt;
  int width = 0;
  auto [end, error] = std::from_chars(columns, columns + std::strlen(columns), width);
  if (error != std::errc() || *end != '\0' || width <= 0) return std::nullopt;
  return width;
}

// Where the demo's view goes: a terminal's own width when stdout is one (else COLUMNS, else
// 80); a file or a pipe gets 80 columns and the plain log unless --progress tty says that a
// terminal shows it after all (then COLUMNS gives its width).
ViewStyle DemoViewStyle(const std::string& progress) {
  const char* term = std::getenv("TERM");
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  const bool dumb = term != nullptr && std::string(term) == "dumb";
  ViewStyle style;
  style.terminal = progress == "tty" || (progress == "auto" && tty && !dumb);
  winsize size{};
  if (tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    style.width = size.ws_col;
  } else if (tty || style.terminal) {
    style.width = ColumnsFromEnvironment().value_or(kDefaultWidth);
  }
  return style;
}

// The demo runs here, on the main thread, as a client of the cluster that runs on the loop.
int RunDemoOnCluster(const UpOptions& options, Serving& serving, const Clock& clock,
                     const sigset_t& signals) {
  client::LocalClient client(serving.server(), serving.store(), "lws-demo");
  DemoOptions demo;
  demo.kubeconfig = options.kubeconfig_out;
  demo.keep_running = options.keep_running;
  demo.view = DemoViewStyle(options.progress);
  demo.wait = [&signals](Duration d) { return SleepUnlessSignalled(signals, d); };
  return RunDemo(client, clock, std::cout, demo);
}

}  // namespace

int RunUp(const UpOptions& options) {
  auto log = Logger("up");
  Result<cluster::ClusterSpec> spec = ClusterSpecFor(options);
  if (!spec.ok()) {
    std::cerr << "lws up: invalid cluster file\n" << spec.status().message() << "\n";
    return 2;
  }
  sigset_t signals = BlockShutdownSignals();
  RealEventLoop loop;
  ServeOptions serve;
  serve.port = options.port;
  serve.data_dir = options.data_dir;
  serve.sync_writes = !options.no_fsync;
  serve.token = options.token;
  serve.threads = options.threads;
  serve.request_timeout = std::chrono::seconds(options.request_timeout_seconds);
  serve.audit_log_path = options.audit_log_path;
  serve.seed = options.seed;
  serve.watch_queue = 1'000'000;  // the cluster's own watchers must never be cut off
  serve.kubeconfig_out = options.kubeconfig_out;
  serve.webhooks = options.webhooks && options.controller;
  // Gang scheduling in the cluster file: the LWS controller makes each group's PodGroup and the
  // pod webhook names it, as with gangSchedulingManagement.schedulerProvider: volcano.
  const bool gang = spec->gang_scheduler == cluster::kVolcanoScheduler;
  serve.pod_mutation.gang_scheduling = gang;
  serve.tls = options.tls;
  Result<std::unique_ptr<Serving>> serving = Serving::Start("lws up", &loop.clock(), serve);
  if (!serving.ok()) {
    std::cerr << serving.status().message() << "\n";
    return 1;
  }
  cluster::LocalClusterOptions cluster_options;
  cluster_options.seed = options.seed;
  cluster_options.node_leases = true;  // `kubectl describe node` reads them
  cluster_options.kubelet =
      options.kubelet == "manual" ? cluster::KubeletMode::kManual : cluster::KubeletMode::kAuto;
  cluster_options.container_logs = true;
  cluster::LocalCluster cluster(&loop, {(*serving)->server(), (*serving)->store()}, *spec,
                                cluster_options);
  (*serving)->server()->set_pod_log_source(cluster.container_logs());
  // The LWS controllers run next to the simulated kube-controller-manager, as upstream's
  // manager runs next to a real one (unless an operator outside is to do their work).
  std::unique_ptr<controllers::LwsManager> lws_controllers;
  std::unique_ptr<disaggregatedset::DsManager> ds_controller;
  if (options.controller) {
    controllers::LwsManagerOptions manager_options;
    if (gang) manager_options.gang = controllers::GangProvider::kVolcano;
    lws_controllers = std::make_unique<controllers::LwsManager>(
        &loop,
        std::make_unique<client::LocalClient>((*serving)->server(), (*serving)->store(),
                                              std::string(controllers::kLwsFieldManager)),
        manager_options);
    ds_controller = std::make_unique<disaggregatedset::DsManager>(
        &loop, std::make_unique<client::LocalClient>((*serving)->server(), (*serving)->store(),
                                                     std::string(controllers::kLwsFieldManager)));
  }
  auto start = [&] {
    RETURN_IF_ERROR(cluster.Start());
    if (!lws_controllers) return Status::Ok();
    RETURN_IF_ERROR(lws_controllers->Start());
    return ds_controller->Start();
  };
  if (Status started = RunOnLoop(&loop, start); !started.ok()) {
    std::cerr << "lws up: cannot start the cluster: " << started.message() << "\n";
    return 1;
  }
  store::Store* store = (*serving)->store();
  std::function<void()> bookmarks = [&loop, store, &bookmarks] {
    store->SendBookmarks();
    loop.After(kBookmarkInterval, bookmarks);
  };
  loop.After(kBookmarkInterval, bookmarks);
  // The quota controller's share: status.used of every ResourceQuota, after any write.
  apiserver::ApiServer* server = (*serving)->server();
  std::uint64_t counted_rv = 0;
  std::function<void()> quotas = [&loop, store, server, &counted_rv, &quotas] {
    if (store->CurrentResourceVersion() != counted_rv) {
      RefreshQuotas(store, server);
      counted_rv = store->CurrentResourceVersion();
    }
    loop.After(kQuotaInterval, quotas);
  };
  loop.After(kQuotaInterval, quotas);
  if (Status listening = (*serving)->Listen(); !listening.ok()) {
    std::cerr << listening.message() << "\n";
    return 1;
  }
  const std::string data = options.data_dir.empty()
                               ? "in memory"
                               : "data in " + options.data_dir +
                                     (options.no_fsync ? ", not flushed: --unsafe-no-fsync" : "");
  const std::string where =
      fmt::format("{}, kubelets {}, seed {}", data, options.kubelet, options.seed);
  std::cout << "lws up: a local cluster on " << (*serving)->url() << "\n"
            << AccessSummary(**serving, options.kubeconfig_out) << DescribeCluster(*spec, where)
            << "Use it with:\n  export KUBECONFIG=" << options.kubeconfig_out
            << "\n  kubectl get nodes\n";
  if (!options.controller) {
    std::cout << "No LWS controller or webhooks in process: register the operator's webhooks\n"
              << "  kubectl apply -f deploy/local/\nand run it\n  lws controller --kubeconfig "
              << options.kubeconfig_out << "\n";
  }
  std::cout << "Ctrl-C stops the cluster.\n" << std::flush;
  int exit_code = 0;
  if (options.demo) exit_code = RunDemoOnCluster(options, **serving, loop.clock(), signals);
  if (!options.demo || (exit_code == kDemoDone && options.keep_running)) {
    int signal = WaitForShutdownSignal(signals);
    log->info("received {}, shutting down", signal == SIGINT ? "SIGINT" : "SIGTERM");
  }
  ExitIfShutdownHangs("lws up", kShutdownGrace);
  (*serving)->Stop();
  (*serving)->server()->set_pod_log_source(nullptr);
  (void)RunOnLoop(&loop, [&] {
    if (lws_controllers) lws_controllers->Stop();
    cluster.Stop();
    return Status::Ok();
  });
  loop.Stop();
  return exit_code;
}

void AddUpCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<UpOptions>();
  CLI::App* cmd = app.add_subcommand(
      "up", "Run a local cluster (API server, GPU node pools, scheduler, kubelets, controllers)");
  cmd->add_option("--port", options->port, "API server port (0: any free port)");
  cmd->add_option("--config", options->config,
                  "Cluster file (docs/cluster-config.md); default: 2 pools x 4 nodes x 8 GPUs")
      ->check(CLI::ExistingFile);
  cmd->add_option(
         "--kubelet", options->kubelet,
         "auto: pods start on their own; manual: clients patch pod status (step-by-step tests)")
      ->check(CLI::IsMember({"auto", "manual"}));
  cmd->add_option("--data-dir", options->data_dir,
                  "Keep the cluster in DIR and resume from it on the next start");
  cmd->add_flag("--unsafe-no-fsync", options->no_fsync,
                "With --data-dir: acknowledge a write before it is flushed to disk (faster; a "
                "power loss can lose acknowledged writes, a killed process cannot)");
  cmd->add_option("--kubeconfig-out", options->kubeconfig_out, "Where to write the kubeconfig")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed,
                  "Seed of the simulated randomness (startup times, crashes)")
      ->capture_default_str();
  cmd->add_option(
         "--threads", options->threads,
         "HTTP I/O threads (handlers run on two pools of 16 threads, reads apart from writes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  AddAccessFlags(cmd, &options->token, &options->request_timeout_seconds, &options->audit_log_path);
  cmd->add_flag("!--no-webhooks", options->webhooks,
                "Leave out the LWS webhooks (LeaderWorkerSet defaulting and validation, LWS pod "
                "labels and env)");
  CLI::Option* no_controller = cmd->add_flag(
      "!--no-controller", options->controller,
      "Run the cluster without the in-process LWS controllers and webhooks, for an operator "
      "(`lws controller`) whose webhooks deploy/local/ registers; writes still call every "
      "registered admission webhook");
  CLI::Option* demo = cmd->add_flag(
      "--demo", options->demo,
      "Create the LeaderWorkerSet of examples/lws/demo.yaml, wait until it is Available, roll out "
      "a new "
      "image and show it live, then stop (default cluster: examples/cluster/demo-cluster.yaml)");
  demo->excludes(no_controller);
  cmd->add_flag("--keep-running", options->keep_running,
                "With --demo: keep the cluster running after the rollout")
      ->needs("--demo");
  cmd->add_option("--progress", options->progress,
                  "With --demo: tty redraws the rollout in place, plain appends a line per "
                  "change, auto redraws when stdout is a terminal")
      ->check(CLI::IsMember({"auto", "tty", "plain"}))
      ->capture_default_str()
      ->needs("--demo");
  AddTlsFlags(cmd, &options->tls);
  cmd->callback([options, exit_code] { *exit_code = RunUp(*options); });
}

}  // namespace lws::cli
