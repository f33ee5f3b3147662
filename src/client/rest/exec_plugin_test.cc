#include "client/rest/exec_plugin.h"

#include <gtest/gtest.h>

#include "api/base64.h"
#include "base/file.h"
#include "client/rest/rest_testing.h"
#include "client/rest/rest_util.h"

namespace lws::rest {
namespace {

using api::Json;
using testing::TempDir;

ExecConfig V1(std::string command = "plugin") {
  ExecConfig e;
  e.api_version = kExecApiV1;
  e.command = std::move(command);
  e.interactive_mode = "Never";
  return e;
}

TEST(ValidateExecConfigTest, Table) {
  struct Case {
    ExecConfig exec;
    std::string error;  // "" when valid
  };
  ExecConfig beta = V1();
  beta.api_version = kExecApiV1Beta1;
  beta.interactive_mode = "";
  ExecConfig alpha = V1();
  alpha.api_version = "client.authentication.k8s.io/v1alpha1";
  ExecConfig no_mode = V1();
  no_mode.interactive_mode = "";
  ExecConfig always = V1();
  always.interactive_mode = "Always";
  ExecConfig bad_mode = V1();
  bad_mode.interactive_mode = "Sometimes";
  ExecConfig unnamed_env = V1();
  unnamed_env.env = {{"", "x"}};
  const std::vector<Case> cases = {
      {V1(), ""},
      {beta, ""},  // v1beta1 defaults interactiveMode to IfAvailable
      {V1(""), "exec plugin: command must be specified"},
      {alpha, "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\""},
      {no_mode,
       "exec plugin: interactiveMode must be specified for client.authentication.k8s.io/v1"},
      {always, "exec plugin cannot support interactive mode: standard input is not a terminal"},
      {bad_mode, "exec plugin: invalid interactiveMode \"Sometimes\""},
      {unnamed_env, "exec plugin: env variable name must be specified"},
  };
  for (const Case& c : cases) {
    Status s = ValidateExecConfig(c.exec);
    EXPECT_EQ(s.message(), c.error);
    EXPECT_EQ(s.ok(), c.error.empty()) << c.error;
  }
}

TEST(ExecInfoJsonTest, ClusterOnlyWhenRequested) {
  ExecClusterInfo cluster{"https://s:443", "name.example", true, "CA", "http://proxy"};
  ExecConfig exec = V1();
  EXPECT_EQ(Json::parse(ExecInfoJson(exec, &cluster)),
            Json::parse(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
                            "spec":{"interactive":false}})"));
  exec.provide_cluster_info = true;
  EXPECT_EQ(Json::parse(ExecInfoJson(exec, &cluster)),
            Json::parse(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
                            "spec":{"interactive":false,"cluster":{"server":"https://s:443",
                            "tls-server-name":"name.example","insecure-skip-tls-verify":true,
                            "certificate-authority-data":"Q0E=","proxy-url":"http://proxy"}}})"));
  cluster = ExecClusterInfo{"https://s", "", false, "", ""};
  EXPECT_EQ(Json::parse(ExecInfoJson(exec, &cluster))["spec"]["cluster"],
            Json::parse(R"({"server":"https://s"})"));
}

TEST(ParseExecCredentialTest, Table) {
  struct Case {
    std::string output;
    std::string error;
    ExecCredential want;
  };
  const std::string head =
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",)";
  const std::vector<Case> cases = {
      {head + R"("status":{"token":"t1"}})", "", {.token = "t1"}},
      {head + R"("status":{"token":"t1","expirationTimestamp":"2030-01-02T03:04:05Z"}})",
       "",
       {.token = "t1", .expiration = ParseRfc3339("2030-01-02T03:04:05Z").value()}},
      {head + R"("status":{"clientCertificateData":"C","clientKeyData":"K"}})",
       "",
       {.client_cert_pem = "C", .client_key_pem = "K"}},
      {"not json", "decoding stdout: ", {}},
      {"[]", "decoding stdout: not a JSON object", {}},
      {R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}})",
       "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin "
       "returned version client.authentication.k8s.io/v1beta1",
       {}},
      {R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Secret"})",
       "exec plugin returned kind \"Secret\", want ExecCredential",
       {}},
      {head + R"("spec":{}})", "exec plugin didn't return a status field", {}},
      {head + R"("status":{}})", "exec plugin didn't return a token or cert/key pair", {}},
      {head + R"("status":{"clientCertificateData":"C"}})",
       "exec plugin returned only certificate or key, not both",
       {}},
      {head + R"("status":{"token":7}})", "exec plugin returned a non-string status.token", {}},
      {head + R"("status":{"token":"t","expirationTimestamp":"soon"}})",
       "exec plugin returned an invalid expirationTimestamp \"soon\"",
       {}},
  };
  for (const Case& c : cases) {
    Result<ExecCredential> got = ParseExecCredential(c.output, V1());
    if (c.error.empty()) {
      ASSERT_TRUE(got.ok()) << c.output << ": " << got.status().ToString();
      EXPECT_EQ(*got, c.want) << c.output;
    } else {
      ASSERT_FALSE(got.ok()) << c.output;
      EXPECT_EQ(got.status().message().substr(0, c.error.size()), c.error)
          << got.status().message();
    }
  }
}

TEST(ExecEnvironmentTest, ExecEnvOverridesBaseAndInfoIsAdded) {
  ExecConfig exec = V1();
  exec.env = {{"FOO", "plugin"}, {"NEW", "1"}};
  std::vector<std::string> env =
      ExecEnvironment({"PATH=/bin", "FOO=base", "KUBERNETES_EXEC_INFO=stale"}, exec, nullptr);
  ASSERT_EQ(env.size(), 4u);
  EXPECT_EQ(env[0], "PATH=/bin");
  EXPECT_EQ(env[1], "FOO=plugin");
  EXPECT_EQ(env[2], "KUBERNETES_EXEC_INFO=" + ExecInfoJson(exec, nullptr));
  EXPECT_EQ(env[3], "NEW=1");
}

class RunExecPluginTest : public ::testing::Test {
 protected:
  ExecOptions Options() const {
    ExecOptions o;
    o.base_env = std::vector<std::string>{"PATH=/usr/bin:/bin", "FROM_BASE=base"};
    o.timeout = std::chrono::seconds(30);  // only a guard against hangs
    return o;
  }
  ExecClusterInfo cluster_{"https://api.example:6443", "", false, "CA-PEM", ""};
  TempDir dir_;
};

TEST_F(RunExecPluginTest, PassesArgsEnvAndExecInfo) {
  std::string info_file = dir_.path() + "/info.json";
  ExecConfig exec = V1(dir_.Script(
      "plugin.sh", "printf '%s' \"$KUBERNETES_EXEC_INFO\" > " + info_file +
                       "\n"
                       "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
                       "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%s-%s-%s\"}}' "
                       "\"$1\" \"$PROFILE\" \"$FROM_BASE\"\n"));
  exec.args = {"arg one"};
  exec.env = {{"PROFILE", "prod"}};
  exec.provide_cluster_info = true;
  Result<ExecCredential> cred = RunExecPlugin(exec, cluster_, Options());
  ASSERT_TRUE(cred.ok()) << cred.status().ToString();
  EXPECT_EQ(cred->token, "arg one-prod-base");
  Result<std::string> info = ReadFile(info_file);
  ASSERT_TRUE(info.ok());
  Json sent = Json::parse(*info);
  EXPECT_EQ(sent["kind"], "ExecCredential");
  EXPECT_EQ(sent["spec"]["interactive"], false);
  EXPECT_EQ(sent["spec"]["cluster"]["server"], "https://api.example:6443");
  EXPECT_EQ(sent["spec"]["cluster"]["certificate-authority-data"], api::Base64Encode("CA-PEM"));
}

TEST_F(RunExecPluginTest, V1Beta1WithCertificateAndExpiry) {
  ExecConfig exec =
      V1(dir_.Script("cert.sh",
                     "cat <<'EOF'\n{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\","
                     "\"kind\":\"ExecCredential\",\"status\":{\"clientCertificateData\":"
                     "\"CERT\",\"clientKeyData\":\"KEY\",\"expirationTimestamp\":"
                     "\"2031-05-06T07:08:09Z\"}}\nEOF\n"));
  exec.api_version = kExecApiV1Beta1;
  exec.interactive_mode = "";
  Result<ExecCredential> cred = RunExecPlugin(exec, cluster_, Options());
  ASSERT_TRUE(cred.ok()) << cred.status().ToString();
  EXPECT_EQ(cred->client_cert_pem, "CERT");
  EXPECT_EQ(cred->client_key_pem, "KEY");
  EXPECT_EQ(cred->expiration, ParseRfc3339("2031-05-06T07:08:09Z").value());
}

TEST_F(RunExecPluginTest, FailureMessagesCarryStderrAndInstallHint) {
  ExecConfig failing = V1(dir_.Script("fail.sh", "echo 'token expired, run login' >&2\nexit 3\n"));
  failing.install_hint = "Run `cloud login` first.";
  Result<ExecCredential> cred = RunExecPlugin(failing, cluster_, Options());
  ASSERT_FALSE(cred.ok());
  EXPECT_EQ(cred.status().code(), Code::kUnauthorized);
  EXPECT_EQ(cred.status().message(), "exec: executable " + failing.command +
                                         " failed with exit code 3\nstderr: token expired, run "
                                         "login\n\nRun `cloud login` first.");

  ExecConfig missing = V1(dir_.path() + "/no-such-plugin");
  missing.install_hint = "Install it.";
  cred = RunExecPlugin(missing, cluster_, Options());
  ASSERT_FALSE(cred.ok());
  EXPECT_EQ(cred.status().message(),
            "exec: executable " + missing.command + " not found\n\nInstall it.");

  ExecConfig garbage = V1(dir_.Script("garbage.sh", "echo hello\necho warn >&2\n"));
  cred = RunExecPlugin(garbage, cluster_, Options());
  ASSERT_FALSE(cred.ok());
  EXPECT_EQ(cred.status().message().rfind("decoding stdout: ", 0), 0u) << cred.status().message();
  EXPECT_NE(cred.status().message().find("\nstderr: warn"), std::string::npos);

  ExecConfig wrong_version =
      V1(dir_.Script("old.sh",
                     "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":"
                     "\"ExecCredential\",\"status\":{\"token\":\"t\"}}'\n"));
  cred = RunExecPlugin(wrong_version, cluster_, Options());
  ASSERT_FALSE(cred.ok());
  EXPECT_EQ(cred.status().message(),
            "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin "
            "returned version client.authentication.k8s.io/v1beta1");
}

TEST_F(RunExecPluginTest, HungPluginIsKilledAtTheTimeout) {
  ExecConfig hung = V1(dir_.Script("hang.sh", "exec sleep 60\n"));
  ExecOptions options = Options();
  options.timeout = std::chrono::milliseconds(200);
  Result<ExecCredential> cred = RunExecPlugin(hung, cluster_, options);
  ASSERT_FALSE(cred.ok());
  EXPECT_EQ(cred.status().code(), Code::kTimeout);
  EXPECT_NE(cred.status().message().find("did not finish within 200ms"), std::string::npos);
}

TEST_F(RunExecPluginTest, InvalidConfigIsRejectedBeforeRunning) {
  std::string marker = dir_.path() + "/ran";
  ExecConfig exec = V1(dir_.Script("mark.sh", "touch " + marker + "\n"));
  exec.interactive_mode = "Always";
  EXPECT_FALSE(RunExecPlugin(exec, cluster_, Options()).ok());
  EXPECT_FALSE(FileExists(marker));
}

}  // namespace
}  // namespace lws::rest
