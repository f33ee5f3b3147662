// Object-count quotas through ApiServer::Handle: creates past a ResourceQuota's spec.hard are
// refused with kube-apiserver's Forbidden message (plugin/pkg/admission/resourcequota,
// controller.go, "exceeded quota: %s, requested: %s, used: %s, limited: %s"), and
// RefreshQuotaStatus keeps status.hard and status.used as the quota controller does.
#include "apiserver/quota_admission.h"

#include <gtest/gtest.h>

#include "apiserver/api_server_testing.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

constexpr const char* kQuotas = "/api/v1/namespaces/default/resourcequotas";
constexpr const char* kConfigMaps = "/api/v1/namespaces/default/configmaps";

Json Quota(const std::string& name, Json hard) {
  return {{"apiVersion", "v1"},
          {"kind", "ResourceQuota"},
          {"metadata", {{"name", name}}},
          {"spec", {{"hard", std::move(hard)}}}};
}

Json ConfigMap(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}};
}

class QuotaTest : public ApiServerTest {
 protected:
  Json RefreshedStatus(const std::string& name) {
    EXPECT_TRUE(RefreshQuotaStatus(store_.get(), server_->served()->registry).ok());
    return Get(std::string(kQuotas) + "/" + name).body["status"];
  }
};

TEST_F(QuotaTest, CreatesPastACountAreForbiddenWithUpstreamsMessage) {
  ASSERT_EQ(Post(kQuotas, Quota("objects", {{"count/configmaps", "2"}})).code, 201);
  EXPECT_EQ(Post(kConfigMaps, ConfigMap("a")).code, 201);
  EXPECT_EQ(Post(kConfigMaps, ConfigMap("b")).code, 201);
  Reply refused = Post(kConfigMaps, ConfigMap("c"));
  EXPECT_EQ(refused.code, 403);
  EXPECT_EQ(refused.body["reason"], "Forbidden");
  EXPECT_EQ(refused.body["message"],
            "configmaps \"c\" is forbidden: exceeded quota: objects, requested: "
            "count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2");
  // Other namespaces and other kinds are not charged.
  EXPECT_EQ(Post("/api/v1/namespaces", {{"metadata", {{"name", "other"}}}}).code, 201);
  EXPECT_EQ(Post("/api/v1/namespaces/other/configmaps", ConfigMap("c")).code, 201);
  EXPECT_EQ(Post("/api/v1/namespaces/default/secrets", {{"metadata", {{"name", "s"}}}}).code, 201);
  // Deleting one frees its place.
  EXPECT_EQ(Delete(std::string(kConfigMaps) + "/a").code, 200);
  EXPECT_EQ(Post(kConfigMaps, ConfigMap("c")).code, 201);
  // Updates are not creates.
  Json b = Get(std::string(kConfigMaps) + "/b").body;
  b["data"] = {{"k", "v"}};
  EXPECT_EQ(Put(std::string(kConfigMaps) + "/b", b).code, 200);
}

TEST_F(QuotaTest, LegacyNamesAndGroupsCount) {
  ASSERT_EQ(Post(kQuotas, Quota("legacy", {{"pods", "1"}, {"count/statefulsets.apps", "0"}})).code,
            201);
  EXPECT_EQ(Post(kPods, PodJson("p1")).code, 201);
  Reply pods = Post(kPods, PodJson("p2"));
  EXPECT_EQ(pods.code, 403);
  EXPECT_EQ(pods.body["message"],
            "pods \"p2\" is forbidden: exceeded quota: legacy, requested: pods=1, used: pods=1, "
            "limited: pods=1");
  Reply sets = Post("/apis/apps/v1/namespaces/default/statefulsets", StatefulSetJson("s"));
  EXPECT_EQ(sets.code, 403);
  EXPECT_EQ(sets.body["message"],
            "statefulsets.apps \"s\" is forbidden: exceeded quota: legacy, requested: "
            "count/statefulsets.apps=1, used: count/statefulsets.apps=0, limited: "
            "count/statefulsets.apps=0");
}

// Upstream's pod evaluator: a pod that has ended holds no place.
TEST_F(QuotaTest, EndedPodsDoNotCount) {
  ASSERT_EQ(Post(kQuotas, Quota("pods", {{"count/pods", "1"}})).code, 201);
  ASSERT_EQ(Post(kPods, PodJson("done")).code, 201);
  Reply status = Patch(std::string(kPods) + "/done/status", "application/merge-patch+json",
                       {{"status", {{"phase", "Succeeded"}}}});
  ASSERT_EQ(status.code, 200) << status.raw.body;
  EXPECT_EQ(Post(kPods, PodJson("next")).code, 201);
  EXPECT_EQ(RefreshedStatus("pods")["used"], Json({{"count/pods", "1"}}));
}

TEST_F(QuotaTest, StatusFollowsSpecAndTheStore) {
  ASSERT_EQ(Post(kQuotas, Quota("q", {{"configmaps", "10"},
                                      {"count/widgets.example.com", "3"},
                                      {"requests.cpu", "4"}}))
                .code,
            201);
  EXPECT_EQ(Post(kConfigMaps, ConfigMap("a")).code, 201);
  Json status = RefreshedStatus("q");
  EXPECT_EQ(
      status["hard"],
      Json({{"configmaps", "10"}, {"count/widgets.example.com", "3"}, {"requests.cpu", "4"}}));
  // Compute resources and kinds the server does not serve count 0.
  EXPECT_EQ(status["used"],
            Json({{"configmaps", "1"}, {"count/widgets.example.com", "0"}, {"requests.cpu", "0"}}));
}

TEST_F(QuotaTest, HardValuesMustBeQuantities) {
  Reply bad = Post(kQuotas, Quota("bad", {{"count/pods", "lots"}}));
  EXPECT_EQ(bad.code, 422);
  EXPECT_EQ(bad.body["message"],
            "ResourceQuota \"bad\" is invalid: spec.hard[count/pods]: Invalid value: \"lots\": "
            "quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

}  // namespace
}  // namespace lws::apiserver::testing
