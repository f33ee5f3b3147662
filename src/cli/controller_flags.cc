#include "cli/controller_flags.h"

#include <CLI/CLI.hpp>

#include "api/field.h"
#include "base/file.h"

namespace lws::cli {
namespace {

// The `--name` spelling of a flag constant.
std::string Flag(std::string_view name) { return "--" + std::string(name); }

// A duration flag: parsed with Go's syntax when given, recorded in `target`.
void AddDurationFlag(CLI::App* command, std::string_view name, std::optional<Duration>* target,
                     const std::string& help) {
  command->add_option_function<std::string>(
      Flag(name),
      [name, target](const std::string& value) {
        Result<Duration> parsed = config::ParseDurationFlag(name, value);
        if (!parsed.ok()) throw CLI::ValidationError(std::string(parsed.status().message()));
        *target = *parsed;
      },
      help);
}

void AddServingFlags(CLI::App* command, config::ExplicitFlags* flags) {
  command->add_option_function<std::string>(
      Flag(config::kFlagConfig), [flags](const std::string& v) { flags->config_file = v; },
      "a Configuration file (config.lws.x-k8s.io/v1alpha1); flags given explicitly override it");
  command->add_option_function<std::string>(
      Flag(config::kFlagMetricsBindAddress),
      [flags](const std::string& v) { flags->metrics_bind_address = v; },
      "the address /metrics is served on (default :8443; 0 disables it)");
  command->add_option_function<std::string>(
      Flag(config::kFlagHealthProbeBindAddress),
      [flags](const std::string& v) { flags->health_probe_bind_address = v; },
      "the address /healthz and /readyz are served on (default :8081)");
  command->add_option_function<float>(
      Flag(config::kFlagKubeApiQps), [flags](float v) { flags->kube_api_qps = v; },
      "queries per second to the API server (default 500)");
  command->add_option_function<std::int64_t>(
      Flag(config::kFlagKubeApiBurst),
      [flags](std::int64_t v) {
        // Go's flag is an int, stored into client-go's int32 Burst.
        if (v < 0 || v > INT32_MAX) {
          throw CLI::ValidationError("--kube-api-burst must be between 0 and 2147483647");
        }
        flags->kube_api_burst = static_cast<int>(v);
      },
      "burst of queries to the API server (default 500)");
  command->add_option_function<std::string>(
      Flag(config::kFlagZapLogLevel),
      [flags](const std::string& v) {
        Status valid = config::ValidateZapLogLevel(v);
        if (!valid.ok()) throw CLI::ValidationError(std::string(valid.message()));
        flags->zap_log_level = v;
      },
      "debug, info, error, panic, or a verbosity number");
}

void AddLeaderElectionFlags(CLI::App* command, config::ExplicitFlags* flags) {
  // A Go bool flag: --leader-elect and --leader-elect=false, never a separate value.
  command->add_flag_function(
      Flag(config::kFlagLeaderElect) + "{true}",
      [flags](std::int64_t count) { flags->leader_elect = count > 0; },
      "elect one active controller on a Lease (default true)");
  AddDurationFlag(command, config::kFlagLeaseDuration, &flags->leader_elect_lease_duration,
                  "how long standbys wait before taking over an unrenewed lease (default 15s)");
  AddDurationFlag(command, config::kFlagRenewDeadline, &flags->leader_elect_renew_deadline,
                  "how long the leader retries renewing before it gives up (default 10s)");
  AddDurationFlag(command, config::kFlagRetryPeriod, &flags->leader_elect_retry_period,
                  "how often candidates try to acquire or renew (default 2s)");
  command->add_option_function<std::string>(
      Flag(config::kFlagResourceLock),
      [flags](const std::string& v) { flags->leader_elect_resource_lock = v; },
      "the lock kind (only leases)");
  command->add_option_function<std::string>(
      Flag(config::kFlagResourceName),
      [flags](const std::string& v) { flags->leader_elect_resource_name = v; },
      "the Lease name (default b8b2488c.x-k8s.io)");
}

void AddClientFlags(CLI::App* command, ControllerCommandOptions* options) {
  command->add_option("--kubeconfig", options->kubeconfig,
                      "kubeconfig file (default: KUBECONFIG, in-cluster, ~/.kube/config)");
  command->add_option("--context", options->context, "the kubeconfig context to use");
  command->add_flag("--metrics-secure{true}", options->metrics_secure,
                    "serve /metrics over HTTPS with TokenReview authentication (default true)");
  command->add_option("--webhook-cert-san", options->webhook_cert_sans,
                      "extra DNS name or IP for the self-managed webhook certificate (repeatable)");
  command->add_option("--namespace", options->operator_namespace,
                      "the operator namespace (default: the service account's, else lws-system)");
  command->add_option("--identity", options->identity,
                      "leader election identity (default <hostname>_<uuid>)");
  command
      ->add_option("--concurrent-lws-syncs", options->lws_workers,
                   "LeaderWorkerSets reconciled at once (default 2)")
      ->check(CLI::Range(1, 64));
  command
      ->add_option("--concurrent-group-syncs", options->group_workers,
                   "groups (leader pods) reconciled at once (default 4)")
      ->check(CLI::Range(1, 64));
}

}  // namespace

void AddControllerFlags(CLI::App* command, ControllerCommandOptions* options) {
  AddServingFlags(command, &options->flags);
  AddLeaderElectionFlags(command, &options->flags);
  AddClientFlags(command, options);
}

Result<config::Configuration> ResolveConfiguration(const config::ExplicitFlags& flags) {
  config::Configuration configuration = config::DefaultConfiguration();
  if (flags.config_file) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(*flags.config_file));
    Result<config::Configuration> loaded = config::LoadConfiguration(text);
    if (!loaded.ok()) {
      Status error = loaded.status();
      return Status(error.code(), *flags.config_file + ": " + std::string(error.message()),
                    error.causes());
    }
    configuration = std::move(*loaded);
  }
  configuration = config::Overlay(std::move(configuration), flags);
  api::ErrorList errors = config::ValidateConfiguration(configuration);
  if (!errors.empty()) {
    return Status::BadRequest("invalid configuration after flags: " +
                              api::AggregateMessage(errors));
  }
  return configuration;
}

}  // namespace lws::cli
