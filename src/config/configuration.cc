#include "config/configuration.h"

#include <cstdint>
#include <limits>

#include "api/yaml.h"
#include "config/strict_decoder.h"

namespace lws::config {
namespace {

using api::Json;
using internal::DecodeProblems;
using internal::StructScope;

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();

WebhookConfig DecodeWebhook(StructScope s) {
  s.CheckKnown({"port", "host", "certDir"});
  WebhookConfig w;
  std::optional<std::int64_t> port;
  // Go's int is 64 bits; the range check that matters (a usable port) is validation's job.
  s.OptionalInt("port", std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), "int",
                &port);
  if (port) w.port = static_cast<int>(*port);
  s.String("host", &w.host);
  s.String("certDir", &w.cert_dir);
  return w;
}

LeaderElectionConfig DecodeLeaderElection(StructScope s) {
  s.CheckKnown({"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock",
                "resourceName", "resourceNamespace"});
  LeaderElectionConfig le;
  s.OptionalBool("leaderElect", &le.leader_elect);
  s.GoDuration("leaseDuration", &le.lease_duration);
  s.GoDuration("renewDeadline", &le.renew_deadline);
  s.GoDuration("retryPeriod", &le.retry_period);
  s.String("resourceLock", &le.resource_lock);
  s.String("resourceName", &le.resource_name);
  s.String("resourceNamespace", &le.resource_namespace);
  return le;
}

HealthConfig DecodeHealth(StructScope s) {
  s.CheckKnown({"healthProbeBindAddress", "readinessEndpointName", "livenessEndpointName"});
  HealthConfig h;
  s.String("healthProbeBindAddress", &h.health_probe_bind_address);
  s.String("readinessEndpointName", &h.readiness_endpoint_name);
  s.String("livenessEndpointName", &h.liveness_endpoint_name);
  return h;
}

InternalCertManagementConfig DecodeCertManagement(StructScope s) {
  s.CheckKnown({"enable", "webhookServiceName", "webhookSecretName"});
  InternalCertManagementConfig c;
  s.OptionalBool("enable", &c.enable);
  s.OptionalString("webhookServiceName", &c.webhook_service_name);
  s.OptionalString("webhookSecretName", &c.webhook_secret_name);
  return c;
}

ClientConnectionConfig DecodeClientConnection(StructScope s) {
  s.CheckKnown({"qps", "burst"});
  ClientConnectionConfig c;
  s.OptionalFloat32("qps", &c.qps);
  std::optional<std::int64_t> burst;
  s.OptionalInt("burst", kInt32Min, kInt32Max, "int32", &burst);
  if (burst) c.burst = static_cast<std::int32_t>(*burst);
  return c;
}

void DecodeSections(StructScope& root, Configuration* c) {
  if (auto s = root.Child("webhook", "v1alpha1.ControllerWebhook", "ControllerWebhook")) {
    c->webhook = DecodeWebhook(*s);
  }
  if (auto s = root.Child("leaderElection", "v1alpha1.LeaderElectionConfiguration",
                          "LeaderElectionConfiguration")) {
    c->leader_election = DecodeLeaderElection(*s);
  }
  if (auto s = root.Child("metrics", "v1alpha1.ControllerMetrics", "ControllerMetrics")) {
    s->CheckKnown({"bindAddress"});
    s->String("bindAddress", &c->metrics.bind_address);
  }
  if (auto s = root.Child("health", "v1alpha1.ControllerHealth", "ControllerHealth")) {
    c->health = DecodeHealth(*s);
  }
  if (auto s = root.Child("tls", "v1alpha1.TLSOptions", "TLSOptions")) {
    s->CheckKnown({"minVersion", "cipherSuites"});
    c->tls.emplace();
    s->String("minVersion", &c->tls->min_version);
    s->StringList("cipherSuites", &c->tls->cipher_suites);
  }
  if (auto s = root.Child("internalCertManagement", "v1alpha1.InternalCertManagement",
                          "InternalCertManagement")) {
    c->internal_cert_management = DecodeCertManagement(*s);
  }
  if (auto s = root.Child("gangSchedulingManagement", "v1alpha1.GangSchedulingManagement",
                          "GangSchedulingManagement")) {
    s->CheckKnown({"schedulerProvider"});
    c->gang_scheduling_management.emplace();
    s->OptionalString("schedulerProvider", &c->gang_scheduling_management->scheduler_provider);
  }
  if (auto s = root.Child("clientConnection", "v1alpha1.ClientConnection", "ClientConnection")) {
    c->client_connection = DecodeClientConnection(*s);
  }
}

// The scheme looks at apiVersion and kind before anything else: a file for another kind or
// version is refused whatever its other fields say.
Status CheckTypeMeta(const Json& doc) {
  std::string api_version = api::StringMember(doc, "apiVersion");
  std::string kind = api::StringMember(doc, "kind");
  if (kind.empty()) {
    return Status::BadRequest("Object 'Kind' is missing in the configuration file; want kind: " +
                              std::string(kConfigKind));
  }
  if (api_version != kConfigApiVersion || kind != kConfigKind) {
    return Status::BadRequest("no kind " + api::GoQuote(kind) + " is registered for version " +
                              api::GoQuote(api_version) +
                              "; want apiVersion: " + std::string(kConfigApiVersion) +
                              ", kind: " + std::string(kConfigKind));
  }
  return Status::Ok();
}

Status ProblemsStatus(const DecodeProblems& problems) {
  if (problems.first_error) return Status::BadRequest(*problems.first_error);
  std::string message = "strict decoding error: ";
  for (std::size_t i = 0; i < problems.unknown_fields.size(); ++i) {
    if (i > 0) message += ", ";
    message += "unknown field " + api::GoQuote(problems.unknown_fields[i]);
  }
  return Status::BadRequest(message);
}

}  // namespace

