// File: bench/http_load.cc
#include "http_load.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <cstring>
#include <exception>
#include <filesystem>
#include <utility>

namespace lws::bench {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

Status TransportError(std::string_view what, const beast::error_code& ec) {
  return Status::Internal(std::string(what) + ": " + ec.message());
}

// Counts the lines of a de-chunked watch body by their start: each line is one event and a
// serialised object never contains a raw newline. Only the first bytes of a line are kept.
class LineCounter {
 public:
  explicit LineCounter(WatchCount* count) : count_(count) {}

  void Feed(std::string_view data) {
    while (!data.empty()) {
      const void* nl = std::memchr(data.data(), '\n', data.size());
      const std::size_t end = nl ? static_cast<const char*>(nl) - data.data() : data.size();
      if (head_.size() < kHeadBytes) {
        head_.append(data.substr(0, std::min(end, kHeadBytes - head_.size())));
      }
      if (!nl) return;
      EndLine();
      data.remove_prefix(end + 1);
    }
  }

 private:
  static constexpr std::size_t kHeadBytes = 120;

  void EndLine() {
    if (head_.starts_with(R"({"type":"ADDED",)")) {
      ++count_->added;
    } else {
      if (count_->other++ == 0) count_->first_other = head_;
    }
    head_.clear();
  }

  WatchCount* count_;
  std::string head_;
};

Status Connect(net::io_context& io, uint16_t port, beast::tcp_stream* stream) {
  beast::error_code ec;
  stream->socket().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return TransportError("connect to 127.0.0.1:" + std::to_string(port), ec);
  stream->socket().set_option(tcp::no_delay(true), ec);
  return Status::Ok();
}

}  // namespace

// ---------------------------------------------------------------------------- ServerUnderTest

Result<std::unique_ptr<ServerUnderTest>> ServerUnderTest::Start(const std::string& data_dir) {
  std::unique_ptr<ServerUnderTest> s(new ServerUnderTest());
  store::StoreOptions store_options;
  store_options.clock = &s->clock_;
  store_options.data_dir = data_dir;
  if (!data_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(data_dir, ec);
  }
  ASSIGN_OR_RETURN(s->store_, store::Store::Open(store_options));
  apiserver::ApiServerOptions api_options;
  api_options.store = s->store_.get();
  api_options.clock = &s->clock_;
  ASSIGN_OR_RETURN(s->api_, apiserver::ApiServer::Create(std::move(api_options)));
  apiserver::ApiServer* api = s->api_.get();
  ASSIGN_OR_RETURN(s->http_,
                   transport::HttpServer::Start(
                       {}, [api](const transport::HttpRequest& r) { return api->Handle(r); }));
  return s;
}

ServerUnderTest::~ServerUnderTest() {
  if (http_) http_->Stop();
}

// ----------------------------------------------------------------------------- HttpConnection

struct HttpConnection::Impl {
  net::io_context io;
  beast::tcp_stream stream{io};
  beast::flat_buffer buffer;
  http::request<http::string_body> request;
};

HttpConnection::HttpConnection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpConnection::~HttpConnection() {
  beast::error_code ec;
  impl_->stream.socket().shutdown(tcp::socket::shutdown_both, ec);
}

Result<std::unique_ptr<HttpConnection>> HttpConnection::Open(uint16_t port) {
  auto impl = std::make_unique<Impl>();
  RETURN_IF_ERROR(Connect(impl->io, port, &impl->stream));
  impl->request.version(11);
  impl->request.keep_alive(true);
  impl->request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  impl->request.set(http::field::accept, "application/json");
  return std::unique_ptr<HttpConnection>(new HttpConnection(std::move(impl)));
}

Result<int> HttpConnection::Send(std::string_view method, std::string_view target,
                                 std::string_view body, std::string* response_body) {
  Impl& c = *impl_;
  c.request.method_string(method);
  c.request.target(target);
  if (body.empty()) {
    c.request.erase(http::field::content_type);
  } else {
    c.request.set(http::field::content_type, "application/json");
  }
  c.request.body().assign(body.data(), body.size());
  c.request.prepare_payload();
  beast::error_code ec;
  http::write(c.stream, c.request, ec);
  if (ec) return TransportError("write", ec);
  http::response_parser<http::string_body> parser;
  parser.body_limit(boost::none);  // a LIST of 10,000 pods is ~25 MB
  http::read(c.stream, c.buffer, parser, ec);
  if (ec) return TransportError("read", ec);
  if (!parser.get().keep_alive()) return Status::Internal("the server closed the connection");
  *response_body = std::move(parser.get().body());
  return static_cast<int>(parser.get().result_int());
}

// -------------------------------------------------------------------------------- WatchFanout

