// File: apiserver/access_review_test.cc
//
// TokenReview and (Self)SubjectAccessReview as controller-runtime's metrics filter sends them:
// answered with 201, never stored, listed in discovery with the create verb only.
#include "apiserver/access_review.h"

#include "apiserver/api_server_testing.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

constexpr const char* kTokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews";
constexpr const char* kSubjectAccessReviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

Json TokenReview(const std::string& token) {
  return {{"apiVersion", "authentication.k8s.io/v1"},
          {"kind", "TokenReview"},
          {"spec", {{"token", token}, {"audiences", {"https://kubernetes.default.svc"}}}}};
}

Json MetricsAccessReview() {
  return {{"apiVersion", "authorization.k8s.io/v1"},
          {"kind", "SubjectAccessReview"},
          {"spec",
           {{"user", "system:serviceaccount:monitoring:prometheus"},
            {"groups", {"system:serviceaccounts"}},
            {"nonResourceAttributes", {{"path", "/metrics"}, {"verb", "get"}}}}}};
}

// A made-up token is refused also by a server without a token of its own (it used to pass: a
// metrics endpoint asking this server then let anyone in).
TEST_F(ApiServerTest, TokenReviewWithoutServerTokenRefusesMadeUpTokens) {
  Reply reply = Post(kTokenReviews, TokenReview("anything"));
  ASSERT_EQ(reply.code, 201) << reply.body;
  EXPECT_EQ(reply.body["kind"], "TokenReview");
  EXPECT_FALSE(reply.body["status"].value("authenticated", false));
  EXPECT_EQ(reply.body["status"]["user"], Json::object());
  EXPECT_EQ(reply.body["status"]["error"], "invalid bearer token");
  EXPECT_TRUE(reply.body["metadata"]["creationTimestamp"].is_null());

  Reply empty = Post(kTokenReviews, TokenReview(""));
  EXPECT_EQ(empty.code, 400);
  EXPECT_EQ(empty.body["message"], "token is required for TokenReview in authentication");
}

TEST_F(ApiServerTest, TokenReviewChecksTheServerToken) {
  ApiServerOptions options;
  options.token = "s3cret";
  Open(std::move(options));
  auto review = [&](const std::string& token) {
    transport::HttpRequest request;
    request.method = "POST";
    request.target = kTokenReviews;
    request.body = TokenReview(token).dump();
    request.headers.Add("Content-Type", "application/json");
    request.headers.Add("Authorization", "Bearer s3cret");
    transport::HttpResponse response = server_->Handle(request);
    EXPECT_EQ(response.status, 201) << response.body;
    return Json::parse(response.body)["status"];
  };
  Json admin = review("s3cret");
  EXPECT_EQ(admin["authenticated"], true);
  EXPECT_EQ(admin["user"]["username"], "system:admin");
  EXPECT_EQ(admin["user"]["groups"], Json::array({"system:masters", "system:authenticated"}));
  EXPECT_EQ(admin["audiences"], Json::array({"https://kubernetes.default.svc"}));
  Json rejected = review("other");
  EXPECT_FALSE(rejected.value("authenticated", false));
  EXPECT_EQ(rejected["user"], Json::object());
  EXPECT_EQ(rejected["error"], "invalid bearer token");
}

TEST_F(ApiServerTest, SubjectAccessReviewsAreAllowedAndNotStored) {
  Reply reply = Post(kSubjectAccessReviews, MetricsAccessReview());
  ASSERT_EQ(reply.code, 201) << reply.body;
  EXPECT_EQ(reply.body["status"]["allowed"], true);
  EXPECT_EQ(reply.body["spec"]["nonResourceAttributes"]["path"], "/metrics");
  EXPECT_EQ(Get(kSubjectAccessReviews).code, 405);
  EXPECT_EQ(Delete(std::string(kSubjectAccessReviews) + "/x").code, 405);

  Json self = {{"apiVersion", "authorization.k8s.io/v1"},
               {"kind", "SelfSubjectAccessReview"},
               {"spec", {{"resourceAttributes", {{"verb", "create"}, {"resource", "pods"}}}}}};
  Reply can_i = Post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", self);
  ASSERT_EQ(can_i.code, 201) << can_i.body;
  EXPECT_EQ(can_i.body["status"]["allowed"], true);
}

TEST_F(ApiServerTest, SubjectAccessReviewValidation) {
  Json review = MetricsAccessReview();
  review["spec"].erase("nonResourceAttributes");
  review["spec"].erase("user");
  review["spec"].erase("groups");
  Reply reply = Post(kSubjectAccessReviews, review);
  EXPECT_EQ(reply.code, 422);
  EXPECT_EQ(reply.body["message"],
            "SubjectAccessReview.authorization.k8s.io \"\" is invalid: [spec.resourceAttributes: "
            "Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes "
            "must be specified, spec.user: Invalid value: \"\": at least one of user or group "
            "must be specified]");
}

TEST_F(ApiServerTest, ReviewsInDiscoveryCreateOnly) {
  Reply authn = Get("/apis/authentication.k8s.io/v1");
  ASSERT_EQ(authn.code, 200) << authn.body;
  ASSERT_EQ(authn.body["resources"].size(), 2u);
  EXPECT_EQ(authn.body["resources"][0]["name"], "selfsubjectreviews");
  EXPECT_EQ(authn.body["resources"][1]["name"], "tokenreviews");
  EXPECT_EQ(authn.body["resources"][1]["namespaced"], false);
  EXPECT_EQ(authn.body["resources"][1]["verbs"], Json::array({"create"}));
  Reply authz = Get("/apis/authorization.k8s.io/v1");
  ASSERT_EQ(authz.code, 200) << authz.body;
  std::vector<std::string> names;
  for (const Json& r : authz.body["resources"]) names.push_back(r["name"].get<std::string>());
  EXPECT_EQ(names, (std::vector<std::string>{"selfsubjectaccessreviews", "selfsubjectrulesreviews",
                                             "subjectaccessreviews"}));
}

}  // namespace
}  // namespace lws::apiserver::testing
