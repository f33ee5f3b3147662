// File: config/flags.h
//
// The command-line flags of upstream's cmd/main.go that the configuration file can also set
// (spec 21.1), and the rule that joins them: a flag overrides the file only when it was given
// on the command line. ExplicitFlags holds exactly the flags the user typed (std::nullopt for
// the others), so a default flag value never hides what the file says. The CLI layer fills it
// (with CLI11: bind each option to a temporary and copy it in when `app.count("--flag") > 0`).
//
//   Configuration cfg = flags.config_file ? LoadConfiguration(text) : DefaultConfiguration();
//   cfg = Overlay(std::move(cfg), flags);
//
// Also here: the operator's namespace, read from the service account's namespace file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "config/configuration.h"

namespace lws::config {

// Flag names and their defaults as upstream prints them in --help (spec 21.1). The defaults are
// the configuration defaults; they are listed for help text, not applied by Overlay.
inline constexpr std::string_view kFlagConfig = "config";
inline constexpr std::string_view kFlagMetricsBindAddress = "metrics-bind-address";
inline constexpr std::string_view kFlagHealthProbeBindAddress = "health-probe-bind-address";
inline constexpr std::string_view kFlagKubeApiQps = "kube-api-qps";
inline constexpr std::string_view kFlagKubeApiBurst = "kube-api-burst";
inline constexpr std::string_view kFlagLeaderElect = "leader-elect";
inline constexpr std::string_view kFlagLeaseDuration = "leader-elect-lease-duration";
inline constexpr std::string_view kFlagRenewDeadline = "leader-elect-renew-deadline";
inline constexpr std::string_view kFlagRetryPeriod = "leader-elect-retry-period";
inline constexpr std::string_view kFlagResourceLock = "leader-elect-resource-lock";
inline constexpr std::string_view kFlagResourceName = "leader-elect-resource-name";
inline constexpr std::string_view kFlagZapLogLevel = "zap-log-level";

struct ExplicitFlags {
  std::optional<std::string> config_file;                 // --config
  std::optional<std::string> metrics_bind_address;        // --metrics-bind-address
  std::optional<std::string> health_probe_bind_address;   // --health-probe-bind-address
  std::optional<float> kube_api_qps;                      // --kube-api-qps
  std::optional<int> kube_api_burst;                      // --kube-api-burst
  std::optional<bool> leader_elect;                       // --leader-elect
  std::optional<Duration> leader_elect_lease_duration;    // --leader-elect-lease-duration
  std::optional<Duration> leader_elect_renew_deadline;    // --leader-elect-renew-deadline
  std::optional<Duration> leader_elect_retry_period;      // --leader-elect-retry-period
  std::optional<std::string> leader_elect_resource_lock;  // --leader-elect-resource-lock
  std::optional<std::string> leader_elect_resource_name;  // --leader-elect-resource-name
  std::optional<std::string> zap_log_level;               // --zap-log-level (not in the file)
};

// `config` with every explicitly given flag written over its field. Fields a flag does not
// cover, and flags not given, keep the file's (or default) value. Validation is the caller's
// next step: a flag can make a valid file invalid (e.g. a lease shorter than the deadline).
Configuration Overlay(Configuration config, const ExplicitFlags& flags);

// Reads a duration flag value ("15s") with Go's syntax and messages, for the CLI layer.
Result<Duration> ParseDurationFlag(std::string_view flag, std::string_view value);

// zap's --zap-log-level: "debug", "info", "error", "panic", or an integer > 0 (a klog-style
// verbosity). BadRequest otherwise, naming the flag.
Status ValidateZapLogLevel(std::string_view value);

inline constexpr std::string_view kServiceAccountNamespaceFile =
    "/var/run/secrets/kubernetes.io/serviceaccount/namespace";
inline constexpr std::string_view kDefaultOperatorNamespace = "lws-system";

// The namespace the operator runs in: the service account namespace file's content with
// surrounding whitespace removed, or lws-system when the file is absent (nullopt) or blank.
// Leader election and the webhook Secret live there.
std::string OperatorNamespace(std::optional<std::string_view> namespace_file_content);

// The Lease's namespace: leaderElection.resourceNamespace when set, else the operator's.
std::string LeaderElectionNamespace(const Configuration& config,
                                    std::string_view operator_namespace);

}  // namespace lws::config
