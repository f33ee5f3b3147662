#include "client/rest/in_cluster.h"

#include <gtest/gtest.h>

#include "client/rest/rest_testing.h"

namespace lws::rest {
namespace {

using testing::TempDir;

Environment PodEnv(const std::string& host, const std::string& port) {
  return Environment{
      .vars = {{"KUBERNETES_SERVICE_HOST", host}, {"KUBERNETES_SERVICE_PORT", port}}};
}

class InClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sa_.Write("token", "  sa-token\n");
    sa_.Write("ca.crt", "CA PEM");
    sa_.Write("namespace", "lws-system\n");
  }
  TempDir sa_;
};

TEST_F(InClusterTest, BuildsServerTokenFileCaAndNamespace) {
  Result<RestConfig> c = InClusterConfig(PodEnv("10.96.0.1", "443"), sa_.path());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->server, "https://10.96.0.1:443");
  EXPECT_EQ(c->credentials, (Credentials{.token_file = sa_.path() + "/token"}));
  EXPECT_EQ(c->tls.ca_pem, "CA PEM");
  EXPECT_FALSE(c->tls.insecure);
  EXPECT_EQ(c->default_namespace, "lws-system");
}

TEST_F(InClusterTest, Ipv6HostIsBracketed) {
  Result<RestConfig> c = InClusterConfig(PodEnv("fd00:10:96::1", "6443"), sa_.path());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->server, "https://[fd00:10:96::1]:6443");
}

TEST_F(InClusterTest, NamespacePrecedence) {
  Environment env = PodEnv("h", "1");
  env.vars["POD_NAMESPACE"] = "from-env";
  EXPECT_EQ(InClusterConfig(env, sa_.path())->default_namespace, "from-env");
  sa_.Write("namespace", "\n");
  EXPECT_EQ(InClusterConfig(PodEnv("h", "1"), sa_.path())->default_namespace, "default");
}

TEST_F(InClusterTest, Errors) {
  for (const Environment& env : {Environment{}, PodEnv("h", ""), PodEnv("", "443")}) {
    Result<RestConfig> c = InClusterConfig(env, sa_.path());
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().message(),
              "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
              "KUBERNETES_SERVICE_PORT must be defined");
    EXPECT_FALSE(InClusterEnvironment(env));
  }
  TempDir empty;
  Result<RestConfig> no_token = InClusterConfig(PodEnv("h", "1"), empty.path());
  ASSERT_FALSE(no_token.ok());
  EXPECT_EQ(no_token.status().message(), "in-cluster service account token: open " + empty.path() +
                                             "/token: no such file or directory");
  empty.Write("token", "t");
  Result<RestConfig> no_ca = InClusterConfig(PodEnv("h", "1"), empty.path());
  ASSERT_FALSE(no_ca.ok());
  EXPECT_EQ(no_ca.status().message(), "in-cluster CA certificate: open " + empty.path() +
                                          "/ca.crt: no such file or directory");
}

TEST(EnvironmentTest, FromProcessReadsHome) {
  Environment env = Environment::FromProcess();
  const char* home = std::getenv("HOME");
  EXPECT_EQ(env.home, home == nullptr ? "" : home);
  EXPECT_EQ(env.Get("LWS_SURELY_UNSET_VARIABLE"), "");
}

}  // namespace
}  // namespace lws::rest
