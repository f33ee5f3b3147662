// Tests of HttpTransport over real loopback sockets, against the API server's own HTTP transport
// with small handlers: keep-alive reuse from several threads, streamed bodies cut anywhere,
// cancellation from another thread, error messages, and RequestPool's HTTPS calls.
#include "client/rest/http_transport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <set>
#include <thread>

#include "client/rest/http_url.h"
#include "client/rest/request_pool.h"
#include "transport/http_server.h"
#include "transport/tls_certificates.h"

namespace lws::rest {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

// A body written in pieces, one per wake-up; `endless` keeps it open after the last piece.
class PiecesStream final : public transport::ResponseStream {
 public:
  PiecesStream(std::vector<std::string> pieces, bool endless)
      : pieces_(std::move(pieces)), endless_(endless) {}
  void Start(std::function<void()> wake) override { wake_ = std::move(wake); }
  bool Next(std::string* out) override {
    if (next_ < pieces_.size()) {
      *out += pieces_[next_++];
      wake_();
      return true;
    }
    return endless_;
  }
  void Cancel() override {}

 private:
  std::vector<std::string> pieces_;
  bool endless_;
  std::size_t next_ = 0;
  std::function<void()> wake_;
};

class Server {
 public:
  explicit Server(transport::HttpHandler handler, bool tls = false) {
    transport::HttpServerOptions options;
    if (tls) {
      identity_ = transport::CreateSelfSigned({}, RealClock().Now()).value();
      options.tls = transport::HttpTlsOptions{identity_.cert_pem, identity_.key_pem};
    }
    http_ = transport::HttpServer::Start(std::move(options), std::move(handler)).value();
  }
  std::string url(bool tls = false) const {
    return std::string(tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(http_->port());
  }
  const transport::TlsIdentity& identity() const { return identity_; }

 private:
  transport::TlsIdentity identity_;
  std::unique_ptr<transport::HttpServer> http_;
};

transport::HttpResponse Echo(const transport::HttpRequest& request) {
  transport::HttpResponse response;
  response.headers.Add("X-Method", request.method);
  response.body = request.method + " " + request.target + " " + request.body;
  return response;
}

std::unique_ptr<HttpTransport> Transport(const std::string& url, TlsConfig tls = {}) {
  TransportOptions options;
  options.server = url;
  options.tls = std::move(tls);
  options.max_idle_connections = 4;
  return HttpTransport::Create(options).value();
}

TEST(HttpTransportTest, ReusesConnectionsAcrossThreads) {
  Server server(Echo);
  auto transport = Transport(server.url());
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        HttpCall call{"POST",
                      "/echo/" + std::to_string(t),
                      {{"Content-Type", "text/plain"}},
                      "n" + std::to_string(i)};
        Result<HttpAnswer> answer = transport->RoundTrip(call);
        if (answer.ok() && answer->status == 200 &&
            answer->body == "POST /echo/" + std::to_string(t) + " n" + std::to_string(i) &&
            answer->Header("x-method") == "POST") {
          ++good;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(good.load(), 100);
  EXPECT_LE(transport->dial_count(), 4u);  // at most one connection per concurrent caller
}

TEST(HttpTransportTest, PathPrefixOfTheServerUrl) {
  Server server(Echo);
  auto transport = Transport(server.url() + "/k8s/clusters/c-1/");
  Result<HttpAnswer> answer = transport->RoundTrip({"GET", "/api/v1/pods?limit=1"});
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->body, "GET /k8s/clusters/c-1/api/v1/pods?limit=1 ");
  EXPECT_EQ(transport->Url("/api"), server.url() + "/k8s/clusters/c-1/api");
}

TEST(HttpTransportTest, StreamsObjectsHoweverTheChunksFall) {
  Server server([](const transport::HttpRequest&) {
    transport::HttpResponse response;
    response.stream = std::make_shared<PiecesStream>(
        std::vector<std::string>{"{\"n\":1}\n{\"n\"", ":2}\n", "{\"s\":\"}\\\"{\"}\n"}, false);
    return response;
  });
  auto transport = Transport(server.url());
  std::vector<std::string> objects;
  Result<HttpAnswer> answer = transport->Stream(
      {"GET", "/watch"},
      [&](std::string_view object) {
        objects.emplace_back(object);
        return true;
      },
      nullptr);
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(answer->status, 200);
  EXPECT_THAT(objects, ElementsAre("{\"n\":1}", "{\"n\":2}", "{\"s\":\"}\\\"{\"}"));
  // The connection survived the stream and serves the next request.
  ASSERT_TRUE(transport->RoundTrip({"GET", "/after"}).ok());
  EXPECT_EQ(transport->dial_count(), 1u);
}

TEST(HttpTransportTest, StreamErrorAnswersComeWhole) {
  Server server([](const transport::HttpRequest&) {
    transport::HttpResponse response;
    response.status = 403;
    response.body = "{\"kind\":\"Status\",\"code\":403}";
    return response;
  });
  auto transport = Transport(server.url());
  bool called = false;
  Result<HttpAnswer> answer = transport->Stream(
      {"GET", "/watch"}, [&](std::string_view) { return called = true; }, nullptr);
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->status, 403);
  EXPECT_EQ(answer->body, "{\"kind\":\"Status\",\"code\":403}");
  EXPECT_FALSE(called);
}

TEST(HttpTransportTest, CancelEndsABlockedStreamAtOnce) {
  Server server([](const transport::HttpRequest&) {
    transport::HttpResponse response;
    response.stream =
        std::make_shared<PiecesStream>(std::vector<std::string>{"{\"first\":1}\n"}, true);
    return response;
  });
  auto transport = Transport(server.url());
  CancelToken cancel;
  std::promise<void> first;
  auto streaming = std::async(std::launch::async, [&] {
    return transport->Stream(
        {"GET", "/watch"},
        [&](std::string_view) {
          first.set_value();
          return true;
        },
        &cancel);
  });
  first.get_future().wait();
  cancel.Cancel();
  Result<HttpAnswer> answer = streaming.get();  // returns although the server never ends the body
  EXPECT_EQ(answer.status().code(), Code::kServiceUnavailable);
  EXPECT_EQ(answer.status().message(), "Get \"" + server.url() + "/watch\": request canceled");
  EXPECT_FALSE(cancel.WaitFor(1h));  // cancelled for good
  EXPECT_EQ(transport->RoundTrip({"GET", "/x"}, &cancel).status().code(),
            Code::kServiceUnavailable);
}

TEST(HttpTransportTest, ConnectionErrorsNameMethodUrlAndReason) {
  std::string url;
  {
    Server gone(Echo);
    url = gone.url();
  }
  auto transport = Transport(url);
  Result<HttpAnswer> answer = transport->RoundTrip({"PATCH", "/api/v1/pods"});
  EXPECT_EQ(answer.status().code(), Code::kServiceUnavailable);
  EXPECT_TRUE(IsTransientTransportError(answer.status()));
  EXPECT_EQ(answer.status().message(), "Patch \"" + url + "/api/v1/pods\": dial tcp " +
                                           url.substr(7) + ": connect: connection refused");
}

TEST(HttpTransportTest, HttpsVerifiesTheServer) {
  Server server(Echo, /*tls=*/true);
  TlsConfig trusted;
  trusted.ca_pem = server.identity().ca_pem;
  Result<HttpAnswer> ok = Transport(server.url(true), trusted)->RoundTrip({"GET", "/secure"});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->body, "GET /secure ");

