#include "client/rest/credential_source.h"

#include <gtest/gtest.h>

#include "base/file.h"
#include "client/rest/rest_testing.h"
#include "client/rest/rest_util.h"

namespace lws::rest {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using testing::TempDir;

const Time kT0 = Time(seconds(1'800'000'000));

std::string AuthAt(CredentialSource& source, Time now) {
  Result<RequestCredentials> got = source.Get(now);
  EXPECT_TRUE(got.ok()) << got.status().ToString();
  return got.ok() ? got->authorization : "<error>";
}

TEST(CredentialSourceTest, StaticForms) {
  CredentialSource none(Credentials{}, {});
  EXPECT_EQ(none.Get(kT0).value(), RequestCredentials{});
  CredentialSource token(Credentials{.token = "abc"}, {});
  EXPECT_EQ(AuthAt(token, kT0), "Bearer abc");
  CredentialSource basic(Credentials{.username = "alice", .password = "s3cret"}, {});
  EXPECT_EQ(AuthAt(basic, kT0), "Basic YWxpY2U6czNjcmV0");
  EXPECT_EQ(BasicAuthorization("a", ""), "Basic YTo=");
}

TEST(CredentialSourceTest, TokenFileIsReReadAfterTheRefreshPeriod) {
  TempDir dir;
  std::string path = dir.Write("token", "first\n");
  // The file wins over an inline token, which only seeds client-go's cache.
  CredentialSource source(Credentials{.token = "inline", .token_file = path}, {});
  EXPECT_EQ(AuthAt(source, kT0), "Bearer first");
  dir.Write("token", "second");
  EXPECT_EQ(AuthAt(source, kT0 + seconds(59)), "Bearer first");  // still cached
  EXPECT_EQ(AuthAt(source, kT0 + minutes(1)), "Bearer second");
  dir.Write("token", "third");
  source.Invalidate();  // a 401 forces the re-read at once
  EXPECT_EQ(AuthAt(source, kT0 + minutes(1) + seconds(1)), "Bearer third");
}

TEST(CredentialSourceTest, TokenFileReadFailureKeepsThePreviousToken) {
  TempDir dir;
  std::string path = dir.Write("token", "kept");
  CredentialSource source(Credentials{.token_file = path}, {},
                          CredentialOptions{.token_file_refresh = seconds(10)});
  EXPECT_EQ(AuthAt(source, kT0), "Bearer kept");
  std::filesystem::remove(path);
  EXPECT_EQ(AuthAt(source, kT0 + seconds(11)), "Bearer kept");
  dir.Write("token", "back");
  EXPECT_EQ(AuthAt(source, kT0 + seconds(22)), "Bearer back");
}

TEST(CredentialSourceTest, TokenFileErrorsWithoutAPreviousToken) {
  TempDir dir;
  CredentialSource missing(Credentials{.token_file = dir.path() + "/none"}, {});
  Result<RequestCredentials> got = missing.Get(kT0);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kNotFound);

  std::string empty = dir.Write("empty", " \n");
  CredentialSource blank(Credentials{.token_file = empty}, {});
  got = blank.Get(kT0);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "read empty token from file \"" + empty + "\"");
}

class ExecCredentialSourceTest : public ::testing::Test {
 protected:
  CredentialSource Source(std::function<Result<ExecCredential>()> answer) {
    ExecConfig exec;
    exec.api_version = kExecApiV1;
    exec.command = "plugin";
    CredentialOptions options;
    options.exec_runner = [this, answer](const ExecConfig&, const ExecClusterInfo& cluster) {
      ++runs_;
      seen_server_ = cluster.server;
      return answer();
    };
    return CredentialSource(Credentials{.exec = exec}, ExecClusterInfo{.server = "https://s"},
                            options);
  }
  int runs_ = 0;
  std::string seen_server_;
};

TEST_F(ExecCredentialSourceTest, CachedUntilExpiry) {
  CredentialSource source = Source([this] {
    return ExecCredential{.token = "t" + std::to_string(runs_), .expiration = kT0 + minutes(10)};
  });
  EXPECT_EQ(AuthAt(source, kT0), "Bearer t1");
  EXPECT_EQ(AuthAt(source, kT0 + minutes(10)), "Bearer t1");  // expired only after the instant
  EXPECT_EQ(runs_, 1);
  EXPECT_EQ(seen_server_, "https://s");
  EXPECT_EQ(AuthAt(source, kT0 + minutes(10) + seconds(1)), "Bearer t2");
  EXPECT_EQ(runs_, 2);
}

TEST_F(ExecCredentialSourceTest, WithoutExpiryCachedUntilInvalidated) {
  CredentialSource source = Source([this] {
    return ExecCredential{.client_cert_pem = "C" + std::to_string(runs_), .client_key_pem = "K"};
  });
  Result<RequestCredentials> got = source.Get(kT0);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, (RequestCredentials{"", "C1", "K"}));
  EXPECT_EQ(source.Get(kT0 + minutes(600))->client_cert_pem, "C1");
  source.Invalidate();
  EXPECT_EQ(source.Get(kT0 + minutes(601))->client_cert_pem, "C2");
  EXPECT_EQ(runs_, 2);
}

TEST_F(ExecCredentialSourceTest, FailureIsReportedAndRetriedNextTime) {
  bool fail = true;
  CredentialSource source = Source([&fail]() -> Result<ExecCredential> {
    if (fail) return Status(Code::kUnauthorized, "exec: executable plugin not found");
    return ExecCredential{.token = "ok"};
  });
  Result<RequestCredentials> got = source.Get(kT0);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "getting credentials: exec: executable plugin not found");
  fail = false;
  EXPECT_EQ(AuthAt(source, kT0 + seconds(1)), "Bearer ok");
  EXPECT_EQ(runs_, 2);
}

TEST(CredentialSourceExecTest, RunsARealPluginOncePerExpiry) {
  TempDir dir;
  std::string count_file = dir.path() + "/count";
  std::string script = dir.Script(
      "plugin.sh", "echo run >> " + count_file +
                       "\n"
                       "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":"
                       "\"ExecCredential\",\"status\":{\"token\":\"real\",\"expirationTimestamp\":"
                       "\"2027-01-15T08:00:00Z\"}}'\n");
  ExecConfig exec;
  exec.api_version = kExecApiV1;
  exec.command = script;
  exec.interactive_mode = "IfAvailable";
  RestConfig config;
  config.server = "https://s";
  config.credentials.exec = exec;
  CredentialSource source(config.credentials, ClusterInfoFor(config));
  Time before = ParseRfc3339("2027-01-15T07:00:00Z").value();
  EXPECT_EQ(AuthAt(source, before), "Bearer real");
  EXPECT_EQ(AuthAt(source, before + minutes(30)), "Bearer real");
  EXPECT_EQ(ReadFile(count_file).value(), "run\n");
  EXPECT_EQ(AuthAt(source, before + minutes(61)), "Bearer real");
  EXPECT_EQ(ReadFile(count_file).value(), "run\nrun\n");
}

}  // namespace
}  // namespace lws::rest
