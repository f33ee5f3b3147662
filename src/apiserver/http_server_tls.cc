// File: apiserver/http_server_tls.cc
//
// The server side of HTTPS: one Asio SSL context per HttpServer, built from the PEM strings of
// HttpServerOptions::tls. TLS 1.2 is the floor, as in kube-apiserver's default; the protocol
// offered through ALPN is HTTP/1.1 alone, because the transport speaks nothing else and a client
// (kubectl, client-go) that asked for h2 then falls back to HTTP/1.1 instead of failing.
#include <openssl/ssl.h>

#include <exception>
#include <memory>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/context.hpp>

#include "apiserver/http_connection.h"

namespace lws::apiserver::internal {
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

}  // namespace

Result<std::shared_ptr<net::ssl::context>> MakeTlsContext(const HttpTlsOptions& tls) {
  try {
    auto context = std::make_shared<net::ssl::context>(net::ssl::context::tls_server);
    context->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                         net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 |
                         net::ssl::context::no_tlsv1_1 | net::ssl::context::no_compression);
    SSL_CTX* native = context->native_handle();
    if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) {
      return Status::Internal("TLS: cannot require TLS 1.2");
    }
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

}  // namespace lws::apiserver::internal
