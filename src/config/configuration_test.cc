#include "config/configuration.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/yaml.h"
#include "testdata/testdata_dir.h"

namespace lws::config {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::string ReadTestdata(const std::string& name) {
  std::ifstream in(TestdataDir() + "/config/" + name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string WithHeader(const std::string& body) {
  return "apiVersion: config.lws.x-k8s.io/v1alpha1\nkind: Configuration\n" + body;
}

TEST(ConfigurationTest, UpstreamDefaultFileLoadsToTheDefaults) {
  Result<Configuration> config = LoadConfiguration(ReadTestdata("controller_manager_config.yaml"));
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(*config, DefaultConfiguration());
}

TEST(ConfigurationTest, DefaultsAreUpstreams) {
  Configuration c = DefaultConfiguration();
  EXPECT_EQ(c.webhook.port, 9443);
  EXPECT_EQ(c.webhook.host, "");
  EXPECT_EQ(c.webhook.cert_dir, "/tmp/k8s-webhook-server/serving-certs");
  EXPECT_EQ(c.metrics.bind_address, ":8443");
  EXPECT_EQ(c.health.health_probe_bind_address, ":8081");
  EXPECT_EQ(c.health.readiness_endpoint_name, "/readyz");
  EXPECT_EQ(c.health.liveness_endpoint_name, "/healthz");
  ASSERT_TRUE(c.leader_election);
  EXPECT_EQ(c.leader_election->leader_elect, true);
  EXPECT_EQ(c.leader_election->lease_duration, seconds(15));
  EXPECT_EQ(c.leader_election->renew_deadline, seconds(10));
  EXPECT_EQ(c.leader_election->retry_period, seconds(2));
  EXPECT_EQ(c.leader_election->resource_lock, "leases");
  EXPECT_EQ(c.leader_election->resource_name, "b8b2488c.x-k8s.io");
  EXPECT_EQ(c.leader_election->resource_namespace, "");
  ASSERT_TRUE(c.internal_cert_management);
  EXPECT_EQ(c.internal_cert_management->enable, true);
  EXPECT_EQ(c.internal_cert_management->webhook_service_name, "lws-webhook-service");
  EXPECT_EQ(c.internal_cert_management->webhook_secret_name, "lws-webhook-server-cert");
  EXPECT_FALSE(c.tls);
  EXPECT_FALSE(c.gang_scheduling_management);
  ASSERT_TRUE(c.client_connection);
  EXPECT_EQ(c.client_connection->qps, 500.0f);
  EXPECT_EQ(c.client_connection->burst, 500);
}

TEST(ConfigurationTest, CertNamesAreNotDefaultedWhenInternalCertManagementIsOff) {
  Result<Configuration> c =
      LoadConfiguration(WithHeader("internalCertManagement:\n  enable: false\n"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->internal_cert_management->enable, false);
  EXPECT_EQ(c->internal_cert_management->webhook_service_name, std::nullopt);
  EXPECT_EQ(c->internal_cert_management->webhook_secret_name, std::nullopt);
}

TEST(ConfigurationTest, FullFileDecodesEveryField) {
  Result<Configuration> c = LoadConfiguration(ReadTestdata("full.yaml"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->webhook, (WebhookConfig{10443, "0.0.0.0", "/etc/lws/certs"}));
  EXPECT_EQ(*c->leader_election,
            (LeaderElectionConfig{false, seconds(90), seconds(60), milliseconds(1500), "leases",
                                  "lws-tenant-a", "lws-tenant-a"}));
  EXPECT_EQ(c->metrics.bind_address, "0");
  EXPECT_EQ(c->health, (HealthConfig{":9081", "/ready", "/live"}));
  EXPECT_EQ(*c->tls, (TlsConfig{"VersionTLS12",
                                {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                                 "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"}}));
  EXPECT_EQ(*c->internal_cert_management,
            (InternalCertManagementConfig{true, "lws-tenant-a-webhook-service",
                                          "lws-tenant-a-webhook-server-cert"}));
  EXPECT_EQ(c->gang_scheduling_management->scheduler_provider, "volcano");
  EXPECT_EQ(*c->client_connection, (ClientConnectionConfig{50.5f, 100}));
}

TEST(ConfigurationTest, UnknownFieldsAreAllNamedWithTheirPaths) {
  Result<Configuration> c = DecodeConfiguration(ReadTestdata("unknown_fields.yaml"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Code::kBadRequest);
  EXPECT_EQ(c.status().message(),
            "strict decoding error: unknown field \"metadata\", unknown field \"webhook.prot\", "
            "unknown field \"leaderElection.leaseDurationn\"");
}

TEST(ConfigurationTest, DecodingErrorsReadLikeKubernetes) {
  struct Case {
    std::string text;
    std::string want;
  };
  const Case cases[] = {
      {WithHeader("webhook:\n  prot: 9443\n"),
       "strict decoding error: unknown field \"webhook.prot\""},
      {WithHeader("webhook:\n  port: \"9443\"\n"),
       "json: cannot unmarshal string into Go struct field ControllerWebhook.webhook.port of type "
       "int"},
      {WithHeader("webhook:\n  port: 1.5\n"),
       "json: cannot unmarshal number 1.5 into Go struct field ControllerWebhook.webhook.port of "
       "type int"},
      {WithHeader("clientConnection:\n  burst: 3000000000\n"),
       "json: cannot unmarshal number 3000000000 into Go struct field "
       "ClientConnection.clientConnection.burst "
       "of type int32"},
      {WithHeader("webhook: 9443\n"),
       "json: cannot unmarshal number into Go struct field Configuration.webhook of type "
       "v1alpha1.ControllerWebhook"},
      {WithHeader("leaderElection:\n  leaderElect: maybe\n"),
       "json: cannot unmarshal string into Go struct field "
       "LeaderElectionConfiguration.leaderElection.leaderElect "
       "of type bool"},
      {WithHeader("tls:\n  cipherSuites: TLS_AES_128_GCM_SHA256\n"),
       "json: cannot unmarshal string into Go struct field TLSOptions.tls.cipherSuites of type "
       "[]string"},
      {WithHeader("leaderElection:\n  leaseDuration: 15\n"),
       "leaderElection.leaseDuration: json: cannot unmarshal number into Go value of type string"},
      {WithHeader("leaderElection:\n  retryPeriod: 2 seconds\n"),
       "leaderElection.retryPeriod: time: unknown unit \" seconds\" in duration \"2 seconds\""},
      {"apiVersion: config.lws.x-k8s.io/v1alpha1\n",
       "Object 'Kind' is missing in the configuration file; "
       "want kind: Configuration"},
      {"apiVersion: config.lws.x-k8s.io/v1beta9\nkind: Configuration\n",
       "no kind \"Configuration\" is registered for version \"config.lws.x-k8s.io/v1beta9\"; want "
       "apiVersion: "
       "config.lws.x-k8s.io/v1alpha1, kind: Configuration"},
      {"- a\n- b\n", "json: cannot unmarshal array into Go value of type v1alpha1.Configuration"},
  };
  for (const Case& c : cases) {
    Result<Configuration> got = DecodeConfiguration(c.text);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_EQ(got.status().code(), Code::kBadRequest) << c.text;
    EXPECT_EQ(got.status().message(), c.want) << c.text;
  }
}

TEST(ConfigurationTest, TypeErrorsWinOverUnknownFieldsAsInGo) {
  Result<Configuration> c = DecodeConfiguration(WithHeader("webhook:\n  prot: 1\n  port: x\n"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            "json: cannot unmarshal string into Go struct field ControllerWebhook.webhook.port of "
            "type int");
}

TEST(ConfigurationTest, NullsLeaveFieldsUnset) {
  Result<Configuration> c = LoadConfiguration(
      WithHeader("webhook:\n  port: null\nleaderElection: ~\ntls:\n  cipherSuites: null\n"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->webhook.port, 9443);
  EXPECT_EQ(c->leader_election->lease_duration, seconds(15));
  EXPECT_TRUE(c->tls->cipher_suites.empty());
}

TEST(ConfigurationTest, MalformedYamlIsABadRequestWithAPosition) {
  Result<Configuration> c = DecodeConfiguration("kind: [\n");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Code::kBadRequest);
  EXPECT_NE(c.status().message().find("yaml: line"), std::string::npos) << c.status().message();
}

TEST(ConfigurationTest, EncodingRoundTrips) {
  for (const char* name : {"full.yaml", "controller_manager_config.yaml"}) {
    Result<Configuration> c = LoadConfiguration(ReadTestdata(name));
    ASSERT_TRUE(c.ok()) << name;
    std::string yaml = api::EmitYaml(ConfigurationToJson(*c));
    Result<Configuration> again = DecodeConfiguration(yaml);
    ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << yaml;
    EXPECT_EQ(*again, *c) << yaml;
  }
}

}  // namespace
}  // namespace lws::config
