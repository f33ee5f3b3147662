// Tests of HTTPS in the transport over real loopback sockets, with a small synchronous Asio SSL
// client that verifies the server's chain against the CA, as kubectl does. Timeouts only turn a
// hang into a failure (each blocking socket gets SO_RCVTIMEO); nothing measures speed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "transport/http_server.h"
#include "transport/tls_certificates.h"

namespace lws::transport {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

// ALPN as kubectl's Go client offers it: h2 first, then HTTP/1.1.
constexpr unsigned char kGoAlpn[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

void SetReceiveTimeout(int fd) {
  timeval timeout{20, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
}

ssl::context ClientContext(const std::string& ca_pem) {
  ssl::context context(ssl::context::tls_client);
  context.add_certificate_authority(net::buffer(ca_pem));
  context.set_verify_mode(ssl::verify_peer);
  return context;
}

class TlsClient {
 public:
  TlsClient(uint16_t port, const std::string& ca_pem)
      : context_(ClientContext(ca_pem)), stream_(io_, context_) {
    // kubeconfig's server is https://127.0.0.1:PORT: the name checked is that IP address.
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(stream_.native_handle()), "127.0.0.1");
    SSL_set_alpn_protos(stream_.native_handle(), kGoAlpn, sizeof kGoAlpn);
    stream_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    SetReceiveTimeout(stream_.next_layer().native_handle());
  }

  beast::error_code Handshake() {
    beast::error_code ec;
    stream_.handshake(ssl::stream_base::client, ec);
    return ec;
  }
  std::string Alpn() {
    const unsigned char* data = nullptr;
    unsigned int length = 0;
    SSL_get0_alpn_selected(stream_.native_handle(), &data, &length);
    return std::string(reinterpret_cast<const char*>(data), length);
  }
  http::response<http::string_body> Get(const std::string& target) {
    http::request<http::string_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1");
    http::write(stream_, request);
    http::response<http::string_body> response;
    http::read(stream_, buffer_, response);
    return response;
  }
  // Callable from another thread while one is blocked reading: shutdown, unlike close, wakes it.
  void Shutdown() { ::shutdown(stream_.next_layer().native_handle(), SHUT_RDWR); }

 private:
  net::io_context io_;
  ssl::context context_;
  ssl::stream<tcp::socket> stream_;
  beast::flat_buffer buffer_;
};

// A watch-like stream: three lines, each produced on its own wake-up, then the end; or, when
// `endless`, nothing ever, until the transport cancels it.
class LinesStream : public ResponseStream {
 public:
  explicit LinesStream(bool endless) : endless_(endless) {}
  void Start(std::function<void()> wake) override {
    wake_ = std::move(wake);
    started_ = true;
  }
  bool Next(std::string* out) override {
    if (endless_) return true;
    *out += "line " + std::to_string(++lines_) + "\n";
    if (lines_ < 3) wake_();
    return lines_ < 3;
  }
  void Cancel() override { cancelled_ = true; }
  std::atomic<bool> started_{false};
  std::atomic<bool> cancelled_{false};

 private:
  const bool endless_;
  std::function<void()> wake_;
  int lines_ = 0;
};

class HttpsServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<transport::TlsIdentity> identity = transport::CreateSelfSigned({}, RealClock().Now());
    ASSERT_TRUE(identity.ok()) << identity.status().message();
    identity_ = *identity;
    HttpServerOptions options;
    options.tls = HttpTlsOptions{identity_.cert_pem, identity_.key_pem};
    Result<std::unique_ptr<HttpServer>> server =
        HttpServer::Start(options, [this](const HttpRequest& request) { return Handle(request); });
    ASSERT_TRUE(server.ok()) << server.status().message();
    server_ = std::move(*server);
  }

  HttpResponse Handle(const HttpRequest& request) {
    HttpResponse response;
    if (request.target == "/lines") {
      response.stream = std::make_shared<LinesStream>(false);
      return response;
    }
    if (request.target == "/endless") {
      response.stream = endless_stream_;
      return response;
    }
    response.headers.Add("Content-Type", "text/plain");
    response.body = "secure " + request.target;
    return response;
  }

  transport::TlsIdentity identity_;
  const std::shared_ptr<LinesStream> endless_stream_ = std::make_shared<LinesStream>(true);
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpsServerTest, ClientTrustingTheCaGetsAnswersOverHttp11) {
  TlsClient client(server_->port(), identity_.ca_pem);
  ASSERT_FALSE(client.Handshake()) << "handshake failed";
  EXPECT_EQ(client.Alpn(), "http/1.1");
  for (const char* target : {"/a", "/b"}) {  // keep-alive over one TLS session
    auto response = client.Get(target);
    EXPECT_EQ(response.result_int(), 200);
    EXPECT_EQ(response.body(), std::string("secure ") + target);
  }
}