namespace {

// One watch stream: its socket, its parser (which de-chunks) and what it has counted.
struct WatchReader {
  explicit WatchReader(net::io_context& io) : stream(io), counter(&count) {
    parser.body_limit(boost::none);
    on_chunk = [this](std::uint64_t, std::string_view body, beast::error_code&) {
      counter.Feed(body);
      bytes += body.size();
      return body.size();
    };
    parser.on_chunk_body(on_chunk);
  }

  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  http::response_parser<http::empty_body> parser;
  std::function<std::size_t(std::uint64_t, std::string_view, beast::error_code&)> on_chunk;
  WatchCount count;
  LineCounter counter;
  std::uint64_t bytes = 0;
  bool finished = false;
};

}  // namespace

struct WatchFanout::Impl {
  net::io_context io;
  std::vector<std::unique_ptr<WatchReader>> readers;
  std::vector<WatchCount> counts;
  std::string failure;  // the first failure of any stream

  void ReadMore(WatchReader& r, std::int64_t events, int* open, net::steady_timer* timer) {
    http::async_read_some(r.stream, r.buffer, r.parser,
                          [this, &r, events, open, timer](beast::error_code ec, std::size_t) {
                            const bool ended = r.parser.is_done();
                            if (!ec && !ended && r.count.other == 0 && r.count.added < events) {
                              ReadMore(r, events, open, timer);
                              return;
                            }
                            if (!ec && ended && failure.empty() && r.count.added < events) {
                              failure = "a watch stream ended after " +
                                        std::to_string(r.count.added) + " events";
                            }
                            if (ec && failure.empty() && r.count.added < events) {
                              failure = "a watch stream failed after " +
                                        std::to_string(r.count.added) + " events: " + ec.message();
                            }
                            r.finished = true;
                            if (--*open == 0) timer->cancel();
                          });
  }
};

WatchFanout::WatchFanout(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WatchFanout::~WatchFanout() {
  for (auto& r : impl_->readers) {
    beast::error_code ec;
    r->stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  }
}

Result<std::unique_ptr<WatchFanout>> WatchFanout::Open(uint16_t port, const std::string& target,
                                                       int watchers) {
  auto impl = std::make_unique<Impl>();
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  request.set(http::field::accept, "application/json");
  request.keep_alive(true);
  for (int i = 0; i < watchers; ++i) {
    auto reader = std::make_unique<WatchReader>(impl->io);
    RETURN_IF_ERROR(Connect(impl->io, port, &reader->stream));
    beast::error_code ec;
    http::write(reader->stream, request, ec);
    if (ec) return TransportError("write watch request", ec);
    http::read_header(reader->stream, reader->buffer, reader->parser, ec);
    if (ec) return TransportError("read watch headers", ec);
    const auto& head = reader->parser.get();
    if (head.result() != http::status::ok || !reader->parser.chunked()) {
      return Status::Internal("watch " + target + " answered " + std::to_string(head.result_int()) +
                              (reader->parser.chunked() ? "" : " without chunked encoding"));
    }
    impl->readers.push_back(std::move(reader));
  }
  return std::unique_ptr<WatchFanout>(new WatchFanout(std::move(impl)));
}

Status WatchFanout::ReadUntil(std::int64_t events, std::chrono::seconds timeout) {
  Impl& f = *impl_;
  int open = static_cast<int>(f.readers.size());
  net::steady_timer timer(f.io, timeout);
  timer.async_wait([&f](beast::error_code ec) {
    if (ec) return;  // cancelled: every stream finished in time
    if (f.failure.empty()) f.failure = "timed out";
    for (auto& r : f.readers) r->stream.socket().cancel();
  });
  for (auto& r : f.readers) f.ReadMore(*r, events, &open, &timer);
  try {
    f.io.run();
  } catch (const std::exception& e) {
    return Status::Internal(std::string("watch reader: ") + e.what());
  }
  f.io.restart();
  f.counts.clear();
  for (const auto& r : f.readers) f.counts.push_back(r->count);
  for (std::size_t i = 0; i < f.counts.size(); ++i) {
    const WatchCount& c = f.counts[i];
    if (c.other > 0) {
      return Status::Internal("watcher " + std::to_string(i) +
                              " received an unexpected event: " + c.first_other);
    }
    if (c.added != events) {
      return Status::Internal("watcher " + std::to_string(i) + " received " +
                              std::to_string(c.added) + " of " + std::to_string(events) +
                              " events" + (f.failure.empty() ? "" : " (" + f.failure + ")"));
    }
  }
  return Status::Ok();
}

const std::vector<WatchCount>& WatchFanout::counts() const { return impl_->counts; }

std::uint64_t WatchFanout::body_bytes() const {
  std::uint64_t total = 0;
  for (const auto& r : impl_->readers) total += r->bytes;
  return total;
}

}  // namespace lws::bench
