// A handler whose answer waits for a deferred acknowledgement (base/deferred_ack.h: a durable
// write waiting for its flush) does not hold its handler thread: with one writer thread, later
// writes are answered while the first waits; the held answer is sent once released, and a
// release with an error becomes a 500 instead of the handler's answer.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>

#include "base/deferred_ack.h"
#include "transport/http_server.h"
#include "transport/http_testing.h"

namespace lws::transport {
namespace {

using namespace testing;  // NOLINT: the transport tests' client and waits

// /hold/NAME answers 201 but defers its acknowledgement until the test releases NAME; anything
// else answers 200 at once. Releases are keyed by name: two connections' requests reach the
// handler thread in either order.
class DeferredAckServer {
 public:
  DeferredAckServer() {
    auto started =
        HttpServer::Start({.threads = 1, .handler_threads = 1},
                          [this](const HttpRequest& request) { return Handle(request); });
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    server_ = std::move(started).value();
  }
  uint16_t port() const { return server_->port(); }
  void Stop() { server_.reset(); }
  std::size_t held() {
    std::lock_guard lock(mu_);
    return held_.size();
  }
  void Release(const std::string& name, Status status) {
    DeferredAck::Release release;
    {
      std::lock_guard lock(mu_);
      release = held_.at(name);
    }
    release(std::move(status));
  }

 private:
  HttpResponse Handle(const HttpRequest& request) {
    HttpResponse response;
    response.status = 200;
    if (request.target.starts_with(kHold)) {
      response.status = 201;
      std::string name = request.target.substr(kHold.size());
      EXPECT_TRUE(DeferredAck::Defer([this, name](DeferredAck::Release release) {
        std::lock_guard lock(mu_);
        held_.emplace(name, std::move(release));
      })) << "the server opens a DeferredAck around every handler call";
    }
    response.body = request.method + " " + request.target;
    return response;
  }

  std::mutex mu_;
  static constexpr std::string_view kHold = "/hold/";
  std::map<std::string, DeferredAck::Release> held_;
  std::unique_ptr<HttpServer> server_;
};

TEST(HttpDeferredAck, AHeldWriteDoesNotHoldItsThreadAndIsAnsweredOnRelease) {
  Watchdog watchdog;
  DeferredAckServer server;
  Response first, second;
  std::thread holders([&] {
    Client a(server.port());
    Client b(server.port());
    http::write(a.socket(), Client::Request(http::verb::post, "/hold/a", "x"));
    http::write(b.socket(), Client::Request(http::verb::post, "/hold/b", "y"));
    first = a.Read();
    second = b.Read();
  });
  ASSERT_TRUE(Eventually([&] { return server.held() == 2; }))
      << "the second write waited for the first one's thread";
  Client other(server.port());
  Response quick = other.Send(Client::Request(http::verb::post, "/quick", "z"));
  EXPECT_EQ(quick.result_int(), 200) << "one writer thread, two answers held, and still served";
  server.Release("a", Status::Ok());
  server.Release("b", Status::Internal("fsync: Input/output error"));
  holders.join();
  EXPECT_EQ(first.result_int(), 201);
  EXPECT_EQ(first.body(), "POST /hold/a");
  EXPECT_EQ(second.result_int(), 500);
  EXPECT_NE(second.body().find("fsync: Input/output error"), std::string::npos) << second.body();
}

// The store's flusher can release an answer after the server has stopped (its fsync began
// before the stop): the answer goes nowhere, and nothing touches the destroyed io_context.
TEST(HttpDeferredAck, AnAnswerReleasedAfterTheServerStoppedIsDropped) {
  Watchdog watchdog;
  DeferredAckServer server;
  Client client(server.port());
  http::write(client.socket(), Client::Request(http::verb::post, "/hold/a", "x"));
  ASSERT_TRUE(Eventually([&] { return server.held() == 1; }));
  server.Stop();
  server.Release("a", Status::Ok());
  EXPECT_TRUE(client.ServerClosed());
}

}  // namespace
}  // namespace lws::transport
