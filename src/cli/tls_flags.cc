// File: cli/tls_flags.cc
#include "cli/tls_flags.h"

#include <CLI/CLI.hpp>
#include <filesystem>

#include "base/file.h"

namespace lws::cli {
namespace {

Result<transport::TlsIdentity> LoadOperatorPair(const TlsFlags& flags) {
  transport::TlsIdentity identity;
  ASSIGN_OR_RETURN(identity.cert_pem, ReadFile(flags.cert_file));
  ASSIGN_OR_RETURN(identity.key_pem, ReadFile(flags.key_file));
  // Checked here so that a wrong pair is reported with both file names at start, not as a TLS
  // alert on every client's first request.
  if (Status match = transport::CheckKeyMatches(identity.cert_pem, identity.key_pem); !match.ok()) {
    return Status::BadRequest("--tls-cert " + flags.cert_file + " and --tls-key " + flags.key_file +
                              ": " + std::string(match.message()));
  }
  ASSIGN_OR_RETURN(identity.ca_pem, transport::LastCertificate(identity.cert_pem));
  return identity;
}

}  // namespace

void AddTlsFlags(CLI::App* cmd, TlsFlags* flags) {
  CLI::Option* cert = cmd->add_option("--tls-cert", flags->cert_file,
                                      "Serve HTTPS with this PEM certificate (chain, leaf first)")
                          ->check(CLI::ExistingFile);
  CLI::Option* key =
      cmd->add_option("--tls-key", flags->key_file, "The PEM private key of --tls-cert")
          ->check(CLI::ExistingFile);
  cert->needs(key);
  key->needs(cert);
  CLI::Option* self_signed =
      cmd->add_flag("--tls-self-signed", flags->self_signed,
                    "Serve HTTPS with a self-signed CA and certificate made at start (kept in "
                    "DATA_DIR/tls with --data-dir); the kubeconfig trusts that CA. The default")
          ->excludes(cert)
          ->excludes(key);
  cmd->add_flag("--insecure-plain-http", flags->insecure_plain_http,
                "Give up TLS and access control: plain HTTP, no authentication, no RBAC; anyone "
                "who can reach the port (any local user) can read and change every object, "
                "Secrets included. For throwaway clusters only")
      ->excludes(cert)
      ->excludes(key)
      ->excludes(self_signed);
}

void AddAccessFlags(CLI::App* cmd, std::string* token, int* request_timeout_seconds,
                    std::string* audit_log_path) {
  cmd->add_option(
      "--token", *token,
      "The administrator's bearer token, written into the kubeconfig (default: a random one, "
      "kept in DATA_DIR/admin.token with --data-dir)");
  cmd->add_option("--request-timeout", *request_timeout_seconds,
                  "Seconds a request may take before the client gets 504 Timeout (watches and "
                  "log streams are exempt once they started; 0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0, 24 * 3600));
  cmd->add_option("--audit-log-path", *audit_log_path,
                  "Append an audit.k8s.io/v1 Event (level Metadata) for every HTTP request to "
                  "FILE (0600), as kube-apiserver's --audit-log-path");
}

Result<std::optional<transport::TlsIdentity>> ResolveTls(const TlsFlags& flags,
                                                         const std::string& data_dir, Time now) {
  if (flags.self_signed && !flags.cert_file.empty()) {
    return Status::BadRequest("--tls-self-signed cannot be combined with --tls-cert");
  }
  if (flags.insecure_plain_http && (flags.self_signed || !flags.cert_file.empty())) {
    return Status::BadRequest(
        "--insecure-plain-http cannot be combined with --tls-cert or "
        "--tls-self-signed");
  }
  if (flags.cert_file.empty() != flags.key_file.empty()) {
    return Status::BadRequest("--tls-cert and --tls-key must be given together");
  }
  if (!flags.enabled()) return std::optional<transport::TlsIdentity>();
  Result<transport::TlsIdentity> identity =
      !flags.cert_file.empty() ? LoadOperatorPair(flags)
      : data_dir.empty()       ? transport::CreateSelfSigned({}, now)
                               : transport::LoadOrCreateSelfSigned(
                                     (std::filesystem::path(data_dir) / "tls").string(), {}, now);
  if (!identity.ok()) return identity.status();
  return std::optional(std::move(*identity));
}

}  // namespace lws::cli
