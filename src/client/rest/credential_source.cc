#include "client/rest/credential_source.h"

#include "api/base64.h"
#include "base/file.h"
#include "base/log.h"
#include "client/rest/rest_util.h"

namespace lws::rest {
namespace {

std::string TrimSpace(const std::string& s) {
  const char* ws = " \t\r\n";
  std::size_t begin = s.find_first_not_of(ws);
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(ws) - begin + 1);
}

Result<std::string> ReadTokenFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  std::string token = TrimSpace(text);
  if (token.empty()) {
    return Status(Code::kUnauthorized, "read empty token from file \"" + path + "\"");
  }
  return token;
}

}  // namespace

ExecClusterInfo ClusterInfoFor(const RestConfig& config) {
  return ExecClusterInfo{config.server, config.tls.server_name, config.tls.insecure,
                         config.tls.ca_pem, ""};
}

std::string BasicAuthorization(const std::string& username, const std::string& password) {
  return "Basic " + api::Base64Encode(username + ":" + password);
}

CredentialSource::CredentialSource(Credentials credentials, ExecClusterInfo cluster,
                                   CredentialOptions options)
    : credentials_(std::move(credentials)),
      cluster_(std::move(cluster)),
      options_(std::move(options)) {}

Result<RequestCredentials> CredentialSource::Get(Time now) {
  MutexLock lock(&mu_);
  if (credentials_.exec.has_value()) return ExecCredentials(now);
  RequestCredentials out;
  // A token file wins over an inline token: client-go uses the inline one only until the file is
  // read, and the file is what gets rotated.
  if (!credentials_.token_file.empty()) {
    ASSIGN_OR_RETURN(std::string token, FileToken(now));
    out.authorization = "Bearer " + token;
  } else if (!credentials_.token.empty()) {
    out.authorization = "Bearer " + credentials_.token;
  } else if (!credentials_.username.empty() || !credentials_.password.empty()) {
    out.authorization = BasicAuthorization(credentials_.username, credentials_.password);
  }
  return out;
}

void CredentialSource::Invalidate() {
  MutexLock lock(&mu_);
  // Keep the old file token as a fallback; only its age is reset so the next Get re-reads.
  file_token_read_at_ = Time::min();
  exec_cache_.reset();
}

Result<std::string> CredentialSource::FileToken(Time now) {
  bool fresh = file_token_.has_value() && file_token_read_at_ != Time::min() &&
               now - file_token_read_at_ < options_.token_file_refresh;
  if (fresh) return *file_token_;
  Result<std::string> read = ReadTokenFile(credentials_.token_file);
  if (read.ok()) {
    file_token_ = *read;
    file_token_read_at_ = now;
    return read;
  }
  if (!file_token_.has_value()) return read.status();
  // A rotation in progress or a transient read error: the old token is likely still valid.
  Logger("rest")->warn("re-reading token file {} failed, keeping the previous token: {}",
                       credentials_.token_file, read.status().message());
  file_token_read_at_ = now;
  return *file_token_;
}

Result<RequestCredentials> CredentialSource::ExecCredentials(Time now) {
  // client-go's rule: valid until `now` is after the expiry; no expiry means valid until a 401.
  bool expired = exec_cache_.has_value() && exec_cache_->expiration.has_value() &&
                 now > *exec_cache_->expiration;
  if (!exec_cache_.has_value() || expired) {
    Result<ExecCredential> run = options_.exec_runner
                                     ? options_.exec_runner(*credentials_.exec, cluster_)
                                     : RunExecPlugin(*credentials_.exec, cluster_, options_.exec);
    if (!run.ok()) {
      return Status(run.status().code(), "getting credentials: " + run.status().message());
    }
    exec_cache_ = std::move(run).value();
  }
  RequestCredentials out;
  if (!exec_cache_->token.empty()) out.authorization = "Bearer " + exec_cache_->token;
  out.client_cert_pem = exec_cache_->client_cert_pem;
  out.client_key_pem = exec_cache_->client_key_pem;
  return out;
}

}  // namespace lws::rest
