// The webhook server end to end over real loopback HTTPS, with a small synchronous Asio client
// that verifies the server's certificate against a CA for 127.0.0.1 as kube-apiserver does for
// deploy/local's url. The server's loop is a RealEventLoop (the transport's threads read its
// clock); certificate checks are driven by hand (cert_check_interval 0) or waited for with a
// deadline. Timeouts only turn a hang into a failure; nothing measures speed.
#include "operator/webhook/webhook_server.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "api/lws_testing.h"
#include "base/run_on_loop.h"
#include "operator/webhook/cert_secret.h"

namespace lws::operator_webhook {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

struct Answer {
  beast::error_code error;  // the handshake's or the exchange's
  int status = 0;
  std::string body;
};

// What the client offers: at most `max_version` (0: any) and, when given, these TLS 1.2 suites
// (OpenSSL names) alone.
struct ClientOffer {
  int max_version = 0;
  std::string tls12_suites;
};

// One HTTPS exchange with a fresh connection that trusts `ca_pem` only.
Answer Exchange(std::uint16_t port, const std::string& ca_pem, const std::string& target,
                const std::string& body, const ClientOffer& offer = {}) {
  net::io_context io;
  ssl::context context(ssl::context::tls_client);
  context.add_certificate_authority(net::buffer(ca_pem));
  context.set_verify_mode(ssl::verify_peer);
  if (offer.max_version != 0)
    SSL_CTX_set_max_proto_version(context.native_handle(), offer.max_version);
  if (!offer.tls12_suites.empty()) {
    SSL_CTX_set_cipher_list(context.native_handle(), offer.tls12_suites.c_str());
  }
  ssl::stream<tcp::socket> stream(io, context);
  X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(stream.native_handle()), "127.0.0.1");
  Answer answer;
  stream.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                              answer.error);
  if (answer.error) return answer;
  timeval timeout{20, 0};
  ::setsockopt(stream.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout,
               sizeof timeout);
  stream.handshake(ssl::stream_base::client, answer.error);
  if (answer.error) return answer;
  http::request<http::string_body> request{http::verb::post, target, 11};
  request.set(http::field::host, "127.0.0.1");
  request.set(http::field::content_type, "application/json");
  request.body() = body;
  request.prepare_payload();
  http::write(stream, request, answer.error);
  if (answer.error) return answer;
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response, answer.error);
  answer.status = response.result_int();
  answer.body = response.body();
  return answer;
}

std::string ValidationReview() {
  Json review = {
      {"apiVersion", "admission.k8s.io/v1"},
      {"kind", "AdmissionReview"},
      {"request",
       {{"uid", "e2e-1"}, {"operation", "CREATE"}, {"object", api::testing::DefaultLwsJson()}}}};
  review["request"]["object"]["spec"]["replicas"] = 100000;
  review["request"]["object"]["spec"]["leaderWorkerTemplate"]["size"] = 1000000;
  return review.dump();
}

class WebhookServerTest : public ::testing::Test {
 protected:
  // Runs `f` on the loop's thread, as the server's methods require, and waits for it.
  template <typename F>
  auto OnLoop(F f) {
    return RunOnLoop(&loop_, std::move(f));
  }
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("webhook-server-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    first_ = Issue();
    Write(first_);
  }
  void TearDown() override {
    if (server_) OnLoop([this] { server_->Stop(); });
    loop_.Stop();
    std::filesystem::remove_all(dir_);
  }
  // A new CA and serving certificate for 127.0.0.1, on the wall clock the client verifies with.
  CertificateMaterial Issue() {
    const CertificateNames names = WebhookCertificateNames("svc", "ns", {}, {"127.0.0.1"});
    return IssueCertificates({}, CertificateAction::kIssueAll, names, {}, RealClock().Now())
        .value();
  }
  void Write(const CertificateMaterial& material) {
    std::ofstream(dir_ / "tls.key") << material.serving_key;
    std::ofstream(dir_ / "tls.crt") << material.serving_cert;
  }
  WebhookServerOptions Options() {
    WebhookServerOptions options;
    options.host = "127.0.0.1";
    options.port = 0;
    options.cert_dir = dir_.string();
    options.cert_check_interval = Duration::zero();
    options.observer = [this](const WebhookRequestRecord& record) {
      std::lock_guard lock(mu_);
      records_.push_back({std::string(record.webhook), record.code});
    };
    return options;
  }
  // On the loop's thread, as the server's contract requires: its first check is scheduled there.
  void StartServer(WebhookServerOptions options) {
    auto started = OnLoop([this, &options] {
      return WebhookServer::Start(&loop_, std::move(options), LwsWebhookEndpoints());
    });
    ASSERT_TRUE(started.ok()) << started.status().message();
    server_ = std::move(*started);
  }

  RealEventLoop loop_;
  std::filesystem::path dir_;
  CertificateMaterial first_;
  std::unique_ptr<WebhookServer> server_;
  std::mutex mu_;
  std::vector<std::pair<std::string, int>> records_;  // guarded by mu_
};

