// ConfigurationToJson: the configuration in the file's own shape, so that the effective settings
// can be logged at start-up and so that DecodeConfiguration(EmitYaml(ConfigurationToJson(c)))
// gives c back (the fuzz target checks this round trip).
#include "api/go_duration.h"
#include "config/configuration.h"

namespace lws::config {
namespace {

using api::Json;

// Go's omitempty drops "" and nil; the helpers below do the same.
void PutString(Json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

template <class T>
void PutOptional(Json& object, const char* key, const std::optional<T>& value) {
  if (value) object[key] = *value;
}

void PutDuration(Json& object, const char* key, Duration value) {
  if (value != Duration::zero()) object[key] = api::FormatGoDuration(value);
}

Json LeaderElectionToJson(const LeaderElectionConfig& le) {
  Json j = Json::object();
  PutOptional(j, "leaderElect", le.leader_elect);
  PutDuration(j, "leaseDuration", le.lease_duration);
  PutDuration(j, "renewDeadline", le.renew_deadline);
  PutDuration(j, "retryPeriod", le.retry_period);
  PutString(j, "resourceLock", le.resource_lock);
  PutString(j, "resourceName", le.resource_name);
  PutString(j, "resourceNamespace", le.resource_namespace);
  return j;
}

Json ManagerSections(const Configuration& c) {
  Json j = Json::object();
  Json webhook = Json::object();
  PutOptional(webhook, "port", c.webhook.port);
  PutString(webhook, "host", c.webhook.host);
  PutString(webhook, "certDir", c.webhook.cert_dir);
  if (!webhook.empty()) j["webhook"] = webhook;
  if (c.leader_election) j["leaderElection"] = LeaderElectionToJson(*c.leader_election);
  Json metrics = Json::object();
  PutString(metrics, "bindAddress", c.metrics.bind_address);
  if (!metrics.empty()) j["metrics"] = metrics;
  Json health = Json::object();
  PutString(health, "healthProbeBindAddress", c.health.health_probe_bind_address);
  PutString(health, "readinessEndpointName", c.health.readiness_endpoint_name);
  PutString(health, "livenessEndpointName", c.health.liveness_endpoint_name);
  if (!health.empty()) j["health"] = health;
  return j;
}

}  // namespace

Json ConfigurationToJson(const Configuration& c) {
  Json j = ManagerSections(c);
  j["apiVersion"] = std::string(kConfigApiVersion);
  j["kind"] = std::string(kConfigKind);
  if (c.tls) {
    Json tls = Json::object();
    PutString(tls, "minVersion", c.tls->min_version);
    if (!c.tls->cipher_suites.empty()) tls["cipherSuites"] = c.tls->cipher_suites;
    j["tls"] = tls;
  }
  if (c.internal_cert_management) {
    const InternalCertManagementConfig& certs = *c.internal_cert_management;
    Json m = Json::object();
    PutOptional(m, "enable", certs.enable);
    PutOptional(m, "webhookServiceName", certs.webhook_service_name);
    PutOptional(m, "webhookSecretName", certs.webhook_secret_name);
    j["internalCertManagement"] = m;
  }
  if (c.gang_scheduling_management) {
    Json g = Json::object();
    PutOptional(g, "schedulerProvider", c.gang_scheduling_management->scheduler_provider);
    j["gangSchedulingManagement"] = g;
  }
  if (c.client_connection) {
    Json cc = Json::object();
    PutOptional(cc, "qps", c.client_connection->qps);
    PutOptional(cc, "burst", c.client_connection->burst);
    j["clientConnection"] = cc;
  }
  return j;
}

}  // namespace lws::config
