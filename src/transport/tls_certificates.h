// File: transport/tls_certificates.h
//
// The certificates behind the embedded API server's HTTPS, in PEM text, made and checked with
// OpenSSL 3 alone (no Beast or Asio here: the transport only receives the PEM strings).
//
// A self-signed setup is two certificates, as kube-apiserver's own self-signed fallback does it:
// a CA, which clients trust (a kubeconfig's certificate-authority-data), and a serving
// certificate it signed, for the names a local client dials (localhost, 127.0.0.1, ::1). Keeping
// the CA apart from the serving certificate means clients trust an issuer, not one key pair; the
// CA's private key is thrown away once it has signed, so nothing else can ever be issued under
// the CA a kubeconfig trusts.
//
//   ASSIGN_OR_RETURN(TlsIdentity identity, LoadOrCreateSelfSigned(data_dir + "/tls", {}, now));
//   // identity.cert_pem + identity.key_pem serve; identity.ca_pem goes into the kubeconfig.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"

namespace lws::transport {

// A server's TLS identity as PEM text.
struct TlsIdentity {
  std::string ca_pem;    // the certificate(s) clients trust
  std::string cert_pem;  // the serving certificate, possibly followed by intermediates
  std::string key_pem;   // the serving certificate's private key (PKCS#8)
};

struct SelfSignedRequest {
  std::vector<std::string> dns_names = {"localhost"};
  std::vector<std::string> ip_addresses = {"127.0.0.1", "::1"};
  std::chrono::hours validity{24 * 365};
};

// `what`, then every reason on OpenSSL's error queue, which it empties: the message of every
// OpenSSL failure here and in the REST client's TLS (each wraps it in its own status code).
std::string OpenSslErrorMessage(std::string_view what);

// A new EC P-256 CA and a serving certificate it signed for the request's names, valid from an
// hour before `now` (clients with a clock slightly behind still accept it).
Result<TlsIdentity> CreateSelfSigned(const SelfSignedRequest& request, Time now);

// Ok when `key_pem` is the private key of the first certificate in `cert_pem`.
Status CheckKeyMatches(std::string_view cert_pem, std::string_view key_pem);

// Verifies, as a TLS client would, the first certificate of `cert_pem` (later ones are
// untrusted intermediates) against the certificates of `ca_pem`, at time `now`, for server
// name `host` (a DNS name or an IP address). The error names OpenSSL's reason.
Status VerifyServingCertificate(std::string_view cert_pem, std::string_view ca_pem,
                                std::string_view host, Time now);

// The subject alternative names of the first certificate of `cert_pem`, as "DNS:localhost",
// "IP:127.0.0.1", "IP:::1".
Result<std::vector<std::string>> SubjectAltNames(std::string_view cert_pem);

// The last certificate of a PEM chain: for a self-signed certificate itself, for a chain in the
// usual leaf-first order its most senior issuer. What a kubeconfig should trust when the
// operator brings a certificate but names no CA.
Result<std::string> LastCertificate(std::string_view cert_pem);

// A certificate authority that keeps its key, so that it can issue again: the operator's
// self-managed webhook certificates (operator/webhook/cert_manager.h), stored in a Secret as
// open-policy-agent/cert-controller stores them for the Go operator.
struct CertificateAuthority {
  std::string cert_pem;
  std::string key_pem;  // PKCS#1 "RSA PRIVATE KEY"
};

struct CertificateAuthorityRequest {
  std::string common_name;   // also the CA's one DNS name, as cert-controller issues it
  std::string organization;  // "" for none
  std::chrono::hours validity{24 * 365 * 10};
};

struct ServingCertificateRequest {
  std::vector<std::string> dns_names;  // the first is also the subject's common name
  std::vector<std::string> ip_addresses;
  std::chrono::hours validity{24 * 365};
};

// cert-controller's key material, so that a Go operator reading the same Secret (a rollback, or
// a mixed rollout) accepts what this one wrote: RSA 2048 keys in PKCS#1 PEM, a CA carrying its
// own name as DNS name, certificates valid from an hour before `now`.
Result<CertificateAuthority> CreateCertificateAuthority(const CertificateAuthorityRequest& request,
                                                        Time now);

// A serving certificate (server auth) for the request's names, signed by `ca`; ca_pem in the
// answer is ca.cert_pem. Fails when the CA's certificate or key does not parse or match.
Result<TlsIdentity> IssueServingCertificate(const CertificateAuthority& ca,
                                            const ServingCertificateRequest& request, Time now);

// The self-signed identity kept in `dir` (ca.crt, tls.crt, tls.key): reused when all three
// parse, match, and verify for every requested name at `now`, so kubeconfigs written earlier
// stay valid; otherwise created anew and written there (the key readable by the owner only).
Result<TlsIdentity> LoadOrCreateSelfSigned(const std::string& dir, const SelfSignedRequest& request,
                                           Time now);

}  // namespace lws::transport