Result<Configuration> DecodeConfiguration(std::string_view text) {
  ASSIGN_OR_RETURN(Json doc, api::LoadYaml(text));
  if (!doc.is_object()) {
    return Status::BadRequest("json: cannot unmarshal " + std::string(internal::JsonKind(doc)) +
                              " into Go value of type v1alpha1.Configuration");
  }
  RETURN_IF_ERROR(CheckTypeMeta(doc));
  DecodeProblems problems;
  StructScope root(&problems, &doc, "Configuration", "");
  root.CheckKnown({"apiVersion", "kind", "webhook", "leaderElection", "metrics", "health", "tls",
                   "internalCertManagement", "gangSchedulingManagement", "clientConnection"});
  Configuration config;
  DecodeSections(root, &config);
  if (problems.first_error || !problems.unknown_fields.empty()) return ProblemsStatus(problems);
  return config;
}

namespace {

void DefaultString(std::string* field, std::string_view value) {
  if (field->empty()) *field = value;
}

void DefaultLeaderElection(LeaderElectionConfig* le) {
  DefaultString(&le->resource_name, kDefaultLeaderElectionId);
  DefaultString(&le->resource_lock, kDefaultResourceLock);
  // component-base RecommendedDefaultLeaderElectionConfiguration: zero durations are unset.
  if (le->lease_duration == Duration::zero()) le->lease_duration = kDefaultLeaseDuration;
  if (le->renew_deadline == Duration::zero()) le->renew_deadline = kDefaultRenewDeadline;
  if (le->retry_period == Duration::zero()) le->retry_period = kDefaultRetryPeriod;
  if (!le->leader_elect) le->leader_elect = true;
}

}  // namespace

void SetDefaults(Configuration* c) {
  if (!c->webhook.port) c->webhook.port = kDefaultWebhookPort;
  DefaultString(&c->webhook.cert_dir, kDefaultWebhookCertDir);
  DefaultString(&c->metrics.bind_address, kDefaultMetricsBindAddress);
  DefaultString(&c->health.health_probe_bind_address, kDefaultHealthProbeBindAddress);
  DefaultString(&c->health.liveness_endpoint_name, kDefaultLivenessEndpoint);
  DefaultString(&c->health.readiness_endpoint_name, kDefaultReadinessEndpoint);
  if (!c->leader_election) c->leader_election.emplace();
  DefaultLeaderElection(&*c->leader_election);
  if (!c->internal_cert_management) c->internal_cert_management.emplace();
  InternalCertManagementConfig& certs = *c->internal_cert_management;
  if (!certs.enable) certs.enable = true;
  // Names matter only to the internal certificate rotator, so they stay unset without it.
  if (*certs.enable) {
    if (!certs.webhook_service_name)
      certs.webhook_service_name = std::string(kDefaultWebhookServiceName);
    if (!certs.webhook_secret_name)
      certs.webhook_secret_name = std::string(kDefaultWebhookSecretName);
  }
  if (!c->client_connection) c->client_connection.emplace();
  if (!c->client_connection->qps) c->client_connection->qps = kDefaultClientQps;
  if (!c->client_connection->burst) c->client_connection->burst = kDefaultClientBurst;
}

Configuration DefaultConfiguration() {
  Configuration config;
  SetDefaults(&config);
  return config;
}

Result<Configuration> LoadConfiguration(std::string_view text) {
  ASSIGN_OR_RETURN(Configuration config, DecodeConfiguration(text));
  SetDefaults(&config);
  api::ErrorList errors = ValidateConfiguration(config);
  if (errors.empty()) return config;
  std::vector<FieldCause> causes;
  for (const api::FieldError& e : errors)
    causes.push_back({std::string(e.CauseType()), e.Body(), e.field});
  return Status(Code::kInvalid, api::AggregateMessage(errors), std::move(causes));
}

}  // namespace lws::config
