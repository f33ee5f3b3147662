// File: transport/http.h
//
// The boundary between the HTTP transport (http_server.cc, the only code that includes Beast and
// Asio) and everything that decides what to answer. A handler sees one plain HttpRequest and
// returns one HttpResponse; it never touches a socket. A response either carries its whole body,
// or a ResponseStream (a watch) that the transport drains chunk by chunk, on the connection's own
// executor, whenever the stream says it has more.
//
// Handlers run on the transport's I/O threads and must not block: the store answers in
// microseconds, and a watch waits for events through ResponseStream's wake-up, never by blocking.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lws::transport {

// Header fields in arrival order. Names compare case-insensitively (Get).
struct HttpHeaders {
  std::vector<std::pair<std::string, std::string>> fields;

  // The value of the first field named `name` (any case), or "" when absent.
  std::string Get(std::string_view name) const;
  bool Has(std::string_view name) const;
  void Add(std::string name, std::string value) {
    fields.emplace_back(std::move(name), std::move(value));
  }
};

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // as sent: "/api/v1/namespaces/default/pods?limit=500"
  HttpHeaders headers;
  std::string body;
  std::string remote;  // "127.0.0.1:53412", for logs
};

// The body of a streamed (chunked) response: a watch. The transport calls Start once, then Next
// each time it is woken (and once at start), until Next returns false; Cancel when the client
// goes away or the server stops. Start, Next and Cancel are called from one executor at a time
// (never concurrently); `wake` may be called from any thread, any number of times, also after
// Cancel, and only schedules a Next.
class ResponseStream {
 public:
  virtual ~ResponseStream() = default;
  virtual void Start(std::function<void()> wake) = 0;
  // Appends what is ready (zero or more complete lines) to *out. Returns false when the stream
  // is finished: the transport sends *out, then the terminating chunk, and keeps the connection.
  virtual bool Next(std::string* out) = 0;
  virtual void Cancel() = 0;
};

struct HttpResponse {
  int status = 200;
  HttpHeaders headers;  // Content-Type and Warning among them; Content-Length is the transport's
  std::string body;     // ignored when `stream` is set
  std::shared_ptr<ResponseStream> stream;
  // For a stream: end it cleanly after this long (the watch's timeoutSeconds).
  std::optional<std::chrono::milliseconds> stream_timeout;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// True iff `a` and `b` are equal ignoring ASCII case (header names).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace lws::transport
