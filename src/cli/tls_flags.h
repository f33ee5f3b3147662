// File: cli/tls_flags.h
//
// The transport flags `lws apiserver` and `lws up` share, and what they turn into: the TLS
// identity the transport serves with plus the CA a kubeconfig should trust. HTTPS is the default;
// one of three ways:
//   (default)                        a CA and a serving certificate for localhost, 127.0.0.1
//                                    and ::1 made at start, kept in DATA_DIR/tls and reused
//                                    while valid, so a kubeconfig written once keeps working
//                                    (--tls-self-signed says the same explicitly)
//   --tls-cert FILE --tls-key FILE   the operator's PEM pair; the kubeconfig trusts the last
//                                    certificate of FILE (the pair's own issuer when FILE holds
//                                    a chain, the certificate itself when it is self-signed)
//   --insecure-plain-http            plain HTTP and no authentication or authorization at all:
//                                    everyone who reaches the port is the administrator (for
//                                    throwaway clusters and raw-HTTP tests; cli/serve.h turns
//                                    authentication off on this flag)
#pragma once

#include <optional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "transport/tls_certificates.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct TlsFlags {
  std::string cert_file;
  std::string key_file;
  bool self_signed = false;
  bool insecure_plain_http = false;

  bool enabled() const { return !insecure_plain_http; }
};

// Adds --tls-cert, --tls-key, --tls-self-signed and --insecure-plain-http to `cmd`, with their
// exclusions.
void AddTlsFlags(CLI::App* cmd, TlsFlags* flags);

// The identity to serve with, nullopt for plain HTTP. `data_dir` ("" for none) keeps the
// self-signed files; `now` dates new certificates and checks stored ones.
Result<std::optional<transport::TlsIdentity>> ResolveTls(const TlsFlags& flags,
                                                         const std::string& data_dir, Time now);

// Adds the access flags both commands share: --token (the administrator's), --request-timeout
// SECONDS (kube-apiserver's) and --audit-log-path FILE.
void AddAccessFlags(CLI::App* cmd, std::string* token, int* request_timeout_seconds,
                    std::string* audit_log_path);

}  // namespace lws::cli
