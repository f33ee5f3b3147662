// File: transport/http_connection.cc
//
// The listener and its connections. Each connection is one coroutine on its own strand: read a
// request (Beast's parser enforces the body and header limits), call the handler, write the
// answer, repeat while the client keeps the connection alive. A stream (a watch) is drained on
// the same strand: the ResponseStream's wake-up posts there, every Next() that yields output
// becomes one chunk, and whatever accumulates while a chunk is being written goes out as the next
// one. While a stream is open a second coroutine reads from the socket, because that read
// completing is the only sign that the client went away.
//
// The connection is a template over its stream, a TCP stream for HTTP or an SSL stream over one
// for HTTPS; whatever concerns the socket itself (timeouts, close, shutdown, cancel) goes to the
// lowest layer, the TCP stream, in both.
#include "transport/http_connection.h"

#include <unistd.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "base/deferred_ack.h"
#include "base/log.h"
#include "base/mutex.h"
#include "transport/http_server_util.h"

namespace lws::transport::internal {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

constexpr auto kNoThrow = net::as_tuple(net::use_awaitable);
// A client that pipelines requests behind a watch gets this much buffered; beyond it the
// connection stops reading (and so stops noticing a disconnect) until the watch ends.
constexpr std::size_t kMaxPipelinedBytes = 64 * 1024;
constexpr std::size_t kReadChunkBytes = 4096;
// After an error answer, how long the client may keep sending before the socket closes.
constexpr std::chrono::seconds kLingerTime{2};

// The wake-up handed to a ResponseStream. The stream may keep it (and call it) after the
// connection and even the io_context are gone, so it posts only while armed; the connection
// disarms it, on its strand, when the stream ends. Disarming also drops the strand: a strand
// executor must not outlive its io_context (its destructor unlinks itself from the service).
template <class Owner>
class Waker {
 public:
  Waker(net::any_io_executor strand, std::weak_ptr<Owner> connection)
      : strand_(std::move(strand)), connection_(std::move(connection)) {}
  void Wake();
  void Disarm() {
    MutexLock lock(&mu_);
    strand_ = net::any_io_executor();
  }

