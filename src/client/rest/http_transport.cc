// File: client/rest/http_transport.cc
//
// HttpTransport over Boost.Beast. Each connection owns a small io_context that only the thread
// using the connection runs: an operation is started, then the context is run until it
// completes, which turns Beast's asynchronous operations (the ones with timeouts) into blocking
// calls. Cancelling stops that context from another thread (io_context::stop is thread-safe);
// the connection is then never run again, only closed, because the stopped operation's handler
// still points into the cancelled call's frame.
#include "client/rest/http_transport.h"

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <limits>

#include "client/rest/http_url.h"
#include "client/rest/tls_client.h"
#include "client/rest/watch_decoder.h"

namespace lws::rest {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using ErrorCode = boost::system::error_code;
using internal::IsQuiet;
using internal::LowercaseFirst;

constexpr std::size_t kHeaderLimit = 1 << 20;
constexpr std::size_t kMaxErrorBody = 4 << 20;  // a non-2xx answer to a stream, kept whole

bool IsEof(const ErrorCode& ec) {
  return ec == net::error::eof || ec == http::error::end_of_stream ||
         ec == http::error::partial_message || ec == ssl::error::stream_truncated;
}

// The reason of a failed read or write, and whether trying again may help.
Status IoError(std::string_view step, const ErrorCode& ec) {
  if (ec == beast::error::timeout) {
    return Status(Code::kTimeout, std::string(step) + ": i/o timeout");
  }
  if (IsEof(ec)) return Status(Code::kServiceUnavailable, "EOF");
  return Status(Code::kServiceUnavailable, std::string(step) + ": " + LowercaseFirst(ec.message()));
}

Status Canceled() { return Status(Code::kServiceUnavailable, "request canceled"); }

// One keep-alive connection: a socket (with TLS on top, or not) and the context that runs it.
class Connection {
 public:
  explicit Connection(ssl::context* tls_context) {
    if (tls_context) {
      tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(io_, *tls_context);
    } else {
      plain_ = std::make_unique<beast::tcp_stream>(io_);
    }
  }

  beast::tcp_stream& Lowest() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }

  // Runs `start(handler)` to completion on this connection's context. A run stopped by a
  // cancel leaves the operation pending: the connection is then broken for good.
  template <class Start>
  ErrorCode Run(Start start, CancelToken* cancel) {
    bool done = false;
    ErrorCode result;
    start([&](ErrorCode ec, auto&&...) {
      result = ec;
      done = true;
    });
    io_.restart();
    if (!(cancel && cancel->cancelled())) io_.run();
    if (!done) {
      canceled_ = true;
      return net::error::operation_aborted;
    }
    return result;
  }

  // Runs `op(stream, handler)` on the stream requests and answers travel on.
  template <class Op>
  ErrorCode Io(Op op, CancelToken* cancel) {
    return Run([&](auto handler) { tls_ ? op(*tls_, handler) : op(*plain_, handler); }, cancel);
  }

  Status Dial(const ServerUrl& url, const TransportOptions& options, CancelToken* cancel);
  // Whether an idle connection can carry another request: the server has not closed it (nor
  // sent anything unasked), and it has not sat idle too long.
  bool Reusable(Duration idle_timeout) const;
  void MarkIdle() { idle_since_ = MonotonicNow(); }
  void Close() {
    ErrorCode ignored;
    Lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Lowest().socket().close(ignored);
  }

  net::io_context& io() { return io_; }
  beast::flat_buffer& buffer() { return buffer_; }
  bool broken() const { return broken_ || canceled_; }
  bool canceled() const { return canceled_; }
  void set_broken() { broken_ = true; }

 private:
  net::io_context io_{1};
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  std::unique_ptr<beast::tcp_stream> plain_;
  beast::flat_buffer buffer_;
  MonotonicTime idle_since_;
  bool broken_ = false;    // not to be reused: failed, or the body was left unread
  bool canceled_ = false;  // an operation was left pending: never run the context again
};

// The Status of a failed step; the connection is not reused after it.
Status Failed(Connection& connection, std::string_view step, const ErrorCode& ec) {
  connection.set_broken();
  return connection.canceled() ? Canceled() : IoError(step, ec);
}

