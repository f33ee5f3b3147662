#include "client/rest/kubeconfig_loader.h"

#include <gtest/gtest.h>

#include "client/rest/rest_testing.h"
#include "testdata/testdata_dir.h"

namespace lws::rest {
namespace {

using testing::TempDir;
using testing::TestdataPath;

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\ndGVzdC1jYQ==\n-----END CERTIFICATE-----\n";
const std::string kCertPem =
    "-----BEGIN CERTIFICATE-----\ndGVzdC1jbGllbnQ=\n-----END CERTIFICATE-----\n";
const std::string kKeyPem =
    "-----BEGIN EC PRIVATE KEY-----\ndGVzdC1jbGllbnQta2V5\n-----END EC PRIVATE KEY-----\n";

Result<RestConfig> LoadSample(const std::string& name, const std::string& context = "") {
  return LoadRestConfig(LoadOptions{TestdataPath(name), context}, Environment{});
}

TEST(ResolveContextTest, TokenWithInlineCa) {
  Result<RestConfig> c = LoadSample("token.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->server, "https://10.0.0.1:6443");  // trailing slash dropped
  EXPECT_EQ(c->tls, (TlsConfig{kCaPem, "", "", false, "kubernetes.default"}));
  EXPECT_EQ(c->credentials, (Credentials{.token = "abc.def"}));
  EXPECT_EQ(c->default_namespace, "team-a");
  EXPECT_EQ(c->source, "kubeconfig " + TestdataPath("token.yaml") + ": context prod");
}

TEST(ResolveContextTest, TokenFileAndCaFile) {
  Result<RestConfig> c = LoadSample("token-file.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->tls.ca_pem, kCaPem);
  EXPECT_EQ(c->credentials.token_file, TestdataDir() + "/kubeconfig/pki/token");
  EXPECT_EQ(c->default_namespace, "default");
}

TEST(ResolveContextTest, ClientCertificateAsDataAndAsFile) {
  for (const char* name : {"client-cert-data.yaml", "client-cert-file.yaml"}) {
    Result<RestConfig> c = LoadSample(name);
    ASSERT_TRUE(c.ok()) << name << ": " << c.status().ToString();
    EXPECT_EQ(c->tls.ca_pem, kCaPem) << name;
    EXPECT_EQ(c->tls.client_cert_pem, kCertPem) << name;
    EXPECT_EQ(c->tls.client_key_pem, kKeyPem) << name;
    EXPECT_EQ(c->credentials, Credentials{}) << name;
  }
}

TEST(ResolveContextTest, InsecureWithoutUser) {
  Result<RestConfig> c = LoadSample("insecure.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(c->tls.insecure);
  EXPECT_EQ(c->tls.ca_pem, "");
  EXPECT_EQ(c->credentials, Credentials{});
}

TEST(ResolveContextTest, BasicAndExec) {
  Result<RestConfig> basic = LoadSample("basic.yaml");
  ASSERT_TRUE(basic.ok()) << basic.status().ToString();
  EXPECT_EQ(basic->credentials, (Credentials{.username = "alice", .password = "s3cret"}));

  Result<RestConfig> v1 = LoadSample("exec-v1.yaml");
  ASSERT_TRUE(v1.ok()) << v1.status().ToString();
  ASSERT_TRUE(v1->credentials.exec.has_value());
  EXPECT_EQ(v1->credentials.exec->command, "aws");

  Result<RestConfig> beta = LoadSample("exec-v1beta1.yaml");
  ASSERT_TRUE(beta.ok()) << beta.status().ToString();
  EXPECT_EQ(beta->credentials.exec->api_version, "client.authentication.k8s.io/v1beta1");
}

TEST(ResolveContextTest, ContextOverride) {
  struct Case {
    std::string context, server, token, ns;
  };
  for (const Case& c :
       std::vector<Case>{{"", "https://west.example", "viewer-token", "web"},
                         {"east-admin", "https://east.example", "admin-token", "ops"},
                         {"west-admin", "https://west.example", "admin-token", "default"}}) {
    Result<RestConfig> got = LoadSample("multi-context.yaml", c.context);
    ASSERT_TRUE(got.ok()) << c.context << ": " << got.status().ToString();
    EXPECT_EQ(got->server, c.server) << c.context;
    EXPECT_EQ(got->credentials.token, c.token) << c.context;
    EXPECT_EQ(got->default_namespace, c.ns) << c.context;
  }
  Result<RestConfig> missing = LoadSample("multi-context.yaml", "north");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "kubeconfig: context \"north\" does not exist");
}

struct InvalidCase {
  std::string yaml;     // clusters/users/contexts; "current-context: c" is appended
  std::string message;  // after "kubeconfig <file>: "
};

TEST(ResolveContextTest, RejectsWhatKubectlRejects) {
  const std::string ca_data =
      "certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==";
  const std::vector<InvalidCase> cases = {
      {"clusters: [{name: x, cluster: {server: https://s}}]\n"
       "contexts: [{name: c, context: {cluster: other}}]\n",
       "cluster \"other\" of context \"c\" does not exist"},
      {"clusters: [{name: x, cluster: {server: https://s}}]\n"
       "contexts: [{name: c, context: {cluster: x, user: nobody}}]\n",
       "user \"nobody\" of context \"c\" does not exist"},
      {"clusters: [{name: x, cluster: {}}]\ncontexts: [{name: c, context: {cluster: x}}]\n",
       "no server found for cluster \"x\""},
      {"clusters: [{name: x, cluster: {server: https://s, insecure-skip-tls-verify: true, " +
           ca_data + "}}]\ncontexts: [{name: c, context: {cluster: x}}]\n",
       "specifying a root certificates file with the insecure flag is not allowed for cluster "
       "\"x\""},
      {"clusters: [{name: x, cluster: {server: https://s, certificate-authority: /a, " + ca_data +
           "}}]\ncontexts: [{name: c, context: {cluster: x}}]\n",
       "certificate-authority-data and certificate-authority are both specified for cluster \"x\""},
      {"clusters: [{name: x, cluster: {server: https://s, certificate-authority: "
       "/nonexistent/ca}}]\n"
       "contexts: [{name: c, context: {cluster: x}}]\n",
       "unable to read certificate-authority /nonexistent/ca for cluster \"x\": open "
       "/nonexistent/ca: no such file or directory"},
      {"clusters: [{name: x, cluster: {server: https://s}}]\n"
       "users: [{name: u, user: {token: t, username: a}}]\n"
       "contexts: [{name: c, context: {cluster: x, user: u}}]\n",
       "more than one authentication method found for user \"u\"; found [token basicAuth], only "
       "one is allowed"},
      {"clusters: [{name: x, cluster: {server: https://s}}]\n"
       "users: [{name: u, user: {client-certificate-data: QUJD}}]\n"
       "contexts: [{name: c, context: {cluster: x, user: u}}]\n",
       "client-certificate and client-key must both be specified for user \"u\" to use the "
       "clientCert authentication method"},
      {"clusters: [{name: x, cluster: {server: https://s}}]\n"
       "users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: "
       "a}}}]\n"
       "contexts: [{name: c, context: {cluster: x, user: u}}]\n",
       "user \"u\": exec plugin: interactiveMode must be specified for "
       "client.authentication.k8s.io/v1"},
      {"clusters: [{name: x, cluster: {server: https://s}}]\n"
       "users: [{name: u, user: {auth-provider: {name: gcp}}}]\n"
       "contexts: [{name: c, context: {cluster: x, user: u}}]\n",
       "auth-provider for user \"u\" is not supported; configure an exec credential plugin "
       "instead"},
  };
  TempDir dir;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string path =
        dir.Write("config" + std::to_string(i), cases[i].yaml + "current-context: c\n");
    Result<RestConfig> got = LoadRestConfig(LoadOptions{path}, Environment{});
    ASSERT_FALSE(got.ok()) << cases[i].yaml;
    EXPECT_EQ(got.status().message(), "kubeconfig " + path + ": " + cases[i].message);
  }
}

TEST(ResolveContextTest, NoCurrentContext) {
  Result<RestConfig> got = ResolveContext(Kubeconfig{}, "");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "kubeconfig: no current-context is set; pass --context");
}

TEST(PrecedenceTest, ExplicitThenKubeconfigThenHome) {
  TempDir home;
  Environment env{.vars = {{"KUBECONFIG", "/a:/b::/a:/c"}}, .home = home.path()};
  EXPECT_EQ(KubeconfigPrecedence(LoadOptions{"/explicit"}, env),
            std::vector<std::string>{"/explicit"});
  EXPECT_EQ(KubeconfigPrecedence(LoadOptions{}, env), (std::vector<std::string>{"/a", "/b", "/c"}));
  env.vars.clear();
  EXPECT_TRUE(KubeconfigPrecedence(LoadOptions{}, env).empty());  // no ~/.kube/config yet
  std::string home_config = home.Write(".kube/config", "");
  EXPECT_EQ(KubeconfigPrecedence(LoadOptions{}, env), std::vector<std::string>{home_config});
}

TEST(PrecedenceTest, KubeconfigListMergesAndSkipsMissingFiles) {
  Environment env{.vars = {{"KUBECONFIG", "/nonexistent/x:" + TestdataPath("merge-a.yaml") + ":" +
                                              TestdataPath("merge-b.yaml")}}};
  Result<RestConfig> current = LoadRestConfig(LoadOptions{}, env);
  ASSERT_TRUE(current.ok()) << current.status().ToString();
  EXPECT_EQ(current->server, "https://a.example");
  EXPECT_EQ(current->credentials, (Credentials{.token = "token-from-a"}));

  // Context b lives in the second file: its relative paths resolve against that file.
  Result<RestConfig> b = LoadRestConfig(LoadOptions{.context = "b"}, env);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->server, "https://only-b.example");
  EXPECT_EQ(b->tls.ca_pem, kCaPem);
  EXPECT_EQ(b->credentials.token_file, TestdataDir() + "/kubeconfig/pki/token");
  EXPECT_EQ(b->default_namespace, "b-ns");
}

TEST(PrecedenceTest, ExplicitFileMustExistAndKubeconfigIsThenIgnored) {
  Environment env{.vars = {{"KUBECONFIG", TestdataPath("token.yaml")}}};
  Result<RestConfig> got = LoadRestConfig(LoadOptions{"/nonexistent/config"}, env);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kNotFound);
  EXPECT_EQ(got.status().message(), "open /nonexistent/config: no such file or directory");
}

