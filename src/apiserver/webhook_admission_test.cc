// File: apiserver/webhook_admission_test.cc
//
// Registered admission webhooks through ApiServer::Handle, with a fake WebhookCaller standing in
// for the HTTPS transport: what the webhook receives, and what the client sees when it denies,
// patches, fails or is skipped (selectors, dry run, exemptions).
#include <fstream>
#include <sstream>

#include "api/base64.h"
#include "api/yaml.h"
#include "apiserver/admission_review.h"
#include "apiserver/api_server_testing.h"
#include "testdata/testdata_dir.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

constexpr const char* kValidatingConfigs =
    "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
constexpr const char* kMutatingConfigs =
    "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";

struct Call {
  WebhookEndpoint endpoint;
  Json request;  // the review's request
  Duration timeout{};
};

// A configuration with one webhook for `resources` of `group`, as the deploy/ manifests write it.
Json Configuration(const std::string& kind, const std::string& hook, const std::string& group,
                   const std::string& resource, Json extra = Json::object()) {
  Json webhook = {{"name", hook},
                  {"admissionReviewVersions", {"v1"}},
                  {"clientConfig", {{"url", "https://127.0.0.1:9443/" + hook}}},
                  {"failurePolicy", "Fail"},
                  {"sideEffects", "None"},
                  {"rules",
                   {{{"apiGroups", {group}},
                     {"apiVersions", {"v1"}},
                     {"operations", {"CREATE", "UPDATE"}},
                     {"resources", {resource}}}}}};
  webhook.update(extra);
  return {{"apiVersion", "admissionregistration.k8s.io/v1"},
          {"kind", kind},
          {"metadata", {{"name", hook + "-configuration"}}},
          {"webhooks", {webhook}}};
}

class WebhookAdmissionTest : public ApiServerTest {
 protected:
  void SetUp() override {
    ApiServerOptions options;
    options.webhook_caller = [this](const WebhookEndpoint& endpoint, const Json& review,
                                    Duration timeout) -> Result<Json> {
      calls_.push_back({endpoint, review["request"], timeout});
      return answer_(review["request"]);
    };
    Open(std::move(options));
  }

  // Answers every call with `response` (uid filled in from the request).
  void AnswerWith(Json response) {
    answer_ = [response](const Json& request) -> Result<Json> {
      Json r = response;
      r["uid"] = request["uid"];
      return Json{{"apiVersion", "admission.k8s.io/v1"},
                  {"kind", "AdmissionReview"},
                  {"response", std::move(r)}};
    };
  }

  void Register(const char* collection, const Json& configuration) {
    Reply reply = Post(collection, configuration);
    ASSERT_EQ(reply.code, 201) << reply.body;
  }

  std::vector<Call> calls_;
  std::function<Result<Json>(const Json&)> answer_;
};

Json LabelledPod(const std::string& name) {
  Json pod = PodJson(name);
  pod["metadata"]["labels"]["leaderworkerset.sigs.k8s.io/name"] = "demo";
  return pod;
}

TEST_F(WebhookAdmissionTest, ValidatingWebhookDeniesLwsCreate) {
  Register(kValidatingConfigs,
           Configuration("ValidatingWebhookConfiguration", "vleaderworkerset.kb.io",
                         "leaderworkerset.x-k8s.io", "leaderworkersets"));
  AnswerWith({{"allowed", false},
              {"status",
               {{"code", 403},
                {"reason", "Forbidden"},
                {"message", "spec.leaderWorkerTemplate.size: Invalid value: 0"}}}});
  Reply reply = Post(kLws, LwsJson("demo"));
  EXPECT_EQ(reply.code, 403);
  EXPECT_EQ(reply.body["reason"], "Forbidden");
  EXPECT_EQ(reply.body["message"],
            "admission webhook \"vleaderworkerset.kb.io\" denied the request: "
            "spec.leaderWorkerTemplate.size: Invalid value: 0");
  EXPECT_EQ(Get(std::string(kLws) + "/demo").code, 404);

  ASSERT_EQ(calls_.size(), 1u);
  EXPECT_EQ(calls_[0].endpoint.url, "https://127.0.0.1:9443/vleaderworkerset.kb.io");
  EXPECT_EQ(calls_[0].timeout, std::chrono::seconds(10));
  const Json& request = calls_[0].request;
  EXPECT_EQ(request["operation"], "CREATE");
  EXPECT_EQ(request["kind"]["kind"], "LeaderWorkerSet");
  EXPECT_EQ(request["resource"]["resource"], "leaderworkersets");
  EXPECT_EQ(request["namespace"], "default");
  EXPECT_EQ(request["name"], "demo");
  EXPECT_EQ(request["object"]["spec"]["replicas"], 2);
  EXPECT_EQ(request["object"]["spec"]["leaderWorkerTemplate"]["size"], 2)
      << "validating webhooks see the defaulted object";
  EXPECT_TRUE(request["oldObject"].is_null());
  EXPECT_EQ(request["dryRun"], false);
}