Status Connection::Dial(const ServerUrl& url, const TransportOptions& options,
                        CancelToken* cancel) {
  tcp::resolver resolver(io_);
  ErrorCode ec;
  tcp::resolver::results_type endpoints = resolver.resolve(url.host, url.port, ec);
  if (ec) {
    return Status(Code::kServiceUnavailable,
                  "dial tcp: lookup " + url.host + ": " + LowercaseFirst(ec.message()));
  }
  const std::string where = "dial tcp " + url.authority;
  Lowest().expires_after(options.connect_timeout);
  ec = Run([&](auto handler) { Lowest().async_connect(endpoints, handler); }, cancel);
  if (canceled_) return Canceled();
  if (ec == beast::error::timeout) return Status(Code::kTimeout, where + ": i/o timeout");
  if (ec)
    return Status(Code::kServiceUnavailable, where + ": connect: " + LowercaseFirst(ec.message()));
  Lowest().socket().set_option(tcp::no_delay(true), ec);
  if (!tls_) return Status::Ok();

  if (Status prepared = PrepareClientSession(tls_->native_handle(), url.host, options.tls);
      !prepared.ok()) {
    return prepared;
  }
  Lowest().expires_after(options.connect_timeout);
  ec = Run([&](auto handler) { tls_->async_handshake(ssl::stream_base::client, handler); }, cancel);
  if (canceled_) return Canceled();
  if (!ec) return Status::Ok();
  const std::string reason =
      DescribeHandshakeFailure(tls_->native_handle(), LowercaseFirst(ec.message()));
  // A certificate that does not verify, or a server that speaks no TLS, stays that way.
  const bool lasting = SSL_get_verify_result(tls_->native_handle()) != X509_V_OK ||
                       ec.category() == net::error::get_ssl_category();
  if (ec == beast::error::timeout) return Status(Code::kTimeout, "net/http: TLS handshake timeout");
  return Status(lasting ? Code::kInternal : Code::kServiceUnavailable,
                "tls handshake with " + url.authority + ": " + reason);
}

bool Connection::Reusable(Duration idle_timeout) const {
  if (broken_ || buffer_.size() != 0) return false;
  if (MonotonicNow() - idle_since_ > idle_timeout) return false;
  return IsQuiet(const_cast<Connection*>(this)->Lowest().socket().native_handle());
}

http::request<http::string_body> BuildRequest(const HttpCall& call, const ServerUrl& url) {
  http::request<http::string_body> request;
  request.version(11);
  const http::verb verb = http::string_to_verb(call.method);
  if (verb == http::verb::unknown) {
    request.method_string(call.method);
  } else {
    request.method(verb);
  }
  request.target(url.base_path + call.target);
  request.set(http::field::host, url.authority);
  for (const auto& [name, value] : call.headers) request.insert(name, value);
  request.body() = call.body;
  if (!call.body.empty() || call.method == "POST" || call.method == "PUT" ||
      call.method == "PATCH") {
    request.prepare_payload();
  }
  return request;
}

template <class Fields>
void CopyHeaders(const Fields& fields, HttpAnswer* answer) {
  for (const auto& field : fields) {
    answer->headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
}

}  // namespace

struct HttpTransport::Impl {
  TransportOptions options;
  ServerUrl url;
  std::unique_ptr<ssl::context> tls;  // null: plain HTTP
  Mutex mu;
  std::vector<std::unique_ptr<Connection>> idle GUARDED_BY(mu);
  std::atomic<std::size_t> dials{0};

  Status Fail(const HttpCall& call, const Status& cause) const {
    return Status(cause.code(), GoMethodName(call.method) + " \"" + url.origin + url.base_path +
                                    call.target + "\": " + cause.message());
  }

  // An idle connection that still works, else nullptr (the caller dials).
  std::unique_ptr<Connection> TakeIdle() {
    MutexLock lock(&mu);
    while (!idle.empty()) {
      std::unique_ptr<Connection> connection = std::move(idle.back());
      idle.pop_back();
      if (connection->Reusable(options.idle_connection_timeout)) return connection;
      connection->Close();
    }
    return nullptr;
  }

