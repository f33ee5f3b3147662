#include "config/flags.h"

#include <gtest/gtest.h>

namespace lws::config {
namespace {

using std::chrono::seconds;

Configuration FromFile() {
  Result<Configuration> c = LoadConfiguration(
      "apiVersion: config.lws.x-k8s.io/v1alpha1\nkind: Configuration\n"
      "metrics: {bindAddress: ':9443'}\nclientConnection: {qps: 20, burst: 40}\n"
      "leaderElection: {leaderElect: false, leaseDuration: 60s, resourceName: from-file}\n");
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return *c;
}

TEST(OverlayTest, NoFlagsKeepsTheFile) {
  Configuration file = FromFile();
  EXPECT_EQ(Overlay(file, ExplicitFlags{}), file);
}

TEST(OverlayTest, GivenFlagsOverrideOnlyTheirFields) {
  ExplicitFlags flags;
  flags.metrics_bind_address = "0";
  flags.kube_api_burst = 7;
  flags.leader_elect = true;
  flags.leader_elect_retry_period = seconds(3);
  flags.zap_log_level = "debug";
  Configuration got = Overlay(FromFile(), flags);
  Configuration want = FromFile();
  want.metrics.bind_address = "0";
  want.client_connection->burst = 7;
  want.leader_election->leader_elect = true;
  want.leader_election->retry_period = seconds(3);
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.client_connection->qps, 20.0f);                 // from the file
  EXPECT_EQ(got.leader_election->lease_duration, seconds(60));  // from the file
  EXPECT_EQ(got.leader_election->resource_name, "from-file");   // from the file
}

TEST(OverlayTest, EveryFlagReachesItsField) {
  ExplicitFlags flags;
  flags.metrics_bind_address = ":1";
  flags.health_probe_bind_address = ":2";
  flags.kube_api_qps = 3.5f;
  flags.kube_api_burst = 4;
  flags.leader_elect = false;
  flags.leader_elect_lease_duration = seconds(5);
  flags.leader_elect_renew_deadline = seconds(6);
  flags.leader_elect_retry_period = seconds(7);
  flags.leader_elect_resource_lock = "leases-x";
  flags.leader_elect_resource_name = "name-x";
  Configuration c = Overlay(Configuration{}, flags);  // undefaulted: sections are created
  EXPECT_EQ(c.metrics.bind_address, ":1");
  EXPECT_EQ(c.health.health_probe_bind_address, ":2");
  EXPECT_EQ(*c.client_connection, (ClientConnectionConfig{3.5f, 4}));
  EXPECT_EQ(*c.leader_election, (LeaderElectionConfig{false, seconds(5), seconds(6), seconds(7),
                                                      "leases-x", "name-x", ""}));
}

TEST(OverlayTest, AFlagCanMakeTheResultInvalid) {
  ExplicitFlags flags;
  flags.leader_elect = true;
  flags.leader_elect_renew_deadline = seconds(90);  // file's lease is 60s
  EXPECT_FALSE(ValidateConfiguration(Overlay(FromFile(), flags)).empty());
}

TEST(FlagsTest, DurationFlagsUseGoSyntax) {
  EXPECT_EQ(*ParseDurationFlag(kFlagLeaseDuration, "1m"), seconds(60));
  Result<Duration> bad = ParseDurationFlag(kFlagLeaseDuration, "15");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "invalid value \"15\" for flag --leader-elect-lease-duration: time: missing unit in "
            "duration \"15\"");
}

TEST(FlagsTest, ZapLogLevel) {
  for (const char* ok : {"debug", "info", "error", "panic", "1", "10"})
    EXPECT_TRUE(ValidateZapLogLevel(ok).ok()) << ok;
  for (const char* bad : {"", "0", "-1", "warn", "INFO", "1.5"})
    EXPECT_FALSE(ValidateZapLogLevel(bad).ok()) << bad;
}

TEST(OperatorNamespaceTest, FromServiceAccountFileElseLwsSystem) {
  EXPECT_EQ(OperatorNamespace(std::nullopt), "lws-system");
  EXPECT_EQ(OperatorNamespace(""), "lws-system");
  EXPECT_EQ(OperatorNamespace(" \n"), "lws-system");
  EXPECT_EQ(OperatorNamespace("tenant-a\n"), "tenant-a");
}

TEST(OperatorNamespaceTest, LeaseNamespace) {
  Configuration c = DefaultConfiguration();
  EXPECT_EQ(LeaderElectionNamespace(c, "lws-system"), "lws-system");
  c.leader_election->resource_namespace = "elsewhere";
  EXPECT_EQ(LeaderElectionNamespace(c, "lws-system"), "elsewhere");
}

}  // namespace
}  // namespace lws::config
