// File: transport/http_server.cc
//
// HttpServer's lifecycle: the io_context and the I/O threads that run it, the listening socket,
// the periodic tick, and an orderly stop. Serving an accepted connection is
// http_connection.cc's business.
//
// Stop() never forces the io_context: it closes the listening socket, shuts every connection
// down (which cancels their streams), releases the work guard and joins the threads, which
// return once the connections' coroutines have unwound. No handler or coroutine frame is
// abandoned half way, and no strand outlives the io_context.
#include "transport/http_server.h"

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <thread>
#include <utility>
#include <vector>

#include "base/log.h"
#include "base/mutex.h"
#include "transport/http_connection.h"
#include "transport/http_server_util.h"

namespace lws::transport {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace internal {

ServerContext::ServerContext(HttpServerOptions options, HttpHandler handler)
    : options_(std::move(options)), handler_(std::move(handler)), log_(Logger("http")) {}

bool ServerContext::TryOpenStream() {
  if (open_streams_.fetch_add(1) < options_.max_streams) return true;
  open_streams_.fetch_sub(1);
  return false;
}

std::optional<uint64_t> ServerContext::Add(std::weak_ptr<ConnectionHandle> connection) {
  MutexLock lock(&mu_);
  if (stopping_) return std::nullopt;
  const uint64_t id = next_id_++;
  connections_.emplace(id, std::move(connection));
  return id;
}

void ServerContext::Remove(uint64_t id) {
  MutexLock lock(&mu_);
  connections_.erase(id);
}

void ServerContext::ShutdownAll() {
  std::vector<std::shared_ptr<ConnectionHandle>> live;
  {
    MutexLock lock(&mu_);
    stopping_ = true;
    for (const auto& [id, weak] : connections_) {
      if (auto connection = weak.lock()) live.push_back(std::move(connection));
    }
  }
  for (const auto& connection : live) connection->Shutdown();
}

void ServerContext::PostAnswer(const std::function<void()>& post) {
  MutexLock lock(&post_mu_);
  if (!posts_closed_) post();
}

void ServerContext::ClosePosts() {
  MutexLock lock(&post_mu_);
  posts_closed_ = true;
}

}  // namespace internal

struct HttpServer::Impl {
  Impl(HttpServerOptions options, HttpHandler handler)
      : context(std::make_shared<internal::ServerContext>(std::move(options), std::move(handler))),
        work(io.get_executor()),
        strand(net::make_strand(io)),
        acceptor(strand),
        backoff(strand),
        tick_timer(strand) {}

  const HttpServerOptions& options() const { return context->options(); }
  Status Listen();
  void Accept();
  void ArmTick();

  // The SSL context new connections get (SetTls replaces it).
  net::ssl::context* CurrentTls() {
    MutexLock lock(&tls_mu);
    return tls.get();
  }

  std::shared_ptr<internal::ServerContext> context;
  // Declared before `io`: the connections' SSL streams, destroyed with the io_context at the
  // latest, are made from them. Replaced contexts are kept until then too, since connections
  // accepted under one may still be open.
  Mutex tls_mu;
  std::shared_ptr<net::ssl::context> tls GUARDED_BY(tls_mu);  // null: plain HTTP
  std::vector<std::shared_ptr<net::ssl::context>> replaced_tls GUARDED_BY(tls_mu);
  net::io_context io;
  net::executor_work_guard<net::io_context::executor_type> work;
  // The listening socket and the tick share one strand; Stop posts their end onto it.
  net::strand<net::io_context::executor_type> strand;
  tcp::acceptor acceptor;
  net::steady_timer backoff;  // after a failed accept
  net::steady_timer tick_timer;
  bool stopping = false;  // on the strand
  uint16_t port = 0;
  bool ipv6 = false;
  std::vector<std::thread> threads;
  // Handlers run here, not on the I/O threads (HttpServerOptions::handler_threads); their
  // answers are posted back to their connection's strand. Joined before the I/O threads, so
  // that every answer finds the io_context running.
  std::unique_ptr<net::thread_pool> readers;
  std::unique_ptr<net::thread_pool> writers;
  Mutex stop_mu;
  bool stopped GUARDED_BY(stop_mu) = false;
};

Status HttpServer::Impl::Listen() {
  const std::string where = options().bind_address + ":" + std::to_string(options().port);
  boost::system::error_code ec;
  const net::ip::address address = net::ip::make_address(options().bind_address, ec);
  if (ec) return Status::BadRequest("invalid listen address " + where + ": " + ec.message());
  const tcp::endpoint endpoint(address, options().port);
  auto failed = [&](std::string_view step) {
    return Status::Internal(std::string(step) + " " + where + ": " + ec.message());
  };
  if (acceptor.open(endpoint.protocol(), ec); ec) return failed("open a socket for");
  // SO_REUSEADDR only lets a restarted server reuse a port whose old connections linger in
  // TIME_WAIT. Never SO_REUSEPORT: it lets a second process listen on the same port and take a
  // share of the connections, so a stale server would silently answer some requests.
  if (acceptor.set_option(net::socket_base::reuse_address(true), ec); ec) return failed("set up");
  if (acceptor.bind(endpoint, ec); ec == boost::system::errc::address_in_use) {
    return Status(Code::kAlreadyExists,
                  where + " is already in use by another process (ss -ltnp 'sport = :" +
                      std::to_string(options().port) +
                      "' shows which); stop it or choose another port");
  } else if (ec) {
    return failed("bind");
  }
  if (acceptor.listen(net::socket_base::max_listen_connections, ec); ec) return failed("listen on");
  const tcp::endpoint bound = acceptor.local_endpoint(ec);
  if (ec) return failed("read the port of");
  port = bound.port();
  ipv6 = address.is_v6();
  return Status::Ok();
}

void HttpServer::Impl::Accept() {
  acceptor.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    if (stopping) return;
    if (ec) {
      // Out of descriptors and the like: wait a little instead of spinning.
      context->log().debug("accept: {}", ec.message());
      backoff.expires_after(std::chrono::milliseconds(50));
      backoff.async_wait([this](const boost::system::error_code&) {
        if (!stopping) Accept();
      });
      return;
    }
    // Answers are written in several small pieces (TLS records, header then body); with Nagle
    // on, the last piece waits for the client's delayed ACK, about 40 ms on Linux.
    boost::system::error_code nodelay_error;
    socket.set_option(tcp::no_delay(true), nodelay_error);
    // The socket changes hands as its descriptor: http_connection.h names no Asio type.
    boost::system::error_code release_error;
    const int native = socket.release(release_error);
    if (release_error) {
      context->log().debug("accept: {}", release_error.message());
    } else {
      internal::ServeConnection(io, native, ipv6, context, CurrentTls());
    }
    Accept();
  });
}

