// Authentication and RBAC through ApiServer::Handle, with the admin token set:
// anonymous and ServiceAccount callers get exactly what the RBAC objects grant,
// with kube-apiserver's 401 and 403 answers; tokens come from the TokenRequest
// API and die with their ServiceAccount.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apiserver/api_server_testing.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

class AuthTest : public ApiServerTest {
 protected:
  void SetUp() override { Open({.token = "admin-token"}); }

  // A request with `Authorization: Bearer <token>` ("" : none).
  Reply As(const std::string& token, const std::string& method, const std::string& target,
           const Json& body = nullptr) {
    transport::HttpRequest request;
    request.method = method;
    request.target = target;
    if (!body.is_null()) request.body = body.dump();
    request.headers.Add("Content-Type", "application/json");
    if (!token.empty()) request.headers.Add("Authorization", "Bearer " + token);
    Reply reply;
    reply.raw = server_->Handle(request);
    reply.code = reply.raw.status;
    if (!reply.raw.stream) reply.body = Json::parse(reply.raw.body, nullptr, false);
    return reply;
  }
  Reply Admin(const std::string& method, const std::string& target, const Json& body = nullptr) {
    return As("admin-token", method, target, body);
  }

  // A ServiceAccount `name` in `ns` and a token for it from the TokenRequest
  // API.
  std::string TokenFor(const std::string& ns, const std::string& name) {
    if (ns != "default") {
      Reply made = Admin("POST", "/api/v1/namespaces", {{"metadata", {{"name", ns}}}});
      EXPECT_EQ(made.code, 201) << made.raw.body;
    }
    Reply account = Admin("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts",
                          {{"metadata", {{"name", name}}}});
    EXPECT_EQ(account.code, 201) << account.raw.body;
    Reply issued = Admin("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts/" + name + "/token",
                         {{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenRequest"}});
    EXPECT_EQ(issued.code, 201) << issued.raw.body;
    return issued.body["status"]["token"].get<std::string>();
  }
};

TEST_F(AuthTest, AnonymousMayReadVersionAndHealthOnly) {
  EXPECT_EQ(As("", "GET", "/version").code, 200);
  EXPECT_EQ(As("", "GET", "/readyz").code, 200);
  Reply pods = As("", "GET", kPods);
  EXPECT_EQ(pods.code, 403);
  EXPECT_EQ(pods.body["reason"], "Forbidden");
  EXPECT_EQ(pods.body["message"],
            "pods is forbidden: User \"system:anonymous\" cannot list resource "
            "\"pods\" in API "
            "group \"\" in the namespace \"default\"");
  EXPECT_EQ(pods.body["details"], Json({{"kind", "pods"}}));
  Reply api = As("", "GET", "/api");
  EXPECT_EQ(api.code, 403);
  EXPECT_EQ(api.body["message"], "forbidden: User \"system:anonymous\" cannot get path \"/api\"");
}

TEST_F(AuthTest, UnknownTokensAreUnauthorized) {
  for (const char* token : {"made-up", "a.b.c", "eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0."}) {
    Reply reply = As(token, "GET", "/version");
    EXPECT_EQ(reply.code, 401) << token;
    EXPECT_EQ(reply.body["reason"], "Unauthorized");
  }
  EXPECT_EQ(Admin("GET", kPods).code, 200);
}

TEST_F(AuthTest, ServiceAccountGetsWhatItsBindingsGrant) {
  const std::string token = TokenFor("default", "reader");
  Reply refused = As(token, "GET", kPods);
  EXPECT_EQ(refused.code, 403);
  EXPECT_EQ(refused.body["message"],
            "pods is forbidden: User \"system:serviceaccount:default:reader\" "
            "cannot list resource "
            "\"pods\" in API group \"\" in the namespace \"default\"");
  EXPECT_EQ(As(token, "GET", "/apis").code, 200);  // system:discovery
  Reply bound = Admin(
      "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
      {{"metadata", {{"name", "reader-view"}}},
       {"roleRef",
        {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "view"}}},
       {"subjects", {{{"kind", "ServiceAccount"}, {"name", "reader"}, {"namespace", "default"}}}}});
  ASSERT_EQ(bound.code, 201) << bound.raw.body;
  EXPECT_EQ(As(token, "GET", kPods).code, 200);
  EXPECT_EQ(As(token, "GET", "/api/v1/namespaces/kube-system/pods").code, 403);
  Reply create = As(token, "POST", kPods, {{"metadata", {{"name", "p"}}}});
  EXPECT_EQ(create.code, 403);
  EXPECT_EQ(As(token, "GET", "/api/v1/namespaces/default/secrets").code, 403);
  // Deleting the ServiceAccount revokes its tokens.
  EXPECT_EQ(Admin("DELETE", "/api/v1/namespaces/default/serviceaccounts/reader").code, 200);
  EXPECT_EQ(As(token, "GET", kPods).code, 401);
}

TEST_F(AuthTest, TokenRequestValidatesAndTokenReviewChecks) {
  Reply missing =
      Admin("POST", "/api/v1/namespaces/default/serviceaccounts/nobody/token", Json::object());
  EXPECT_EQ(missing.code, 404);
  EXPECT_EQ(missing.body["message"], "serviceaccounts \"nobody\" not found");
  Admin("POST", "/api/v1/namespaces/default/serviceaccounts", {{"metadata", {{"name", "sa"}}}});
  Reply short_lived = Admin("POST", "/api/v1/namespaces/default/serviceaccounts/sa/token",
                            {{"spec", {{"expirationSeconds", 60}}}});
  EXPECT_EQ(short_lived.code, 422);
  EXPECT_EQ(short_lived.body["message"],
            "TokenRequest.authentication.k8s.io \"sa\" is invalid: "
            "spec.expirationSeconds: Invalid "
            "value: 60: may not specify a duration less than 10 minutes");
  Reply issued = Admin("POST", "/api/v1/namespaces/default/serviceaccounts/sa/token",
                       {{"spec", {{"expirationSeconds", 600}}}});
  ASSERT_EQ(issued.code, 201);
  const std::string token = issued.body["status"]["token"];
  EXPECT_EQ(issued.body["spec"]["audiences"],
            Json({"https://kubernetes.default.svc.cluster.local"}));
  auto review = [&](const std::string& t, Json audiences = nullptr) {
    Json spec = {{"token", t}};
    if (!audiences.is_null()) spec["audiences"] = audiences;
    return Admin("POST", "/apis/authentication.k8s.io/v1/tokenreviews",
                 {{"apiVersion", "authentication.k8s.io/v1"},
                  {"kind", "TokenReview"},
                  {"spec", spec}})
        .body["status"];
  };
  Json ok = review(token);
  EXPECT_EQ(ok["authenticated"], true);
  EXPECT_EQ(ok["user"]["username"], "system:serviceaccount:default:sa");
  EXPECT_EQ(ok["user"]["groups"], Json({"system:serviceaccounts", "system:serviceaccounts:default",
                                        "system:authenticated"}));
  EXPECT_TRUE(review("made-up").value("authenticated", false) == false);
  EXPECT_FALSE(review("made-up")["error"].get<std::string>().empty());
  EXPECT_FALSE(review(token, {"other-audience"}).value("authenticated", false));
  EXPECT_EQ(As(token, "GET", "/apis").code, 200);
  // A token for another audience (`kubectl create token --audience vault`) is not a credential
  // for the API server, as kube-apiserver's audience-checking authenticator refuses it; a
  // TokenReview for that audience still accepts it.
  Reply vault = Admin("POST", "/api/v1/namespaces/default/serviceaccounts/sa/token",
                      {{"spec", {{"audiences", {"vault"}}}}});
  ASSERT_EQ(vault.code, 201) << vault.raw.body;
  const std::string vault_token = vault.body["status"]["token"];
  Reply refused = As(vault_token, "GET", "/apis");
  EXPECT_EQ(refused.code, 401);
  EXPECT_EQ(refused.body["message"], "Unauthorized");
  EXPECT_EQ(review(vault_token)["error"],
            "token audiences [vault] is invalid for the target audiences "
            "[https://kubernetes.default.svc.cluster.local]");
  EXPECT_EQ(review(vault_token, {"vault"})["audiences"], Json({"vault"}));
  // Forged: the payload changed under the signature.
  std::string forged = token;
  forged[forged.find('.') + 5] ^= 1;
  EXPECT_FALSE(review(forged).value("authenticated", false));
  // Expired: 10 minutes and the minute of leeway later.
  clock_.Advance(std::chrono::seconds(600 + 61));
  EXPECT_EQ(review(token)["error"], "invalid bearer token, the token has expired");
}

TEST_F(AuthTest, AccessReviewsAnswerFromRbac) {
  const std::string token = TokenFor("default", "asker");
  auto self = [&](const std::string& verb, const std::string& resource) {
    return As(token, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
              {{"spec",
                {{"resourceAttributes",
                  {{"namespace", "default"}, {"verb", verb}, {"resource", resource}}}}}})
        .body["status"];
  };
  EXPECT_EQ(self("list", "pods")["allowed"], false);
  Reply sar = Admin("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews",
                    {{"spec",
                      {{"user", "someone"},
                       {"groups", {"system:masters"}},
                       {"resourceAttributes", {{"verb", "delete"}, {"resource", "nodes"}}}}}});
  EXPECT_EQ(sar.body["status"]["allowed"], true);
  Reply whoami =
      As(token, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", Json::object());
  EXPECT_EQ(whoami.body["status"]["userInfo"]["username"], "system:serviceaccount:default:asker");
  Reply rules = As(token, "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
                   {{"spec", {{"namespace", "default"}}}});
  EXPECT_EQ(rules.code, 201);
  EXPECT_FALSE(rules.body["status"]["nonResourceRules"].empty());
}

TEST_F(AuthTest, BootstrapPolicyIsStored) {
  Reply roles = Admin("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/cluster-admin");
  EXPECT_EQ(roles.code, 200);
  EXPECT_EQ(roles.body["metadata"]["labels"]["kubernetes.io/bootstrapping"], "rbac-defaults");
  EXPECT_EQ(Admin("GET",
                  "/apis/rbac.authorization.k8s.io/v1/"
                  "clusterrolebindings/system:discovery")
                .code,
            200);
}

// RBAC's escalation check (upstream's policybased storages): a namespace admin may grant what it
// holds, not more.
TEST_F(AuthTest, NobodyGrantsWhatItDoesNotHold) {
  const std::string token = TokenFor("team", "lead");
  const std::string rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/team/";
  auto binding = [](const std::string& name, const std::string& kind, const std::string& role) {
    return Json{
        {"metadata", {{"name", name}}},
        {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", kind}, {"name", role}}},
        {"subjects", {{{"kind", "ServiceAccount"}, {"name", "lead"}, {"namespace", "team"}}}}};
  };
  ASSERT_EQ(
      Admin("POST", rbac + "rolebindings", binding("lead-admin", "ClusterRole", "admin")).code,
      201);
  // What admin holds in team: granted; cluster-admin: refused with upstream's words.
  EXPECT_EQ(As(token, "POST", rbac + "rolebindings", binding("b-view", "ClusterRole", "view")).code,
            201);
  Reply escalate =
      As(token, "POST", rbac + "rolebindings", binding("b-root", "ClusterRole", "cluster-admin"));
  EXPECT_EQ(escalate.code, 403);
  EXPECT_EQ(escalate.body["reason"], "Forbidden");
  EXPECT_THAT(escalate.body["message"].get<std::string>(),
              ::testing::StartsWith(
                  "rolebindings.rbac.authorization.k8s.io \"b-root\" is forbidden: "
                  "user \"system:serviceaccount:team:lead\" (groups=[\"system:serviceaccounts\" "
                  "\"system:serviceaccounts:team\" \"system:authenticated\"]) is attempting "
                  "to grant RBAC permissions not currently held:\n{APIGroups:[\"*\"], "
                  "Resources:[\"*\"], Verbs:[\"*\"]}"));
  auto role = [](const std::string& name, Json rules) {
    return Json{{"metadata", {{"name", name}}}, {"rules", std::move(rules)}};
  };
  EXPECT_EQ(
      As(token, "POST", rbac + "roles",
         role("pods", {{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get", "list"}}}}))
          .code,
      201);
  Reply nodes = As(
      token, "POST", rbac + "roles",
      role("nodes",
           {{{"apiGroups", {""}}, {"resources", {"nodes", "pods"}}, {"verbs", {"get", "list"}}}}));
  EXPECT_EQ(nodes.code, 403);
  EXPECT_THAT(nodes.body["message"].get<std::string>(),
              ::testing::EndsWith("not currently held:\n{APIGroups:[\"\"], Resources:[\"nodes\"], "
                                  "Verbs:[\"get\" \"list\"]}"));
  // The administrator is never checked.
  EXPECT_EQ(
      Admin("POST", rbac + "rolebindings", binding("b-root", "ClusterRole", "cluster-admin")).code,
      201);
}

}  // namespace
}  // namespace lws::apiserver::testing
