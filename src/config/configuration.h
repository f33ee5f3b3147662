// File: config/configuration.h
//
// The `lws controller` configuration file: upstream's `config.lws.x-k8s.io/v1alpha1`
// `Configuration` (kubernetes-sigs/lws api/config/v1alpha1), so a ConfigMap or Helm values file
// written for the Go controller works unchanged (spec 21.2).
//
// The structs mirror the Go types field for field, keeping Go's pointers as std::optional: the
// defaults depend on presence (webhookServiceName is defaulted only when internal certificate
// management is enabled), and a zero metav1.Duration means "unset". Loading happens in three
// steps, as upstream's UniversalDecoder + validate do:
//   DecodeConfiguration  strict decoding: unknown fields and wrong types are errors (BadRequest)
//   SetDefaults          SetDefaults_Configuration + RecommendedDefaultLeaderElectionConfiguration
//   ValidateConfiguration  field errors with paths (configuration_validation.cc)
// LoadConfiguration runs all three.
//
//   ASSIGN_OR_RETURN(Configuration cfg, LoadConfiguration(file_text));
//   cfg = Overlay(cfg, flags);  // flags.h: explicitly given flags win
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/clock.h"
#include "base/result.h"

namespace lws::config {

inline constexpr std::string_view kConfigApiVersion = "config.lws.x-k8s.io/v1alpha1";
inline constexpr std::string_view kConfigKind = "Configuration";

// Defaults of api/config/v1alpha1/defaults.go and component-base's leader election defaults.
inline constexpr int kDefaultWebhookPort = 9443;
inline constexpr std::string_view kDefaultWebhookCertDir = "/tmp/k8s-webhook-server/serving-certs";
inline constexpr std::string_view kDefaultWebhookServiceName = "lws-webhook-service";
inline constexpr std::string_view kDefaultWebhookSecretName = "lws-webhook-server-cert";
inline constexpr std::string_view kDefaultHealthProbeBindAddress = ":8081";
inline constexpr std::string_view kDefaultReadinessEndpoint = "/readyz";
inline constexpr std::string_view kDefaultLivenessEndpoint = "/healthz";
inline constexpr std::string_view kDefaultMetricsBindAddress = ":8443";
inline constexpr std::string_view kDefaultLeaderElectionId = "b8b2488c.x-k8s.io";
inline constexpr std::string_view kDefaultResourceLock = "leases";
inline constexpr Duration kDefaultLeaseDuration = std::chrono::seconds(15);
inline constexpr Duration kDefaultRenewDeadline = std::chrono::seconds(10);
inline constexpr Duration kDefaultRetryPeriod = std::chrono::seconds(2);
inline constexpr float kDefaultClientQps = 500;
inline constexpr std::int32_t kDefaultClientBurst = 500;

// ControllerWebhook.
struct WebhookConfig {
  std::optional<int> port;
  std::string host;
  std::string cert_dir;
  bool operator==(const WebhookConfig&) const = default;
};

// component-base config/v1alpha1 LeaderElectionConfiguration. A zero Duration is unset.
struct LeaderElectionConfig {
  std::optional<bool> leader_elect;
  Duration lease_duration{};
  Duration renew_deadline{};
  Duration retry_period{};
  std::string resource_lock;
  std::string resource_name;
  std::string resource_namespace;
  bool operator==(const LeaderElectionConfig&) const = default;
};

// ControllerMetrics: "0" disables the metrics server.
struct MetricsConfig {
  std::string bind_address;
  bool operator==(const MetricsConfig&) const = default;
};

// ControllerHealth: "0" or "" disables the probe server (after defaulting only "0" can).
struct HealthConfig {
  std::string health_probe_bind_address;
  std::string readiness_endpoint_name;
  std::string liveness_endpoint_name;
  bool operator==(const HealthConfig&) const = default;
};

// TLSOptions for the webhook and metrics servers; empty means Go's defaults.
struct TlsConfig {
  std::string min_version;                 // "VersionTLS12" or "VersionTLS13"
  std::vector<std::string> cipher_suites;  // Go crypto/tls names
  bool operator==(const TlsConfig&) const = default;
};

struct InternalCertManagementConfig {
  std::optional<bool> enable;
  std::optional<std::string> webhook_service_name;
  std::optional<std::string> webhook_secret_name;
  bool operator==(const InternalCertManagementConfig&) const = default;
};

struct GangSchedulingManagementConfig {
  std::optional<std::string> scheduler_provider;
  bool operator==(const GangSchedulingManagementConfig&) const = default;
};

struct ClientConnectionConfig {
  std::optional<float> qps;           // Go float32
  std::optional<std::int32_t> burst;  // Go int32
  bool operator==(const ClientConnectionConfig&) const = default;
};

struct Configuration {
  WebhookConfig webhook;
  std::optional<LeaderElectionConfig> leader_election;
  MetricsConfig metrics;
  HealthConfig health;
  std::optional<TlsConfig> tls;
  std::optional<InternalCertManagementConfig> internal_cert_management;
  std::optional<GangSchedulingManagementConfig> gang_scheduling_management;
  std::optional<ClientConnectionConfig> client_connection;
  bool operator==(const Configuration&) const = default;
};

// Strict decoding of one YAML (or JSON) document. BadRequest, in Kubernetes' words, for:
// malformed YAML ("yaml: line 3, column 2: ..."); a missing or other apiVersion/kind; wrong types
// ("json: cannot unmarshal string into Go struct field ControllerWebhook.webhook.port of type
// int"; the first one wins, as in Go); bad durations ("leaderElection.leaseDuration: time:
// invalid duration \"x\""); unknown fields, all of them in one message
// (`strict decoding error: unknown field "webhook.prot", unknown field "x"`). No defaults.
Result<Configuration> DecodeConfiguration(std::string_view text);

// Upstream's SetDefaults_Configuration (see the kDefault* constants).
void SetDefaults(Configuration* config);

// What the controller runs with when no --config is given: the defaults of an empty file.
Configuration DefaultConfiguration();

// Every problem of a defaulted configuration, with field paths (configuration_validation.cc).
api::ErrorList ValidateConfiguration(const Configuration& config);

// Decode, default, validate. Validation failures are an Invalid Status whose message is the
// aggregate of the field errors (as upstream's ToAggregate) with one cause per error.
Result<Configuration> LoadConfiguration(std::string_view text);

// The configuration as a JSON object in the file's shape (unset optionals omitted), for
// printing the effective configuration at start-up.
api::Json ConfigurationToJson(const Configuration& config);

}  // namespace lws::config
