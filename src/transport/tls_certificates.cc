// File: apiserver/tls_certificates.cc
//
// Creation and inspection of certificates with OpenSSL 3. Every OpenSSL object is owned by a
// unique_ptr with its free function, and every failure becomes a Status carrying OpenSSL's own
// reason (its thread-local error queue is drained into the message, so no stale error leaks
// into a later call). Reading and writing the self-signed files is tls_certificate_files.cc.
#include "transport/tls_certificates.h"

#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstring>
#include <memory>
#include <utility>

namespace lws::transport {
namespace {

struct OpenSslFree {
  void operator()(X509* p) const { X509_free(p); }
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(GENERAL_NAMES* p) const { GENERAL_NAMES_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
  void operator()(X509_STORE_CTX* p) const { X509_STORE_CTX_free(p); }
  // Frees the stack only: its certificates belong to someone else.
  void operator()(STACK_OF(X509) * p) const { sk_X509_free(p); }
};
using X509Ptr = std::unique_ptr<X509, OpenSslFree>;
using KeyPtr = std::unique_ptr<EVP_PKEY, OpenSslFree>;
using BioPtr = std::unique_ptr<BIO, OpenSslFree>;
using NamesPtr = std::unique_ptr<GENERAL_NAMES, OpenSslFree>;

Status OpenSslError(std::string_view what) { return Status::Internal(OpenSslErrorMessage(what)); }

Result<std::vector<X509Ptr>> ParseCertificates(std::string_view pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!bio) return OpenSslError("cannot read PEM");
  std::vector<X509Ptr> certificates;
  while (X509* certificate = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    certificates.emplace_back(certificate);
  }
  // The loop ends on "no start line" after the last certificate: expected, not an error.
  ERR_clear_error();
  if (certificates.empty()) return Status::BadRequest("no PEM certificate found");
  return certificates;
}

Result<KeyPtr> ParsePrivateKey(std::string_view pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  KeyPtr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!key) return OpenSslError("no PEM private key found");
  return key;
}

constexpr auto kBackdate = std::chrono::hours(1);

time_t ToTimeT(Time t) {
  return static_cast<time_t>(
      std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count());
}

Result<std::string> ToPem(X509* certificate) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), certificate) != 1) {
    return OpenSslError("cannot encode a certificate");
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// PKCS#8 ("PRIVATE KEY"), or with `traditional` the key type's own form ("RSA PRIVATE KEY").
Result<std::string> ToPem(EVP_PKEY* key, bool traditional = false) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  const int written = !bio          ? 0
                      : traditional ? PEM_write_bio_PrivateKey_traditional(
                                          bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
                                    : PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0,
                                                               nullptr, nullptr);
  if (written != 1) return OpenSslError("cannot encode a private key");
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// What one certificate says about itself; the issuer signs it.
struct CertificateSpec {
  std::string common_name;
  bool ca = false;
  std::string subject_alt_names;  // OpenSSL's "DNS:a,IP:b" form; empty for none
  std::string organization;       // "" for none
  // cert-controller's CA key usage (digitalSignature, keyEncipherment, certSign) instead of ours.
  bool cert_controller_ca = false;
};

Status AddExtension(X509* certificate, X509V3_CTX* ctx, int nid, const std::string& value) {
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, ctx, nid, value.c_str());
  if (extension == nullptr) return OpenSslError("cannot build extension " + value);
  const int added = X509_add_ext(certificate, extension, -1);
  X509_EXTENSION_free(extension);
  if (added != 1) return OpenSslError("cannot add extension " + value);
  return Status::Ok();
}

