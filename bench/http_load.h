// File: bench/http_load.h
//
// What apiserver_bench needs to load the embedded API server over real loopback sockets: the
// server wired as `lws apiserver` wires it (src/cli/apiserver.cc: RealClock, store::Store::Open,
// ApiServer, HttpServer with its default options, hence 2 I/O threads) on an ephemeral port;
// a synchronous keep-alive HTTP/1.1 client for request/response load; and a reader that holds
// many watch streams open on ONE thread (Asio) and counts the events each one delivers.
//
// Every failure is a Status (never an exception, never an abort), so a benchmark can end with
// state.SkipWithError instead of reporting a rate for requests that failed. Beast and Asio stay in
// http_load.cc.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "apiserver/api_server.h"
#include "base/clock.h"
#include "base/result.h"
#include "store/store.h"
#include "transport/http_server.h"

namespace lws::bench {

// The API server under load. The GC/bookmark control loop of `lws apiserver` is not run: it
// would add background LISTs that make the numbers harder to read.
class ServerUnderTest {
 public:
  // data_dir "" keeps the store in memory; otherwise SQLite under data_dir (created).
  static Result<std::unique_ptr<ServerUnderTest>> Start(const std::string& data_dir = "");
  ~ServerUnderTest();  // stops the transport before the server and the store it uses

  store::Store& store() { return *store_; }
  apiserver::ApiServer& api() { return *api_; }  // to call Handle without a socket
  uint16_t port() const { return http_->port(); }

 private:
  ServerUnderTest() = default;

  RealClock clock_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<apiserver::ApiServer> api_;
  std::unique_ptr<transport::HttpServer> http_;
};

// One keep-alive HTTP/1.1 connection used synchronously: one request, then its whole response.
class HttpConnection {
 public:
  static Result<std::unique_ptr<HttpConnection>> Open(uint16_t port);
  ~HttpConnection();

  // Sends `method target` (Accept: application/json; a body is sent as application/json) and
  // returns the response status; the body goes to *response_body. Any transport failure (or the
  // server closing the connection) is a Status.
  Result<int> Send(std::string_view method, std::string_view target, std::string_view body,
                   std::string* response_body);

 private:
  struct Impl;
  explicit HttpConnection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What one watch stream delivered: complete lines by their event type.
struct WatchCount {
  std::int64_t added = 0;
  std::int64_t other = 0;   // any line that is not an ADDED event (BOOKMARK, ERROR, ...)
  std::string first_other;  // the start of the first such line, for the error message
};

// Many watch streams on one loopback address, read by the single thread that calls ReadUntil.
class WatchFanout {
 public:
  // Opens `watchers` connections, sends `GET target` (a watch) on each and reads each response's
  // headers: every one must be 200 and chunked. When this returns, every watch is registered in
  // the store (the server answers the headers after creating the watcher).
  static Result<std::unique_ptr<WatchFanout>> Open(uint16_t port, const std::string& target,
                                                   int watchers);
  ~WatchFanout();

  // Reads all streams (Asio, on the calling thread) until each has delivered `events` ADDED
  // events. Fails when a stream delivers anything else, ends, or `timeout` passes first.
  Status ReadUntil(std::int64_t events, std::chrono::seconds timeout);

  const std::vector<WatchCount>& counts() const;
  std::uint64_t body_bytes() const;  // de-chunked bytes received over all streams

 private:
  struct Impl;
  explicit WatchFanout(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lws::bench
