// File: client/rest/http_transport_util.cc
//
// The parts of http_transport.h that need no socket of their own: cancellation, error classes,
// names, header lookup, and the one-shot SendRequest on top of HttpTransport.
#include <poll.h>

#include <algorithm>
#include <cctype>

#include "client/rest/http_transport.h"
#include "client/rest/http_url.h"

namespace lws::rest {

void CancelToken::Cancel() {
  std::lock_guard lock(mu_);
  if (cancelled_) return;
  cancelled_ = true;
  // Under the lock: ClearAbort waits for it, so whatever `abort_` touches is still alive.
  if (abort_) abort_();
  cv_.notify_all();
}

bool CancelToken::cancelled() const {
  std::lock_guard lock(mu_);
  return cancelled_;
}

bool CancelToken::WaitFor(Duration duration) {
  std::unique_lock lock(mu_);
  return !cv_.wait_for(lock, duration, [this] { return cancelled_; });
}

bool CancelToken::SetAbort(std::function<void()> abort) {
  std::lock_guard lock(mu_);
  if (cancelled_) return false;
  abort_ = std::move(abort);
  return true;
}

void CancelToken::ClearAbort() {
  std::lock_guard lock(mu_);
  abort_ = nullptr;
}

namespace internal {

std::string LowercaseFirst(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

bool IsQuiet(int fd) {
  pollfd poll_fd{};
  poll_fd.fd = fd;
  poll_fd.events = POLLIN;
  return ::poll(&poll_fd, 1, 0) == 0;
}

}  // namespace internal

bool IsTransientTransportError(const Status& status) {
  return status.code() == Code::kServiceUnavailable || status.code() == Code::kTimeout;
}

std::string GoMethodName(std::string_view method) {
  std::string out;
  for (std::size_t i = 0; i < method.size(); ++i) {
    const auto c = static_cast<unsigned char>(method[i]);
    out.push_back(static_cast<char>(i == 0 ? std::toupper(c) : std::tolower(c)));
  }
  return out;
}

std::string HttpAnswer::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() &&
        std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return "";
}

Result<HttpAnswer> SendRequest(const std::string& url, const TlsConfig& tls, HttpCall call,
                               Duration timeout) {
  ASSIGN_OR_RETURN(AbsoluteUrl parsed, SplitAbsoluteUrl(url));
  TransportOptions options;
  options.server = parsed.origin;
  options.tls = tls;
  options.connect_timeout = timeout;
  options.request_timeout = timeout;
  options.max_idle_connections = 0;
  ASSIGN_OR_RETURN(std::unique_ptr<HttpTransport> transport, HttpTransport::Create(std::move(options)));
  call.target = parsed.target;
  return transport->RoundTrip(call);
}

}  // namespace lws::rest