  Result<std::unique_ptr<Connection>> DialNew(CancelToken* cancel) {
    auto connection = std::make_unique<Connection>(tls.get());
    dials.fetch_add(1);
    Status dialed =
        Guarded(*connection, cancel, [&] { return connection->Dial(url, options, cancel); });
    if (!dialed.ok()) return dialed;
    return connection;
  }

  void Release(std::unique_ptr<Connection> connection, bool keep_alive) {
    if (!keep_alive || connection->broken()) return connection->Close();
    connection->MarkIdle();
    MutexLock lock(&mu);
    if (idle.size() >= options.max_idle_connections) return connection->Close();
    idle.push_back(std::move(connection));
  }

  // Runs `body` with `cancel` able to stop the connection's context meanwhile.
  template <class Body>
  Status Guarded(Connection& connection, CancelToken* cancel, Body body) {
    if (cancel && !cancel->SetAbort([io = &connection.io()] { io->stop(); })) return Canceled();
    Status status = body();
    if (cancel) cancel->ClearAbort();
    return status;
  }

  Status Write(Connection& connection, const HttpCall& call, CancelToken* cancel);
  Status ReadWhole(Connection& connection, CancelToken* cancel, HttpAnswer* answer,
                   bool* keep_alive);
  Status ReadStream(Connection& connection, CancelToken* cancel, const ObjectCallback& on_object,
                    HttpAnswer* answer, bool* keep_alive);
};

Status HttpTransport::Impl::Write(Connection& connection, const HttpCall& call,
                                  CancelToken* cancel) {
  http::request<http::string_body> request = BuildRequest(call, url);
  if (options.request_timeout.count() > 0)
    connection.Lowest().expires_after(options.request_timeout);
  ErrorCode ec = connection.Io([&](auto& s, auto h) { http::async_write(s, request, h); }, cancel);
  return ec ? Failed(connection, "write", ec) : Status::Ok();
}

Status HttpTransport::Impl::ReadWhole(Connection& connection, CancelToken* cancel,
                                      HttpAnswer* answer, bool* keep_alive) {
  http::response_parser<http::string_body> parser;
  parser.header_limit(kHeaderLimit);
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  ErrorCode ec = connection.Io(
      [&](auto& s, auto h) { http::async_read(s, connection.buffer(), parser, h); }, cancel);
  if (ec) return Failed(connection, "read", ec);
  auto& response = parser.get();
  answer->status = static_cast<int>(response.result_int());
  CopyHeaders(response, answer);
  answer->body = std::move(response.body());
  *keep_alive = response.keep_alive();
  return Status::Ok();
}

Status HttpTransport::Impl::ReadStream(Connection& connection, CancelToken* cancel,
                                       const ObjectCallback& on_object, HttpAnswer* answer,
                                       bool* keep_alive) {
  http::response_parser<http::buffer_body> parser;
  parser.header_limit(kHeaderLimit);
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  connection.Lowest().expires_after(
      options.request_timeout.count() > 0 ? options.request_timeout : options.stream_idle_timeout);
  ErrorCode ec = connection.Io(
      [&](auto& s, auto h) { http::async_read_header(s, connection.buffer(), parser, h); }, cancel);
  if (ec) return Failed(connection, "read", ec);
  answer->status = static_cast<int>(parser.get().result_int());
  CopyHeaders(parser.get(), answer);
  const bool success = answer->status >= 200 && answer->status < 300;
  JsonObjectSplitter splitter;
  char chunk[64 * 1024];
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof chunk;
    connection.Lowest().expires_after(options.stream_idle_timeout);
    ec = connection.Io(
        [&](auto& s, auto h) { http::async_read_some(s, connection.buffer(), parser, h); }, cancel);
    if (connection.canceled()) return Canceled();
    if (ec == http::error::need_buffer) ec = {};
    const std::string_view bytes(chunk, sizeof chunk - parser.get().body().size);
    if (success) {
      bool reading = true;
      Status fed = splitter.Feed(bytes, [&](std::string_view object) {
        if (reading) reading = on_object(object);
      });
      if (!fed.ok() || !reading) connection.set_broken();  // the rest of the body stays unread
      if (!fed.ok()) return Status(Code::kServiceUnavailable, fed.message());
      if (!reading) return Status::Ok();
    } else if (answer->body.size() < kMaxErrorBody) {
      answer->body.append(bytes);
    }
    if (ec) return Failed(connection, "read", ec);
  }
  *keep_alive = parser.get().keep_alive();
  return Status::Ok();
}

Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(TransportOptions options) {
  auto impl = std::make_unique<Impl>();
  ASSIGN_OR_RETURN(impl->url, ParseServerUrl(options.server));
  impl->options = std::move(options);
  if (impl->url.tls) {
    impl->tls = std::make_unique<ssl::context>(ssl::context::tls_client);
    Status configured = ConfigureClientContext(impl->tls->native_handle(), impl->options.tls);
    if (!configured.ok()) {
      return Status(configured.code(), "TLS for " + impl->url.origin + ": " + configured.message());
    }
  }
  return std::unique_ptr<HttpTransport>(new HttpTransport(std::move(impl)));
}

