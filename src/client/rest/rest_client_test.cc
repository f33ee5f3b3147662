// Tests of RestClient against the real API server over loopback HTTP and HTTPS: every Client
// method, errors with the server's causes, patch types, credentials and user agent on the wire,
// retries (429 with Retry-After, 500, connection errors) and the rate limiter. Waits are recorded
// by a fake sleep, so no test sleeps.
#include "client/rest/rest_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "client/rest/rest_server_testing.h"

namespace lws::rest {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LiveServer;
using testing::LiveServerOptions;
using ::testing::StartsWith;
using testing::StatusAnswer;
using namespace std::chrono_literals;

Json Pod(const std::string& name, const std::string& app = "x") {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", app}}}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

// Records the waits a client would have slept.
class Sleeps {
 public:
  std::function<void(Duration)> Hook() {
    return [this](Duration d) {
      std::lock_guard lock(mu_);
      waits_.push_back(d);
    };
  }
  std::vector<Duration> waits() const {
    std::lock_guard lock(mu_);
    return waits_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<Duration> waits_;
};

class RestClientTest : public ::testing::Test {
 protected:
  // Unlimited QPS unless a test asks; waits recorded, not slept.
  RestClientOptions Options() {
    RestClientOptions options;
    options.qps = -1;
    options.sleep = sleeps_.Hook();
    return options;
  }
  std::unique_ptr<RestClient> Connect(LiveServer& server) { return Connect(server, Options()); }
  std::unique_ptr<RestClient> Connect(LiveServer& server, RestClientOptions options) {
    options.field_manager = "lws-test";
    Result<std::unique_ptr<RestClient>> client =
        RestClient::FromConfig(server.config(), std::move(options));
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? std::move(*client) : nullptr;
  }

  Sleeps sleeps_;
};

TEST_F(RestClientTest, CreateGetUpdateDeleteOverHttp) {
  LiveServer server;
  auto client = Connect(server);
  Result<store::ObjectPtr> created = client->Create(client::kPods, Pod("a"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ((*created)->document()["spec"]["restartPolicy"],
            "Always");  // the server's defaults ran
  EXPECT_EQ((*created)->document()["metadata"]["managedFields"][0]["manager"], "lws-test");

  Result<store::ObjectPtr> got = client->Get(client::kPods, "default", "a");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(std::to_string((*got)->resource_version()),
            (*created)->document()["metadata"]["resourceVersion"]);
  EXPECT_EQ((*got)->labels().at("app"), "x");

  Json changed = (*got)->document();
  changed["metadata"]["labels"]["tier"] = "web";
  Result<store::ObjectPtr> updated = client->Update(client::kPods, changed);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ((*updated)->document()["metadata"]["labels"]["tier"], "web");

  Json status = (*updated)->document();
  status["status"]["phase"] = "Running";
  Result<store::ObjectPtr> status_updated = client->UpdateStatus(client::kPods, status);
  ASSERT_TRUE(status_updated.ok()) << status_updated.status().ToString();
  EXPECT_EQ((*status_updated)->document()["status"]["phase"], "Running");

  // A stale resourceVersion is the server's Conflict, message and all.
  Result<store::ObjectPtr> stale = client->Update(client::kPods, changed);
  EXPECT_EQ(stale.status().code(), Code::kConflict);
  EXPECT_THAT(stale.status().message(), HasSubstr("the object has been modified"));

  client::DeleteOptions options;
  options.grace_period_seconds = 0;
  ASSERT_TRUE(client->Delete(client::kPods, "default", "a", options).ok());
  Result<store::ObjectPtr> missing = client->Get(client::kPods, "default", "a");
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_EQ(missing.status().message(), "pods \"a\" not found");
}

TEST_F(RestClientTest, InvalidObjectsComeBackWithTheServersCauses) {
  LiveServer server;
  auto client = Connect(server);
  Json bad = Pod("b");
  bad["spec"]["containers"][0].erase("image");
  Result<store::ObjectPtr> rejected = client->Create(client::kPods, bad);
  ASSERT_EQ(rejected.status().code(), Code::kInvalid);
  EXPECT_THAT(rejected.status().message(), StartsWith("Pod \"b\" is invalid"));
  ASSERT_FALSE(rejected.status().causes().empty());
  EXPECT_EQ(rejected.status().causes()[0].field, "spec.containers[0].image");
  EXPECT_EQ(rejected.status().causes()[0].type, "FieldValueRequired");
  // A 4xx is an answer, not a failure to retry.
  EXPECT_TRUE(sleeps_.waits().empty());
}

TEST_F(RestClientTest, EveryPatchTypeWithItsContentType) {
  LiveServer server;
  auto client = Connect(server);
  ASSERT_TRUE(client->Create(client::kPods, Pod("p")).ok());
  using client::PatchType;
  ASSERT_TRUE(client
                  ->Patch(client::kPods, "default", "p", PatchType::kMerge,
                          {{"metadata", {{"labels", {{"merge", "1"}}}}}})
                  .ok());
  ASSERT_TRUE(
      client
          ->Patch(client::kPods, "default", "p", PatchType::kJson,
                  Json::array({{{"op", "add"}, {"path", "/metadata/labels/json"}, {"value", "2"}}}))
          .ok());
  ASSERT_TRUE(client
                  ->Patch(client::kPods, "default", "p", PatchType::kStrategic,
                          {{"metadata", {{"labels", {{"strategic", "3"}}}}}})
                  .ok());
  Result<store::ObjectPtr> applied =
      client->Patch(client::kPods, "default", "p", PatchType::kApply,
                    {{"apiVersion", "v1"},
                     {"kind", "Pod"},
                     {"metadata", {{"name", "p"}, {"labels", {{"apply", "4"}}}}}});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(
      (*applied)->document()["metadata"]["labels"],
      (Json{{"app", "x"}, {"merge", "1"}, {"json", "2"}, {"strategic", "3"}, {"apply", "4"}}));
  bool applied_by_us = false;
  for (const Json& entry : (*applied)->document()["metadata"]["managedFields"]) {
    applied_by_us |= entry["manager"] == "lws-test" && entry["operation"] == "Apply";
  }
  EXPECT_TRUE(applied_by_us);

  std::vector<std::string> content_types;
  for (const auto& request : server.RequestsTo("/pods/p")) {
    if (request.method == "PATCH") content_types.push_back(request.headers.Get("Content-Type"));
  }
  EXPECT_THAT(
      content_types,
      ElementsAre("application/merge-patch+json", "application/json-patch+json",
                  "application/strategic-merge-patch+json", "application/apply-patch+yaml"));
  EXPECT_THAT(server.RequestsTo("/pods/p").back().target,
              HasSubstr("?fieldManager=lws-test&force=true"));

  // A strategic merge patch of a custom resource is the server's 415, as kubectl sees it.
  Result<store::ObjectPtr> unsupported = client->Patch(client::kLeaderWorkerSets, "default", "x",
                                                       PatchType::kStrategic, Json::object());
  EXPECT_EQ(unsupported.status().code(), Code::kUnsupportedMediaType);
}

TEST_F(RestClientTest, ListsWithSelectorsAndPages) {
  LiveServer server;
  auto client = Connect(server);
  for (const char* name : {"a", "b", "c"})
    ASSERT_TRUE(client->Create(client::kPods, Pod(name)).ok());
  ASSERT_TRUE(client->Create(client::kPods, Pod("other", "y")).ok());

  store::ListOptions selected;
  selected.label_selector = api::Selector::Parse("app in (x)").value();
  Result<store::ListResult> list = client->List(client::kPods, selected);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->items.size(), 3u);
  EXPECT_EQ(list->items[0]->document()["kind"], "Pod");
  EXPECT_GT(list->resource_version, 0u);

  store::ListOptions page;
  page.limit = 3;
  Result<store::ListResult> first = client->List(client::kPods, page);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->items.size(), 3u);
  ASSERT_FALSE(first->continue_token.empty());
  page.continue_token = first->continue_token;
  Result<store::ListResult> second = client->List(client::kPods, page);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->items.size(), 1u);
  EXPECT_EQ(second->items[0]->document()["metadata"]["name"], "other");
  EXPECT_TRUE(second->continue_token.empty());
}

TEST_F(RestClientTest, BindAssignsTheNode) {
  LiveServer server;
  auto client = Connect(server);
  Result<store::ObjectPtr> created = client->Create(client::kPods, Pod("p"));
  ASSERT_TRUE(created.ok());
  ASSERT_TRUE(
      client->Bind("default", "p", (*created)->document()["metadata"]["uid"], "node-1").ok());
  EXPECT_EQ(client->Get(client::kPods, "default", "p").value()->document()["spec"]["nodeName"],
            "node-1");
  EXPECT_EQ(client->Bind("default", "p", "", "node-2").code(), Code::kConflict);
}

TEST_F(RestClientTest, SendsTokenAndUserAgentAndReusesConnections) {
  LiveServer server(LiveServerOptions{.token = "s3cret"});
  auto client = Connect(server);
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(client->Get(client::kNodes, "", "none").status().code() == Code::kNotFound);
  std::vector<transport::HttpRequest> requests = server.RequestsTo("/api/v1/nodes/none");
  ASSERT_EQ(requests.size(), 5u);
  EXPECT_EQ(requests[0].headers.Get("Authorization"), "Bearer s3cret");
  EXPECT_THAT(requests[0].headers.Get("User-Agent"), StartsWith("lws/v"));
  EXPECT_THAT(requests[0].headers.Get("User-Agent"), HasSubstr(" (linux/"));
  EXPECT_EQ(client->dial_count(), 1u);  // keep-alive

  RestConfig anonymous = server.config();
  anonymous.credentials.token.clear();
  auto stranger = RestClient::FromConfig(anonymous).value();
  // Without a token the caller is system:anonymous, whom RBAC refuses; a wrong token is 401.
  Result<store::ObjectPtr> refused = stranger->Get(client::kPods, "default", "a");
  EXPECT_EQ(refused.status().code(), Code::kForbidden);
  anonymous.credentials.token = "wrong";
  auto impostor = RestClient::FromConfig(anonymous).value();
  EXPECT_EQ(impostor->Get(client::kPods, "default", "a").status().code(), Code::kUnauthorized);
}

TEST_F(RestClientTest, UserAgentFollowsUpstream) {
  EXPECT_THAT(UserAgent("v0.7.0", "abc1234"),
              ::testing::MatchesRegex("lws/v0.7.0 \\(linux/[a-z0-9]+\\) abc1234"));
  EXPECT_THAT(UserAgent(), ::testing::MatchesRegex("lws/v[0-9.]+ \\(linux/[a-z0-9]+\\) unknown"));
}

TEST_F(RestClientTest, TooManyRequestsIsRetriedForAnyVerbAfterRetryAfter) {
  LiveServer server;
  int refusals = 2;
  std::mutex mu;
  server.set_intercept(
      [&](const transport::HttpRequest& r) -> std::optional<transport::HttpResponse> {
        std::lock_guard lock(mu);
        if (r.method != "POST" || refusals == 0) return std::nullopt;
        --refusals;
        transport::HttpResponse busy = StatusAnswer(429, "TooManyRequests", "slow down");
        busy.headers.Add("Retry-After", "3");
        return busy;
      });
  auto client = Connect(server);
  Result<store::ObjectPtr> created = client->Create(client::kPods, Pod("a"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(server.RequestsTo("/pods").size(), 3u);
  EXPECT_THAT(sleeps_.waits(), ElementsAre(3s, 3s));
}

TEST_F(RestClientTest, ServerErrorsAreRetriedOnlyForIdempotentVerbs) {
  LiveServer server;
  server.set_intercept(
      [&](const transport::HttpRequest&) -> std::optional<transport::HttpResponse> {
        return StatusAnswer(500, "InternalError", "etcd is on fire");
      });
  RestClientOptions options = Options();
  options.retry.max_attempts = 3;
  auto client = Connect(server, options);

  Result<store::ObjectPtr> created = client->Create(client::kPods, Pod("a"));
  EXPECT_EQ(created.status().code(), Code::kInternal);
  EXPECT_EQ(created.status().message(), "etcd is on fire");
  EXPECT_EQ(server.RequestsTo("/pods").size(), 1u);  // a POST may have been applied: once only

  Result<store::ObjectPtr> got = client->Get(client::kPods, "default", "a");
  EXPECT_EQ(got.status().code(), Code::kInternal);
  EXPECT_EQ(server.RequestsTo("/pods/a").size(), 3u);  // max_attempts
  EXPECT_EQ(sleeps_.waits().size(), 2u);
}

TEST_F(RestClientTest, AnswersThatAreNoStatusNameTheRequest) {
  LiveServer server;
  server.set_intercept(
      [&](const transport::HttpRequest&) -> std::optional<transport::HttpResponse> {
        transport::HttpResponse gateway;
        gateway.status = 404;
        gateway.body = "<html>no such route</html>";
        return gateway;
      });
  auto client = Connect(server);
  Result<store::ObjectPtr> got = client->Get(client::kPods, "default", "a");
  EXPECT_EQ(got.status().code(), Code::kNotFound);
  EXPECT_EQ(got.status().message(),
            "Get \"" + server.url() +
                "/api/v1/namespaces/default/pods/a\": the server answered HTTP 404: "
                "<html>no such route</html>");
}

TEST_F(RestClientTest, ConnectionRefusedIsRetriedForReadsAndNamesTheCause) {
  std::string url;
  {
    LiveServer gone;
    url = gone.url();
  }  // nothing listens on that port any more
  RestConfig config;
  config.server = url;
  RestClientOptions options;
  options.retry.max_attempts = 4;
  options.sleep = sleeps_.Hook();
  auto client = RestClient::FromConfig(config, options).value();
  Result<store::ObjectPtr> got = client->Get(client::kPods, "default", "a");
  EXPECT_EQ(got.status().code(), Code::kServiceUnavailable);
  const std::string authority = url.substr(std::string("http://").size());
  EXPECT_EQ(got.status().message(), "Get \"" + url +
                                        "/api/v1/namespaces/default/pods/a\": dial tcp " +
                                        authority + ": connect: connection refused");
  EXPECT_EQ(sleeps_.waits().size(), 3u);

  Result<store::ObjectPtr> created = client->Create(client::kPods, Pod("a"));
  EXPECT_EQ(created.status().code(), Code::kServiceUnavailable);
  EXPECT_EQ(sleeps_.waits().size(), 3u);  // a POST is never repeated after a connection error
}

TEST_F(RestClientTest, RateLimiterMakesTheSecondRequestWait) {
  LiveServer server;
  RestClientOptions options = Options();
  options.qps = 1;
  options.burst = 1;
  auto client = Connect(server, options);
  ASSERT_EQ(client->Get(client::kPods, "default", "a").status().code(), Code::kNotFound);
  EXPECT_TRUE(sleeps_.waits().empty());  // the burst token
  ASSERT_EQ(client->Get(client::kPods, "default", "a").status().code(), Code::kNotFound);
  ASSERT_EQ(sleeps_.waits().size(), 1u);
  EXPECT_GT(sleeps_.waits()[0], 500ms);  // the next token is about a second away
  EXPECT_LE(sleeps_.waits()[0], 1s);
}

TEST_F(RestClientTest, HttpsWithTheServersCa) {
  LiveServer server(LiveServerOptions{.tls = true});
  auto client = Connect(server);
  ASSERT_TRUE(client->Create(client::kPods, Pod("a")).ok());
  ASSERT_TRUE(client->Get(client::kPods, "default", "a").ok());
  EXPECT_EQ(client->dial_count(), 1u);
}

TEST_F(RestClientTest, HttpsWithAnotherCaFailsOnceWithTheReason) {
  LiveServer server(LiveServerOptions{.tls = true});
  RestConfig config = server.config();
  config.tls.ca_pem = transport::CreateSelfSigned({}, RealClock().Now()).value().ca_pem;
  RestClientOptions options;
  options.sleep = sleeps_.Hook();
  auto client = RestClient::FromConfig(config, options).value();
  Result<store::ObjectPtr> got = client->Get(client::kPods, "default", "a");
  ASSERT_FALSE(got.ok());
  EXPECT_THAT(
      got.status().message(),
      HasSubstr(
          "tls: failed to verify certificate: x509: certificate signed by unknown authority"));
  EXPECT_THAT(got.status().message(),
              StartsWith("Get \"" + server.url() + "/api/v1/namespaces/default/pods/a\": "));
  EXPECT_TRUE(sleeps_.waits().empty());  // a certificate does not get better by retrying

  config.tls.insecure = true;  // insecure-skip-tls-verify
  EXPECT_EQ(
      RestClient::FromConfig(config).value()->Get(client::kPods, "default", "a").status().code(),
      Code::kNotFound);
}

TEST_F(RestClientTest, HttpsChecksTheServerName) {
  LiveServer server(LiveServerOptions{.tls = true});
  RestConfig config = server.config();
  config.tls.server_name = "kubernetes.default.svc";  // not among the certificate's names
  RestClientOptions options;
  options.sleep = sleeps_.Hook();
  Result<store::ObjectPtr> got =
      RestClient::FromConfig(config, options).value()->Get(client::kPods, "default", "a");
  EXPECT_THAT(got.status().message(),
              HasSubstr("x509: certificate is not valid for the server's name"));
  config.tls.server_name = "localhost";  // among them
  EXPECT_EQ(
      RestClient::FromConfig(config).value()->Get(client::kPods, "default", "a").status().code(),
      Code::kNotFound);
}

TEST_F(RestClientTest, BadConfigurationFailsAtCreate) {
  RestConfig config;
  config.server = "ftp://example.com";
  EXPECT_EQ(RestClient::FromConfig(config).status().message(),
            "invalid server URL \"ftp://example.com\": the scheme must be http or https");
  config.server = "https://127.0.0.1:6443";
  config.tls.ca_pem = "not a certificate";
  EXPECT_EQ(RestClient::FromConfig(config).status().message(),
            "TLS for https://127.0.0.1:6443: certificate-authority: no PEM certificate found");
}

}  // namespace
}  // namespace lws::rest
