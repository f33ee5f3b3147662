#include "client/rest/kubeconfig.h"

#include <gtest/gtest.h>

#include "client/rest/rest_testing.h"
#include "client/rest/rest_util.h"
#include "testdata/testdata_dir.h"

namespace lws::rest {
namespace {

using testing::TestdataPath;

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\ndGVzdC1jYQ==\n-----END CERTIFICATE-----\n";

Kubeconfig LoadSample(const std::string& name) {
  Result<Kubeconfig> config = LoadKubeconfigFile(TestdataPath(name));
  EXPECT_TRUE(config.ok()) << config.status().ToString();
  return config.ok() ? *config : Kubeconfig{};
}

TEST(KubeconfigTest, TokenSample) {
  Kubeconfig k = LoadSample("token.yaml");
  ASSERT_EQ(k.clusters.count("prod"), 1u);
  const KubeCluster& c = k.clusters.at("prod");
  EXPECT_EQ(c.server, "https://10.0.0.1:6443/");
  EXPECT_EQ(c.certificate_authority_data, kCaPem);
  EXPECT_EQ(c.tls_server_name, "kubernetes.default");
  EXPECT_EQ(c.proxy_url, "http://proxy.example:3128");
  EXPECT_EQ(k.users.at("admin").token, "abc.def");
  EXPECT_EQ(k.contexts.at("prod"), (KubeContext{"prod", "admin", "team-a"}));
  EXPECT_EQ(k.current_context, "prod");
  EXPECT_EQ(k.cluster_origin.at("prod"), TestdataPath("token.yaml"));
}

TEST(KubeconfigTest, RelativePathsResolveAgainstTheFileDirectory) {
  Kubeconfig k = LoadSample("client-cert-file.yaml");
  const std::string dir = TestdataDir() + "/kubeconfig";
  EXPECT_EQ(k.clusters.at("c").certificate_authority, dir + "/./pki/ca.crt");
  EXPECT_EQ(k.users.at("u").client_certificate, dir + "/pki/client.crt");
  EXPECT_EQ(k.users.at("u").client_key, dir + "/./pki/client.key");
  EXPECT_EQ(LoadSample("token-file.yaml").users.at("sa").token_file, dir + "/pki/token");
}

TEST(KubeconfigTest, ClientCertificateData) {
  Kubeconfig k = LoadSample("client-cert-data.yaml");
  const KubeUser& u = k.users.at("kind-admin");
  EXPECT_EQ(u.client_certificate_data.rfind("-----BEGIN CERTIFICATE-----", 0), 0u);
  EXPECT_EQ(u.client_key_data.rfind("-----BEGIN EC PRIVATE KEY-----", 0), 0u);
}

TEST(KubeconfigTest, InsecureAndBasic) {
  EXPECT_TRUE(LoadSample("insecure.yaml").clusters.at("dev").insecure_skip_tls_verify);
  Kubeconfig basic = LoadSample("basic.yaml");
  const KubeUser& u = basic.users.at("u");
  EXPECT_EQ(u.username, "alice");
  EXPECT_EQ(u.password, "s3cret");
}

TEST(KubeconfigTest, ExecV1) {
  Kubeconfig k = LoadSample("exec-v1.yaml");
  const KubeUser& u = k.users.at("eks-user");
  ASSERT_TRUE(u.exec.has_value());
  ExecConfig want;
  want.api_version = "client.authentication.k8s.io/v1";
  want.command = "aws";  // a bare name stays a PATH lookup
  want.args = {"--region", "eu-west-1", "eks", "get-token", "--cluster-name", "prod"};
  want.env = {{"AWS_PROFILE", "prod"}};
  want.install_hint = "Install the AWS CLI";
  want.provide_cluster_info = true;
  want.interactive_mode = "Never";
  EXPECT_EQ(*u.exec, want);
}

TEST(KubeconfigTest, ExecV1Beta1CommandWithDirectoryIsResolved) {
  Kubeconfig k = LoadSample("exec-v1beta1.yaml");
  const KubeUser& u = k.users.at("gke-user");
  ASSERT_TRUE(u.exec.has_value());
  EXPECT_EQ(u.exec->api_version, "client.authentication.k8s.io/v1beta1");
  EXPECT_EQ(u.exec->command, TestdataDir() + "/kubeconfig/bin/gke-gcloud-auth-plugin");
  EXPECT_FALSE(u.exec->provide_cluster_info);
  EXPECT_EQ(u.exec->interactive_mode, "");
}

TEST(KubeconfigTest, EmptyInputIsAnEmptyConfig) {
  for (std::string text : {"", "\n# only a comment\n", "null\n"}) {
    Result<Kubeconfig> k = ParseKubeconfig(text, "/x/config");
    ASSERT_TRUE(k.ok()) << text << ": " << k.status().ToString();
    EXPECT_TRUE(k->clusters.empty());
    EXPECT_EQ(k->current_context, "");
  }
}

TEST(KubeconfigTest, UnknownFieldsAreIgnored) {
  Result<Kubeconfig> k = ParseKubeconfig(R"(
apiVersion: v1
kind: Config
extensions: [{name: x, extension: {a: 1}}]
clusters:
- name: c
  cluster: {server: https://s, extensions: [], disable-compression: true}
users:
- name: u
  user: {auth-provider: {name: oidc, config: {}}}
)",
                                         "/x/config");
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  EXPECT_EQ(k->clusters.at("c").server, "https://s");
  EXPECT_TRUE(k->users.at("u").has_auth_provider);
}

struct ErrorCase {
  std::string text;
  std::string message;
};

TEST(KubeconfigTest, ErrorsNameFileAndField) {
  const std::vector<ErrorCase> cases = {
      {"apiVersion: v2\n",
       "kubeconfig /x/config: apiVersion: unsupported value \"v2\", want \"v1\""},
      {"kind: Pod\n", "kubeconfig /x/config: kind: unsupported value \"Pod\", want \"Config\""},
      {"[1]\n", "kubeconfig /x/config: expected an object, got array"},
      {"clusters: {}\n", "kubeconfig /x/config: clusters: expected a list, got object"},
      {"clusters: [x]\n", "kubeconfig /x/config: clusters[0]: expected an object, got string"},
      {"clusters:\n- name: a\n  cluster: {server: 1}\n",
       "kubeconfig /x/config: clusters[0].cluster.server: expected a string, got number"},
      {"clusters:\n- name: a\n  cluster: {insecure-skip-tls-verify: \"yes\"}\n",
       "kubeconfig /x/config: clusters[0].cluster.insecure-skip-tls-verify: expected a boolean, "
       "got string"},
      {"clusters:\n- name: a\n- name: a\n",
       "kubeconfig /x/config: clusters[1].name: duplicate name \"a\""},
      {"users:\n- name: u\n  user: {exec: {args: [1]}}\n",
       "kubeconfig /x/config: users[0].user.exec.args[0]: expected a string, got number"},
      {"users:\n- name: u\n  user: {exec: {env: [{name: 3}]}}\n",
       "kubeconfig /x/config: users[0].user.exec.env[0].name: expected a string, got number"},
      {"contexts:\n- name: c\n  context: []\n",
       "kubeconfig /x/config: contexts[0].context: expected an object, got array"},
      {"current-context: [a]\n",
       "kubeconfig /x/config: current-context: expected a string, got array"},
      {"a: [\n", ""},  // YAML syntax error: message from the YAML loader, prefixed
      {"a: 1\n---\nb: 2\n", "kubeconfig /x/config: expected one YAML document, found 2"},
  };
  for (const ErrorCase& c : cases) {
    Result<Kubeconfig> k = ParseKubeconfig(c.text, "/x/config");
    ASSERT_FALSE(k.ok()) << c.text;
    EXPECT_EQ(k.status().code(), Code::kBadRequest);
    if (c.message.empty()) {
      EXPECT_EQ(k.status().message().rfind("kubeconfig /x/config: yaml: line ", 0), 0u)
          << k.status().message();
    } else {
      EXPECT_EQ(k.status().message(), c.message) << c.text;
    }
  }
}

TEST(KubeconfigTest, BadBase64NamesTheUserIndex) {
  Result<Kubeconfig> k = LoadKubeconfigFile(TestdataPath("bad-base64.yaml"));
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().message(),
            "kubeconfig " + TestdataPath("bad-base64.yaml") +
                ": users[1].user.client-certificate-data: illegal base64 data at input byte 4");
}

TEST(KubeconfigTest, MissingFileIsNotFound) {
  Result<Kubeconfig> k = LoadKubeconfigFile("/nonexistent/kubeconfig");
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), Code::kNotFound);
}

