// File: client/rest/credential_source.h
//
// CredentialSource turns a RestConfig's Credentials into what each request carries: the
// Authorization header value and, for exec plugins that return one, a client certificate. It
// owns everything that changes over time:
//   - a token file is re-read once its copy is older than the refresh period (client-go uses one
//     minute), because the kubelet rotates projected service account tokens in place; when a
//     re-read fails the previous token is kept (and the failure logged) rather than failing
//     requests that would still succeed;
//   - an exec plugin's answer is cached until its expirationTimestamp, then the plugin runs again;
//   - Invalidate() (call it after a 401) forces both to refresh on the next request.
// Time comes in as a parameter. Get is thread-safe; one plugin run at a time, as in client-go, so
// parallel workers do not start a burst of plugins.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "client/rest/exec_plugin.h"
#include "client/rest/rest_config.h"

namespace lws::rest {

struct RequestCredentials {
  std::string authorization;    // "Bearer <token>", "Basic <base64>", or "" (anonymous / cert only)
  std::string client_cert_pem;  // from an exec plugin; static certificates live in TlsConfig
  std::string client_key_pem;
  bool operator==(const RequestCredentials&) const = default;
};

// Runs an exec plugin; a parameter so that tests can count runs or fake answers.
using ExecRunner = std::function<Result<ExecCredential>(const ExecConfig&, const ExecClusterInfo&)>;

struct CredentialOptions {
  Duration token_file_refresh = std::chrono::minutes(1);
  ExecOptions exec;
  ExecRunner exec_runner;  // empty: RunExecPlugin with `exec`
};

// The cluster details an exec plugin may ask for (provideClusterInfo).
ExecClusterInfo ClusterInfoFor(const RestConfig& config);

// "Basic " + base64("user:password").
std::string BasicAuthorization(const std::string& username, const std::string& password);

class CredentialSource {
 public:
  CredentialSource(Credentials credentials, ExecClusterInfo cluster,
                   CredentialOptions options = {});

  // The credentials for a request sent at `now`.
  Result<RequestCredentials> Get(Time now);
  // The server rejected the last credentials: refresh before the next request.
  void Invalidate();

 private:
  Result<std::string> FileToken(Time now) REQUIRES(mu_);
  Result<RequestCredentials> ExecCredentials(Time now) REQUIRES(mu_);

  const Credentials credentials_;
  const ExecClusterInfo cluster_;
  const CredentialOptions options_;
  Mutex mu_;
  std::optional<std::string> file_token_ GUARDED_BY(mu_);
  Time file_token_read_at_ GUARDED_BY(mu_) = {};
  std::optional<ExecCredential> exec_cache_ GUARDED_BY(mu_);
};

}  // namespace lws::rest