TEST_F(WebhookServerTest, ServesAReviewOverVerifiedHttps) {
  StartServer(Options());
  const Answer answer =
      Exchange(server_->port(), first_.ca_cert,
               "/validate-leaderworkerset-x-k8s-io-v1-leaderworkerset", ValidationReview());
  ASSERT_FALSE(answer.error) << answer.error.message();
  EXPECT_EQ(answer.status, 200);
  const Json review = Json::parse(answer.body);
  EXPECT_EQ(review["response"]["uid"], "e2e-1");
  EXPECT_EQ(review["response"]["allowed"], false);
  EXPECT_EQ(review["response"]["status"]["code"], 403);
  EXPECT_EQ(review["response"]["status"]["message"],
            "spec.replicas: Invalid value: 100000: the product of replicas and worker replicas "
            "must not exceed 2147483647");
  std::lock_guard lock(mu_);
  ASSERT_EQ(records_.size(), 1u);
  EXPECT_EQ(records_[0].first, "/validate-leaderworkerset-x-k8s-io-v1-leaderworkerset");
  EXPECT_EQ(records_[0].second, 200);
}

// Issue 31 item 5: the Configuration's tls.minVersion and tls.cipherSuites (as upstream's
// pkg/config/tls.go applies them to the webhook server): a client offering only a refused
// version or suite fails the handshake; one that offers an accepted one is served.
TEST_F(WebhookServerTest, TlsPolicyRefusesOtherVersionsAndSuites) {
  const std::string kValidate = "/validate-leaderworkerset-x-k8s-io-v1-leaderworkerset";
  WebhookServerOptions options = Options();
  options.tls_policy.min_version = TLS1_3_VERSION;
  StartServer(std::move(options));
  const std::uint16_t port = server_->port();
  Answer tls12 = Exchange(port, first_.ca_cert, kValidate, ValidationReview(),
                          {.max_version = TLS1_2_VERSION});
  EXPECT_TRUE(tls12.error) << "a TLS 1.2 client must be refused";
  Answer tls13 = Exchange(port, first_.ca_cert, kValidate, ValidationReview());
  EXPECT_FALSE(tls13.error) << tls13.error.message();
  OnLoop([this] { server_->Stop(); });
  server_.reset();

  options = Options();
  options.tls_policy.cipher_suites = {0xc02f};  // TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
  StartServer(std::move(options));
  const std::uint16_t port2 = server_->port();
  Answer other_suite = Exchange(port2, first_.ca_cert, kValidate, ValidationReview(),
                                {TLS1_2_VERSION, "ECDHE-RSA-AES256-GCM-SHA384"});
  EXPECT_TRUE(other_suite.error) << "a client without the configured suite must be refused";
  Answer same_suite = Exchange(port2, first_.ca_cert, kValidate, ValidationReview(),
                               {TLS1_2_VERSION, "ECDHE-RSA-AES128-GCM-SHA256"});
  EXPECT_FALSE(same_suite.error) << same_suite.error.message();
  EXPECT_EQ(same_suite.status, 200);
  // TLS 1.3 suites are not configurable, as in Go: a TLS 1.3 client is served.
  EXPECT_FALSE(Exchange(port2, first_.ca_cert, kValidate, ValidationReview()).error);
}

TEST_F(WebhookServerTest, UnknownPathsAre404AndNotCounted) {
  StartServer(Options());
  const Answer answer = Exchange(server_->port(), first_.ca_cert, "/healthz", "{}");
  ASSERT_FALSE(answer.error) << answer.error.message();
  EXPECT_EQ(answer.status, 404);
  EXPECT_EQ(answer.body, "404 page not found\n");
  std::lock_guard lock(mu_);
  EXPECT_TRUE(records_.empty());
}

TEST_F(WebhookServerTest, StartFailsWithoutCertificates) {
  std::filesystem::remove(dir_ / "tls.crt");
  auto started =
      OnLoop([this] { return WebhookServer::Start(&loop_, Options(), LwsWebhookEndpoints()); });
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.status().message().find("tls.crt"), std::string::npos)
      << started.status().message();
}

TEST_F(WebhookServerTest, ReloadServesARotatedCertificateToNewConnections) {
  StartServer(Options());
  const CertificateMaterial second = Issue();
  EXPECT_TRUE(Exchange(server_->port(), second.ca_cert, "/mutate--v1-pod", "{}").error);
  // Half a rotation (the key written, not yet the certificate) is refused; the old pair stays.
  std::ofstream(dir_ / "tls.key") << second.serving_key;
  EXPECT_FALSE(OnLoop([this] { return server_->ReloadCertificates(); }).ok());
  EXPECT_FALSE(Exchange(server_->port(), first_.ca_cert, "/mutate--v1-pod", "{}").error);
  std::ofstream(dir_ / "tls.crt") << second.serving_cert;
  EXPECT_TRUE(OnLoop([this] { return server_->ReloadCertificates(); }).ok());
  const Answer answer = Exchange(server_->port(), second.ca_cert, "/mutate--v1-pod", "{}");
  ASSERT_FALSE(answer.error) << answer.error.message();
  EXPECT_EQ(answer.status, 200);
  EXPECT_TRUE(Exchange(server_->port(), first_.ca_cert, "/mutate--v1-pod", "{}").error);
}

TEST_F(WebhookServerTest, PeriodicCheckPicksUpRotatedFiles) {
  WebhookServerOptions options = Options();
  options.cert_check_interval = 20ms;
  StartServer(std::move(options));
  const CertificateMaterial second = Issue();
  Write(second);
  // A condition wait: new connections trust the new CA once the check has run.
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  bool rotated = false;
  while (!rotated && std::chrono::steady_clock::now() < deadline) {
    rotated = !Exchange(server_->port(), second.ca_cert, "/mutate--v1-pod", "{}").error;
  }
  EXPECT_TRUE(rotated);
}

}  // namespace
}  // namespace lws::operator_webhook
