// File: client/rest/tls_client.cc
#include "client/rest/tls_client.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string_view>

#include "transport/tls_certificates.h"

namespace lws::rest {
namespace {

struct OpenSslFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
  void operator()(X509* certificate) const { X509_free(certificate); }
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using BioPtr = std::unique_ptr<BIO, OpenSslFree>;
using X509Ptr = std::unique_ptr<X509, OpenSslFree>;
using KeyPtr = std::unique_ptr<EVP_PKEY, OpenSslFree>;

// ALPN's wire form: a length byte, then the protocol name.
constexpr unsigned char kHttp11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

Status OpenSslError(std::string_view what) {
  return Status::BadRequest(transport::OpenSslErrorMessage(what));
}

BioPtr MemoryBio(const std::string& pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// Every certificate of `pem` into the context's trust store.
Status AddCertificateAuthorities(SSL_CTX* context, const std::string& pem) {
  BioPtr bio = MemoryBio(pem);
  X509_STORE* store = SSL_CTX_get_cert_store(context);
  int added = 0;
  while (X509Ptr certificate{PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)}) {
    if (X509_STORE_add_cert(store, certificate.get()) != 1) {
      return OpenSslError("certificate-authority: cannot trust a certificate");
    }
    ++added;
  }
  ERR_clear_error();  // the loop ends on "no start line" after the last certificate
  if (added == 0) return Status::BadRequest("certificate-authority: no PEM certificate found");
  return Status::Ok();
}

// The first certificate of `cert_pem` with the rest as its chain, and its key.
Status UseClientCertificate(SSL_CTX* context, const TlsConfig& tls) {
  BioPtr bio = MemoryBio(tls.client_cert_pem);
  X509Ptr leaf{PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)};
  if (!leaf) return OpenSslError("client-certificate: no PEM certificate found");
  if (SSL_CTX_use_certificate(context, leaf.get()) != 1) {
    return OpenSslError("client-certificate: cannot use the certificate");
  }
  while (X509Ptr intermediate{PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)}) {
    if (SSL_CTX_add1_chain_cert(context, intermediate.get()) != 1) {
      return OpenSslError("client-certificate: cannot add an intermediate certificate");
    }
  }
  ERR_clear_error();
  BioPtr key_bio = MemoryBio(tls.client_key_pem);
  KeyPtr key{PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr)};
  if (!key) return OpenSslError("client-key: no PEM private key found");
  if (SSL_CTX_use_PrivateKey(context, key.get()) != 1 || SSL_CTX_check_private_key(context) != 1) {
    return OpenSslError("client-key: the key does not belong to the client certificate");
  }
  return Status::Ok();
}

// Go's wording for the common verification failures, so messages read like kubectl's.
std::string_view GoVerifyReason(long result) {
  switch (result) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
      return "x509: certificate signed by unknown authority";
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
      return "x509: certificate is not valid for the server's name";
    case X509_V_ERR_CERT_HAS_EXPIRED:
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return "x509: certificate has expired or is not yet valid";
    default:
      return "x509: certificate verification failed";
  }
}

}  // namespace

bool IsIpAddress(const std::string& host) {
  unsigned char buffer[16];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

Status ConfigureClientContext(SSL_CTX* context, const TlsConfig& tls) {
  if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1) {
    return OpenSslError("TLS: cannot require TLS 1.2");
  }
  if (SSL_CTX_set_alpn_protos(context, kHttp11, sizeof kHttp11) != 0) {
    return OpenSslError("TLS: cannot offer ALPN http/1.1");
  }
  if (tls.insecure) {
    SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nullptr);
  } else {
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    if (!tls.ca_pem.empty()) {
      if (Status s = AddCertificateAuthorities(context, tls.ca_pem); !s.ok()) return s;
    } else if (SSL_CTX_set_default_verify_paths(context) != 1) {
      return OpenSslError("TLS: cannot load the system's certificate authorities");
    }
  }
  if (!tls.client_cert_pem.empty() || !tls.client_key_pem.empty()) {
    if (Status s = UseClientCertificate(context, tls); !s.ok()) return s;
  }
  return Status::Ok();
}

Status PrepareClientSession(SSL* ssl, const std::string& host, const TlsConfig& tls) {
  const std::string& name = tls.server_name.empty() ? host : tls.server_name;
  const bool ip = IsIpAddress(name);
  if (!ip && SSL_set_tlsext_host_name(ssl, name.c_str()) != 1) {
    return OpenSslError("TLS: cannot set the server name " + name);
  }
  if (tls.insecure) return Status::Ok();
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  const int set = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                     : X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
  if (set != 1) return OpenSslError("TLS: cannot verify the server name " + name);
  return Status::Ok();
}

std::string DescribeHandshakeFailure(SSL* ssl, const std::string& transport_error) {
  const long result = SSL_get_verify_result(ssl);
  if (result == X509_V_OK) return transport_error;
  return "tls: failed to verify certificate: " + std::string(GoVerifyReason(result)) + " (" +
         X509_verify_cert_error_string(result) + ")";
}

}  // namespace lws::rest