TEST_F(WebhookAdmissionTest, RequestsSeeConfigurationChangesAtOnce) {
  AnswerWith({{"allowed", false}, {"status", {{"code", 403}, {"message", "no"}}}});
  EXPECT_EQ(Post(kLws, LwsJson("before")).code, 201);  // nothing registered yet
  Register(kValidatingConfigs,
           Configuration("ValidatingWebhookConfiguration", "vleaderworkerset.kb.io",
                         "leaderworkerset.x-k8s.io", "leaderworkersets"));
  EXPECT_EQ(Post(kLws, LwsJson("denied")).code, 403);
  // An edit that takes the webhook off LWS creates: the next request is not sent to it.
  const std::string configuration =
      std::string(kValidatingConfigs) + "/vleaderworkerset.kb.io-configuration";
  Json rules = {
      {"op", "replace"}, {"path", "/webhooks/0/rules/0/operations"}, {"value", {"DELETE"}}};
  ASSERT_EQ(Patch(configuration, "application/json-patch+json", Json::array({rules})).code, 200);
  EXPECT_EQ(Post(kLws, LwsJson("after-edit")).code, 201);
  rules["value"] = {"CREATE"};
  ASSERT_EQ(Patch(configuration, "application/json-patch+json", Json::array({rules})).code, 200);
  EXPECT_EQ(Post(kLws, LwsJson("denied-again")).code, 403);
  ASSERT_EQ(Delete(configuration).code, 200);
  EXPECT_EQ(Post(kLws, LwsJson("after-delete")).code, 201);
  EXPECT_EQ(calls_.size(), 2u);
}

TEST_F(WebhookAdmissionTest, MutatingWebhookPatchIsApplied) {
  Register(kMutatingConfigs, Configuration("MutatingWebhookConfiguration", "mleaderworkerset.kb.io",
                                           "leaderworkerset.x-k8s.io", "leaderworkersets"));
  Json patch =
      Json::array({{{"op", "add"}, {"path", "/spec/startupPolicy"}, {"value", "LeaderReady"}},
                   {{"op", "add"}, {"path", "/metadata/labels"}, {"value", {{"m", "1"}}}}});
  AnswerWith({{"allowed", true},
              {"patchType", "JSONPatch"},
              {"patch", api::Base64Encode(patch.dump())},
              {"warnings", {"defaulted by the webhook"}}});
  Reply reply = Post(kLws, LwsJson("demo"));
  ASSERT_EQ(reply.code, 201) << reply.body;
  EXPECT_EQ(reply.body["spec"]["startupPolicy"], "LeaderReady");
  EXPECT_EQ(reply.body["metadata"]["labels"]["m"], "1");
  EXPECT_EQ(reply.raw.headers.Get("Warning"), "299 - \"defaulted by the webhook\"");
  EXPECT_EQ(Get(std::string(kLws) + "/demo").body["spec"]["startupPolicy"], "LeaderReady");

  // An update is sent with the stored object as oldObject.
  Reply scaled = Patch(std::string(kLws) + "/demo", "application/merge-patch+json",
                       {{"spec", {{"replicas", 3}}}});
  ASSERT_EQ(scaled.code, 200) << scaled.body;
  ASSERT_EQ(calls_.size(), 2u);
  EXPECT_EQ(calls_[1].request["operation"], "UPDATE");
  EXPECT_EQ(calls_[1].request["oldObject"]["spec"]["replicas"], 2);
  EXPECT_EQ(calls_[1].request["object"]["spec"]["replicas"], 3);
}

TEST_F(WebhookAdmissionTest, PatchThatDoesNotApplyIsInternalError) {
  Register(kMutatingConfigs, Configuration("MutatingWebhookConfiguration", "m", "", "pods"));
  Json patch = Json::array({{{"op", "remove"}, {"path", "/spec/nothing"}}});
  AnswerWith(
      {{"allowed", true}, {"patchType", "JSONPatch"}, {"patch", api::Base64Encode(patch.dump())}});
  Reply reply = Post(kPods, PodJson("p"));
  EXPECT_EQ(reply.code, 500);
  EXPECT_TRUE(reply.body["message"].get<std::string>().starts_with("Internal error occurred: "))
      << reply.body;
}