 private:
  Mutex mu_;
  net::any_io_executor strand_ GUARDED_BY(mu_);  // empty once disarmed
  std::weak_ptr<Owner> connection_;
};

template <class AsyncStream>
class Connection : public ConnectionHandle,
                   public std::enable_shared_from_this<Connection<AsyncStream>> {
 public:
  Connection(AsyncStream stream, std::shared_ptr<ServerContext> context)
      : stream_(std::move(stream)),
        context_(std::move(context)),
        signal_(stream_.get_executor()),
        deadline_(stream_.get_executor()) {}

  net::any_io_executor executor() { return stream_.get_executor(); }
  void set_id(uint64_t id) { id_ = id; }
  const std::shared_ptr<ServerContext>& context() const { return context_; }

  static net::awaitable<void> Run(std::shared_ptr<Connection> self);

  void Shutdown() override {
    net::post(executor(), [self = this->shared_from_this()] {
      self->stopping_ = true;
      self->deadline_.cancel();
      self->Notify();
      self->Socket().close();
    });
  }

  // On the strand: a stream has output ready.
  void OnWake() {
    wake_pending_ = true;
    Notify();
  }

 private:
  // Per-stream bookkeeping that must happen on every way out of Stream(), including the
  // coroutine frame being destroyed with the io_context.
  struct StreamSession {
    StreamSession(Connection& c, std::shared_ptr<ResponseStream> s)
        : connection(c),
          stream(std::move(s)),
          waker(std::make_shared<Waker<Connection>>(c.executor(), c.weak_from_this())) {}
    ~StreamSession() {
      if (!finished) CancelStream(*stream, connection.context_->log());
      Finish();
    }
    // The stream is over (finished or cancelled): no more wake-ups, its slot is free again.
    // Called before the last chunk goes out, so a client that saw the end may open another.
    void Finish() {
      finished = true;
      if (released) return;
      released = true;
      waker->Disarm();
      connection.deadline_.cancel();
      connection.context_->CloseStream();
    }
    Connection& connection;
    std::shared_ptr<ResponseStream> stream;
    std::shared_ptr<Waker<Connection>> waker;
    bool finished = false;  // Next returned false or Cancel was called: no Cancel due
    bool released = false;
  };

  // The TCP layer under the stream.
  beast::tcp_stream& Socket() { return beast::get_lowest_layer(stream_); }
  net::awaitable<bool> Handshake();
  net::awaitable<bool> ServeOne();
  net::awaitable<bool> ReadFailed(beast::error_code ec);
  // A request handed to a handler pool; its fields are touched on the strand only, but for
  // `request`, which the pool thread reads while the strand no longer does.
  struct PendingCall {
    HttpRequest request;
    HttpResponse response;
    bool done = false;       // response is set
    bool abandoned = false;  // the coroutine answered without it (deadline or stop)
  };
  HttpResponse CallHandler(const HttpRequest& request);
  net::awaitable<HttpResponse> CallOffStrand(HttpRequest request);
  net::awaitable<bool> Respond(HttpResponse response, bool head, bool keep_alive, unsigned version);
  net::awaitable<bool> Refuse(HttpResponse response);
  net::awaitable<bool> Stream(HttpResponse response, bool keep_alive, unsigned version);
  net::awaitable<bool> Drain(StreamSession& session, bool chunked);
  net::awaitable<bool> WriteBody(const std::string& data, bool chunked);
  static net::awaitable<void> WatchPeer(std::shared_ptr<Connection> self);
  void StartDeadline(std::chrono::milliseconds timeout);
  net::awaitable<void> WaitSignal() {
    signal_.expires_at(net::steady_timer::time_point::max());
    co_await signal_.async_wait(kNoThrow);
  }
  void Notify() { signal_.cancel(); }
  bool Interrupted() const { return stopping_ || peer_gone_; }
  void LogError(std::string_view what, const beast::error_code& ec) {
    context_->log().debug("connection {}: {}: {}", remote_, what, ec.message());
  }

  AsyncStream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<ServerContext> context_;
  uint64_t id_ = 0;
  std::string remote_;
  // Wakes the coroutine waiting in WaitSignal(); every flag below is read and written on the
  // strand only, and checked before each wait, so no notification is lost.
  net::steady_timer signal_;
  net::steady_timer deadline_;  // the stream_timeout of the open stream
  uint64_t stream_generation_ = 0;
  bool stopping_ = false;
  bool wake_pending_ = false;
  bool timed_out_ = false;
  bool peer_gone_ = false;
  bool watch_stop_ = false;
  bool watch_done_ = true;
};

template <class Owner>
void Waker<Owner>::Wake() {
  MutexLock lock(&mu_);
  if (!strand_) return;
  net::post(strand_, [connection = connection_] {
    if (auto c = connection.lock()) c->OnWake();
  });
}

template <class AsyncStream>
net::awaitable<void> Connection<AsyncStream>::Run(std::shared_ptr<Connection> self) {
  beast::error_code ec;
  const tcp::endpoint remote = self->Socket().socket().remote_endpoint(ec);
  self->remote_ = FormatEndpoint(remote.address().to_string(), remote.port());
  try {
    if (co_await self->Handshake()) {
      while (!self->stopping_ && co_await self->ServeOne()) {
      }
    }
  } catch (const std::exception& e) {
    self->context_->log().debug("connection {}: {}", self->remote_, e.what());
  }
  self->Socket().close();
  self->context_->Remove(self->id_);
}

// The TLS handshake, bounded like a request by the idle timeout; nothing to do over plain TCP.
// A client that fails it (plain HTTP, or a CA that does not trust us) is only logged: there is
// no channel to answer it on.
template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::Handshake() {
  if constexpr (std::is_same_v<AsyncStream, TlsStream>) {
    Socket().expires_after(context_->options().idle_timeout);
    auto [ec] = co_await stream_.async_handshake(net::ssl::stream_base::server, kNoThrow);
    if (ec) {
      LogError("TLS handshake", ec);
      co_return false;
    }
  }
  co_return true;
}

template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::ServeOne() {
  const HttpServerOptions& options = context_->options();
  http::request_parser<http::string_body> parser;
  parser.body_limit(static_cast<std::uint64_t>(options.max_body_bytes));
  parser.header_limit(static_cast<std::uint32_t>(
      std::min<std::size_t>(options.max_header_bytes, std::numeric_limits<std::uint32_t>::max())));
  Socket().expires_after(options.idle_timeout);
  auto [ec, unused] = co_await http::async_read_header(stream_, buffer_, parser, kNoThrow);
  if (!ec && beast::iequals(parser.get()[http::field::expect], "100-continue")) {
    http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
    std::tie(ec, unused) = co_await http::async_write(stream_, go_on, kNoThrow);
  }
  if (!ec && !parser.is_done()) {
    std::tie(ec, unused) = co_await http::async_read(stream_, buffer_, parser, kNoThrow);
  }
  if (ec) co_return co_await ReadFailed(ec);

  http::request<http::string_body>& message = parser.get();
  HttpRequest request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  for (const auto& field : message) {
    request.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  request.body = std::move(message.body());
  request.remote = remote_;
  const bool keep_alive = message.keep_alive();
  const unsigned version = message.version();

  const std::string method = request.method;
  HttpResponse response = co_await CallOffStrand(std::move(request));
  if (response.stream) co_return co_await Stream(std::move(response), keep_alive, version);
  co_return co_await Respond(std::move(response), method == "HEAD", keep_alive, version);
}

// The handler runs on a handler pool (ServerContext::RunHandler) while this coroutine waits on
// the strand for its answer, the request deadline, or the server's stop, whichever comes first.
// Past the deadline the client gets 504 and the call's answer, when it comes, is dropped (a
// stream in it cancelled), as kube-apiserver's timeout filter drops a late handler's.
template <class AsyncStream>
net::awaitable<HttpResponse> Connection<AsyncStream>::CallOffStrand(HttpRequest request) {
  auto call = std::make_shared<PendingCall>();
  call->request = std::move(request);
  const bool read = IsReadMethod(call->request.method);
  context_->RunHandler(read, [self = this->shared_from_this(), call] {
    // A deferred answer is released on another thread, possibly after the server stopped: it
    // holds the connection weakly, so that it never keeps a socket alive past its io_context (the
    // coroutine waiting in CallOffStrand holds the connection while an answer can still arrive).
    auto answer = [weak = std::weak_ptr(self), context = self->context_,
                   call](HttpResponse response) {
      context->PostAnswer([&] {
        auto self = weak.lock();
        if (self == nullptr) return;  // the connection is gone: nobody to answer
        net::post(self->executor(), [self, call, response = std::move(response)]() mutable {
          if (call->abandoned) {
            if (response.stream) CancelStream(*response.stream, self->context_->log());
            return;
          }
          call->response = std::move(response);
          call->done = true;
          self->Notify();
        });
      });
    };
    DeferredAck deferred;  // a durable write answers once flushed, without holding this thread
    HttpResponse response = self->CallHandler(call->request);
    DeferredAck::Waiter waiter = deferred.Take();
    if (!waiter) return answer(std::move(response));
    waiter([answer, response = std::move(response)](Status durable) mutable {
      answer(durable.ok() ? std::move(response) : InternalErrorResponse(durable.message()));
    });
  });
  const std::chrono::milliseconds timeout = context_->options().request_timeout;
  const auto deadline = timeout.count() > 0 ? std::chrono::steady_clock::now() + timeout
                                            : net::steady_timer::time_point::max();
  bool expired = false;
  while (!call->done && !stopping_ && !expired) {
    signal_.expires_at(deadline);
    auto [ec] = co_await signal_.async_wait(kNoThrow);
    expired = !ec;  // the timer ran out; a cancel is Notify()
  }
  if (call->done) co_return std::move(call->response);
  call->abandoned = true;
  if (stopping_) co_return ShuttingDownResponse();
  context_->log().warn("{} {} from {}: no answer within {} ms, answered 504 (the handler runs on)",
                       call->request.method, call->request.target, remote_, timeout.count());
  co_return RequestTimeoutResponse();
}

template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::ReadFailed(beast::error_code ec) {
  if (stopping_ || ec == http::error::end_of_stream) co_return false;
  if (ec == http::error::body_limit) {
    co_return co_await Refuse(BodyTooLargeResponse(context_->options().max_body_bytes));
  }
  if (ec == http::error::header_limit) {
    co_return co_await Refuse(HeaderTooLargeResponse(context_->options().max_header_bytes));
  }
  const bool parse_error =
      ec.category() == http::make_error_code(http::error::bad_method).category() &&
      ec != http::error::partial_message;
  LogError("read", ec);
  if (parse_error) co_return co_await Refuse(MalformedRequestResponse(ec.message()));
  co_return false;
}

template <class AsyncStream>
HttpResponse Connection<AsyncStream>::CallHandler(const HttpRequest& request) {
  std::string what;
  try {
    return context_->Handle(request);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "unknown exception";
  }
  context_->log().error("handler failed on {} {}: {}", request.method, request.target, what);
  return InternalErrorResponse(what);
}

template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::Respond(HttpResponse response, bool head,
                                                      bool keep_alive, unsigned version) {
  if (!ValidStatusCode(response.status)) response = InvalidStatusResponse(response.status);
  http::response<http::string_body> message;
  message.version(version);
  message.result(static_cast<unsigned>(response.status));
  for (const auto& [name, value] : response.headers.fields) {
    if (!IsTransportHeader(name)) message.insert(name, value);
  }
  message.keep_alive(keep_alive);
  if (StatusHasBody(response.status)) {
    message.content_length(response.body.size());
    if (!head) message.body() = std::move(response.body);
  }
  Socket().expires_after(context_->options().idle_timeout);
  auto [ec, unused] = co_await http::async_write(stream_, message, kNoThrow);
  if (ec) {
    LogError("write", ec);
    co_return false;
  }
  co_return keep_alive;
}

// Answers a request the transport rejected and closes the connection. The client may still be
// sending (a body over the limit): reading on for a moment after the answer keeps the kernel
// from resetting the connection before the client has read it.
template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::Refuse(HttpResponse response) {
  if (!co_await Respond(std::move(response), false, false, 11)) co_return false;
  beast::error_code ec;
  Socket().socket().shutdown(tcp::socket::shutdown_send, ec);
  Socket().expires_after(kLingerTime);
  char discard[kReadChunkBytes];
  while (!ec && !stopping_) {
    std::tie(ec, std::ignore) = co_await stream_.async_read_some(net::buffer(discard), kNoThrow);
  }
  co_return false;
}

template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::Stream(HttpResponse response, bool keep_alive,
                                                     unsigned version) {
  if (!context_->TryOpenStream()) {
    CancelStream(*response.stream, context_->log());
    co_return co_await Respond(TooManyStreamsResponse(context_->options().max_streams), false,
                               keep_alive, version);
  }
  StreamSession session(*this, std::move(response.stream));
  if (!ValidStatusCode(response.status)) response.status = 500;
  const bool chunked = version >= 11;  // HTTP/1.0 has no chunks: the body ends at close
  http::response<http::empty_body> head;
  head.version(version);
  head.result(static_cast<unsigned>(response.status));
  for (const auto& [name, value] : response.headers.fields) {
    if (!IsTransportHeader(name)) head.insert(name, value);
  }
  head.keep_alive(keep_alive && chunked);
  head.chunked(chunked);
  Socket().expires_never();
  http::response_serializer<http::empty_body> serializer(head);
  auto [ec, unused] = co_await http::async_write_header(stream_, serializer, kNoThrow);
  if (ec) {
    LogError("write", ec);
    co_return false;
  }

  ++stream_generation_;
  wake_pending_ = true;  // Next once at start
  timed_out_ = peer_gone_ = watch_stop_ = watch_done_ = false;
  net::co_spawn(executor(), WatchPeer(this->shared_from_this()), net::detached);
  session.stream->Start([waker = session.waker] { waker->Wake(); });
  if (response.stream_timeout) StartDeadline(*response.stream_timeout);

  const bool ok = co_await Drain(session, chunked);
  watch_stop_ = true;
  beast::error_code ignored;
  Socket().socket().cancel(ignored);
  while (!watch_done_) co_await WaitSignal();
  co_return ok && !Interrupted() && keep_alive && chunked;
}

// Calls Next whenever woken and writes what it returns until the stream finishes, times out,
// the client leaves or the server stops. Returns whether the stream ended cleanly.
template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::Drain(StreamSession& session, bool chunked) {
  std::string out;
  bool more = true;
  while (more) {
    if (Interrupted()) co_return false;
    if (timed_out_) {
      CancelStream(*session.stream, context_->log());
      more = false;
    } else if (wake_pending_) {
      wake_pending_ = false;
      more = session.stream->Next(&out);
    }
    if (!more) session.Finish();
    if (!out.empty()) {
      if (!co_await WriteBody(out, chunked)) co_return false;
      out.clear();
    }
    if (more && !wake_pending_ && !timed_out_ && !Interrupted()) co_await WaitSignal();
  }
  if (!chunked) co_return true;
  auto [ec, unused] = co_await net::async_write(stream_, http::make_chunk_last(), kNoThrow);
  if (ec) LogError("write", ec);
  co_return !ec;
}

template <class AsyncStream>
net::awaitable<bool> Connection<AsyncStream>::WriteBody(const std::string& data, bool chunked) {
  beast::error_code ec;
  if (chunked) {
    std::tie(ec, std::ignore) =
        co_await net::async_write(stream_, http::make_chunk(net::buffer(data)), kNoThrow);
  } else {
    std::tie(ec, std::ignore) = co_await net::async_write(stream_, net::buffer(data), kNoThrow);
  }
  if (ec) LogError("write", ec);
  co_return !ec;
}

// Reads while a stream is open: the read completing with an error means the client is gone.
// Bytes that do arrive (a pipelined request) stay in buffer_ for the next ServeOne.
template <class AsyncStream>
net::awaitable<void> Connection<AsyncStream>::WatchPeer(std::shared_ptr<Connection> self) {
  while (!self->watch_stop_ && self->buffer_.size() < kMaxPipelinedBytes) {
    auto [ec, n] =
        co_await self->stream_.async_read_some(self->buffer_.prepare(kReadChunkBytes), kNoThrow);
    self->buffer_.commit(n);
    if (ec) {
      if (!self->watch_stop_) {
        self->peer_gone_ = true;
        self->LogError("stream read", ec);
      }
      break;
    }
  }
  self->watch_done_ = true;
  self->Notify();
}

template <class AsyncStream>
void Connection<AsyncStream>::StartDeadline(std::chrono::milliseconds timeout) {
  deadline_.expires_after(timeout);
  deadline_.async_wait([weak = this->weak_from_this(),
                        generation = stream_generation_](const beast::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->stream_generation_ != generation) return;
    self->timed_out_ = true;
    self->Notify();
  });
}

template <class AsyncStream>
void Spawn(std::shared_ptr<Connection<AsyncStream>> connection) {
  const std::optional<uint64_t> id = connection->context()->Add(connection);
  if (!id) return;  // stopping: the socket closes with the connection
  connection->set_id(*id);
  net::co_spawn(connection->executor(), Connection<AsyncStream>::Run(connection), net::detached);
}

}  // namespace

void ServeConnection(net::io_context& io, int native_socket, bool ipv6,
                     std::shared_ptr<ServerContext> context, net::ssl::context* tls) {
  tcp::socket socket(net::make_strand(io));
  beast::error_code ec;
  socket.assign(ipv6 ? tcp::v6() : tcp::v4(), native_socket, ec);
  if (ec) {
    ::close(native_socket);
    context->log().debug("connection: {}", ec.message());
    return;
  }
  if (tls != nullptr) {
    Spawn(std::make_shared<Connection<TlsStream>>(TlsStream(std::move(socket), *tls), context));
  } else {
    Spawn(std::make_shared<Connection<PlainStream>>(PlainStream(std::move(socket)), context));
  }
}

}  // namespace lws::transport::internal
