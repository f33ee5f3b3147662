#include <gtest/gtest.h>

#include "config/configuration.h"
#include "config/tls_options.h"

namespace lws::config {
namespace {

using std::chrono::seconds;

std::vector<std::string> Errors(const Configuration& c) {
  std::vector<std::string> out;
  for (const api::FieldError& e : ValidateConfiguration(c)) out.push_back(e.Error());
  return out;
}

Configuration Defaulted(void (*edit)(Configuration&)) {
  Configuration c = DefaultConfiguration();
  edit(c);
  return c;
}

TEST(ConfigurationValidationTest, DefaultsAreValid) {
  EXPECT_TRUE(ValidateConfiguration(DefaultConfiguration()).empty());
}

TEST(ConfigurationValidationTest, WebhookNamesFollowDnsRules) {
  Configuration c = Defaulted([](Configuration& c) {
    c.internal_cert_management->webhook_service_name = "0-invalid";
    c.internal_cert_management->webhook_secret_name = ":)";
  });
  EXPECT_EQ(
      Errors(c),
      (std::vector<std::string>{
          "internalCertManagement.webhookServiceName: Invalid value: \"0-invalid\": a DNS-1035 "
          "label must consist "
          "of lower case alphanumeric characters or '-', start with an alphabetic character, and "
          "end with an "
          "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
          "'[a-z]([-a-z0-9]*[a-z0-9])?')",
          "internalCertManagement.webhookSecretName: Invalid value: \":)\": a lowercase RFC 1123 "
          "subdomain must "
          "consist of lower case alphanumeric characters, '-' or '.', and must start and end with "
          "an alphanumeric "
          "character (e.g. 'example.com', regex used for validation is "
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}));
}

TEST(ConfigurationValidationTest, WebhookNamesAreIgnoredWhenInternalCertManagementIsOff) {
  Configuration c = Defaulted([](Configuration& c) {
    c.internal_cert_management->enable = false;
    c.internal_cert_management->webhook_service_name = "0-invalid";
  });
  EXPECT_TRUE(Errors(c).empty());
}

TEST(ConfigurationValidationTest, GangSchedulingNeedsASupportedProvider) {
  Configuration empty = Defaulted([](Configuration& c) { c.gang_scheduling_management.emplace(); });
  EXPECT_EQ(Errors(empty),
            (std::vector<std::string>{"gangSchedulingManagement.schedulerProvider: Required value: "
                                      "must be set when gang scheduling is enabled"}));
  Configuration other = Defaulted([](Configuration& c) {
    c.gang_scheduling_management.emplace().scheduler_provider = "kueue";
  });
  EXPECT_EQ(Errors(other),
            (std::vector<std::string>{"gangSchedulingManagement.schedulerProvider: Unsupported "
                                      "value: \"kueue\": supported values: \"volcano\""}));
  Configuration volcano = Defaulted([](Configuration& c) {
    c.gang_scheduling_management.emplace().scheduler_provider = "volcano";
  });
  EXPECT_TRUE(Errors(volcano).empty());
}

TEST(ConfigurationValidationTest, TlsRules) {
  struct Case {
    TlsConfig tls;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {{"", {}}, {}},
      {{"VersionTLS12", {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_RC4_128_SHA"}}, {}},
      {{"VersionTLS13", {}}, {}},
      {{"VersionTLS10", {}},
       {"tls.minVersion: Invalid value: \"VersionTLS10\": invalid minVersion. Please use "
        "VersionTLS12 or "
        "VersionTLS13"}},
      {{"VersionTLS11", {}},
       {"tls.minVersion: Invalid value: \"VersionTLS11\": invalid minVersion. Please use "
        "VersionTLS12 or "
        "VersionTLS13"}},
      {{"TLS1.2", {}},
       {"tls.minVersion: Invalid value: \"TLS1.2\": invalid minVersion: unknown tls version "
        "\"TLS1.2\". "
        "Please use VersionTLS12 or VersionTLS13"}},
      {{"VersionTLS13", {"TLS_AES_128_GCM_SHA256"}},
       {"tls.cipherSuites: Forbidden: cipher suites may not be specified when minVersion is "
        "'VersionTLS13'"}},
  };
  for (const Case& c : cases) {
    Configuration config = DefaultConfiguration();
    config.tls = c.tls;
    EXPECT_EQ(Errors(config), c.want) << c.tls.min_version;
  }
}

TEST(ConfigurationValidationTest, UnknownCipherSuiteIsNamedWithItsIndex) {
  Configuration config = DefaultConfiguration();
  config.tls = TlsConfig{"", {"TLS_AES_128_GCM_SHA256", "TLS_FAKE"}};
  api::ErrorList errors = ValidateConfiguration(config);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "tls.cipherSuites[1]");
  EXPECT_EQ(errors[0].detail.rfind(
                "invalid cipher suites: Cipher suite TLS_FAKE not supported or doesn't "
                "exist. Please use the secure cipher names: [TLS_AES_128_GCM_SHA256 ",
                0),
            0u)
      << errors[0].detail;
  EXPECT_EQ(errors[0].detail.find("RC4"), std::string::npos);  // only secure names are suggested
}

TEST(ConfigurationValidationTest, LeaderElectionTimingAsClientGo) {
  Configuration c = Defaulted([](Configuration& c) {
    c.leader_election->lease_duration = seconds(10);
    c.leader_election->renew_deadline = seconds(10);
  });
  EXPECT_EQ(Errors(c),
            (std::vector<std::string>{"leaderElection.leaseDuration: Invalid value: \"10s\": "
                                      "leaseDuration must be greater than renewDeadline"}));
  Configuration jitter =
      Defaulted([](Configuration& c) { c.leader_election->retry_period = seconds(9); });
  EXPECT_EQ(Errors(jitter),
            (std::vector<std::string>{"leaderElection.renewDeadline: Invalid value: \"10s\": "
                                      "renewDeadline must be greater than "
                                      "retryPeriod*JitterFactor"}));
  Configuration negative =
      Defaulted([](Configuration& c) { c.leader_election->retry_period = -seconds(1); });
  EXPECT_EQ(Errors(negative),
            (std::vector<std::string>{"leaderElection.retryPeriod: Invalid value: \"-1s\": "
                                      "retryPeriod must be greater than zero"}));
  Configuration off = Defaulted([](Configuration& c) {
    c.leader_election->leader_elect = false;
    c.leader_election->retry_period = seconds(60);
  });
  EXPECT_TRUE(Errors(off).empty());
}

TEST(ConfigurationValidationTest, LoadReportsEveryErrorAsOneInvalidStatus) {
  Result<Configuration> c = LoadConfiguration(
      "apiVersion: config.lws.x-k8s.io/v1alpha1\nkind: Configuration\n"
      "tls: {minVersion: VersionTLS11}\ngangSchedulingManagement: {}\n");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Code::kInvalid);
  EXPECT_EQ(
      c.status().message(),
      "[gangSchedulingManagement.schedulerProvider: Required value: must be set when gang "
      "scheduling is "
      "enabled, tls.minVersion: Invalid value: \"VersionTLS11\": invalid minVersion. Please use "
      "VersionTLS12 or VersionTLS13]");
  ASSERT_EQ(c.status().causes().size(), 2u);
  EXPECT_EQ(c.status().causes()[1].field, "tls.minVersion");
  EXPECT_EQ(c.status().causes()[1].type, "FieldValueInvalid");
}

TEST(TlsOptionsTest, KnowsGoNamesAndIds) {
  EXPECT_EQ(FindCipherSuite("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256")->id, 0xc02f);
  EXPECT_EQ(FindCipherSuite("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305")->id, 0xcca8);
  EXPECT_FALSE(FindCipherSuite("TLS_RSA_WITH_RC4_128_SHA")->secure);
  EXPECT_FALSE(FindCipherSuite("ECDHE-RSA-AES128-GCM-SHA256"));  // OpenSSL's name is not Go's
  EXPECT_EQ(TlsVersionId("VersionTLS12"), 0x0303);
  EXPECT_EQ(TlsVersionId("tls1.2"), std::nullopt);
}

}  // namespace
}  // namespace lws::config
