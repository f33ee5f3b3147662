// The pod webhooks (mpod.kb.io, vpod.kb.io) through ApiServer::Handle: LWS pods get their
// labels and env at create, other pods and other operations are left alone.
#include <gtest/gtest.h>

#include "apiserver/api_server_testing.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::controllers {
namespace {

using api::Json;
using apiserver::testing::kPods;
using apiserver::testing::PodJson;
using apiserver::testing::Reply;

class PodWebhookTest : public apiserver::testing::ApiServerTest {
 protected:
  void SetUp() override { OpenWith({}); }

  void OpenWith(api::PodMutationOptions options) {
    apiserver::ApiServerOptions server_options;
    InstallLwsWebhooks(&server_options.admission, options);
    Open(std::move(server_options));
  }

  // A pod as the LWS controller's StatefulSets create them.
  static Json LwsPod(const std::string& name, const std::string& worker_index) {
    Json pod = PodJson(name);
    pod["metadata"]["labels"] = {{"leaderworkerset.sigs.k8s.io/name", "demo"},
                                 {"leaderworkerset.sigs.k8s.io/group-index", "1"},
                                 {"leaderworkerset.sigs.k8s.io/template-revision-hash", "abc"}};
    if (!worker_index.empty()) {
      pod["metadata"]["labels"]["leaderworkerset.sigs.k8s.io/worker-index"] = worker_index;
    }
    pod["metadata"]["annotations"] = {{"leaderworkerset.sigs.k8s.io/size", "3"}};
    pod["spec"]["subdomain"] = "demo";
    pod["spec"]["containers"][0]["env"] = {{{"name", "KEEP"}, {"value", "1"}},
                                           {{"name", "LWS_GROUP_SIZE"}, {"value", "stale"}}};
    return pod;
  }

  static Json EnvOf(const Json& pod, std::size_t container = 0) {
    return pod["spec"]["containers"][container]["env"];
  }
};

TEST_F(PodWebhookTest, LeaderGetsGroupKeyAndEnv) {
  Reply reply = Post(kPods, LwsPod("demo-1", "0"));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  const Json& labels = reply.body["metadata"]["labels"];
  // sha1("default/demo-1")
  EXPECT_EQ(labels["leaderworkerset.sigs.k8s.io/group-key"],
            "128800f3563b24f851e3c91331f823fce80f544a");
  EXPECT_EQ(EnvOf(reply.body),
            Json::parse(R"([{"name":"LWS_LEADER_ADDRESS","value":"demo-1.demo.default"},
                            {"name":"LWS_GROUP_SIZE","value":"3"},
                            {"name":"LWS_WORKER_INDEX","value":"0"},
                            {"name":"KEEP","value":"1"}])"));
  // The stored pod is the mutated one.
  EXPECT_EQ(EnvOf(Get(std::string(kPods) + "/demo-1").body), EnvOf(reply.body));
}

TEST_F(PodWebhookTest, WorkerGetsWorkerIndexFromItsName) {
  Reply reply = Post(kPods, LwsPod("demo-1-2", ""));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  const Json& labels = reply.body["metadata"]["labels"];
  EXPECT_EQ(labels["leaderworkerset.sigs.k8s.io/worker-index"], "2");
  EXPECT_FALSE(labels.contains("leaderworkerset.sigs.k8s.io/group-key"));
  EXPECT_EQ(EnvOf(reply.body)[0]["value"], "demo-1.demo.default");
  EXPECT_EQ(EnvOf(reply.body)[2], Json::parse(R"({"name":"LWS_WORKER_INDEX","value":"2"})"));
}

TEST_F(PodWebhookTest, GangSchedulingAddsThePodGroupName) {
  OpenWith({.gang_scheduling = true});
  Reply reply = Post(kPods, LwsPod("demo-1", "0"));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_EQ(reply.body["metadata"]["annotations"]["scheduling.k8s.io/group-name"], "demo-1-abc");
}

TEST_F(PodWebhookTest, PodsWithoutTheNameLabelAreUntouched) {
  Json pod = PodJson("plain-1");
  pod["metadata"]["labels"]["leaderworkerset.sigs.k8s.io/worker-index"] = "0";  // not selected
  Reply reply = Post(kPods, pod);
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_FALSE(reply.body["spec"]["containers"][0].contains("env"));
  EXPECT_EQ(reply.body["metadata"]["labels"].size(), 2u);
}

TEST_F(PodWebhookTest, MissingSizeAnnotationIsForbidden) {
  Json pod = LwsPod("demo-1", "0");
  pod["metadata"].erase("annotations");
  Reply reply = Post(kPods, pod);
  EXPECT_EQ(reply.code, 403);
  EXPECT_EQ(reply.body["reason"], "Forbidden");
  EXPECT_EQ(reply.body["message"],
            "admission webhook \"mpod.kb.io\" denied the request: size annotation is "
            "unexpectedly missing for pod demo-1");
  EXPECT_EQ(Get(std::string(kPods) + "/demo-1").code, 404);
}

TEST_F(PodWebhookTest, UnparsableOrdinalIsForbidden) {
  Reply reply = Post(kPods, LwsPod("demo-x", ""));
  EXPECT_EQ(reply.code, 403);
  EXPECT_EQ(reply.body["message"],
            "admission webhook \"mpod.kb.io\" denied the request: parsing pod ordinal for pod "
            "demo-x");
}

// mpod.kb.io is registered for CREATE only: an update that adds the name label passes.
TEST_F(PodWebhookTest, UpdatesAreNotMutated) {
  ASSERT_EQ(Post(kPods, PodJson("demo-1")).code, 201);
  Json pod = Get(std::string(kPods) + "/demo-1").body;
  pod["metadata"]["labels"]["leaderworkerset.sigs.k8s.io/name"] = "demo";
  Reply reply = Put(std::string(kPods) + "/demo-1", pod);
  ASSERT_EQ(reply.code, 200) << reply.body.dump();
  EXPECT_FALSE(reply.body["spec"]["containers"][0].contains("env"));
}

TEST_F(PodWebhookTest, DryRunCreateIsMutated) {
  Reply reply = Post(std::string(kPods) + "?dryRun=All", LwsPod("demo-1", "0"));
  ASSERT_EQ(reply.code, 201) << reply.body.dump();
  EXPECT_EQ(EnvOf(reply.body)[0]["name"], "LWS_LEADER_ADDRESS");
  EXPECT_EQ(Get(std::string(kPods) + "/demo-1").code, 404);
}

}  // namespace
}  // namespace lws::controllers
