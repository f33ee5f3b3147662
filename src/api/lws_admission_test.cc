// The whole admission chain: CRD schema defaults and validation around the webhooks. Covers the
// catalogue's cases that the schema decides (S59, S60, S73-S75, S82, S94, S95) and the chain's
// ordering rules.
#include "api/lws_admission.h"

#include <gtest/gtest.h>

#include "api/lws_testing.h"

namespace lws::api {
namespace {

using testing::DefaultLwsJson;

std::vector<std::string> Errors(const LwsAdmission& a) {
  std::vector<std::string> out;
  for (const auto& e : a.errors) out.push_back(e.Error());
  return out;
}

TEST(LwsAdmissionTest, SchemaDefaultsReplicasAndSize) {  // S59, S60
  Json lws = DefaultLwsJson();
  lws["spec"].erase("replicas");
  lws["spec"]["leaderWorkerTemplate"].erase("size");
  LwsAdmission a = AdmitLeaderWorkerSet(lws);
  ASSERT_TRUE(a.errors.empty()) << Errors(a)[0];
  EXPECT_EQ(a.object["spec"]["replicas"], 1);
  EXPECT_EQ(a.object["spec"]["leaderWorkerTemplate"]["size"], 1);
}

TEST(LwsAdmissionTest, MinimalManifestGetsEveryDefault) {
  Json lws = Json::parse(R"({"apiVersion":"leaderworkerset.x-k8s.io/v1","kind":"LeaderWorkerSet",
      "metadata":{"name":"m","namespace":"default"},
      "spec":{"leaderWorkerTemplate":{"workerTemplate":{"spec":{"containers":[
        {"name":"c","image":"i","ports":[{"containerPort":80}]}]}}}}})");
  LwsAdmission a = AdmitLeaderWorkerSet(lws);
  ASSERT_TRUE(a.errors.empty()) << Errors(a)[0];
  const Json& spec = a.object["spec"];
  EXPECT_EQ(spec["replicas"], 1);
  EXPECT_EQ(spec["startupPolicy"], "LeaderCreated");
  EXPECT_EQ(spec["leaderWorkerTemplate"]["restartPolicy"], "RecreateGroupOnPodRestart");
  EXPECT_EQ(spec["rolloutStrategy"], Json::parse(R"({"type":"RollingUpdate",
      "rollingUpdateConfiguration":{"partition":0,"maxUnavailable":1,"maxSurge":0}})"));
  EXPECT_EQ(spec["networkConfig"]["subdomainPolicy"], "Shared");
  // A pod-template default of the schema (container port protocol).
  EXPECT_EQ(spec["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["ports"][0]
                ["protocol"],
            "TCP");
}

TEST(LwsAdmissionTest, SchemaRejectsBeforeTheWebhook) {
  struct Case {
    std::string id;
    Json patch;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"S73",
       {{"spec", {{"replicas", -1}}}},
       "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to "
       "0"},
      {"S74",
       {{"spec", {{"replicas", 1000001}}}},
       "spec.replicas: Invalid value: 1000001: spec.replicas in body should be less than or equal "
       "to 1000000"},
      {"S75",
       {{"spec", {{"startupPolicy", "invalidValue"}}}},
       "spec.startupPolicy: Unsupported value: \"invalidValue\": supported values: "
       "\"LeaderCreated\", \"LeaderReady\""},
      {"S94",
       {{"spec", {{"leaderWorkerTemplate", {{"restartPolicy", "invalidValue"}}}}}},
       "spec.leaderWorkerTemplate.restartPolicy: Unsupported value: \"invalidValue\": supported "
       "values: "
       "\"Default\", \"RecreateGroupOnPodRestart\", \"RecreateGroupAfterStart\", \"None\""},
      {"S95",
       {{"spec", {{"rolloutStrategy", {{"type", "invalidValue"}}}}}},
       "spec.rolloutStrategy.type: Unsupported value: \"invalidValue\": supported values: "
       "\"RollingUpdate\""},
      {"wrong type",
       {{"spec", {{"replicas", "two"}}}},
       "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: "
       "\"string\""},
  };
  for (const auto& c : cases) {
    Json lws = DefaultLwsJson();
    lws.merge_patch(c.patch);
    LwsAdmission a = AdmitLeaderWorkerSet(lws);
    ASSERT_FALSE(a.errors.empty()) << c.id;
    EXPECT_EQ(a.errors[0].Error(), c.want) << c.id;
  }
}

TEST(LwsAdmissionTest, WebhookRunsOnlyWhenTheSchemaAccepts) {
  Json lws = DefaultLwsJson();
  lws["spec"]["startupPolicy"] = "Sometimes";       // schema error
  lws["spec"]["leaderWorkerTemplate"]["size"] = 0;  // webhook error, not reported
  LwsAdmission a = AdmitLeaderWorkerSet(lws);
  ASSERT_EQ(a.errors.size(), 1u) << Errors(a)[0];
  lws["spec"]["startupPolicy"] = "LeaderReady";
  a = AdmitLeaderWorkerSet(lws);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(
      a.errors[0].Error(),
      "spec.leaderWorkerTemplate.size: Invalid value: 0: size must be equal or greater than 1");
}

TEST(LwsAdmissionTest, EmptyRestartPolicyIsDefaultedBeforeSchemaValidation) {  // S62
  Json lws = DefaultLwsJson();
  lws["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "";
  LwsAdmission a = AdmitLeaderWorkerSet(lws);
  ASSERT_TRUE(a.errors.empty()) << Errors(a)[0];
  EXPECT_EQ(a.object["spec"]["leaderWorkerTemplate"]["restartPolicy"], "RecreateGroupOnPodRestart");
}

TEST(LwsAdmissionTest, UnknownFieldsArePrunedAndReported) {
  Json lws = DefaultLwsJson();
  lws["spec"]["bogus"] = 1;
  lws["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"]["maxsurge"] = 1;
  LwsAdmission a = AdmitLeaderWorkerSet(lws);
  EXPECT_TRUE(a.errors.empty());
  EXPECT_EQ(a.unknown_fields,
            (std::vector<std::string>{"spec.bogus",
                                      "spec.rolloutStrategy.rollingUpdateConfiguration.maxsurge"}));
  EXPECT_FALSE(a.object["spec"].contains("bogus"));
}

TEST(LwsAdmissionTest, UpdateRules) {  // S82, S83 through the chain
  Json old_lws = DefaultLwsJson();
  old_lws["spec"]["startupPolicy"] = "LeaderReady";
  Json updated = old_lws;
  updated["spec"]["startupPolicy"] = "invalidValue";
  EXPECT_FALSE(AdmitLeaderWorkerSet(updated, &old_lws).errors.empty());
  old_lws["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] = {{"subGroupSize", 1}};
  updated = old_lws;
  updated["spec"]["leaderWorkerTemplate"]["subGroupPolicy"]["subGroupSize"] = 2;
  LwsAdmission a = AdmitLeaderWorkerSet(updated, &old_lws);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].Error(),
            "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: field is "
            "immutable");
}

TEST(LwsAdmissionTest, NameMustBeADns1035Label) {  // S70
  Json lws = DefaultLwsJson();
  lws["metadata"]["name"] = "2cube";
  LwsAdmission a = AdmitLeaderWorkerSet(lws);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].field, "metadata.name");
}

}  // namespace
}  // namespace lws::api