Status AddExtensions(X509* certificate, X509* issuer, const CertificateSpec& spec) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer != nullptr ? issuer : certificate, certificate, nullptr, nullptr, 0);
  std::vector<std::pair<int, std::string>> extensions;
  if (spec.ca) {
    extensions = {{NID_basic_constraints, "critical,CA:TRUE"},
                  {NID_key_usage, spec.cert_controller_ca
                                      ? "critical,digitalSignature,keyEncipherment,keyCertSign"
                                      : "critical,digitalSignature,keyCertSign,cRLSign"},
                  {NID_subject_key_identifier, "hash"}};
  } else {
    extensions = {{NID_basic_constraints, "critical,CA:FALSE"},
                  {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                  {NID_ext_key_usage, "serverAuth"},
                  {NID_subject_key_identifier, "hash"},
                  {NID_authority_key_identifier, "keyid:always"}};
  }
  if (!spec.subject_alt_names.empty()) {
    extensions.emplace_back(NID_subject_alt_name, spec.subject_alt_names);
  }
  for (const auto& [nid, value] : extensions) {
    RETURN_IF_ERROR(AddExtension(certificate, &ctx, nid, value));
  }
  return Status::Ok();
}

// Serial numbers are random (RFC 5280 allows up to 20 octets): two CAs made on different starts
// must never issue certificates a client could confuse.
Status SetRandomSerial(X509* certificate) {
  std::unique_ptr<BIGNUM, OpenSslFree> serial(BN_new());
  if (!serial || BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
      BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate)) == nullptr) {
    return OpenSslError("cannot draw a serial number");
  }
  return Status::Ok();
}

// Issues a certificate for `key`, signed by `issuer_key` under `issuer` (nullptr: self-signed).
Result<X509Ptr> Issue(const CertificateSpec& spec, EVP_PKEY* key, X509* issuer,
                      EVP_PKEY* issuer_key, Time now, std::chrono::hours validity) {
  X509Ptr certificate(X509_new());
  if (!certificate || X509_set_version(certificate.get(), 2) != 1) {
    return OpenSslError("cannot create a certificate");
  }
  RETURN_IF_ERROR(SetRandomSerial(certificate.get()));
  X509_NAME* subject = X509_get_subject_name(certificate.get());
  const auto* cn = reinterpret_cast<const unsigned char*>(spec.common_name.c_str());
  const auto* organization = reinterpret_cast<const unsigned char*>(spec.organization.c_str());
  if (!spec.organization.empty() &&
      X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_ASC, organization, -1, -1, 0) != 1) {
    return OpenSslError("cannot name the organization " + spec.organization);
  }
  if (X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, cn, -1, -1, 0) != 1 ||
      X509_set_issuer_name(certificate.get(),
                           issuer != nullptr ? X509_get_subject_name(issuer) : subject) != 1 ||
      ASN1_TIME_set(X509_getm_notBefore(certificate.get()), ToTimeT(now - kBackdate)) == nullptr ||
      ASN1_TIME_set(X509_getm_notAfter(certificate.get()), ToTimeT(now + validity)) == nullptr ||
      X509_set_pubkey(certificate.get(), key) != 1) {
    return OpenSslError("cannot fill in a certificate");
  }
  RETURN_IF_ERROR(AddExtensions(certificate.get(), issuer, spec));
  if (X509_sign(certificate.get(), issuer_key, EVP_sha256()) <= 0) {
    return OpenSslError("cannot sign a certificate");
  }
  return certificate;
}

Result<KeyPtr> NewKey() {
  KeyPtr key(EVP_EC_gen("P-256"));
  if (!key) return OpenSslError("cannot generate an EC P-256 key");
  return key;
}

// cert-controller's keys are RSA 2048.
Result<KeyPtr> NewRsaKey() {
  KeyPtr key(EVP_RSA_gen(2048));
  if (!key) return OpenSslError("cannot generate an RSA 2048 key");
  return key;
}

std::string AltNames(const std::vector<std::string>& dns_names,
                     const std::vector<std::string>& ip_addresses) {
  std::string names;
  for (const std::string& dns : dns_names) names += (names.empty() ? "DNS:" : ",DNS:") + dns;
  for (const std::string& ip : ip_addresses) names += (names.empty() ? "IP:" : ",IP:") + ip;
  return names;
}