  TlsConfig stranger;
  stranger.ca_pem = transport::CreateSelfSigned({}, RealClock().Now()).value().ca_pem;
  Result<HttpAnswer> refused = Transport(server.url(true), stranger)->RoundTrip({"GET", "/secure"});
  EXPECT_FALSE(IsTransientTransportError(refused.status()));
  EXPECT_EQ(
      refused.status().message(),
      "Get \"" + server.url(true) + "/secure\": tls handshake with " + server.url(true).substr(8) +
          ": tls: failed to verify certificate: x509: certificate signed by unknown authority "
          "(unable to get local issuer certificate)");

  // Plain HTTP to an HTTPS port is an answer of garbage, not a hang.
  Result<HttpAnswer> plain = Transport(server.url())->RoundTrip({"GET", "/secure"});
  EXPECT_FALSE(plain.ok() && plain->status == 200);
}

TEST(RequestPoolTest, OneHttpsPostWithACaBundle) {
  Server server(Echo, /*tls=*/true);
  TlsConfig tls;
  tls.ca_pem = server.identity().ca_pem;
  HttpCall call{
      "POST", "", {{"Content-Type", "application/json"}}, "{\"kind\":\"AdmissionReview\"}"};
  RequestPool pool;
  Result<HttpAnswer> answer = pool.Send(server.url(true) + "/validate?timeout=10s", tls, call, 5s);
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(answer->body, "POST /validate?timeout=10s {\"kind\":\"AdmissionReview\"}");
  EXPECT_EQ(pool.Send("https://", tls, call, 10s).status().code(), Code::kBadRequest);
}

// The pool keeps one connection per webhook alive: every call arrives from the same client port
// (a new connection each time would show a new one), and other TLS settings get their own.
TEST(RequestPoolTest, ReusesOneConnectionPerWebhook) {
  Server server(
      [](const transport::HttpRequest& request) {
        transport::HttpResponse response;
        response.body = request.remote;
        return response;
      },
      /*tls=*/true);
  TlsConfig tls;
  tls.ca_pem = server.identity().ca_pem;
  HttpCall call{"POST", "", {{"Content-Type", "application/json"}}, "{}"};
  RequestPool pool;
  std::set<std::string> remotes;
  for (int i = 0; i < 3; ++i) {
    Result<HttpAnswer> answer = pool.Send(server.url(true) + "/validate", tls, call, 5s);
    ASSERT_TRUE(answer.ok()) << answer.status().ToString();
    remotes.insert(answer->body);
  }
  EXPECT_EQ(remotes.size(), 1u);
  EXPECT_EQ(pool.transports(), 1u);
  TlsConfig insecure;
  insecure.insecure = true;
  ASSERT_TRUE(pool.Send(server.url(true) + "/mutate", insecure, call, 5s).ok());
  EXPECT_EQ(pool.transports(), 2u);
  EXPECT_EQ(pool.Send("https://", tls, call, 5s).status().code(), Code::kBadRequest);
}

TEST(HttpUrlTest, ServerUrls) {
  ServerUrl v6 = ParseServerUrl("https://[::1]:6443").value();
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.authority, "[::1]:6443");
  ServerUrl named = ParseServerUrl("https://kube.example.com").value();
  EXPECT_EQ(named.port, "443");
  EXPECT_EQ(named.origin, "https://kube.example.com:443");
  EXPECT_EQ(
      ParseServerUrl("http://h:1/?q=1").status().message(),
      "invalid server URL \"http://h:1/?q=1\": user info, query and fragment are not allowed");
  EXPECT_EQ(QueryString({{"labelSelector", "app in (a,b),tier!=x"}, {"fieldManager", "lws"}}),
            "?labelSelector=app%20in%20%28a%2Cb%29%2Ctier%21%3Dx&fieldManager=lws");
  EXPECT_EQ(GoMethodName("DELETE"), "Delete");
}

}  // namespace
}  // namespace lws::rest
