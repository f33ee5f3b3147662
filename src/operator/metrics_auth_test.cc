// The metrics filter against an API server whose reviews a test answers.
#include "operator/metrics_auth.h"

#include <gtest/gtest.h>

#include "client/local/local_testing.h"
#include "operator/client_testing.h"

namespace lws::op {
namespace {

using std::chrono::seconds;
using transport::HttpRequest;
using transport::HttpResponse;

constexpr char kScraper[] = "system:serviceaccount:monitoring:prometheus";

HttpRequest Scrape(std::string authorization) {
  HttpRequest request;
  request.method = "GET";
  request.target = "/metrics";
  if (!authorization.empty()) request.headers.Add("Authorization", std::move(authorization));
  return request;
}

class MetricsAuthTest : public ::testing::Test {
 protected:
  MetricsAuthTest() {
    reviews_.on_write = [this](std::string_view, const client::Resource& r,
                               const Json& object) -> std::optional<Result<Json>> {
      if (r.resource == "tokenreviews") return AnswerTokenReview(object);
      if (r.resource == "subjectaccessreviews") return AnswerAccessReview(object);
      return std::nullopt;
    };
  }

  Result<Json> AnswerTokenReview(const Json& review) {
    if (api_down_) return Status(Code::kServiceUnavailable, "injected");
    Json answer = review;
    std::string token = review["spec"]["token"];
    if (token == "prometheus-token" || token == "other-token") {
      answer["status"] = {{"authenticated", true},
                          {"user",
                           {{"username", token == "other-token" ? "alice" : kScraper},
                            {"uid", "u-1"},
                            {"groups", {"system:serviceaccounts", "system:authenticated"}},
                            {"extra", {{"authentication.kubernetes.io/pod-name", {"prom-0"}}}}}}};
    } else {
      answer["status"] = {{"authenticated", false}, {"error", "invalid bearer token"}};
    }
    return answer;
  }

  Result<Json> AnswerAccessReview(const Json& review) {
    if (api_down_) return Status(Code::kServiceUnavailable, "injected");
    last_access_review_ = review;
    Json answer = review;
    bool allowed =
        review["spec"]["user"] == kScraper &&
        review["spec"]["nonResourceAttributes"] == Json{{"path", "/metrics"}, {"verb", "get"}};
    answer["status"] = {{"allowed", allowed}};
    return answer;
  }

  client::testing::ControlPlane cp_;
  client::LocalClient local_ = cp_.Client("lws");
  testing::InterceptingClient reviews_{&local_};
  ManualClock clock_;
  MetricsAuthorizer authorizer_{&reviews_, &clock_};
  bool api_down_ = false;
  Json last_access_review_;
};

TEST_F(MetricsAuthTest, AllowedScraperPassesAndTheReviewsAskTheRightQuestion) {
  EXPECT_EQ(authorizer_.Check(Scrape("Bearer prometheus-token")), std::nullopt);
  EXPECT_EQ(last_access_review_["apiVersion"], "authorization.k8s.io/v1");
  EXPECT_EQ(last_access_review_["kind"], "SubjectAccessReview");
  EXPECT_EQ(last_access_review_["spec"], Json::parse(R"({
      "user":"system:serviceaccount:monitoring:prometheus","uid":"u-1",
      "groups":["system:serviceaccounts","system:authenticated"],
      "extra":{"authentication.kubernetes.io/pod-name":["prom-0"]},
      "nonResourceAttributes":{"path":"/metrics","verb":"get"}})"));
  // "bearer" in any case.
  EXPECT_EQ(authorizer_.Check(Scrape("bEaReR prometheus-token")), std::nullopt);
}

TEST_F(MetricsAuthTest, MissingOrBadTokensAre401) {
  for (const char* header : {"", "Basic cHJvbTpzZWNyZXQ=", "Bearer ", "Bearer wrong-token"}) {
    std::optional<HttpResponse> refused = authorizer_.Check(Scrape(header));
    ASSERT_TRUE(refused.has_value()) << header;
    EXPECT_EQ(refused->status, 401) << header;
    EXPECT_EQ(refused->body, "Unauthorized\n");
    EXPECT_EQ(refused->headers.Get("Content-Type"), "text/plain; charset=utf-8");
  }
}

TEST_F(MetricsAuthTest, UserWithoutTheRuleIs403) {
  std::optional<HttpResponse> refused = authorizer_.Check(Scrape("Bearer other-token"));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 403);
  EXPECT_EQ(refused->body, "Authorization denied for user alice\n");
}

TEST_F(MetricsAuthTest, FailedReviewsAre500AndNotCached) {
  api_down_ = true;
  std::optional<HttpResponse> refused = authorizer_.Check(Scrape("Bearer prometheus-token"));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 500);
  EXPECT_EQ(refused->body, "Authentication failed\n");
  api_down_ = false;
  EXPECT_EQ(authorizer_.Check(Scrape("Bearer prometheus-token")), std::nullopt);