TEST_F(HttpsServerTest, StreamOverTlsThenTheConnectionServesOn) {
  TlsClient client(server_->port(), identity_.ca_pem);
  ASSERT_FALSE(client.Handshake());
  auto streamed = client.Get("/lines");
  EXPECT_EQ(streamed.result_int(), 200);
  EXPECT_EQ(streamed.body(), "line 1\nline 2\nline 3\n");
  // The stream's peer watch read was cancelled on the SSL stream; the next request still works.
  EXPECT_EQ(client.Get("/after").body(), "secure /after");
}

TEST_F(HttpsServerTest, ClientLeavingAnOpenStreamCancelsIt) {
  TlsClient client(server_->port(), identity_.ca_pem);
  ASSERT_FALSE(client.Handshake());
  std::thread reader([&client] {
    try {
      client.Get("/endless");  // blocks on the body until the socket closes or times out
    } catch (const std::exception&) {
    }
  });
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!endless_stream_->started_ && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(endless_stream_->started_);
  EXPECT_FALSE(endless_stream_->cancelled_);
  client.Shutdown();
  reader.join();
  while (!endless_stream_->cancelled_ && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(endless_stream_->cancelled_);
}

TEST_F(HttpsServerTest, ClientTrustingAnotherCaRejectsTheServer) {
  Result<transport::TlsIdentity> other = transport::CreateSelfSigned({}, RealClock().Now());
  ASSERT_TRUE(other.ok());
  TlsClient client(server_->port(), other->ca_pem);
  beast::error_code ec = client.Handshake();
  ASSERT_TRUE(ec);
  EXPECT_THAT(ec.message(), HasSubstr("certificate verify failed"));
  // The server is fine after a failed handshake.
  TlsClient good(server_->port(), identity_.ca_pem);
  ASSERT_FALSE(good.Handshake());
  EXPECT_EQ(good.Get("/ok").result_int(), 200);
}

TEST_F(HttpsServerTest, PlainHttpClientGetsNoHttpAnswer) {
  net::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  SetReceiveTimeout(socket.native_handle());
  http::request<http::string_body> request{http::verb::get, "/a", 11};
  request.set(http::field::host, "127.0.0.1");
  http::write(socket, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  beast::error_code ec;
  http::read(socket, buffer, response, ec);
  EXPECT_TRUE(ec) << "a plain request was answered: " << response.result_int();
}

// A rotated certificate (the operator's webhook server) serves new connections; an open one
// keeps the session it has; a pair that does not load leaves the current one in place.
TEST_F(HttpsServerTest, SetTlsSwapsTheCertificateForNewConnections) {
  Result<transport::TlsIdentity> rotated = transport::CreateSelfSigned({}, RealClock().Now());
  ASSERT_TRUE(rotated.ok());
  TlsClient open(server_->port(), identity_.ca_pem);
  ASSERT_FALSE(open.Handshake());
  Status refused = server_->SetTls({rotated->cert_pem, identity_.key_pem});
  EXPECT_FALSE(refused.ok());
  EXPECT_THAT(refused.message(), HasSubstr("TLS"));
  TlsClient still_old(server_->port(), identity_.ca_pem);
  ASSERT_FALSE(still_old.Handshake());

  ASSERT_TRUE(server_->SetTls({rotated->cert_pem, rotated->key_pem}).ok());
  TlsClient fresh(server_->port(), rotated->ca_pem);
  ASSERT_FALSE(fresh.Handshake());
  EXPECT_EQ(fresh.Get("/new").body(), "secure /new");
  TlsClient stale(server_->port(), identity_.ca_pem);
  EXPECT_TRUE(stale.Handshake());
  EXPECT_EQ(open.Get("/open").body(), "secure /open");
}

TEST(HttpsServerStartTest, SetTlsOnPlainHttpIsRefused) {
  auto started = HttpServer::Start({}, [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_TRUE(started.ok());
  Result<transport::TlsIdentity> identity = transport::CreateSelfSigned({}, RealClock().Now());
  ASSERT_TRUE(identity.ok());
  Status refused = (*started)->SetTls({identity->cert_pem, identity->key_pem});
  EXPECT_EQ(refused.code(), Code::kBadRequest);
  EXPECT_THAT(refused.message(), HasSubstr("plain HTTP"));
}

TEST(HttpsServerStartTest, RefusesAKeyOfAnotherCertificateOrNoPem) {
  Result<transport::TlsIdentity> a = transport::CreateSelfSigned({}, RealClock().Now());
  Result<transport::TlsIdentity> b = transport::CreateSelfSigned({}, RealClock().Now());
  ASSERT_TRUE(a.ok() && b.ok());
  HttpServerOptions options;
  options.tls = HttpTlsOptions{a->cert_pem, b->key_pem};
  auto started = HttpServer::Start(options, [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_FALSE(started.ok());
  EXPECT_THAT(started.status().message(), HasSubstr("TLS"));
  options.tls = HttpTlsOptions{"not PEM", a->key_pem};
  started = HttpServer::Start(options, [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_FALSE(started.ok());
  EXPECT_THAT(started.status().message(), HasSubstr("cannot load the certificate"));
}

}  // namespace
}  // namespace lws::transport