HttpTransport::HttpTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpTransport::~HttpTransport() {
  MutexLock lock(&impl_->mu);
  for (auto& connection : impl_->idle) connection->Close();
}

std::string HttpTransport::Url(std::string_view target) const {
  return impl_->url.origin + impl_->url.base_path + std::string(target);
}

const TransportOptions& HttpTransport::options() const { return impl_->options; }

std::size_t HttpTransport::dial_count() const { return impl_->dials.load(); }

Result<HttpAnswer> HttpTransport::RoundTrip(const HttpCall& call, CancelToken* cancel) {
  const bool replayable = call.method == "GET" || call.method == "HEAD" || call.method == "PUT" ||
                          call.method == "DELETE" || call.method == "OPTIONS";
  // A reused connection may have been closed by the server a moment ago: one fresh dial then.
  for (int round = 0;; ++round) {
    std::unique_ptr<Connection> connection = round == 0 ? impl_->TakeIdle() : nullptr;
    const bool reused = connection != nullptr;
    if (!connection) {
      Result<std::unique_ptr<Connection>> dialed = impl_->DialNew(cancel);
      if (!dialed.ok()) return impl_->Fail(call, dialed.status());
      connection = std::move(*dialed);
    }
    HttpAnswer answer;
    bool keep_alive = false;
    bool written = false;
    Status status = impl_->Guarded(*connection, cancel, [&] {
      RETURN_IF_ERROR(impl_->Write(*connection, call, cancel));
      written = true;
      return impl_->ReadWhole(*connection, cancel, &answer, &keep_alive);
    });
    impl_->Release(std::move(connection), status.ok() && keep_alive);
    if (status.ok()) return answer;
    const bool canceled = cancel && cancel->cancelled();
    if (reused && !canceled && IsTransientTransportError(status) && (!written || replayable))
      continue;
    return impl_->Fail(call, status);
  }
}

Result<HttpAnswer> HttpTransport::Stream(const HttpCall& call, const ObjectCallback& on_object,
                                         CancelToken* cancel) {
  std::unique_ptr<Connection> connection = impl_->TakeIdle();
  if (!connection) {
    Result<std::unique_ptr<Connection>> dialed = impl_->DialNew(cancel);
    if (!dialed.ok()) return impl_->Fail(call, dialed.status());
    connection = std::move(*dialed);
  }
  HttpAnswer answer;
  bool keep_alive = false;
  Status status = impl_->Guarded(*connection, cancel, [&] {
    RETURN_IF_ERROR(impl_->Write(*connection, call, cancel));
    return impl_->ReadStream(*connection, cancel, on_object, &answer, &keep_alive);
  });
  impl_->Release(std::move(connection), status.ok() && keep_alive);
  if (!status.ok()) return impl_->Fail(call, status);
  return answer;
}

}  // namespace lws::rest