TEST(MergeKubeconfigTest, FirstDefinitionWinsWhole) {
  Kubeconfig merged = LoadSample("merge-a.yaml");
  MergeKubeconfig(merged, LoadSample("merge-b.yaml"));
  EXPECT_EQ(merged.current_context, "a");
  EXPECT_EQ(merged.clusters.at("shared").server, "https://a.example");
  // b's "shared" user is dropped entirely: its username does not fill a's empty one.
  EXPECT_EQ(merged.users.at("shared"), (KubeUser{.token = "token-from-a"}));
  EXPECT_EQ(merged.clusters.at("only-b").server, "https://only-b.example");
  EXPECT_EQ(merged.contexts.count("b"), 1u);
  EXPECT_EQ(merged.cluster_origin.at("shared"), TestdataPath("merge-a.yaml"));
  EXPECT_EQ(merged.cluster_origin.at("only-b"), TestdataPath("merge-b.yaml"));
  EXPECT_EQ(merged.user_origin.at("b-user"), TestdataPath("merge-b.yaml"));
}

TEST(MergeKubeconfigTest, EmptyCurrentContextIsFilledByALaterFile) {
  Kubeconfig first;
  Kubeconfig second;
  second.current_context = "later";
  MergeKubeconfig(first, second);
  EXPECT_EQ(first.current_context, "later");
}

}  // namespace
}  // namespace lws::rest
