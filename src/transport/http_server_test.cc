// Tests of the HTTP transport over real loopback sockets (http_testing.h's client).
#include "transport/http_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>
#include <vector>

#include "transport/http_testing.h"

namespace lws::transport {
namespace {

using namespace testing;  // NOLINT: the transport tests' client and waits
using Json = nlohmann::json;

// A stream the test feeds from its own thread.
class TestStream : public ResponseStream {
 public:
  void Start(std::function<void()> wake) override {
    std::lock_guard lock(mu_);
    wake_ = std::move(wake);
  }
  bool Next(std::string* out) override {
    std::lock_guard lock(mu_);
    *out += pending_;
    pending_.clear();
    return !finished_;
  }
  void Cancel() override { cancel_calls_.fetch_add(1); }

  // Queues `text` and wakes the transport; `last` finishes the stream.
  void Emit(const std::string& text, bool last = false) {
    std::function<void()> wake;
    {
      std::lock_guard lock(mu_);
      pending_ += text;
      finished_ = finished_ || last;
      wake = wake_;
    }
    if (wake) wake();
  }
  bool started() {
    std::lock_guard lock(mu_);
    return wake_ != nullptr;
  }
  int cancel_calls() const { return cancel_calls_.load(); }

 private:
  std::mutex mu_;
  std::function<void()> wake_;
  std::string pending_;
  bool finished_ = false;
  std::atomic<int> cancel_calls_{0};
};

Json StatusBody(const Response& response) {
  EXPECT_EQ(response[http::field::content_type], "application/json");
  return Json::parse(response.body());
}

class HttpServerTest : public ::testing::Test {
 protected:
  void StartServer(HttpServerOptions options = {}) {
    auto started = HttpServer::Start(
        std::move(options), [this](const HttpRequest& request) { return Handle(request); });
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    server_ = std::move(started).value();
  }

  // /echo: the request back; /throw: an exception; /block: the echo once OpenGate(); /watch: a
  // TestStream (?timeout=MS sets stream_timeout).
  HttpResponse Handle(const HttpRequest& request) {
    HttpResponse response;
    if (request.target.starts_with("/throw")) throw std::runtime_error("boom");
    if (request.target.starts_with("/block")) WaitForGate();
    if (request.target.starts_with("/watch")) {
      auto stream = std::make_shared<TestStream>();
      {
        std::lock_guard lock(mu_);
        streams_.push_back(stream);
      }
      response.stream = stream;
      response.headers.Add("Content-Type", "application/json");
      const std::size_t timeout_at = request.target.find("timeout=");
      if (timeout_at != std::string::npos) {
        response.stream_timeout =
            std::chrono::milliseconds(std::stoi(request.target.substr(timeout_at + 8)));
      }
      return response;
    }
    response.headers.Add("Content-Type", "text/plain");
    response.headers.Add("X-Remote", request.remote);
    response.headers.Add("X-Foo", request.headers.Get("x-foo"));
    response.headers.Add("Content-Length", "999");  // the transport's own: must be dropped
    response.body = request.method + " " + request.target + "\n" + request.body;
    return response;
  }

  // The index-th stream the handler made, once the transport has started it.
  std::shared_ptr<TestStream> StartedStream(std::size_t index) {
    std::shared_ptr<TestStream> stream;
    EXPECT_TRUE(Eventually([&] {
      std::lock_guard lock(mu_);
      if (streams_.size() <= index || !streams_[index]->started()) return false;
      stream = streams_[index];
      return true;
    }));
    return stream;
  }

  void TearDown() override { OpenGate(); }  // a /block handler still running must return

  void WaitForGate() {
    std::unique_lock lock(gate_mu_);
    ++blocked_;
    gate_cv_.notify_all();
    gate_cv_.wait(lock, [this] { return gate_open_; });
  }
  void OpenGate() {
    std::lock_guard lock(gate_mu_);
    gate_open_ = true;
    gate_cv_.notify_all();
  }
  // Waits until `n` /block handlers are (or were) blocked.
  bool Blocked(int n) {
    std::unique_lock lock(gate_mu_);
    return gate_cv_.wait_for(lock, kPatience, [&] { return blocked_ >= n; });
  }