TEST_F(WebhookAdmissionTest, CallFailureFollowsFailurePolicy) {
  answer_ = [](const Json&) -> Result<Json> {
    return Status::Internal(
        "Post \"https://127.0.0.1:9443/vpod.kb.io?timeout=10s\": dial tcp "
        "127.0.0.1:9443: connect: connection refused");
  };
  Register(kValidatingConfigs,
           Configuration("ValidatingWebhookConfiguration", "vpod.kb.io", "", "pods"));
  Reply closed = Post(kPods, PodJson("p1"));
  EXPECT_EQ(closed.code, 500);
  EXPECT_EQ(closed.body["reason"], "InternalError");
  EXPECT_EQ(closed.body["message"],
            "Internal error occurred: failed calling webhook \"vpod.kb.io\": failed to call "
            "webhook: Post \"https://127.0.0.1:9443/vpod.kb.io?timeout=10s\": dial tcp "
            "127.0.0.1:9443: connect: connection refused");

  Reply ignore = Patch(
      std::string(kValidatingConfigs) + "/vpod.kb.io-configuration", "application/json-patch+json",
      Json::array(
          {{{"op", "replace"}, {"path", "/webhooks/0/failurePolicy"}, {"value", "Ignore"}}}));
  ASSERT_EQ(ignore.code, 200) << ignore.body;
  EXPECT_EQ(Post(kPods, PodJson("p2")).code, 201) << "failurePolicy Ignore admits";
  EXPECT_EQ(calls_.size(), 2u);
}

TEST_F(WebhookAdmissionTest, InvalidAnswerIsCallFailure) {
  Register(kValidatingConfigs, Configuration("ValidatingWebhookConfiguration", "v", "", "pods"));
  answer_ = [](const Json& request) -> Result<Json> {
    return Json{
        {"apiVersion", "admission.k8s.io/v1"},
        {"kind", "AdmissionReview"},
        {"response", {{"uid", "not-" + request["uid"].get<std::string>()}, {"allowed", true}}}};
  };
  Reply reply = Post(kPods, PodJson("p"));
  EXPECT_EQ(reply.code, 500);
  EXPECT_TRUE(reply.body["message"].get<std::string>().starts_with(
      "Internal error occurred: failed calling webhook \"v\": received invalid webhook "
      "response: expected response.uid="))
      << reply.body;
}

