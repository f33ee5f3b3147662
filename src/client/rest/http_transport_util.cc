// File: client/rest/http_transport_util.cc
//
// The parts of http_transport.h that need no socket of their own: cancellation, error classes,
// names and header lookup.
#include <poll.h>

#include <algorithm>
#include <cctype>

#include "client/rest/http_transport.h"

namespace lws::rest {

void CancelToken::Cancel() {
  MutexLock lock(&mu_);
  if (cancelled_) return;
  cancelled_ = true;
  // Under the lock: ClearAbort waits for it, so whatever `abort_` touches is still alive.
  if (abort_) abort_();
  cv_.NotifyAll();
}

bool CancelToken::cancelled() const {
  MutexLock lock(&mu_);
  return cancelled_;
}

bool CancelToken::WaitFor(Duration duration) {
  MutexLock lock(&mu_);
  const auto deadline = std::chrono::steady_clock::now() + duration;
  while (!cancelled_) {
    if (!cv_.WaitUntil(&mu_, deadline)) break;
  }
  return !cancelled_;
}

bool CancelToken::SetAbort(std::function<void()> abort) {
  MutexLock lock(&mu_);
  if (cancelled_) return false;
  abort_ = std::move(abort);
  return true;
}

void CancelToken::ClearAbort() {
  MutexLock lock(&mu_);
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
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return "";
}

}  // namespace lws::rest
