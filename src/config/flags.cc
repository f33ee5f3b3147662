#include "config/flags.h"

#include "api/go_duration.h"

namespace lws::config {
namespace {

template <class T, class U>
void Apply(const std::optional<T>& flag, U* field) {
  if (flag) *field = *flag;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

Configuration Overlay(Configuration config, const ExplicitFlags& flags) {
  Apply(flags.metrics_bind_address, &config.metrics.bind_address);
  Apply(flags.health_probe_bind_address, &config.health.health_probe_bind_address);
  if (flags.kube_api_qps || flags.kube_api_burst) {
    if (!config.client_connection) config.client_connection.emplace();
    Apply(flags.kube_api_qps, &config.client_connection->qps);
    if (flags.kube_api_burst)
      config.client_connection->burst = static_cast<std::int32_t>(*flags.kube_api_burst);
  }
  const bool any_leader_flag = flags.leader_elect || flags.leader_elect_lease_duration ||
                               flags.leader_elect_renew_deadline ||
                               flags.leader_elect_retry_period ||
                               flags.leader_elect_resource_lock || flags.leader_elect_resource_name;
  if (any_leader_flag) {
    if (!config.leader_election) config.leader_election.emplace();
    LeaderElectionConfig& le = *config.leader_election;
    Apply(flags.leader_elect, &le.leader_elect);
    Apply(flags.leader_elect_lease_duration, &le.lease_duration);
    Apply(flags.leader_elect_renew_deadline, &le.renew_deadline);
    Apply(flags.leader_elect_retry_period, &le.retry_period);
    Apply(flags.leader_elect_resource_lock, &le.resource_lock);
    Apply(flags.leader_elect_resource_name, &le.resource_name);
  }
  return config;
}

Result<Duration> ParseDurationFlag(std::string_view flag, std::string_view value) {
  Result<Duration> d = api::ParseGoDuration(value);
  if (d.ok()) return d;
  // Go's flag package words a bad value this way: invalid value "x" for flag -name: parse error.
  return Status::BadRequest("invalid value " + api::GoQuote(value) + " for flag --" +
                            std::string(flag) + ": " + d.status().message());
}

Status ValidateZapLogLevel(std::string_view value) {
  if (value == "debug" || value == "info" || value == "error" || value == "panic")
    return Status::Ok();
  bool digits = !value.empty() && value.size() <= 9;
  for (char c : value) digits = digits && c >= '0' && c <= '9';
  if (digits && value.find_first_not_of('0') != std::string_view::npos) return Status::Ok();
  return Status::BadRequest("invalid value " + api::GoQuote(value) + " for flag --" +
                            std::string(kFlagZapLogLevel) + ": invalid log level \"" +
                            std::string(value) +
                            "\"; want debug, info, error, panic or an integer > 0");
}

std::string OperatorNamespace(std::optional<std::string_view> namespace_file_content) {
  if (namespace_file_content) {
    std::string_view ns = TrimSpace(*namespace_file_content);
    if (!ns.empty()) return std::string(ns);
  }
  return std::string(kDefaultOperatorNamespace);
}

std::string LeaderElectionNamespace(const Configuration& config,
                                    std::string_view operator_namespace) {
  if (config.leader_election && !config.leader_election->resource_namespace.empty()) {
    return config.leader_election->resource_namespace;
  }
  return std::string(operator_namespace);
}

}  // namespace lws::config