TEST(PrecedenceTest, MalformedFileInListIsAnError) {
  TempDir dir;
  std::string bad = dir.Write("bad", "clusters: 3\n");
  Environment env{.vars = {{"KUBECONFIG", TestdataPath("token.yaml") + ":" + bad}}};
  Result<RestConfig> got = LoadRestConfig(LoadOptions{}, env);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "kubeconfig " + bad + ": clusters: expected a list, got number");
}

TEST(PrecedenceTest, FallsBackToInClusterThenFails) {
  TempDir sa;
  sa.Write("token", "sa-token\n");
  sa.Write("ca.crt", kCaPem);
  Environment env{.vars = {{"KUBECONFIG", "/nonexistent/a"},
                           {"KUBERNETES_SERVICE_HOST", "10.96.0.1"},
                           {"KUBERNETES_SERVICE_PORT", "443"}}};
  Result<RestConfig> got = LoadRestConfig(LoadOptions{.service_account_dir = sa.path()}, env);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->server, "https://10.96.0.1:443");

  env.vars.erase("KUBERNETES_SERVICE_HOST");
  got = LoadRestConfig(LoadOptions{.service_account_dir = sa.path()}, env);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kNotFound);
  EXPECT_NE(got.status().message().find("no configuration found"), std::string::npos);
}

}  // namespace
}  // namespace lws::rest
