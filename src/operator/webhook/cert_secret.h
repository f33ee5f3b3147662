// File: operator/webhook/cert_secret.h
//
// The decisions of self-managed webhook certificates (spec 21.4), pure functions of the Secret,
// the names and the time, as open-policy-agent/cert-controller makes them for the Go operator:
//
//   - the Secret `<webhookSecretName>` holds ca.crt, ca.key, tls.crt, tls.key (PEM, base64 in
//     `data`);
//   - the CA ("lws-ca", organization "lws") is kept while it verifies as itself for its own name
//     at now + lookahead (90 days), else the CA and the serving certificate are issued anew;
//   - the serving certificate is kept while its key matches and it verifies against the CA for
//     every name at now + lookahead, else it is issued anew under the kept CA. (cert-controller
//     checks the first DNS name only; checking all of them re-issues when configured names
//     change, which it would not notice.)
//   - validity: CA 10 years, serving certificate 1 year, both from an hour before now;
//   - every webhook of the Mutating/ValidatingWebhookConfigurations gets clientConfig.caBundle =
//     base64(ca.crt).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "api/codec.h"
#include "base/clock.h"
#include "base/result.h"

namespace lws::operator_webhook {

using api::Json;

inline constexpr std::string_view kCaCertKey = "ca.crt";
inline constexpr std::string_view kCaKeyKey = "ca.key";
inline constexpr std::string_view kServingCertKey = "tls.crt";
inline constexpr std::string_view kServingKeyKey = "tls.key";

struct CertificateNames {
  std::string ca_name = "lws-ca";
  std::string ca_organization = "lws";
  std::vector<std::string> dns_names;  // the first is the serving certificate's common name
  std::vector<std::string> ip_addresses;
};

// "<service>.<ns>.svc", "<service>.<ns>.svc.cluster.local", then the extra names and addresses
// (for an operator outside the cluster: deploy/local's https://127.0.0.1:9443 needs 127.0.0.1).
CertificateNames WebhookCertificateNames(std::string_view service, std::string_view ns,
                                         std::vector<std::string> extra_dns_names = {},
                                         std::vector<std::string> extra_ip_addresses = {});

struct CertificateValidity {
  std::chrono::hours ca{24 * 365 * 10};
  std::chrono::hours serving{24 * 365};
  std::chrono::hours lookahead{24 * 90};
};

// The Secret's four entries as PEM text ("" when missing or not base64).
struct CertificateMaterial {
  std::string ca_cert;
  std::string ca_key;
  std::string serving_cert;
  std::string serving_key;
  bool operator==(const CertificateMaterial&) const = default;
};

CertificateMaterial MaterialFromSecret(const Json& secret);
// `secret` with the four data entries set; other entries and fields are kept.
Json SecretWithMaterial(Json secret, const CertificateMaterial& material);
// A new Opaque Secret holding `material`.
Json NewCertificateSecret(std::string_view ns, std::string_view name,
                          const CertificateMaterial& material);

enum class CertificateAction { kKeep, kIssueServing, kIssueAll };
std::string_view ToString(CertificateAction action);

// What the Secret needs at `now` (rules in the file comment).
CertificateAction PlanCertificates(const CertificateMaterial& material,
                                   const CertificateNames& names,
                                   const CertificateValidity& validity, Time now);

// `current` after `action`: a new CA and serving certificate (kIssueAll), a new serving
// certificate under current's CA (kIssueServing), or `current` (kKeep).
Result<CertificateMaterial> IssueCertificates(const CertificateMaterial& current,
                                              CertificateAction action,
                                              const CertificateNames& names,
                                              const CertificateValidity& validity, Time now);

// Sets clientConfig.caBundle of every entry of `webhooks` in a Mutating- or
// ValidatingWebhookConfiguration. True iff something changed.
bool InjectCaBundle(Json* configuration, std::string_view ca_bundle_base64);

}  // namespace lws::operator_webhook
