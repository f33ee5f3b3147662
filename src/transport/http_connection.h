// File: transport/http_connection.h
//
// Internal to the transport (http_server.cc and http_connection.cc, nobody else). HttpServer
// listens and accepts; each accepted socket is handed to ServeConnection, which serves it on a
// strand of its own until the client or the server ends it. What the connections of one server
// share (options, handler, the handler pools, the open-stream count, the set of live connections
// that Stop shuts down) is the ServerContext.
//
// Nothing here names a Beast or Asio type (io_context is only forward-declared), so that Beast
// is compiled in the transport's translation units alone; the socket crosses over as its
// native handle.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>

#include "base/mutex.h"
#include "base/result.h"
#include "transport/http.h"
#include "transport/http_server.h"

namespace boost::asio {
class io_context;
namespace ssl {
class context;
}  // namespace ssl
}  // namespace boost::asio

namespace spdlog {
class logger;
}  // namespace spdlog

namespace lws::transport::internal {

class ConnectionHandle {
 public:
  virtual ~ConnectionHandle() = default;
  // Callable from any thread: cancels the connection's stream and closes its socket.
  virtual void Shutdown() = 0;
};

class ServerContext {
 public:
  ServerContext(HttpServerOptions options, HttpHandler handler);

  const HttpServerOptions& options() const { return options_; }
  // Calls the handler; an exception from it propagates.
  HttpResponse Handle(const HttpRequest& request) const { return handler_(request); }
  // Runs `call` on a handler pool thread: the readers' pool when `read`, else the writers'.
  // Set once by the server before it accepts; `call` must not throw.
  using Dispatch = std::function<void(bool read, std::function<void()> call)>;
  void set_dispatch(Dispatch dispatch) { dispatch_ = std::move(dispatch); }
  void RunHandler(bool read, std::function<void()> call) const { dispatch_(read, std::move(call)); }
  spdlog::logger& log() const { return *log_; }

  // Takes one of options().max_streams slots; false when none is free.
  bool TryOpenStream();
  void CloseStream() { open_streams_.fetch_sub(1); }

  // Registers a live connection: its id, or nullopt once the server is stopping (the caller
  // then drops the connection).
  std::optional<uint64_t> Add(std::weak_ptr<ConnectionHandle> connection);
  void Remove(uint64_t id);
  // From now on Add refuses; every registered connection is shut down. Idempotent.
  void ShutdownAll();
  // Runs `post` (an answer's post onto its connection's strand) unless ClosePosts was called.
  // An answer can be released on another thread after Stop (a deferred acknowledgement,
  // base/deferred_ack.h: the store's flusher), and must not reach an io_context being destroyed.
  void PostAnswer(const std::function<void()>& post);
  // From now on PostAnswer drops; returns once no post is running. Idempotent.
  void ClosePosts();

 private:
  const HttpServerOptions options_;
  const HttpHandler handler_;
  Dispatch dispatch_;
  const std::shared_ptr<spdlog::logger> log_;
  std::atomic<std::size_t> open_streams_{0};
  Mutex mu_;
  bool stopping_ GUARDED_BY(mu_) = false;
  Mutex post_mu_;
  bool posts_closed_ GUARDED_BY(post_mu_) = false;
  uint64_t next_id_ GUARDED_BY(mu_) = 0;
  std::unordered_map<uint64_t, std::weak_ptr<ConnectionHandle>> connections_ GUARDED_BY(mu_);
};

// Serves the connected socket `native_socket` (IPv6 when `ipv6`), which it now owns, on a new
// strand of `io`: over TLS with `tls` (which must outlive every connection), else plain.
void ServeConnection(boost::asio::io_context& io, int native_socket, bool ipv6,
                     std::shared_ptr<ServerContext> context, boost::asio::ssl::context* tls);

// The SSL context for HttpServerOptions::tls (http_server_tls.cc).
Result<std::shared_ptr<boost::asio::ssl::context>> MakeTlsContext(const HttpTlsOptions& tls);

}  // namespace lws::transport::internal