void HttpServer::Impl::ArmTick() {
  tick_timer.expires_after(options().tick_interval);
  tick_timer.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping) return;
    try {
      options().tick();
    } catch (const std::exception& e) {
      context->log().error("tick failed: {}", e.what());
    } catch (...) {
      context->log().error("tick failed: unknown exception");
    }
    ArmTick();
  });
}

// Not analysed: it sets and reads impl->tls without tls_mu, as nothing can call SetTls (the
// only other writer) before Start returns the server.
Result<std::unique_ptr<HttpServer>> HttpServer::Start(
    HttpServerOptions options, HttpHandler handler) NO_THREAD_SAFETY_ANALYSIS {
  auto impl = std::make_unique<Impl>(std::move(options), std::move(handler));
  if (impl->options().tls) {
    ASSIGN_OR_RETURN(impl->tls, internal::MakeTlsContext(*impl->options().tls));
  }
  RETURN_IF_ERROR(impl->Listen());
  const int threads = std::max(1, impl->options().threads);
  const int handler_threads =
      impl->options().handler_threads > 0 ? impl->options().handler_threads : threads;
  impl->readers = std::make_unique<net::thread_pool>(handler_threads);
  impl->writers = std::make_unique<net::thread_pool>(handler_threads);
  impl->context->set_dispatch([impl = impl.get()](bool read, std::function<void()> call) {
    net::post(read ? *impl->readers : *impl->writers, std::move(call));
  });
  net::post(impl->strand, [impl = impl.get()] {
    impl->Accept();
    if (impl->options().tick_interval.count() > 0 && impl->options().tick) impl->ArmTick();
  });
  for (int i = 0; i < threads; ++i) {
    impl->threads.emplace_back([io = &impl->io] { io->run(); });
  }
  impl->context->log().debug("serving {} on {}", impl->tls ? "HTTPS" : "HTTP",
                             internal::FormatEndpoint(impl->options().bind_address, impl->port));
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() { Stop(); }

uint16_t HttpServer::port() const { return impl_->port; }

std::string HttpServer::address() const {
  return internal::FormatEndpoint(impl_->options().bind_address, impl_->port);
}

Status HttpServer::SetTls(const HttpTlsOptions& tls) {
  if (impl_->CurrentTls() == nullptr) {
    return Status::BadRequest("TLS: the server on " + address() + " speaks plain HTTP");
  }
  ASSIGN_OR_RETURN(std::shared_ptr<net::ssl::context> context, internal::MakeTlsContext(tls));
  MutexLock lock(&impl_->tls_mu);
  impl_->replaced_tls.push_back(std::move(impl_->tls));
  impl_->tls = std::move(context);
  return Status::Ok();
}

void HttpServer::Stop() {
  MutexLock lock(&impl_->stop_mu);
  if (impl_->stopped) return;
  impl_->stopped = true;
  net::post(impl_->strand, [impl = impl_.get()] {
    impl->stopping = true;
    boost::system::error_code ignored;
    impl->acceptor.close(ignored);
    impl->backoff.cancel();
    impl->tick_timer.cancel();
  });
  impl_->context->ShutdownAll();
  // A handler still running holds up the stop until it returns (the CLI bounds the whole
  // shutdown, cli/serve.h); its answer goes nowhere, its connection is closed.
  impl_->readers->join();
  impl_->writers->join();
  impl_->context->ClosePosts();  // answers released later (deferred acks) go nowhere
  impl_->work.reset();
  for (std::thread& thread : impl_->threads) thread.join();
  impl_->threads.clear();
}

}  // namespace lws::transport
