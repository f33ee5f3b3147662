#include "operator/endpoints.h"

#include <gtest/gtest.h>

#include "operator/metrics_registry.h"

namespace lws::op {
namespace {

using transport::HttpRequest;
using transport::HttpResponse;

HttpResponse Get(const transport::HttpHandler& handler, std::string target) {
  HttpRequest request;
  request.method = "GET";
  request.target = std::move(target);
  return handler(request);
}

class HealthProbeTest : public ::testing::Test {
 protected:
  HealthChecks liveness_;
  HealthChecks readiness_;
  transport::HttpHandler handler_ =
      HealthProbeHandler("/healthz", &liveness_, "/readyz", &readiness_);
};

TEST_F(HealthProbeTest, WithoutChecksPingAnswersOk) {
  HttpResponse r = Get(handler_, "/healthz");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "ok");
  EXPECT_EQ(r.headers.Get("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_EQ(r.headers.Get("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(Get(handler_, "/healthz/ping").body, "ok");
  EXPECT_EQ(Get(handler_, "/readyz?verbose").body, "[+]ping ok\nhealthz check passed\n");
}

TEST_F(HealthProbeTest, VerboseListsChecksInNameOrder) {
  readiness_.Add("readyz", Ping);
  readiness_.Add("certs", Ping);
  HttpResponse r = Get(handler_, "/readyz?verbose=1");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "[+]certs ok\n[+]readyz ok\nhealthz check passed\n");
  EXPECT_EQ(Get(handler_, "/readyz/").body, "ok");
}

TEST_F(HealthProbeTest, FailingCheckIs500WithTheReasonWithheld) {
  bool certs_ready = false;
  readiness_.Add("readyz", Ping);
  readiness_.Add("certs", [&] {
    return certs_ready ? Status::Ok() : Status::Internal("certificates are not ready");
  });
  HttpResponse r = Get(handler_, "/readyz");
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body, "[-]certs failed: reason withheld\n[+]readyz ok\nhealthz check failed\n");
  HttpResponse one = Get(handler_, "/readyz/certs");
  EXPECT_EQ(one.status, 500);
  EXPECT_EQ(one.body, "internal server error: certificates are not ready\n");
  // Liveness is a separate set: unaffected.
  EXPECT_EQ(Get(handler_, "/healthz").status, 200);
  certs_ready = true;
  EXPECT_EQ(Get(handler_, "/readyz").status, 200);
}

TEST_F(HealthProbeTest, ExcludedChecksAndUnknownExcludes) {
  readiness_.Add("readyz", Ping);
  readiness_.Add("certs", [] { return Status::Internal("no"); });
  // Passing without ?verbose is a bare "ok", unknown excludes or not.
  EXPECT_EQ(Get(handler_, "/readyz?exclude=certs&exclude=nope").body, "ok");
  HttpResponse r = Get(handler_, "/readyz?exclude=certs&exclude=nope&exclude=x%2By&verbose");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body,
            "[+]certs excluded: ok\n[+]readyz ok\n"
            "warn: some health checks cannot be excluded: no matches for \"nope\",\"x+y\"\n"
            "healthz check passed\n");
}

TEST_F(HealthProbeTest, UnknownPathsAndChecksAre404) {
  EXPECT_EQ(Get(handler_, "/metrics").status, 404);
  EXPECT_EQ(Get(handler_, "/readyzz").status, 404);
  HttpResponse r = Get(handler_, "/readyz/unknown");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, "404 page not found\n");
}

TEST(HealthProbeHandlerTest, ConfiguredEndpointNames) {
  HealthChecks live;
  HealthChecks ready;
  ready.Add("readyz", [] { return Status::Internal("not yet"); });
  transport::HttpHandler handler = HealthProbeHandler("/live", &live, "/ready", &ready);
  EXPECT_EQ(Get(handler, "/live").status, 200);
  EXPECT_EQ(Get(handler, "/ready").status, 500);
  EXPECT_EQ(Get(handler, "/healthz").status, 404);
}

TEST(MetricsHandlerTest, ServesTheExpositionAtMetricsOnly) {
  Registry registry;
  registry.Counter("c_total", "help", {})->Inc({});
  transport::HttpHandler handler = MetricsHandler(&registry);
  HttpResponse r = Get(handler, "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers.Get("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(r.body, "# HELP c_total help\n# TYPE c_total counter\nc_total 1\n");
  EXPECT_EQ(Get(handler, "/metrics?x=1").status, 200);
  EXPECT_EQ(Get(handler, "/").status, 404);
}

TEST(BindAddressTest, GoListenForms) {
  struct Case {
    const char* text;
    std::optional<BindAddress> want;
  };
  for (const Case& c :
       {Case{":8443", BindAddress{"0.0.0.0", 8443}}, Case{"0", std::nullopt},
        Case{"", std::nullopt}, Case{"127.0.0.1:8081", BindAddress{"127.0.0.1", 8081}},
        Case{"localhost:0", BindAddress{"127.0.0.1", 0}},
        Case{"[::1]:8443", BindAddress{"::1", 8443}},
        Case{"0.0.0.0:65535", BindAddress{"0.0.0.0", 65535}}}) {
    Result<std::optional<BindAddress>> parsed = ParseBindAddress(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, c.want) << c.text;
  }
  for (const char* bad : {"8443", ":65536", ":-1", ":port", "::1:8443", "example.com:80", ":"}) {
    Result<std::optional<BindAddress>> parsed = ParseBindAddress(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), Code::kBadRequest);
    EXPECT_NE(parsed.status().message().find(std::string("\"") + bad + "\""), std::string::npos)
        << parsed.status().message();
  }
}

TEST(TargetTest, PathAndRepeatedQueryValuesAreDecoded) {
  EXPECT_EQ(TargetPath("/ready%7A?verbose"), "/readyz");
  EXPECT_EQ(QueryValues("/x?a=1&b&a=two+words&a=%41", "a"),
            (std::vector<std::string>{"1", "two words", "A"}));
  EXPECT_EQ(QueryValues("/x?b", "b"), (std::vector<std::string>{""}));
  EXPECT_TRUE(QueryValues("/x", "b").empty());
}

}  // namespace
}  // namespace lws::op
