#include "cli/controller_flags.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "testdata/testdata_dir.h"

namespace lws::cli {
namespace {

using namespace std::chrono_literals;

// Parses `args` as `lws controller <args>`; the CLI11 error text on failure.
Result<ControllerCommandOptions> Parse(std::vector<std::string> args) {
  CLI::App app;
  ControllerCommandOptions options;
  AddControllerFlags(&app, &options);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 wants them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return Status::BadRequest(e.what());
  }
  return options;
}

std::string TestData(const std::string& name) { return TestdataDir() + "/config/" + name; }

TEST(ControllerFlagsTest, OnlyGivenFlagsAreRecorded) {
  Result<ControllerCommandOptions> parsed =
      Parse({"--kube-api-qps=50", "--leader-elect=false", "--leader-elect-lease-duration=1m"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->flags.kube_api_qps, 50.0f);
  EXPECT_EQ(parsed->flags.leader_elect, false);
  EXPECT_EQ(parsed->flags.leader_elect_lease_duration, Duration(1min));
  EXPECT_FALSE(parsed->flags.kube_api_burst.has_value());
  EXPECT_FALSE(parsed->flags.metrics_bind_address.has_value());
  EXPECT_FALSE(parsed->flags.config_file.has_value());
  EXPECT_TRUE(parsed->metrics_secure);
}

TEST(ControllerFlagsTest, BoolFlagsTakeNoSeparateValue) {
  EXPECT_EQ(Parse({"--leader-elect"})->flags.leader_elect, true);
  EXPECT_FALSE(Parse({"--leader-elect", "false"}).ok());  // as Go's flag package
  EXPECT_FALSE(Parse({"--metrics-secure=false"})->metrics_secure);
}

TEST(ControllerFlagsTest, BadValuesNameTheFlag) {
  Result<ControllerCommandOptions> duration = Parse({"--leader-elect-retry-period=soon"});
  ASSERT_FALSE(duration.ok());
  EXPECT_NE(duration.status().message().find("leader-elect-retry-period"), std::string::npos)
      << duration.status().message();
  Result<ControllerCommandOptions> burst = Parse({"--kube-api-burst=3000000000"});
  ASSERT_FALSE(burst.ok());
  EXPECT_NE(burst.status().message().find("--kube-api-burst"), std::string::npos);
  EXPECT_FALSE(Parse({"--zap-log-level=loud"}).ok());
}

TEST(ResolveConfigurationTest, DefaultsWithoutAFile) {
  Result<config::Configuration> resolved = ResolveConfiguration({});
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  EXPECT_EQ(*resolved, config::DefaultConfiguration());
}

TEST(ResolveConfigurationTest, ExplicitFlagsOverrideTheFile) {
  config::ExplicitFlags flags;
  flags.config_file = TestData("full.yaml");
  flags.metrics_bind_address = ":9999";
  Result<config::Configuration> resolved = ResolveConfiguration(flags);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  EXPECT_EQ(resolved->metrics.bind_address, ":9999");  // the flag
  EXPECT_EQ(resolved->webhook.port, 10443);            // the file
  EXPECT_EQ(resolved->leader_election->lease_duration, Duration(90s));
}

TEST(ResolveConfigurationTest, FileErrorsNameTheFile) {
  config::ExplicitFlags flags;
  flags.config_file = TestData("unknown_fields.yaml");
  Result<config::Configuration> resolved = ResolveConfiguration(flags);
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.status().message().rfind(TestData("unknown_fields.yaml") + ": ", 0), 0u)
      << resolved.status().message();
  EXPECT_NE(resolved.status().message().find("unknown field \"webhook.prot\""), std::string::npos);

  flags.config_file = TestData("missing.yaml");
  Result<config::Configuration> missing = ResolveConfiguration(flags);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "open " + TestData("missing.yaml") + ": no such file or directory");
}

TEST(ResolveConfigurationTest, AFlagCanMakeTheResultInvalid) {
  config::ExplicitFlags flags;
  flags.leader_elect_renew_deadline = 20s;  // longer than the 15 s lease
  Result<config::Configuration> resolved = ResolveConfiguration(flags);
  ASSERT_FALSE(resolved.ok());
  EXPECT_NE(resolved.status().message().find("renewDeadline"), std::string::npos)
      << resolved.status().message();
}

}  // namespace
}  // namespace lws::cli
