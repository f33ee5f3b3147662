// File: client/rest/http_transport.h
//
// HTTP/1.1 to one server, over TCP or TLS: the bytes under RestClient and under RequestPool
// (request_pool.h: the API server calling admission webhooks).
//
// HttpTransport keeps a small pool of keep-alive connections. Any number of threads may call
// RoundTrip and Stream at once; each call takes an idle connection (or dials a new one) for
// itself, so calls never share a socket. A pooled connection that the server has closed while it
// sat idle is noticed before use and dropped; one that fails at the first write is replaced by a
// fresh dial (the request cannot have reached the server), and so is one that fails before any
// answer when the method is idempotent (Go's net/http does the same).
//
// Stream serves watches: the answer's body, chunked or not, is read as it arrives and each
// complete JSON object in it is handed to a callback (watch_decoder.h frames them). A stream ends
// when the server ends the body, when its CancelToken is cancelled from another thread (the
// socket is shut down, which wakes the blocked read at once), or after `stream_idle_timeout`
// without a byte.
//
// Errors are Status values in client-go's words, naming the method, the URL and the operating
// system's or OpenSSL's reason:
//   Get "https://127.0.0.1:6443/api/v1/pods": dial tcp 127.0.0.1:6443: connect: connection refused
// Code kServiceUnavailable means the request may be worth repeating (no answer: refused, reset,
// closed early), kTimeout that it timed out; any other code (a bad URL, a certificate that does
// not verify, a bad PEM) will not get better by trying again. IsTransientTransportError says so.
//
// Beast, Asio and OpenSSL stay in the .cc files: this header names none of them.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "client/rest/rest_config.h"

namespace lws::rest {

using HttpField = std::pair<std::string, std::string>;

struct HttpCall {
  std::string method;              // "GET", "POST", ...
  std::string target;              // path and query: "/api/v1/pods?limit=500"
  std::vector<HttpField> headers;  // Host and Content-Length are the transport's business
  std::string body;
};

struct HttpAnswer {
  int status = 0;
  std::vector<HttpField> headers;
  std::string body;  // for Stream's 2xx answers: empty (the objects went to the callback)

  // The first header named `name` (any case), "" when absent.
  std::string Header(std::string_view name) const;
};

struct TransportOptions {
  // "https://host:port" or "http://host:port", optionally with a path prefix (a proxy's
  // "https://rancher/k8s/clusters/c-1"): targets are appended to it.
  std::string server;
  TlsConfig tls;
  Duration connect_timeout = std::chrono::seconds(30);  // dial plus TLS handshake (client-go: 30 s)
  Duration request_timeout = std::chrono::seconds(60);  // send one request, read its whole answer
  Duration stream_idle_timeout = std::chrono::minutes(15);      // a stream silent this long is dead
  std::size_t max_idle_connections = 8;                         // kept for reuse; more are closed
  Duration idle_connection_timeout = std::chrono::seconds(90);  // Go's IdleConnTimeout
};

// Lets another thread end a blocking call: RoundTrip and Stream abort their I/O, and WaitFor
// returns early. Thread-safe. Cancelled for good once cancelled.
class CancelToken {
 public:
  void Cancel();
  bool cancelled() const;
  // Waits `duration` of real time; false when cancelled before or during the wait.
  bool WaitFor(Duration duration);

  // For the transport: `abort` runs (once) on Cancel while it is set. Returns false, without
  // setting it, when already cancelled.
  bool SetAbort(std::function<void()> abort);
  void ClearAbort();

 private:
  mutable Mutex mu_;
  CondVar cv_;
  bool cancelled_ GUARDED_BY(mu_) = false;
  std::function<void()> abort_ GUARDED_BY(mu_);
};

// True for the transport errors a retry may cure (kServiceUnavailable, kTimeout).
bool IsTransientTransportError(const Status& status);

// "Get", "Post", "Patch": the method as Go's net/http errors spell it.
std::string GoMethodName(std::string_view method);

namespace internal {
// "Connection refused" -> "connection refused", as Go's syscall errors read.
std::string LowercaseFirst(std::string text);
// True when nothing can be read from the idle socket `fd`: readable while idle means the server
// closed it (EOF, a TLS close_notify) or sent something unasked; such a connection is dropped.
bool IsQuiet(int fd);
}  // namespace internal

// Takes one JSON object of a streamed body; false: stop reading.
using ObjectCallback = std::function<bool(std::string_view)>;

class HttpTransport {
 public:
  // Checks the server URL and builds the TLS context (CA, client certificate). Dials nothing.
  static Result<std::unique_ptr<HttpTransport>> Create(TransportOptions options);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  // Sends `call` and reads the whole answer, whatever its status.
  Result<HttpAnswer> RoundTrip(const HttpCall& call, CancelToken* cancel = nullptr);

  // Sends `call`; on a 2xx answer calls `on_object` with each JSON object of the body as it
  // arrives and returns the answer (empty body) once the server ends it, or once `on_object`
  // returns false (the connection is then closed). A non-2xx answer is returned whole, the
  // callback never called. A cancelled stream is a kServiceUnavailable error ("request
  // canceled"); so is a body that is not a sequence of JSON objects.
  Result<HttpAnswer> Stream(const HttpCall& call, const ObjectCallback& on_object,
                            CancelToken* cancel);

  // The full URL of `target`, as error messages and logs name it.
  std::string Url(std::string_view target) const;
  const TransportOptions& options() const;
  // Connections dialled so far (reuse shows as calls outnumbering dials). For tests and logs.
  std::size_t dial_count() const;

 private:
  struct Impl;
  explicit HttpTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lws::rest
