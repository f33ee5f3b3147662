// File: cli/controller.cc
#include "cli/controller.h"

#include <arpa/inet.h>
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <future>
#include <iostream>
#include <random>

#include "api/field.h"
#include "base/event_loop.h"
#include "base/file.h"
#include "base/log.h"
#include "base/rng.h"
#include "cli/kube_connect.h"
#include "cli/shutdown.h"
#include "client/rest/rest_client.h"
#include "config/tls_options.h"
#include "controllers/disaggregatedset/ds_manager.h"
#include "controllers/lws/manager.h"
#include "operator/controller_metrics.h"
#include "operator/leader_election.h"
#include "operator/probe_servers.h"
#include "operator/rollout_metrics.h"
#include "operator/webhook/cert_manager.h"
#include "operator/webhook/webhook_server.h"

namespace lws::cli {
namespace {

constexpr std::string_view kCommand = "lws controller";

// gangSchedulingManagement.schedulerProvider (validated: volcano is the only provider).
controllers::GangProvider GangProviderOf(const config::Configuration& configuration) {
  const auto& gang = configuration.gang_scheduling_management;
  return gang && gang->scheduler_provider.value_or("") == "volcano"
             ? controllers::GangProvider::kVolcano
             : controllers::GangProvider::kNone;
}

// The pod webhook names each group's PodGroup when gang scheduling is on.
api::PodMutationOptions PodMutationOptionsOf(const config::Configuration& configuration) {
  api::PodMutationOptions options;
  options.gang_scheduling = GangProviderOf(configuration) != controllers::GangProvider::kNone;
  // Hash leaders' group keys must differ between operators and restarts: seeded by the system.
  std::random_device device;
  options.random_key_suffix =
      api::SeededKeySuffix(Rng((static_cast<std::uint64_t>(device()) << 32) ^ device()));
  return options;
}

// The Configuration's `tls` section for the webhook and metrics servers (upstream applies it to
// both through controller-runtime's TLSOpts).
transport::TlsPolicy TlsPolicyOf(const config::Configuration& configuration) {
  transport::TlsPolicy policy;
  if (!configuration.tls) return policy;
  policy.min_version = config::MinTlsVersionId(*configuration.tls);
  policy.cipher_suites = config::CipherSuiteIds(*configuration.tls);
  return policy;
}

// Exit codes: 0 after a shutdown signal, 1 when leadership was lost or a part failed at start.
constexpr int kExitLostLease = 1;
constexpr int kExitStartFailed = 1;

// zap's levels and klog-style numbers mapped onto spdlog's.
std::string SpdlogLevel(const std::string& zap) {
  if (zap == "debug" || zap == "info" || zap == "error") return zap;
  if (zap == "panic") return "critical";
  return std::stoi(zap) >= 2 ? "trace" : "debug";  // validated: an integer > 0
}

bool IsIpAddress(const std::string& text) {
  unsigned char address[sizeof(in6_addr)];
  return inet_pton(AF_INET, text.c_str(), address) == 1 ||
         inet_pton(AF_INET6, text.c_str(), address) == 1;
}

std::string Hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "lws";
  return name;
}

// The operator namespace: --namespace, else the service account's, else lws-system.
std::string OperatorNamespace(const ControllerCommandOptions& options) {
  if (!options.operator_namespace.empty()) return options.operator_namespace;
  Result<std::string> file = ReadFile(std::string(config::kServiceAccountNamespaceFile));
  if (!file.ok()) return config::OperatorNamespace(std::nullopt);
  return config::OperatorNamespace(*file);
}

// The server's gitVersion for the start-up log; "?" when /version is not the JSON we expect.
std::string ServerVersion(const std::string& body) {
  const std::string version =
      api::StringMember(api::Json::parse(body, nullptr, false), "gitVersion");
  return version.empty() ? "?" : version;
}

Result<std::unique_ptr<rest::RestClient>> Connect(const ControllerCommandOptions& options,
                                                  const config::Configuration& configuration) {
  rest::RestClientOptions client_options;
  client_options.field_manager = std::string(controllers::kLwsFieldManager);
  if (configuration.client_connection) {
    client_options.qps = configuration.client_connection->qps.value_or(config::kDefaultClientQps);
    client_options.burst =
        configuration.client_connection->burst.value_or(config::kDefaultClientBurst);
  }
  ASSIGN_OR_RETURN(KubeConnection connection,
                   ConnectTo({options.kubeconfig, options.context, ""}, client_options));
  std::unique_ptr<rest::RestClient> client = std::move(connection.client);
  const std::string& source = connection.source;
  // Fail at start with the reason (a wrong CA, a refused connection), not in every informer.
  ASSIGN_OR_RETURN(rest::HttpAnswer version, client->Send({"GET", "/version"}));
  if (version.status != 200) {
    return Status(Code::kServiceUnavailable,
                  "GET /version answered " + std::to_string(version.status));
  }
  Logger("controller")
      ->info("connected to {} ({}), server {}", client->config().server, source,
             ServerVersion(version.body));
  return client;
}

// Everything one operator process runs, stopped in reverse order of start.
class Operator {
 public:
  Operator(ControllerCommandOptions options, config::Configuration configuration,
           std::unique_ptr<rest::RestClient> client)
      : options_(std::move(options)),
        configuration_(std::move(configuration)),
        namespace_(OperatorNamespace(options_)),
        client_(std::move(client)),
        metrics_(&registry_),
        lws_metrics_(&metrics_, "leaderworkerset", &clock_),
        pod_metrics_(&metrics_, "pod", &clock_),
        rollouts_(&metrics_) {}

