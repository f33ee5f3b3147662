// The LWS webhooks through the embedded API server's whole write pipeline (ApiServer::Handle):
// defaulting, validation on create and update, subresources left alone, dry-run.
#include "controllers/admission/lws_webhooks.h"

#include <gtest/gtest.h>

#include "apiserver/api_server_testing.h"

namespace lws::controllers {
namespace {

using api::Json;
using apiserver::testing::kLws;
using apiserver::testing::LwsJson;
using apiserver::testing::Reply;

constexpr const char* kDenied = "admission webhook \"vleaderworkerset.kb.io\" denied the request: ";

class LwsWebhookTest : public apiserver::testing::ApiServerTest {
 protected:
  void SetUp() override { OpenWithWebhooks(true); }

  void OpenWithWebhooks(bool webhooks) {
    apiserver::ApiServerOptions options;
    if (webhooks) InstallLwsWebhooks(&options.admission);
    Open(std::move(options));
  }

  static std::string Item(const std::string& name) { return std::string(kLws) + "/" + name; }

  // Stores `lws` without any admission, as if written before the webhooks were installed.
  void StoreDirectly(Json lws) {
    lws["metadata"]["namespace"] = "default";
    const api::ResourceInfo* info =
        server_->served()->registry.Find("leaderworkerset.x-k8s.io", "v1", "leaderworkersets");
    ASSERT_NE(info, nullptr);
    ASSERT_TRUE(store_->Create(*info, std::move(lws)).ok());
  }
};

TEST_F(LwsWebhookTest, CreateAppliesWebhookDefaults) {
  Reply reply = Post(kLws, LwsJson("demo"));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  const Json& spec = reply.body["spec"];
  EXPECT_EQ(spec["rolloutStrategy"],
            Json::parse(R"({"type":"RollingUpdate","rollingUpdateConfiguration":
                            {"maxUnavailable":1,"maxSurge":0,"partition":0}})"));
  EXPECT_EQ(spec["networkConfig"], Json::parse(R"({"subdomainPolicy":"Shared"})"));
  EXPECT_EQ(spec["leaderWorkerTemplate"]["restartPolicy"], "RecreateGroupOnPodRestart");
  EXPECT_EQ(spec["startupPolicy"], "LeaderCreated");
  // Stored as answered.
  EXPECT_EQ(Get(Item("demo")).body["spec"], spec);
}

TEST_F(LwsWebhookTest, WithoutWebhooksOnlyTheSchemaDefaultsApply) {
  OpenWithWebhooks(false);
  Reply reply = Post(kLws, LwsJson("demo"));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_FALSE(reply.body["spec"].contains("networkConfig"));
  EXPECT_FALSE(reply.body["spec"].contains("rolloutStrategy"));
}

TEST_F(LwsWebhookTest, DeprecatedDefaultRestartPolicyBecomesNone) {
  Json lws = LwsJson("demo");
  lws["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "Default";
  Reply reply = Post(kLws, lws);
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_EQ(reply.body["spec"]["leaderWorkerTemplate"]["restartPolicy"], "None");
}

// The mutating webhook runs before the schema check (spec 3.3): it fills networkConfig's
// required subdomainPolicy, which the schema alone rejects.
TEST_F(LwsWebhookTest, MutationRunsBeforeSchemaValidation) {
  Json lws = LwsJson("demo");
  lws["spec"]["networkConfig"] = Json::object();
  Reply reply = Post(kLws, lws);
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_EQ(reply.body["spec"]["networkConfig"]["subdomainPolicy"], "Shared");

  OpenWithWebhooks(false);
  reply = Post(kLws, lws);
  EXPECT_EQ(reply.code, 422);
  EXPECT_EQ(reply.body["details"]["causes"][0]["field"], "spec.networkConfig.subdomainPolicy");
}

struct DeniedCase {
  std::string scenario;
  std::function<void(Json&)> change;
  std::string message;  // after `admission webhook "vleaderworkerset.kb.io" denied the request: `
};

TEST_F(LwsWebhookTest, InvalidCreatesAreDeniedWithUpstreamMessages) {
  const std::string kRolling = "spec.rolloutStrategy.rollingUpdateConfiguration";
  const std::string kSubGroupSize = "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize";
  auto rolling = [](Json& lws, Json max_unavailable, Json max_surge) {
    lws["spec"]["rolloutStrategy"] = {
        {"type", "RollingUpdate"},
        {"rollingUpdateConfiguration",
         {{"maxUnavailable", max_unavailable}, {"maxSurge", max_surge}}}};
  };
  const std::vector<DeniedCase> cases = {
      {"S70 name is not a DNS-1035 label", [](Json& l) { l["metadata"]["name"] = "2cube"; },
       "metadata.name: Invalid value: \"2cube\": a DNS-1035 label must consist of lower case "
       "alphanumeric characters or '-', start with an alphabetic character, and end with an "
       "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
       "'[a-z]([-a-z0-9]*[a-z0-9])?')"},
      {"S71 replicas x size overflows int32",
       [](Json& l) {
         l["spec"]["replicas"] = 100000;
         l["spec"]["leaderWorkerTemplate"]["size"] = 1000000;
       },
       "spec.replicas: Invalid value: 100000: the product of replicas and worker replicas must "
       "not exceed 2147483647"},
      {"S77 subGroupSize larger than size",
       [](Json& l) {
         l["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] = {{"subGroupSize", 3}};
       },
       "[" + kSubGroupSize +
           ": Invalid value: 3: size or size - 1 must be divisible by "
           "subGroupSize, " +
           kSubGroupSize + ": Invalid value: 3: subGroupSize cannot be larger than size]"},
      {"S78 LeaderExcluded needs size-1 divisible",
       [](Json& l) {
         l["spec"]["leaderWorkerTemplate"]["size"] = 4;
         l["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] = {
             {"subGroupSize", 2}, {"subGroupPolicyType", "LeaderExcluded"}};
       },
       kSubGroupSize + ": Invalid value: 2: size-1 must be divisible by subGroupSize when using "
                       "LeaderExcluded"},
      {"S97 maxUnavailable 200%", [&](Json& l) { rolling(l, "200%", 0); },
       kRolling + ".maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, "
                  "StrVal:\"200%\"}: must not be greater than 100%"},
      {"S101 maxSurge -1", [&](Json& l) { rolling(l, 1, -1); },
       kRolling + ".maxSurge: Invalid value: -1: must be greater than or equal to 0"},
      {"S102 maxUnavailable 0 and maxSurge 0", [&](Json& l) { rolling(l, 0, 0); },
       kRolling + ".maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, "
                  "StrVal:\"\"}: must not be 0 when `maxSurge` is 0"},
      {"S105 replicas 2, 25% rounds down to 0", [&](Json& l) { rolling(l, "25%", 0); },
       kRolling + ".maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, "
                  "StrVal:\"25%\"}: must not be 0 when `maxSurge` is 0"},
      {"S106 partition -1",
       [](Json& l) {
         l["spec"]["rolloutStrategy"] = {{"rollingUpdateConfiguration", {{"partition", -1}}}};
       },
       kRolling + ".partition: Invalid value: -1: must be greater than or equal to 0"},
      {"S118 subgroup-exclusive-topology without subGroupPolicy",
       [](Json& l) {
         l["metadata"]["annotations"] = {
             {"leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology", "rack"}};
       },
       "metadata.annotations.leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology: Invalid "
       "value: \"rack\": cannot have subgroup-exclusive-topology without subGroupSize set"},
  };
  for (const DeniedCase& c : cases) {
    SCOPED_TRACE(c.scenario);
    Json lws = LwsJson("demo");
    c.change(lws);
    Reply reply = Post(kLws, lws);
    EXPECT_EQ(reply.code, 403);
    EXPECT_EQ(reply.body["reason"], "Forbidden");
    EXPECT_EQ(reply.body["message"], kDenied + c.message);
    // controller-runtime's Denied carries no details, hence no causes.
    EXPECT_FALSE(reply.body.contains("details")) << reply.body.dump();
    EXPECT_EQ(Get(Item(lws["metadata"]["name"])).code, 404);
  }
}

TEST_F(LwsWebhookTest, AcceptedEdgeCases) {
  const std::vector<std::pair<std::string, std::function<void(Json&)>>> cases = {
      {"S96 maxUnavailable above replicas",
       [](Json& l) {
         l["spec"]["rolloutStrategy"] = {{"rollingUpdateConfiguration", {{"maxUnavailable", 10}}}};
       }},
      {"S104 replicas 0 with 25%/25%",
       [](Json& l) {
         l["spec"]["replicas"] = 0;
         l["spec"]["rolloutStrategy"] = {
             {"rollingUpdateConfiguration", {{"maxUnavailable", "25%"}, {"maxSurge", "25%"}}}};
       }},
      {"S107 partition above replicas",
       [](Json& l) {
         l["spec"]["rolloutStrategy"] = {{"rollingUpdateConfiguration", {{"partition", 5}}}};
       }},
  };
  int n = 0;
  for (const auto& [scenario, change] : cases) {
    SCOPED_TRACE(scenario);
    Json lws = LwsJson("ok-" + std::to_string(n++));
    change(lws);
    Reply reply = Post(kLws, lws);
    EXPECT_EQ(reply.code, 201) << reply.body.dump();
  }
}

// Schema errors are the server's own: 422 Invalid with causes, before any validating webhook.
TEST_F(LwsWebhookTest, SchemaErrorsStayInvalid) {
  Json lws = LwsJson("demo");
  lws["spec"]["replicas"] = -1;                   // S73
  lws["spec"]["startupPolicy"] = "invalidValue";  // S75
  Reply reply = Post(kLws, lws);
  EXPECT_EQ(reply.code, 422);
  EXPECT_EQ(reply.body["reason"], "Invalid");
  ASSERT_EQ(reply.body["details"]["causes"].size(), 2u) << reply.body.dump();
  EXPECT_EQ(reply.body["details"]["causes"][0]["field"], "spec.replicas");
  EXPECT_EQ(reply.body["details"]["causes"][1]["field"], "spec.startupPolicy");
}

TEST_F(LwsWebhookTest, UpdatesAreValidatedAgainstTheStoredObject) {
  Json lws = LwsJson("demo", 1);
  lws["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] = {{"subGroupSize", 1}};
  ASSERT_EQ(Post(kLws, lws).code, 201);
  Json stored = Get(Item("demo")).body;

  Json changed = stored;  // S83
  changed["spec"]["leaderWorkerTemplate"]["subGroupPolicy"]["subGroupSize"] = 2;
  Reply reply = Put(Item("demo"), changed);
  EXPECT_EQ(reply.code, 403);
  EXPECT_EQ(reply.body["message"],
            std::string(kDenied) +
                "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: field "
                "is immutable");

  changed = stored;  // S85
  changed["spec"]["leaderWorkerTemplate"].erase("subGroupPolicy");
  reply = Put(Item("demo"), changed);
  EXPECT_EQ(reply.code, 403);
  EXPECT_EQ(reply.body["message"],
            std::string(kDenied) +
                "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 1: cannot "
                "remove subGroupSize after enabled");

  changed = stored;  // S79 and S92: size may change; a dropped subdomainPolicy is re-defaulted.
  changed["spec"]["leaderWorkerTemplate"]["size"] = 3;
  changed["spec"]["networkConfig"] = Json::object();
  reply = Put(Item("demo"), changed);
  ASSERT_EQ(reply.code, 200) << reply.body.dump();
  EXPECT_EQ(reply.body["spec"]["leaderWorkerTemplate"]["size"], 3);
  EXPECT_EQ(reply.body["spec"]["networkConfig"]["subdomainPolicy"], "Shared");
}

TEST_F(LwsWebhookTest, EnablingSubGroupsAfterCreateIsDenied) {
  ASSERT_EQ(Post(kLws, LwsJson("demo")).code, 201);  // S84
  Reply reply = Patch(
      Item("demo"), "application/merge-patch+json",
      Json::parse(R"({"spec":{"leaderWorkerTemplate":{"subGroupPolicy":{"subGroupSize":2}}}})"));
  EXPECT_EQ(reply.code, 403);
  EXPECT_EQ(reply.body["message"],
            std::string(kDenied) +
                "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: cannot "
                "enable subGroupSize after the lws is already created");
}

// The webhook configurations name `leaderworkersets` without subresources: /status and /scale
// writes of an object the webhook would reject still succeed, the main resource does not.
TEST_F(LwsWebhookTest, SubresourcesBypassTheWebhooks) {
  Json lws = LwsJson("demo");
  lws["spec"]["rolloutStrategy"] = {
      {"type", "RollingUpdate"},
      {"rollingUpdateConfiguration", {{"maxUnavailable", 0}, {"maxSurge", 0}, {"partition", 0}}}};
  StoreDirectly(lws);
  Json stored = Get(Item("demo")).body;

  Json with_status = stored;
  with_status["status"] = {{"replicas", 2}, {"readyReplicas", 1}};
  Reply reply = Put(Item("demo") + "/status", with_status);
  EXPECT_EQ(reply.code, 200) << reply.body.dump();

  reply = Patch(Item("demo") + "/scale", "application/merge-patch+json",
                Json::parse(R"({"spec":{"replicas":3}})"));
  EXPECT_EQ(reply.code, 200) << reply.body.dump();
  EXPECT_EQ(Get(Item("demo")).body["spec"]["replicas"], 3);

  reply = Patch(Item("demo"), "application/merge-patch+json",
                Json::parse(R"({"metadata":{"labels":{"team":"a"}}})"));
  EXPECT_EQ(reply.code, 403);
}

TEST_F(LwsWebhookTest, DryRunIsDefaultedAndValidatedButNotStored) {
  Reply reply = Post(std::string(kLws) + "?dryRun=All", LwsJson("demo"));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_EQ(reply.body["spec"]["networkConfig"]["subdomainPolicy"], "Shared");
  EXPECT_EQ(Get(Item("demo")).code, 404);

  Json invalid = LwsJson("demo");
  invalid["spec"]["rolloutStrategy"] = {{"rollingUpdateConfiguration", {{"partition", -1}}}};
  reply = Post(std::string(kLws) + "?dryRun=All", invalid);
  EXPECT_EQ(reply.code, 403);
}

}  // namespace
}  // namespace lws::controllers