std::string AltNames(const SelfSignedRequest& request) {
  return AltNames(request.dns_names, request.ip_addresses);
}

std::string GeneralNameText(const GENERAL_NAME* name) {
  if (name->type == GEN_DNS) {
    const ASN1_IA5STRING* dns = name->d.dNSName;
    return "DNS:" + std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                                static_cast<std::size_t>(ASN1_STRING_length(dns)));
  }
  if (name->type == GEN_IPADD) {
    const ASN1_OCTET_STRING* ip = name->d.iPAddress;
    const int length = ASN1_STRING_length(ip);
    char text[INET6_ADDRSTRLEN] = {};
    const int family = length == 4 ? AF_INET : length == 16 ? AF_INET6 : -1;
    if (family < 0 || inet_ntop(family, ASN1_STRING_get0_data(ip), text, sizeof text) == nullptr) {
      return "IP:<invalid>";
    }
    return std::string("IP:") + text;
  }
  return "other:" + std::to_string(name->type);
}

}  // namespace

Result<TlsIdentity> CreateSelfSigned(const SelfSignedRequest& request, Time now) {
  ASSIGN_OR_RETURN(KeyPtr ca_key, NewKey());
  ASSIGN_OR_RETURN(KeyPtr serving_key, NewKey());
  // kube-apiserver names its self-signed CA after the host and the time of creation; the time
  // tells two generations apart in a client's error message.
  const CertificateSpec ca_spec{"lws-apiserver-ca@" + std::to_string(ToTimeT(now)), true, ""};
  ASSIGN_OR_RETURN(X509Ptr ca,
                   Issue(ca_spec, ca_key.get(), nullptr, ca_key.get(), now, request.validity));
  const CertificateSpec serving_spec{"lws-apiserver", false, AltNames(request)};
  ASSIGN_OR_RETURN(X509Ptr serving, Issue(serving_spec, serving_key.get(), ca.get(), ca_key.get(),
                                          now, request.validity));
  TlsIdentity identity;
  ASSIGN_OR_RETURN(identity.ca_pem, ToPem(ca.get()));
  ASSIGN_OR_RETURN(identity.cert_pem, ToPem(serving.get()));
  ASSIGN_OR_RETURN(identity.key_pem, ToPem(serving_key.get()));
  return identity;
}

Result<CertificateAuthority> CreateCertificateAuthority(const CertificateAuthorityRequest& request,
                                                        Time now) {
  ASSIGN_OR_RETURN(KeyPtr key, NewRsaKey());
  CertificateSpec spec{request.common_name, true, AltNames({request.common_name}, {})};
  spec.organization = request.organization;
  spec.cert_controller_ca = true;
  ASSIGN_OR_RETURN(X509Ptr ca, Issue(spec, key.get(), nullptr, key.get(), now, request.validity));
  CertificateAuthority authority;
  ASSIGN_OR_RETURN(authority.cert_pem, ToPem(ca.get()));
  ASSIGN_OR_RETURN(authority.key_pem, ToPem(key.get(), /*traditional=*/true));
  return authority;
}

Result<TlsIdentity> IssueServingCertificate(const CertificateAuthority& ca,
                                            const ServingCertificateRequest& request, Time now) {
  if (request.dns_names.empty()) return Status::BadRequest("a serving certificate needs a name");
  RETURN_IF_ERROR(CheckKeyMatches(ca.cert_pem, ca.key_pem));
  ASSIGN_OR_RETURN(std::vector<X509Ptr> issuer, ParseCertificates(ca.cert_pem));
  ASSIGN_OR_RETURN(KeyPtr issuer_key, ParsePrivateKey(ca.key_pem));
  ASSIGN_OR_RETURN(KeyPtr key, NewRsaKey());
  const CertificateSpec spec{request.dns_names.front(), false,
                             AltNames(request.dns_names, request.ip_addresses)};
  ASSIGN_OR_RETURN(X509Ptr serving, Issue(spec, key.get(), issuer.front().get(), issuer_key.get(),
                                          now, request.validity));
  TlsIdentity identity;
  identity.ca_pem = ca.cert_pem;
  ASSIGN_OR_RETURN(identity.cert_pem, ToPem(serving.get()));
  ASSIGN_OR_RETURN(identity.key_pem, ToPem(key.get(), /*traditional=*/true));
  return identity;
}