  Status Start();
  // Stops taking work, finishes the reconcile in flight and releases the Lease.
  void Stop();
  // Set once leadership was lost: the process must exit.
  bool lost_lease() const { return lost_lease_.load(); }

 private:
  Status StartProbes();
  Status StartCertificates();
  void StartWebhookServerWhenReady();
  void StartElection();
  void StartControllers();
  void StartDisaggregatedSetController();
  void ObserveRollout(const store::WatchEvent& event);

  const ControllerCommandOptions options_;
  const config::Configuration configuration_;
  const std::string namespace_;
  std::unique_ptr<rest::RestClient> client_;
  RealClock clock_;
  op::Registry registry_;
  op::OperatorMetrics metrics_;
  op::ControllerMetrics lws_metrics_;
  op::ControllerMetrics pod_metrics_;
  op::RolloutMetrics rollouts_;
  op::HealthChecks liveness_;
  op::HealthChecks readiness_;
  // Three loops, so that neither a slow reconcile delays the Lease renewal nor the reverse.
  RealEventLoop controller_loop_;
  RealEventLoop election_loop_;
  RealEventLoop serving_loop_;  // certificates and the webhook server's reloads
  std::unique_ptr<transport::HttpServer> metrics_server_;
  std::unique_ptr<transport::HttpServer> probe_server_;
  std::unique_ptr<operator_webhook::CertManager> certificates_;
  std::unique_ptr<operator_webhook::WebhookServer> webhooks_;
  std::unique_ptr<op::LeaderElector> elector_;
  std::unique_ptr<controllers::LwsManager> manager_;
  std::unique_ptr<disaggregatedset::DsManager> ds_manager_;
  std::unique_ptr<client::Subscription> rollout_watch_;
  std::atomic<bool> webhooks_ready_{false};
  std::atomic<bool> lost_lease_{false};
  std::atomic<bool> stopping_{false};
};

// Runs `task` on `loop` and waits for it (a loop's tasks never run concurrently).
void RunOn(EventLoop* loop, const std::function<void()>& task) {
  std::promise<void> done;
  loop->Post([&] {
    task();
    done.set_value();
  });
  done.get_future().wait();
}

Status Operator::Start() {
  // Upstream's checks: healthz is a ping; readyz waits for the certificates and the webhook
  // server, so no traffic reaches a replica that cannot admit (spec 21.4).
  liveness_.Add("healthz", op::Ping);
  readiness_.Add("readyz", [this] {
    return webhooks_ready_.load() ? Status::Ok()
                                  : Status(Code::kServiceUnavailable, "certificates are not ready");
  });
  RETURN_IF_ERROR(StartProbes());
  RETURN_IF_ERROR(StartCertificates());
  StartWebhookServerWhenReady();
  StartElection();
  return Status::Ok();
}

Status Operator::StartProbes() {
  op::MetricsServerOptions metrics;
  metrics.bind_address = configuration_.metrics.bind_address;
  metrics.secure = options_.metrics_secure;
  metrics.tls_policy = TlsPolicyOf(configuration_);
  ASSIGN_OR_RETURN(metrics_server_,
                   op::StartMetricsServer(metrics, &registry_, client_.get(), &clock_));
  op::HealthProbeOptions health;
  health.bind_address = configuration_.health.health_probe_bind_address;
  health.liveness_endpoint = configuration_.health.liveness_endpoint_name;
  health.readiness_endpoint = configuration_.health.readiness_endpoint_name;
  ASSIGN_OR_RETURN(probe_server_, op::StartHealthProbeServer(health, &liveness_, &readiness_));
  return Status::Ok();
}

Status Operator::StartCertificates() {
  const auto& internal = configuration_.internal_cert_management;
  if (!internal || !internal->enable.value_or(false)) {
    Logger("controller")
        ->info("webhook certificates are managed outside (cert-manager): reading {}",
               configuration_.webhook.cert_dir);
    return Status::Ok();
  }
  operator_webhook::CertManagerOptions cert;
  cert.namespace_ = namespace_;
  cert.secret_name =
      internal->webhook_secret_name.value_or(std::string(config::kDefaultWebhookSecretName));
  cert.service_name =
      internal->webhook_service_name.value_or(std::string(config::kDefaultWebhookServiceName));
  cert.cert_dir = configuration_.webhook.cert_dir;
  // A rotated certificate is served at once, not at the server's next periodic check.
  cert.on_files_written = [this] {
    if (webhooks_ != nullptr) (void)webhooks_->ReloadCertificates();
  };
  for (const std::string& san : options_.webhook_cert_sans) {
    (IsIpAddress(san) ? cert.extra_ip_addresses : cert.extra_dns_names).push_back(san);
  }
  certificates_ = std::make_unique<operator_webhook::CertManager>(&serving_loop_, client_.get(),
                                                                  std::move(cert));
  Status started = Status::Ok();
  RunOn(&serving_loop_, [&] { started = certificates_->Start(); });
  return started;
}

// The webhook server needs its certificate files: with self-managed certificates they exist
// after the first sync, so it is started from the serving loop once the manager is ready.
void Operator::StartWebhookServerWhenReady() {
  serving_loop_.Post([this] {
    if (webhooks_ != nullptr) return;
    if (certificates_ != nullptr && !certificates_->Ready()) {
      serving_loop_.After(std::chrono::milliseconds(200),
                          [this] { StartWebhookServerWhenReady(); });
      return;
    }
    operator_webhook::WebhookServerOptions server;
    server.host = configuration_.webhook.host;
    server.port = static_cast<std::uint16_t>(
        configuration_.webhook.port.value_or(config::kDefaultWebhookPort));
    server.cert_dir = configuration_.webhook.cert_dir;
    server.tls_policy = TlsPolicyOf(configuration_);
    server.observer = [this](const operator_webhook::WebhookRequestRecord& record) {
      op::RecordWebhookRequest(metrics_, std::string(record.webhook), record.code, record.latency);
    };
    auto started = operator_webhook::WebhookServer::Start(
        &serving_loop_, std::move(server),
        operator_webhook::LwsWebhookEndpoints(PodMutationOptionsOf(configuration_)));
    if (!started.ok()) {
      Logger("controller")->error("webhook server: {}; retrying in 2s", started.status().message());
      serving_loop_.After(std::chrono::seconds(2), [this] { StartWebhookServerWhenReady(); });
      return;
    }
    webhooks_ = std::move(*started);
    webhooks_ready_ = true;
  });
}

void Operator::StartElection() {
  const auto& election = configuration_.leader_election;
  if (!election || !election->leader_elect.value_or(true)) {
    Logger("controller")->info("leader election disabled: starting the controllers");
    controller_loop_.Post([this] { StartControllers(); });
    return;
  }
  op::LeaderElectionOptions lease;
  lease.lease_namespace = config::LeaderElectionNamespace(configuration_, namespace_);
  lease.lease_name = election->resource_name;
  Rng rng(static_cast<std::uint64_t>(clock_.Now().time_since_epoch().count()));
  lease.identity =
      options_.identity.empty() ? op::LeaderIdentity(Hostname(), &rng) : options_.identity;
  lease.lease_duration = election->lease_duration;
  lease.renew_deadline = election->renew_deadline;
  lease.retry_period = election->retry_period;
  auto log = Logger("controller");
  op::LeaderCallbacks callbacks;
  callbacks.on_started_leading = [this, log] {
    log->info("starting the controllers");
    controller_loop_.Post([this] { StartControllers(); });
  };
  callbacks.on_stopped_leading = [this, log] {
    if (stopping_.load()) return;
    log->error("leader election lost");
    lost_lease_ = true;
  };
  elector_ = std::make_unique<op::LeaderElector>(&election_loop_, client_.get(), std::move(lease),
                                                 std::move(callbacks),
                                                 metrics_.leader_election_master_status);
  election_loop_.Post([this] { elector_->Start(); });
}

void Operator::StartControllers() {
  if (manager_ != nullptr || stopping_.load()) return;
  controllers::LwsManagerOptions manager_options;
  manager_options.lws_queue_observer = &lws_metrics_;
  manager_options.group_queue_observer = &pod_metrics_;
  manager_options.lws_workers = static_cast<std::size_t>(options_.lws_workers);
  manager_options.group_workers = static_cast<std::size_t>(options_.group_workers);
  manager_options.event_instance = std::string(controllers::kLwsEventController) + "-" + Hostname();
  manager_options.gang = GangProviderOf(configuration_);
  manager_ =
      std::make_unique<controllers::LwsManager>(&controller_loop_, client_.get(), manager_options);
  if (Status started = manager_->Start(); !started.ok()) {
    Logger("controller")->error("starting the controllers: {}", started.message());
    lost_lease_ = true;  // exit and let the pod restart
    return;
  }
  auto watch = client_->Watch(&controller_loop_, client::kLeaderWorkerSets, "",
                              [this](const store::WatchEvent& event) { ObserveRollout(event); });
  if (watch.ok()) rollout_watch_ = std::move(*watch);
  StartDisaggregatedSetController();
}

// Upstream's manager always runs it, with the DisaggregatedSet CRDs installed by its chart. A
// cluster installed from an older deploy/ has no such CRD: its informers would never sync, so
// the controller runs only where the API server lists disaggregatedsets.
void Operator::StartDisaggregatedSetController() {
  auto log = Logger("controller");
  auto listed = client_->List(disaggregatedset::kDisaggregatedSets);
  if (!listed.ok()) {
    log->info(
        "not running the DisaggregatedSet controller: the API server does not list "
        "disaggregatedsets.disaggregatedset.x-k8s.io ({}); install "
        "deploy/crd/disaggregatedset.x-k8s.io_*.yaml and restart to run it",
        listed.status().message());
    return;
  }
  ds_manager_ = std::make_unique<disaggregatedset::DsManager>(
      &controller_loop_, client_.get(),
      std::string(disaggregatedset::kDsEventController) + "-" + Hostname());
  if (Status started = ds_manager_->Start(); !started.ok()) {
    log->error("starting the DisaggregatedSet controller: {}", started.message());
    lost_lease_ = true;
  }
}

void Operator::ObserveRollout(const store::WatchEvent& event) {
  if (event.object == nullptr) return;
  const store::ObjectName name = event.object->name();
  if (event.type == store::EventType::kDeleted) {
    rollouts_.Forget(name.namespace_, name.name);
  } else if (event.type == store::EventType::kAdded || event.type == store::EventType::kModified) {
    rollouts_.Observe(name.namespace_, name.name, op::RolloutSampleOf(event.object->document()));
  }
}

void Operator::Stop() {
  stopping_ = true;
  // The controllers first: the reconcile in flight finishes (loop tasks never run concurrently,
  // so this task runs after it), no new one starts.
  RunOn(&controller_loop_, [this] {
    rollout_watch_.reset();
    if (ds_manager_) ds_manager_->Stop();
    if (manager_) manager_->Stop();
  });
  controller_loop_.Stop();
  // Then the Lease, released so a standby takes over without waiting for it to expire.
  if (elector_) RunOn(&election_loop_, [this] { elector_->Stop(); });
  election_loop_.Stop();
  RunOn(&serving_loop_, [this] {
    if (webhooks_) webhooks_->Stop();
    if (certificates_) certificates_->Stop();
  });
  serving_loop_.Stop();
  if (probe_server_) probe_server_->Stop();
  if (metrics_server_) metrics_server_->Stop();
}

// Waits for SIGINT/SIGTERM, or for lost leadership (checked between waits).
int WaitForEnd(const sigset_t& signals, const Operator& running) {
  while (!running.lost_lease()) {
    timespec timeout{0, 200'000'000};
    int signal = sigtimedwait(&signals, nullptr, &timeout);
    if (signal > 0) {
      Logger("controller")
          ->info("received {}, shutting down", signal == SIGINT ? "SIGINT" : "SIGTERM");
      return 0;
    }
  }
  return kExitLostLease;
}

}  // namespace

