// File: transport/http_server.h
//
// The HTTP/1.1 transport of the embedded API server: it listens on one TCP address, parses
// requests with Boost.Beast, hands each one to an HttpHandler (http.h) and writes the answer back,
// either whole (Content-Length) or, for a watch, as a chunked stream drained from a
// ResponseStream. One io_context is run by a few I/O threads; each connection lives on its own
// strand, so a slow watch client delays nobody but itself.
//
// What the transport answers by itself, always as a metav1.Status JSON body, before or instead
// of the handler: 400 for a request it cannot parse, 413 for a body over max_body_bytes, 431 for
// headers over max_header_bytes (those three close the connection), 429 when max_streams watches
// are already open, and 500 when the handler throws.
//
//   ASSIGN_OR_RETURN(auto server, HttpServer::Start({.port = 0}, handler));
//   ... client connects to server->address() ...
//   server->Stop();  // or let it go out of scope
//
// With HttpServerOptions::tls the same server speaks HTTPS instead (TLS 1.2 or later, or what
// its TlsPolicy asks; HTTP/1.1 only, ALPN "http/1.1"); a client speaking plain HTTP to it fails the
// handshake. SetTls swaps the certificate for connections accepted from then on (a rotated webhook
// certificate), while open connections keep the one they started with.
//
// Beast and Asio stay in the .cc files (pimpl): including this header costs nothing.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "transport/http.h"

namespace lws::transport {

// How a TLS server negotiates (the operator Configuration's `tls` section, upstream
// pkg/config/tls.go): the lowest protocol version, and the TLS 1.2 cipher suites by IANA id
// (empty: OpenSSL's defaults). As in Go's crypto/tls, TLS 1.3 suites are not configurable: a
// list that names no TLS 1.2 suite OpenSSL has leaves TLS 1.2 nothing to negotiate.
struct TlsPolicy {
  std::uint16_t min_version = 0x0303;  // TLS 1.2; 0x0304 is TLS 1.3
  std::vector<std::uint16_t> cipher_suites;
};

// PEM text (tls_certificates.h makes or checks it), and the policy.
struct HttpTlsOptions {
  std::string cert_chain_pem;  // the serving certificate first, then any intermediates
  std::string key_pem;
  TlsPolicy policy;
};

struct HttpServerOptions {
  std::string bind_address = "127.0.0.1";
  uint16_t port = 0;  // 0: an ephemeral port, read back with HttpServer::port()
  int threads = 2;    // I/O threads running the one io_context
  std::size_t max_body_bytes = 3 * 1024 * 1024;  // Kubernetes' limit; larger -> 413
  std::size_t max_header_bytes = 64 * 1024;      // larger -> 431
  // How long a keep-alive connection may sit idle, and how long a client may take to send one
  // request (or to accept one non-stream response) before the connection is closed.
  std::chrono::seconds idle_timeout{120};
  // How long a handler may take to answer (a stream's first answer; not the stream itself)
  // before the client gets 504, as kube-apiserver's --request-timeout (60 s). The handler runs
  // on regardless: its result is dropped. 0: no limit.
  std::chrono::milliseconds request_timeout{60'000};
  // Handlers run off the I/O threads, on two pools of this many threads each (0: `threads`):
  // one for GET, HEAD and OPTIONS, one for every other method, so that slow writes cannot
  // keep reads, watches and health checks waiting.
  int handler_threads = 0;
  std::size_t max_streams = 1000;  // concurrently open ResponseStreams; beyond it -> 429
  std::chrono::milliseconds tick_interval{0};  // > 0: call `tick` this often on an I/O thread
  std::function<void()> tick;                  // e.g. the store's watch bookmarks
  std::optional<HttpTlsOptions> tls;           // set: HTTPS; unset: plain HTTP
};

class HttpServer {
 public:
  // Binds, listens and starts the I/O threads. A bind or listen failure is a Status naming the
  // address and the operating system's error text; a certificate or key that cannot be loaded
  // is a Status with OpenSSL's reason.
  static Result<std::unique_ptr<HttpServer>> Start(HttpServerOptions options, HttpHandler handler);

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();  // Stop()

  uint16_t port() const;
  std::string address() const;  // "127.0.0.1:PORT" ("[::1]:PORT" for IPv6)

  // Serves `tls` to every connection accepted after it returns. BadRequest when the certificate
  // or key cannot be loaded (the old one stays), or when the server speaks plain HTTP.
  Status SetTls(const HttpTlsOptions& tls);

  // Stops accepting, cancels every open stream, closes every connection and joins the I/O
  // threads. Idempotent. Must not be called from a handler or a tick (it would join itself).
  void Stop();

 private:
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lws::transport
