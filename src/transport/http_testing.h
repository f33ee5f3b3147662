// File: transport/http_testing.h
//
// For tests of the HTTP transport over real loopback sockets: a small synchronous Beast
// client, a watchdog that turns a hung test into an abort, and a bounded poll. Waits are
// bounded only to turn a hang into a failure; nothing measures how fast the server is.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace lws::transport::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Response = http::response<http::string_body>;
using namespace std::chrono_literals;

constexpr auto kPatience = 20s;

// Polls `condition` until it holds or kPatience passes.
inline bool Eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// Aborts the test binary when a test runs for a minute: the blocking client below would
// otherwise wait forever for a server that never answers.
class Watchdog {
 public:
  Watchdog()
      : thread_([this] {
          std::unique_lock lock(mu_);
          if (!cv_.wait_for(lock, 60s, [this] { return done_; })) {
            std::fprintf(stderr, "http_server_test: hung for 60 s\n");
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

class Client {
 public:
  explicit Client(uint16_t port) : socket_(io_) {
    socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  }

  Response Send(http::request<http::string_body> request) {
    http::write(socket_, request);
    return Read();
  }
  Response Get(const std::string& target) { return Send(Request(http::verb::get, target)); }
  Response Read() {
    http::response_parser<http::string_body> parser;
    parser.body_limit(boost::none);
    http::read(socket_, buffer_, parser);
    return parser.release();
  }
  void WriteRaw(std::string_view bytes) { net::write(socket_, net::buffer(bytes)); }
  // True when the server has closed the connection (nothing more to read).
  bool ServerClosed() {
    char byte;
    beast::error_code ec;
    socket_.read_some(net::buffer(&byte, 1), ec);
    return ec == net::error::eof || ec == net::error::connection_reset;
  }
  void Close() { socket_.close(); }

  static http::request<http::string_body> Request(http::verb verb, const std::string& target,
                                                  std::string body = "") {
    http::request<http::string_body> request{verb, target, 11};
    request.set(http::field::host, "localhost");
    request.body() = std::move(body);
    request.prepare_payload();
    return request;
  }

  tcp::socket& socket() { return socket_; }
  beast::flat_buffer& buffer() { return buffer_; }

 private:
  net::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

}  // namespace lws::transport::testing