TEST_F(WebhookAdmissionTest, DeployLocalObjectSelectorOnPods) {
  std::ifstream in(TestdataDir() + "/../deploy/local/webhooks.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<api::YamlDocument> docs = api::LoadYamlDocuments(text.str()).value();
  for (api::YamlDocument& doc : docs) {
    bool mutating = doc.value["kind"] == "MutatingWebhookConfiguration";
    Register(mutating ? kMutatingConfigs : kValidatingConfigs, doc.value);
  }
  AnswerWith({{"allowed", true}});
  ASSERT_EQ(Post(kPods, PodJson("plain")).code, 201);
  EXPECT_TRUE(calls_.empty()) << "pods without the LWS name label are never sent";
  ASSERT_EQ(Post(kPods, LabelledPod("member")).code, 201);
  ASSERT_EQ(calls_.size(), 2u);
  EXPECT_EQ(calls_[0].endpoint.url, "https://127.0.0.1:9443/mutate--v1-pod");
  EXPECT_EQ(calls_[1].endpoint.url, "https://127.0.0.1:9443/validate--v1-pod");
  // pods/status is not in the rules.
  Reply status = Patch(std::string(kPods) + "/member/status", "application/merge-patch+json",
                       {{"status", {{"phase", "Running"}}}});
  ASSERT_EQ(status.code, 200) << status.body;
  EXPECT_EQ(calls_.size(), 2u);
}

TEST_F(WebhookAdmissionTest, DryRunAndSideEffects) {
  Register(kValidatingConfigs, Configuration("ValidatingWebhookConfiguration", "some", "", "pods",
                                             {{"sideEffects", "Some"}}));
  AnswerWith({{"allowed", true}});
  Reply dry = Post(std::string(kPods) + "?dryRun=All", PodJson("p"));
  EXPECT_EQ(dry.code, 400);
  EXPECT_EQ(dry.body["message"], "admission webhook \"some\" does not support dry run");
  EXPECT_TRUE(calls_.empty());
  EXPECT_EQ(Post(kPods, PodJson("p")).code, 201) << "a real write calls it";
  EXPECT_EQ(calls_.size(), 1u);

  Register(kValidatingConfigs,
           Configuration("ValidatingWebhookConfiguration", "none", "apps", "statefulsets"));
  ASSERT_EQ(Post(std::string(kSts) + "?dryRun=All", StatefulSetJson("s")).code, 201);
  ASSERT_EQ(calls_.size(), 2u);
  EXPECT_EQ(calls_[1].request["dryRun"], true);
  EXPECT_EQ(calls_[1].request["options"]["dryRun"], Json::array({"All"}));
}

TEST_F(WebhookAdmissionTest, DeleteSendsOldObject) {
  Register(kValidatingConfigs, Configuration("ValidatingWebhookConfiguration", "guard", "", "pods",
                                             {{"rules",
                                               {{{"apiGroups", {""}},
                                                 {"apiVersions", {"*"}},
                                                 {"operations", {"DELETE"}},
                                                 {"resources", {"pods"}}}}}}));
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  EXPECT_TRUE(calls_.empty());
  AnswerWith({{"allowed", false}, {"status", {{"message", "protected"}}}});
  Reply reply = Delete(std::string(kPods) + "/p");
  EXPECT_EQ(reply.code, 400) << "a denial without a code is raised to 400";
  EXPECT_EQ(reply.body["message"], "admission webhook \"guard\" denied the request: protected");
  ASSERT_EQ(calls_.size(), 1u);
  EXPECT_EQ(calls_[0].request["operation"], "DELETE");
  EXPECT_EQ(calls_[0].request["oldObject"]["metadata"]["name"], "p");
  EXPECT_TRUE(calls_[0].request["object"].is_null());
  EXPECT_EQ(calls_[0].request["options"]["kind"], "DeleteOptions");
  EXPECT_EQ(Get(std::string(kPods) + "/p").code, 200);
}

TEST_F(WebhookAdmissionTest, NamespaceSelectorReadsNamespaceLabels) {
  Register(kValidatingConfigs,
           Configuration("ValidatingWebhookConfiguration", "ns", "", "pods",
                         {{"namespaceSelector", {{"matchLabels", {{"webhooks", "on"}}}}}}));
  AnswerWith({{"allowed", true}});
  ASSERT_EQ(Post("/api/v1/namespaces",
                 {{"apiVersion", "v1"},
                  {"kind", "Namespace"},
                  {"metadata", {{"name", "team"}, {"labels", {{"webhooks", "on"}}}}}})
                .code,
            201);
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  EXPECT_TRUE(calls_.empty()) << "default has no label";
  ASSERT_EQ(Post("/api/v1/namespaces/team/pods", PodJson("p", "team")).code, 201);
  EXPECT_EQ(calls_.size(), 1u);
}

TEST_F(WebhookAdmissionTest, ConfigurationsAreNeverSentToWebhooks) {
  Json catch_all = Configuration("ValidatingWebhookConfiguration", "all", "*", "*");
  catch_all["webhooks"][0]["rules"][0]["operations"] = {"*"};
  catch_all["webhooks"][0]["rules"][0]["apiVersions"] = {"*"};
  Register(kValidatingConfigs, catch_all);
  answer_ = [](const Json&) -> Result<Json> { return Status::Internal("down"); };
  EXPECT_EQ(Post(kPods, PodJson("p")).code, 500);
  EXPECT_EQ(Delete(std::string(kValidatingConfigs) + "/all-configuration").code, 200)
      << "a broken webhook can always be removed";
  EXPECT_EQ(Post(kPods, PodJson("p")).code, 201);
  EXPECT_EQ(calls_.size(), 1u);
}

TEST(WebhookAdmissionNoCaller, EveryCallFailsAndPolicyDecides) {
  ManualClock clock{Time(std::chrono::seconds(1'735'689'600))};
  store::StoreOptions store_options;
  store_options.clock = &clock;
  std::unique_ptr<store::Store> store = store::Store::Open(store_options).value();
  ApiServerOptions options;
  options.store = store.get();
  options.clock = &clock;
  std::unique_ptr<ApiServer> server = ApiServer::Create(std::move(options)).value();
  auto post = [&](const std::string& target, const Json& body) {
    transport::HttpRequest request;
    request.method = "POST";
    request.target = target;
    request.body = body.dump();
    request.headers.Add("Content-Type", "application/json");
    return server->Handle(request);
  };
  ASSERT_EQ(
      post(kValidatingConfigs, Configuration("ValidatingWebhookConfiguration", "v", "", "pods"))
          .status,
      201);
  transport::HttpResponse response = post(kPods, PodJson("p"));
  EXPECT_EQ(response.status, 500);
  EXPECT_NE(response.body.find("no webhook transport in this server"), std::string::npos)
      << response.body;
}

}  // namespace
}  // namespace lws::apiserver::testing