Status CheckKeyMatches(std::string_view cert_pem, std::string_view key_pem) {
  ASSIGN_OR_RETURN(std::vector<X509Ptr> certificates, ParseCertificates(cert_pem));
  ASSIGN_OR_RETURN(KeyPtr key, ParsePrivateKey(key_pem));
  if (EVP_PKEY_eq(X509_get0_pubkey(certificates.front().get()), key.get()) != 1) {
    ERR_clear_error();
    return Status::BadRequest("the private key does not belong to the certificate");
  }
  return Status::Ok();
}

Status VerifyServingCertificate(std::string_view cert_pem, std::string_view ca_pem,
                                std::string_view host, Time now) {
  ASSIGN_OR_RETURN(std::vector<X509Ptr> chain, ParseCertificates(cert_pem));
  ASSIGN_OR_RETURN(std::vector<X509Ptr> roots, ParseCertificates(ca_pem));
  std::unique_ptr<X509_STORE, OpenSslFree> store(X509_STORE_new());
  std::unique_ptr<STACK_OF(X509), OpenSslFree> untrusted(sk_X509_new_null());
  std::unique_ptr<X509_STORE_CTX, OpenSslFree> ctx(X509_STORE_CTX_new());
  if (!store || !untrusted || !ctx) return OpenSslError("cannot set up verification");
  for (const X509Ptr& root : roots) {
    if (X509_STORE_add_cert(store.get(), root.get()) != 1) return OpenSslError("cannot add a CA");
  }
  for (std::size_t i = 1; i < chain.size(); ++i) sk_X509_push(untrusted.get(), chain[i].get());
  if (X509_STORE_CTX_init(ctx.get(), store.get(), chain.front().get(), untrusted.get()) != 1) {
    return OpenSslError("cannot set up verification");
  }
  X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx.get());
  X509_VERIFY_PARAM_set_time(param, ToTimeT(now));
  X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
  const std::string name(host);
  unsigned char ip[16];
  const bool is_ip =
      inet_pton(AF_INET, name.c_str(), ip) == 1 || inet_pton(AF_INET6, name.c_str(), ip) == 1;
  const int set = is_ip ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                        : X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
  if (set != 1) return OpenSslError("cannot verify for host " + name);
  if (X509_verify_cert(ctx.get()) != 1) {
    const int error = X509_STORE_CTX_get_error(ctx.get());
    ERR_clear_error();
    return Status::BadRequest("certificate verification for " + name +
                              " failed: " + X509_verify_cert_error_string(error));
  }
  return Status::Ok();
}

Result<std::vector<std::string>> SubjectAltNames(std::string_view cert_pem) {
  ASSIGN_OR_RETURN(std::vector<X509Ptr> certificates, ParseCertificates(cert_pem));
  NamesPtr names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(certificates.front().get(), NID_subject_alt_name, nullptr, nullptr)));
  std::vector<std::string> out;
  if (!names) return out;
  for (int i = 0; i < sk_GENERAL_NAME_num(names.get()); ++i) {
    out.push_back(GeneralNameText(sk_GENERAL_NAME_value(names.get(), i)));
  }
  return out;
}

Result<std::string> LastCertificate(std::string_view cert_pem) {
  ASSIGN_OR_RETURN(std::vector<X509Ptr> certificates, ParseCertificates(cert_pem));
  return ToPem(certificates.back().get());
}

std::string OpenSslErrorMessage(std::string_view what) {
  std::string message(what);
  while (unsigned long code = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    message += std::string(": ") + text;
  }
  return message;
}

}  // namespace lws::transport
