// File: transport/http_server_tls.cc
//
// The server side of HTTPS: one Asio SSL context per HttpServer, built from the PEM strings of
// HttpServerOptions::tls. TLS 1.2 is the floor, as in kube-apiserver's default (a TlsPolicy may
// raise it and choose the TLS 1.2 suites); the protocol
// offered through ALPN is HTTP/1.1 alone, because the transport speaks nothing else and a client
// (kubectl, client-go) that asked for h2 then falls back to HTTP/1.1 instead of failing.
#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/context.hpp>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "base/log.h"
#include "transport/http_connection.h"

namespace lws::transport::internal {
namespace {

namespace net = boost::asio;

// ALPN's wire form: a length byte, then the protocol name.
constexpr unsigned char kHttp11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

int SelectHttp11(SSL* /*ssl*/, const unsigned char** out, unsigned char* out_length,
                 const unsigned char* offered, unsigned int offered_length, void* /*arg*/) {
  unsigned char* selected = nullptr;
  if (SSL_select_next_proto(&selected, out_length, kHttp11, sizeof kHttp11, offered,
                            offered_length) != OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;  // no ALPN in the answer: the client assumes HTTP/1.1
  }
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

// The OpenSSL names of the TLS 1.2 suites among `ids` (IANA), in their order, and the ids
// OpenSSL does not have (RC4 and others OpenSSL 3 left out).
struct SuiteNames {
  std::string names;  // "ECDHE-RSA-AES128-GCM-SHA256:..."
  std::vector<std::uint16_t> unknown;
};

SuiteNames OpenSslSuiteNames(const std::vector<std::uint16_t>& ids) {
  SuiteNames out;
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> all(SSL_CTX_new(TLS_server_method()),
                                                        &SSL_CTX_free);
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(nullptr, &SSL_free);
  if (all && SSL_CTX_set_cipher_list(all.get(), "ALL:COMPLEMENTOFALL:@SECLEVEL=0") == 1) {
    ssl.reset(SSL_new(all.get()));
  }
  STACK_OF(SSL_CIPHER)* ciphers = ssl ? SSL_get_ciphers(ssl.get()) : nullptr;
  for (std::uint16_t id : ids) {
    if (id >= 0x1301 && id <= 0x1305) continue;  // TLS 1.3: not configurable, as in Go
    const char* name = nullptr;
    for (int i = 0; ciphers != nullptr && i < sk_SSL_CIPHER_num(ciphers); ++i) {
      const SSL_CIPHER* cipher = sk_SSL_CIPHER_value(ciphers, i);
      if (SSL_CIPHER_get_protocol_id(cipher) == id) name = SSL_CIPHER_get_name(cipher);
    }
    if (name == nullptr) {
      out.unknown.push_back(id);
      continue;
    }
    if (!out.names.empty()) out.names += ':';
    out.names += name;
  }
  return out;
}

// Applies `policy` to `context`: the lowest version, and the TLS 1.2 suites when given.
Status ApplyTlsPolicy(SSL_CTX* context, const TlsPolicy& policy) {
  int min_version = std::max<int>(policy.min_version, TLS1_2_VERSION);
  if (!policy.cipher_suites.empty()) {
    SuiteNames suites = OpenSslSuiteNames(policy.cipher_suites);
    for (std::uint16_t id : suites.unknown) {
      Logger("tls")->warn("cipher suite 0x{:04x} is not available in this OpenSSL; not offered",
                          id);
    }
    if (suites.names.empty()) {
      min_version = TLS1_3_VERSION;  // no TLS 1.2 suite left: as Go, only TLS 1.3 can succeed
    } else if (SSL_CTX_set_cipher_list(context, suites.names.c_str()) != 1) {
      return Status::Internal("TLS: cannot set the cipher suites " + suites.names);
    }
  }
  if (SSL_CTX_set_min_proto_version(context, min_version) != 1) {
    return Status::Internal("TLS: cannot set the minimum version");
  }
  return Status::Ok();
}

}  // namespace

Result<std::shared_ptr<net::ssl::context>> MakeTlsContext(const HttpTlsOptions& tls) {
  try {
    auto context = std::make_shared<net::ssl::context>(net::ssl::context::tls_server);
    context->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                         net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 |
                         net::ssl::context::no_tlsv1_1 | net::ssl::context::no_compression);
    SSL_CTX* native = context->native_handle();
    RETURN_IF_ERROR(ApplyTlsPolicy(native, tls.policy));
    SSL_CTX_set_alpn_select_cb(native, &SelectHttp11, nullptr);
    context->use_certificate_chain(net::buffer(tls.cert_chain_pem));
    context->use_private_key(net::buffer(tls.key_pem), net::ssl::context::pem);
    if (SSL_CTX_check_private_key(native) != 1) {
      return Status::BadRequest("TLS: the private key does not belong to the certificate");
    }
    return context;
  } catch (const std::exception& e) {
    // Asio reports a bad PEM as a system_error whose text is OpenSSL's reason.
    return Status::BadRequest(std::string("TLS: cannot load the certificate or key: ") + e.what());
  }
}

}  // namespace lws::transport::internal
