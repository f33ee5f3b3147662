// The metrics and health-probe servers over real loopback sockets.
#include "operator/probe_servers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include "client/local/local_testing.h"
#include "operator/client_testing.h"

namespace lws::op {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using ::testing::HasSubstr;

struct Answer {
  int status = 0;
  std::string body;
  std::string content_type;
};

template <class Stream>
Answer Exchange(Stream& stream, const std::string& target, const std::string& token) {
  http::request<http::string_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1");
  if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return {static_cast<int>(response.result_int()), response.body(),
          std::string(response[http::field::content_type])};
}

void SetReceiveTimeout(int fd) {
  timeval timeout{20, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
}

Answer PlainGet(std::uint16_t port, const std::string& target) {
  net::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  SetReceiveTimeout(socket.native_handle());
  return Exchange(socket, target, "");
}

// A scraper that skips verification, as Prometheus does with the operator's self-signed cert.
// `max_version`: the highest TLS version offered (0: any).
Answer TlsGet(std::uint16_t port, const std::string& target, const std::string& token,
              int max_version = 0) {
  net::io_context io;
  ssl::context context(ssl::context::tls_client);
  context.set_verify_mode(ssl::verify_none);
  if (max_version != 0) SSL_CTX_set_max_proto_version(context.native_handle(), max_version);
  ssl::stream<tcp::socket> stream(io, context);
  stream.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  SetReceiveTimeout(stream.next_layer().native_handle());
  stream.handshake(ssl::stream_base::client);
  return Exchange(stream, target, token);
}

class ProbeServersTest : public ::testing::Test {
 protected:
  ProbeServersTest() {
    registry_.Counter("controller_runtime_webhook_requests_total", "h", {"code", "webhook"})
        ->Inc({"200", "/mutate--v1-pod"});
    // The API server's reviews: one token, allowed.
    reviews_.on_write = [](std::string_view, const client::Resource& r,
                           const Json& object) -> std::optional<Result<Json>> {
      Json answer = object;
      if (r.resource == "tokenreviews") {
        bool good = object["spec"]["token"] == "scraper";
        answer["status"] = {{"authenticated", good}, {"user", {{"username", "prometheus"}}}};
        return answer;
      }
      if (r.resource == "subjectaccessreviews") {
        answer["status"] = {{"allowed", true}};
        return answer;
      }
      return std::nullopt;
    };
  }

  Registry registry_;
  client::testing::ControlPlane cp_;
  client::LocalClient local_ = cp_.Client("lws");
  testing::InterceptingClient reviews_{&local_};
  RealClock clock_;
};

TEST_F(ProbeServersTest, SecureMetricsServerNeedsAnAuthorizedToken) {
  MetricsServerOptions options;
  options.bind_address = "127.0.0.1:0";
  Result<std::unique_ptr<transport::HttpServer>> server =
      StartMetricsServer(options, &registry_, &reviews_, &clock_);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  ASSERT_NE(*server, nullptr);
  const std::uint16_t port = (*server)->port();

  Answer scraped = TlsGet(port, "/metrics", "scraper");
  EXPECT_EQ(scraped.status, 200);
  EXPECT_EQ(scraped.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_THAT(scraped.body, HasSubstr("controller_runtime_webhook_requests_total{code=\"200\","
                                      "webhook=\"/mutate--v1-pod\"} 1\n"));
  EXPECT_EQ(TlsGet(port, "/metrics", "").status, 401);
  EXPECT_EQ(TlsGet(port, "/metrics", "stolen").status, 401);
  // Plain HTTP to the HTTPS port gets no HTTP answer.
  EXPECT_ANY_THROW(PlainGet(port, "/metrics"));
}

// Issue 31 item 5: the Configuration's tls.minVersion reaches the metrics server too.
TEST_F(ProbeServersTest, SecureMetricsServerAppliesTheTlsPolicy) {
  MetricsServerOptions options;
  options.bind_address = "127.0.0.1:0";
  options.tls_policy.min_version = TLS1_3_VERSION;
  Result<std::unique_ptr<transport::HttpServer>> server =
      StartMetricsServer(options, &registry_, &reviews_, &clock_);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::uint16_t port = (*server)->port();
  EXPECT_ANY_THROW(TlsGet(port, "/metrics", "scraper", TLS1_2_VERSION));
  EXPECT_EQ(TlsGet(port, "/metrics", "scraper").status, 200);
}

TEST_F(ProbeServersTest, InsecureMetricsServerIsPlainHttpWithoutTheFilter) {
  MetricsServerOptions options;
  options.bind_address = "127.0.0.1:0";
  options.secure = false;
  auto server = StartMetricsServer(options, &registry_, &reviews_, &clock_);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  Answer scraped = PlainGet((*server)->port(), "/metrics");
  EXPECT_EQ(scraped.status, 200);
  EXPECT_THAT(scraped.body,
              HasSubstr("# TYPE controller_runtime_webhook_requests_total counter\n"));
}

TEST_F(ProbeServersTest, HealthProbeServerServesLivenessAndReadiness) {
  HealthChecks liveness;
  HealthChecks readiness;
  liveness.Add("healthz", Ping);
  std::atomic<bool> ready = false;  // read on the server's I/O thread
  readiness.Add("readyz", [&] {
    return ready ? Status::Ok() : Status::Internal("certificates are not ready");
  });
  HealthProbeOptions options;
  options.bind_address = "127.0.0.1:0";
  auto server = StartHealthProbeServer(options, &liveness, &readiness);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::uint16_t port = (*server)->port();
  EXPECT_EQ(PlainGet(port, "/healthz").body, "ok");
  Answer not_ready = PlainGet(port, "/readyz");
  EXPECT_EQ(not_ready.status, 500);
  EXPECT_EQ(not_ready.body, "[-]readyz failed: reason withheld\nhealthz check failed\n");
  ready = true;
  EXPECT_EQ(PlainGet(port, "/readyz?verbose").body, "[+]readyz ok\nhealthz check passed\n");
}

TEST_F(ProbeServersTest, ZeroDisablesAndBadAddressesAreErrors) {
  MetricsServerOptions metrics;
  metrics.bind_address = "0";
  auto none = StartMetricsServer(metrics, &registry_, &reviews_, &clock_);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, nullptr);
  HealthChecks checks;
  HealthProbeOptions health;
  health.bind_address = "metrics.example:8081";
  auto bad = StartHealthProbeServer(health, &checks, &checks);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("metrics.example:8081"));
}

}  // namespace
}  // namespace lws::op