  Watchdog watchdog_;
  std::mutex gate_mu_;
  std::condition_variable gate_cv_;
  bool gate_open_ = false;  // guarded by gate_mu_
  int blocked_ = 0;         // guarded by gate_mu_
  std::mutex mu_;
  std::vector<std::shared_ptr<TestStream>> streams_;  // guarded by mu_
  std::unique_ptr<HttpServer> server_;                // stops before the streams go
};

TEST_F(HttpServerTest, KeepAliveServesThreeRequestsOnOneConnection) {
  StartServer();
  EXPECT_EQ(server_->address(), "127.0.0.1:" + std::to_string(server_->port()));
  Client client(server_->port());
  std::string remote;
  for (int i = 0; i < 3; ++i) {
    auto request = Client::Request(http::verb::get, "/echo?i=" + std::to_string(i));
    request.set("X-Foo", "bar" + std::to_string(i));
    Response response = client.Send(request);
    EXPECT_EQ(response.result_int(), 200);
    EXPECT_EQ(response.body(), "GET /echo?i=" + std::to_string(i) + "\n");
    EXPECT_EQ(response[http::field::content_length], std::to_string(response.body().size()));
    EXPECT_EQ(response[http::field::content_type], "text/plain");
    EXPECT_EQ(response["X-Foo"], "bar" + std::to_string(i));
    EXPECT_TRUE(response.keep_alive());
    if (i == 0) remote = std::string(response["X-Remote"]);
    EXPECT_EQ(response["X-Remote"], remote) << "a new connection served request " << i;
  }
  const uint16_t client_port = client.socket().local_endpoint().port();
  EXPECT_EQ(remote, "127.0.0.1:" + std::to_string(client_port));
}

TEST_F(HttpServerTest, PostBodyArrivesIntact) {
  StartServer();
  std::string body;
  for (int i = 0; i < 300000; ++i) body.push_back(static_cast<char>(i * 7 % 256));
  Client client(server_->port());
  Response response = client.Send(Client::Request(http::verb::post, "/echo", body));
  EXPECT_EQ(response.result_int(), 200);
  EXPECT_TRUE(response.body() == "POST /echo\n" + body);
}

TEST_F(HttpServerTest, ConnectionCloseAndHttp10CloseTheConnection) {
  StartServer();
  Client closing(server_->port());
  auto request = Client::Request(http::verb::get, "/echo");
  request.keep_alive(false);
  EXPECT_EQ(closing.Send(request).result_int(), 200);
  EXPECT_TRUE(closing.ServerClosed());

  Client old(server_->port());
  auto request10 = Client::Request(http::verb::get, "/echo");
  request10.version(10);
  Response response = old.Send(request10);
  EXPECT_EQ(response.result_int(), 200);
  EXPECT_EQ(response.version(), 10);
  EXPECT_TRUE(old.ServerClosed());
}

TEST_F(HttpServerTest, BodyOverLimitGets413StatusAndClose) {
  StartServer({.max_body_bytes = 1024});
  Client client(server_->port());
  Response response =
      client.Send(Client::Request(http::verb::post, "/echo", std::string(4096, 'x')));
  EXPECT_EQ(response.result_int(), 413);
  EXPECT_EQ(StatusBody(response), Json::parse(R"({"kind":"Status","apiVersion":"v1",
      "metadata":{},"status":"Failure","message":"Request entity too large: limit is 1024",
      "reason":"RequestEntityTooLarge","code":413})"));
  EXPECT_TRUE(client.ServerClosed());
}

TEST_F(HttpServerTest, HeadersOverLimitGet431Status) {
  StartServer({.max_header_bytes = 1024});
  Client client(server_->port());
  auto request = Client::Request(http::verb::get, "/echo");
  request.set("X-Big", std::string(8000, 'h'));
  Response response = client.Send(request);
  EXPECT_EQ(response.result_int(), 431);
  Json status = StatusBody(response);
  EXPECT_EQ(status["kind"], "Status");
  EXPECT_EQ(status["status"], "Failure");
  EXPECT_EQ(status["code"], 431);
  EXPECT_EQ(status["message"], "request header fields too large (limit 1024 bytes)");
  EXPECT_TRUE(client.ServerClosed());
}

TEST_F(HttpServerTest, MalformedRequestGets400StatusAndClose) {
  StartServer();
  Client client(server_->port());
  client.WriteRaw("NOT\tAN HTTP REQUEST\r\n\r\n");
  Response response = client.Read();
  EXPECT_EQ(response.result_int(), 400);
  Json status = StatusBody(response);
  EXPECT_EQ(status["reason"], "BadRequest");
  EXPECT_EQ(status["code"], 400);
  EXPECT_TRUE(status["message"].get<std::string>().starts_with("malformed HTTP request: "));
  EXPECT_TRUE(client.ServerClosed());
}

TEST_F(HttpServerTest, HandlerExceptionIs500AndTheConnectionGoesOn) {
  StartServer();
  Client client(server_->port());
  Response failed = client.Get("/throw");
  EXPECT_EQ(failed.result_int(), 500);
  Json status = StatusBody(failed);
  EXPECT_EQ(status["reason"], "InternalError");
  EXPECT_EQ(status["message"], "Internal error occurred: boom");
  Response next = client.Get("/echo");
  EXPECT_EQ(next.result_int(), 200);
  EXPECT_EQ(next.body(), "GET /echo\n");
}

// Issue 34: a slow write used to run on an I/O thread, and a few of them left nothing to answer
// reads. Handlers now run on pools, reads apart from writes: with one I/O thread and one
// handler thread per pool, a write that never returns still leaves GETs answered.
TEST_F(HttpServerTest, ASlowWriteDoesNotHoldUpReads) {
  StartServer({.threads = 1, .handler_threads = 1});
  Response slow;
  std::thread writer([&] {
    Client client(server_->port());
    slow = client.Send(Client::Request(http::verb::post, "/block", "x"));
  });
  ASSERT_TRUE(Blocked(1));
  Client reader(server_->port());
  for (int i = 0; i < 3; ++i) {
    Response read = reader.Get("/echo");
    EXPECT_EQ(read.result_int(), 200);
    EXPECT_EQ(read.body(), "GET /echo\n");
  }
  OpenGate();
  writer.join();
  EXPECT_EQ(slow.result_int(), 200);
  EXPECT_EQ(slow.body(), "POST /block\nx");
}

// kube-apiserver's --request-timeout: a handler that has not answered within it gets the
// client a 504 Timeout Status (k8s.io/apiserver/pkg/server/filters/timeout.go); the connection
// stays usable and the late answer is dropped.
TEST_F(HttpServerTest, AHandlerPastTheRequestTimeoutGets504) {
  StartServer({.request_timeout = 100ms});
  Client client(server_->port());
  Response late = client.Send(Client::Request(http::verb::post, "/block", "x"));
  EXPECT_EQ(late.result_int(), 504);
  Json status = StatusBody(late);
  EXPECT_EQ(status["reason"], "Timeout");
  EXPECT_EQ(status["code"], 504);
  EXPECT_EQ(status["message"],
            "Timeout: request did not complete within requested timeout - context deadline "
            "exceeded");
  OpenGate();
  Response next = client.Get("/echo");
  EXPECT_EQ(next.result_int(), 200);
  EXPECT_EQ(next.body(), "GET /echo\n");
}

TEST_F(HttpServerTest, StreamIsChunkedFlushedPerWakeAndEndsWithTheLastChunk) {
  StartServer();
  Client client(server_->port());
  http::write(client.socket(), Client::Request(http::verb::get, "/watch"));
  http::response_parser<http::string_body> parser;
  http::read_header(client.socket(), client.buffer(), parser);
  EXPECT_EQ(parser.get().result_int(), 200);
  EXPECT_TRUE(parser.get().chunked());
  EXPECT_EQ(parser.get()[http::field::content_type], "application/json");
  std::string received;
  auto on_chunk = [&](std::uint64_t, beast::string_view body, beast::error_code&) {
    received.append(body.data(), body.size());
    return body.size();
  };
  parser.on_chunk_body(on_chunk);

  std::shared_ptr<TestStream> stream = StartedStream(0);
  ASSERT_NE(stream, nullptr);
  // Each line must arrive while the stream is still open: one wake, one flush.
  std::thread feeder([&] { stream->Emit("{\"n\":1}\n"); });
  while (received != "{\"n\":1}\n") http::read_some(client.socket(), client.buffer(), parser);
  feeder.join();
  stream->Emit("{\"n\":2}\n");
  while (received.size() < 16) http::read_some(client.socket(), client.buffer(), parser);
  std::thread finisher([&] { stream->Emit("{\"n\":3}\n", /*last=*/true); });
  while (!parser.is_done()) http::read_some(client.socket(), client.buffer(), parser);
  finisher.join();
  EXPECT_EQ(received, "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
  EXPECT_EQ(stream->cancel_calls(), 0);

  Response next = client.Get("/echo");
  EXPECT_EQ(next.result_int(), 200);
  EXPECT_EQ(next.body(), "GET /echo\n");
}

TEST_F(HttpServerTest, StreamTimeoutEndsANeverEndingStream) {
  StartServer();
  Client client(server_->port());
  Response response = client.Get("/watch?timeout=200");
  EXPECT_EQ(response.result_int(), 200);
  EXPECT_EQ(response.body(), "");
  std::shared_ptr<TestStream> stream = StartedStream(0);
  EXPECT_EQ(stream->cancel_calls(), 1);
  EXPECT_EQ(client.Get("/echo").result_int(), 200);
}

TEST_F(HttpServerTest, StreamsBeyondTheLimitGet429) {
  StartServer({.max_streams = 1});
  Client first(server_->port());
  http::write(first.socket(), Client::Request(http::verb::get, "/watch"));
  std::shared_ptr<TestStream> open = StartedStream(0);

  Client second(server_->port());
  Response refused = second.Get("/watch");
  EXPECT_EQ(refused.result_int(), 429);
  EXPECT_EQ(refused["Retry-After"], "1");
  Json status = StatusBody(refused);
  EXPECT_EQ(status["reason"], "TooManyRequests");
  EXPECT_EQ(status["code"], 429);
  {
    std::lock_guard lock(mu_);
    ASSERT_EQ(streams_.size(), 2u);
    EXPECT_EQ(streams_[1]->cancel_calls(), 1);
    EXPECT_FALSE(streams_[1]->started());
  }

  open->Emit("done\n", /*last=*/true);
  EXPECT_EQ(first.Read().body(), "done\n");
  // The finished stream gave its place back.
  Response again = second.Get("/watch?timeout=1");
  EXPECT_EQ(again.result_int(), 200);
}

TEST_F(HttpServerTest, ClientDisconnectMidStreamCancelsIt) {
  StartServer();
  Client client(server_->port());
  http::write(client.socket(), Client::Request(http::verb::get, "/watch"));
  http::response_parser<http::string_body> parser;
  http::read_header(client.socket(), client.buffer(), parser);
  std::shared_ptr<TestStream> stream = StartedStream(0);
  client.Close();
  EXPECT_TRUE(Eventually([&] { return stream->cancel_calls() == 1; }));
  stream->Emit("late\n");  // a wake after the connection is gone is harmless
  server_->Stop();
  stream->Emit("later\n");  // and so is one after the server stopped
  EXPECT_EQ(stream->cancel_calls(), 1);
}

TEST_F(HttpServerTest, StopReturnsWithAnOpenStreamAndAnIdleConnection) {
  StartServer();
  Client watcher(server_->port());
  http::write(watcher.socket(), Client::Request(http::verb::get, "/watch"));
  std::shared_ptr<TestStream> stream = StartedStream(0);
  Client idle(server_->port());
  EXPECT_EQ(idle.Get("/echo").result_int(), 200);

  server_->Stop();
  EXPECT_EQ(stream->cancel_calls(), 1);
  EXPECT_TRUE(idle.ServerClosed());
  server_->Stop();  // idempotent
}

TEST_F(HttpServerTest, IdleConnectionIsClosedAfterIdleTimeout) {
  StartServer({.idle_timeout = std::chrono::seconds(1)});
  Client client(server_->port());
  EXPECT_EQ(client.Get("/echo").result_int(), 200);
  EXPECT_TRUE(client.ServerClosed());
}

TEST_F(HttpServerTest, TickIsCalledPeriodically) {
  std::atomic<int> ticks{0};
  StartServer(
      {.tick_interval = std::chrono::milliseconds(10), .tick = [&] { ticks.fetch_add(1); }});
  EXPECT_TRUE(Eventually([&] { return ticks.load() >= 3; }));
  server_->Stop();
  const int after_stop = ticks.load();
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(ticks.load(), after_stop);
}

TEST_F(HttpServerTest, BindFailureNamesTheAddressAndTheOsError) {
  StartServer();
  auto second = HttpServer::Start({.port = server_->port()},
                                  [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_FALSE(second.ok());
  const std::string message = second.status().message();
  EXPECT_NE(message.find(server_->address()), std::string::npos) << message;
  EXPECT_NE(message.find("in use"), std::string::npos) << message;
}

}  // namespace
}  // namespace lws::transport
