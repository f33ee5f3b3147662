// File: client/rest/request_pool.h
//
// Requests to absolute URLs ("https://webhook.ns.svc:443/validate?timeout=10s"), each with its
// own TLS settings, over kept-alive connections: one HttpTransport per (origin, TLS settings,
// timeout). The API server calls an
// admission webhook for every pod it creates, so a TCP and TLS handshake per call would bound
// how fast pods are created. kube-apiserver keeps its webhook connections alive too.
//
// Threading: Send may be called from any thread at once (the transports are thread-safe; the
// map is guarded).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "base/mutex.h"
#include "client/rest/http_transport.h"

namespace lws::rest {

class RequestPool {
 public:
  // At most this many distinct transports are kept; past it the pool starts over (webhook
  // configurations change rarely, so this only bounds what stale entries can cost).
  static constexpr std::size_t kMaxTransports = 64;

  // One request to `url` within `timeout` (dial included on a new connection); the answer
  // whatever its status. Errors as HttpTransport's. `call.target` is ignored.
  Result<HttpAnswer> Send(const std::string& url, const TlsConfig& tls, HttpCall call,
                          Duration timeout);

  std::size_t transports() const;

 private:
  using Key = std::tuple<std::string, TlsConfig, Duration::rep>;  // origin, TLS, timeout
  Result<std::shared_ptr<HttpTransport>> TransportFor(const std::string& origin,
                                                      const TlsConfig& tls, Duration timeout);

  mutable Mutex mu_;
  // Shared: a call in flight keeps its transport alive when the pool starts over.
  std::map<Key, std::shared_ptr<HttpTransport>> transports_ GUARDED_BY(mu_);
};

}  // namespace lws::rest