int RunController(const ControllerCommandOptions& options) {
  sigset_t signals = BlockShutdownSignals();
  Result<config::Configuration> configuration = ResolveConfiguration(options.flags);
  if (!configuration.ok()) {
    std::cerr << kCommand << ": " << configuration.status().message() << "\n";
    return 2;
  }
  if (options.flags.zap_log_level) SetLogLevel(SpdlogLevel(*options.flags.zap_log_level));
  Result<std::unique_ptr<rest::RestClient>> client = Connect(options, *configuration);
  if (!client.ok()) {
    std::cerr << kCommand << ": cannot reach the API server: " << client.status().message() << "\n";
    return kExitStartFailed;
  }
  Operator running(options, std::move(*configuration), std::move(*client));
  if (Status started = running.Start(); !started.ok()) {
    std::cerr << kCommand << ": " << started.message() << "\n";
    running.Stop();
    return kExitStartFailed;
  }
  int code = WaitForEnd(signals, running);
  running.Stop();
  Logger("controller")->info("stopped");
  return code;
}

void AddControllerCommand(CLI::App& app, int* exit_code) {
  CLI::App* command = app.add_subcommand(
      "controller", "Run the LeaderWorkerSet operator against an API server (upstream's manager)");
  auto options = std::make_shared<ControllerCommandOptions>();
  AddControllerFlags(command, options.get());
  command->callback([options, exit_code] { *exit_code = RunController(*options); });
}

}  // namespace lws::cli
