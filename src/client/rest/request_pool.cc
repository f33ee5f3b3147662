#include "client/rest/request_pool.h"

#include "client/rest/http_url.h"

namespace lws::rest {

Result<HttpAnswer> RequestPool::Send(const std::string& url, const TlsConfig& tls, HttpCall call,
                                     Duration timeout) {
  ASSIGN_OR_RETURN(AbsoluteUrl parsed, SplitAbsoluteUrl(url));
  ASSIGN_OR_RETURN(std::shared_ptr<HttpTransport> transport,
                   TransportFor(parsed.origin, tls, timeout));
  call.target = parsed.target;
  return transport->RoundTrip(call);
}

std::size_t RequestPool::transports() const {
  MutexLock lock(&mu_);
  return transports_.size();
}

Result<std::shared_ptr<HttpTransport>> RequestPool::TransportFor(const std::string& origin,
                                                                 const TlsConfig& tls,
                                                                 Duration timeout) {
  Key key{origin, tls, timeout.count()};
  MutexLock lock(&mu_);
  if (auto it = transports_.find(key); it != transports_.end()) return it->second;
  TransportOptions options;
  options.server = origin;
  options.tls = tls;
  options.connect_timeout = timeout;
  options.request_timeout = timeout;
  ASSIGN_OR_RETURN(std::unique_ptr<HttpTransport> created,
                   HttpTransport::Create(std::move(options)));
  if (transports_.size() >= kMaxTransports) transports_.clear();
  std::shared_ptr<HttpTransport> transport = std::move(created);
  transports_.emplace(std::move(key), transport);
  return transport;
}

}  // namespace lws::rest