  // Authenticated (cached), then the authorization review fails.
  clock_.Advance(std::chrono::minutes(6));
  reviews_.on_write = [this](std::string_view, const client::Resource& r,
                             const Json& object) -> std::optional<Result<Json>> {
    if (r.resource == "tokenreviews") return AnswerTokenReview(object);
    return Result<Json>(Status(Code::kServiceUnavailable, "injected"));
  };
  refused = authorizer_.Check(Scrape("Bearer prometheus-token"));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 500);
  EXPECT_EQ(refused->body, "Authorization for user " + std::string(kScraper) + " failed\n");
}

TEST_F(MetricsAuthTest, ResultsAreCachedForTheirTtl) {
  ASSERT_EQ(authorizer_.Check(Scrape("Bearer prometheus-token")), std::nullopt);
  ASSERT_TRUE(authorizer_.Check(Scrape("Bearer other-token")).has_value());
  EXPECT_EQ(authorizer_.token_reviews(), 2u);
  EXPECT_EQ(authorizer_.access_reviews(), 2u);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(authorizer_.Check(Scrape("Bearer prometheus-token")), std::nullopt);
    ASSERT_TRUE(authorizer_.Check(Scrape("Bearer other-token")).has_value());
  }
  EXPECT_EQ(authorizer_.token_reviews(), 2u);
  EXPECT_EQ(authorizer_.access_reviews(), 2u);
  // After 30 s the denial is asked again; the allowance (5 min) and the tokens (1 min) hold.
  clock_.Advance(seconds(30));
  authorizer_.Check(Scrape("Bearer prometheus-token"));
  authorizer_.Check(Scrape("Bearer other-token"));
  EXPECT_EQ(authorizer_.token_reviews(), 2u);
  EXPECT_EQ(authorizer_.access_reviews(), 3u);
  clock_.Advance(seconds(30));
  authorizer_.Check(Scrape("Bearer prometheus-token"));
  EXPECT_EQ(authorizer_.token_reviews(), 3u);
  EXPECT_EQ(authorizer_.access_reviews(), 3u);
}

TEST_F(MetricsAuthTest, FilterWrapsTheHandler) {
  auto shared = std::make_shared<MetricsAuthorizer>(&reviews_, &clock_);
  int served = 0;
  transport::HttpHandler handler =
      WithAuthenticationAndAuthorization(shared, [&](const HttpRequest&) {
        ++served;
        return HttpResponse{};
      });
  EXPECT_EQ(handler(Scrape("")).status, 401);
  EXPECT_EQ(served, 0);
  EXPECT_EQ(handler(Scrape("Bearer prometheus-token")).status, 200);
  EXPECT_EQ(served, 1);
}

TEST(ReviewCodecTest, MalformedAnswersAreBadRequest) {
  EXPECT_EQ(
      UserFromTokenReview(Json::parse(R"({"status":{"authenticated":true,"user":{"groups":"x"}}})"))
          .status()
          .code(),
      Code::kBadRequest);
  EXPECT_EQ(UserFromTokenReview(Json::array()).status().code(), Code::kBadRequest);
  Result<std::optional<UserInfo>> none = UserFromTokenReview(Json::parse(R"({"status":{}})"));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(
      *AllowedBySubjectAccessReview(Json::parse(R"({"status":{"allowed":true,"denied":true}})")),
      false);
  EXPECT_EQ(*AllowedBySubjectAccessReview(Json::parse(R"({})")), false);
  EXPECT_EQ(AllowedBySubjectAccessReview(Json::parse(R"({"status":3})")).status().code(),
            Code::kBadRequest);
}

}  // namespace
}  // namespace lws::op
