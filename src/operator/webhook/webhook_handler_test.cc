// The five webhook endpoints answering AdmissionReviews as controller-runtime does. Golden
// checks: a mutation's patch, applied to the object sent, gives exactly what the in-process
// admission plugin makes of it; a denial carries the in-process message without the
// `admission webhook "<name>" denied the request: ` prefix that kube-apiserver adds.
#include "operator/webhook/webhook_handler.h"

#include <gtest/gtest.h>

#include "api/base64.h"
#include "api/lws_testing.h"
#include "apiserver/patch.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::operator_webhook {
namespace {

constexpr const char* kMutateLws = "/mutate-leaderworkerset-x-k8s-io-v1-leaderworkerset";
constexpr const char* kValidateLws = "/validate-leaderworkerset-x-k8s-io-v1-leaderworkerset";
constexpr const char* kMutatePod = "/mutate--v1-pod";
constexpr const char* kValidatePod = "/validate--v1-pod";

Json Review(const std::string& operation, const Json* object, const Json* old_object = nullptr) {
  Json request = {
      {"uid", "uid-1"}, {"operation", operation}, {"namespace", "default"}, {"name", "x"}};
  if (object != nullptr) request["object"] = *object;
  if (old_object != nullptr) request["oldObject"] = *old_object;
  return {{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"request", request}};
}

transport::HttpRequest Post(const std::string& path, const std::string& body,
                            const std::string& content_type = "application/json") {
  transport::HttpRequest request;
  request.method = "POST";
  request.target = path + "?timeout=10s";
  request.headers.Add("Content-Type", content_type);
  request.body = body;
  return request;
}

class WebhookHandlerTest : public ::testing::Test {
 protected:
  // The whole exchange: route, serve, parse the answer's JSON.
  Json Send(const std::string& path, const Json& review) {
    return SendRaw(Post(path, review.dump()));
  }
  Json SendRaw(const transport::HttpRequest& request) {
    const WebhookEndpoint* endpoint = FindEndpoint(endpoints_, request.target);
    EXPECT_NE(endpoint, nullptr) << request.target;
    transport::HttpResponse response = ServeWebhook(*endpoint, request);
    EXPECT_EQ(response.status, 200);  // controller-runtime never sets another
    EXPECT_EQ(response.headers.Get("Content-Type"), "application/json");
    return Json::parse(response.body);
  }
  // The answer's patch applied to `object`.
  static Json Patched(const Json& object, const Json& answer) {
    if (!answer["response"].contains("patch")) return object;
    EXPECT_EQ(answer["response"]["patchType"], "JSONPatch");
    const std::string patch =
        api::Base64Decode(answer["response"]["patch"].get<std::string>()).value();
    return apiserver::ApplyJsonPatch(object, Json::parse(patch)).value();
  }
  // What the in-process plugin (kube-apiserver wording) makes of `object` at CREATE.
  static Json InProcess(admission::AdmissionPlugin& plugin, Json object) {
    admission::AdmissionRequest request;
    request.namespace_ = "default";
    request.object = &object;
    EXPECT_TRUE(plugin.Mutate(request).ok());
    return object;
  }
  static Json LwsPod(const std::string& worker_index) {
    return Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"demo-1","namespace":"default",
        "labels":{"leaderworkerset.sigs.k8s.io/name":"demo",
                  "leaderworkerset.sigs.k8s.io/group-index":"1",
                  "leaderworkerset.sigs.k8s.io/worker-index":")" +
                       worker_index + R"(",
                  "leaderworkerset.sigs.k8s.io/template-revision-hash":"abc"},
        "annotations":{"leaderworkerset.sigs.k8s.io/size":"3"}},
      "spec":{"subdomain":"demo","containers":[{"name":"c","image":"busybox"}]}})");
  }

  std::vector<WebhookEndpoint> endpoints_ = LwsWebhookEndpoints();
};

TEST_F(WebhookHandlerTest, EndpointsAreTheFiveRegisteredPaths) {
  ASSERT_EQ(endpoints_.size(), 5u);
  EXPECT_EQ(FindEndpoint(endpoints_, kMutateLws)->name, "mleaderworkerset.kb.io");
  EXPECT_EQ(FindEndpoint(endpoints_, kValidateLws)->name, "vleaderworkerset.kb.io");
  EXPECT_EQ(FindEndpoint(endpoints_, kMutatePod)->name, "mpod.kb.io");
  EXPECT_EQ(FindEndpoint(endpoints_, std::string(kValidatePod) + "?x=1")->name, "vpod.kb.io");
  EXPECT_EQ(
      FindEndpoint(endpoints_, "/validate-disaggregatedset-x-k8s-io-v1-disaggregatedset")->name,
      "vdisaggregatedset.kb.io");
  EXPECT_EQ(FindEndpoint(endpoints_, "/mutate-disaggregatedset-x-k8s-io-v1-disaggregatedset"),
            nullptr);
  transport::HttpResponse missing = NotFoundResponse();
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.body, "404 page not found\n");
}

TEST_F(WebhookHandlerTest, LwsDefaultingPatchReproducesTheInProcessDefaults) {
  Json lws = api::testing::DefaultLwsJson();
  lws["spec"].erase("rolloutStrategy");
  lws["spec"].erase("startupPolicy");
  lws["spec"]["networkConfig"] = Json::object();
  lws["spec"]["leaderWorkerTemplate"]["restartPolicy"] = "Default";
  const Json answer = Send(kMutateLws, Review("CREATE", &lws));
  EXPECT_EQ(answer["kind"], "AdmissionReview");
  EXPECT_EQ(answer["apiVersion"], "admission.k8s.io/v1");
  EXPECT_EQ(answer["response"]["uid"], "uid-1");
  EXPECT_EQ(answer["response"]["allowed"], true);
  EXPECT_EQ(answer["response"]["status"], Json::parse(R"({"metadata":{},"code":200})"));
  ASSERT_TRUE(answer["response"].contains("patch"));
  auto plugin = controllers::LwsWebhookPlugin();
  const Json want = InProcess(*plugin, lws);
  EXPECT_EQ(Patched(lws, answer), want) << Json::diff(want, Patched(lws, answer)).dump();
  EXPECT_EQ(want["spec"]["networkConfig"]["subdomainPolicy"], "Shared");
  EXPECT_EQ(want["spec"]["leaderWorkerTemplate"]["restartPolicy"], "None");
}

TEST_F(WebhookHandlerTest, AlreadyDefaultedLwsGetsNoPatch) {
  auto plugin = controllers::LwsWebhookPlugin();
  const Json lws = InProcess(*plugin, api::testing::DefaultLwsJson());
  const Json answer = Send(kMutateLws, Review("UPDATE", &lws, &lws));
  EXPECT_EQ(answer["response"]["allowed"], true);
  EXPECT_FALSE(answer["response"].contains("patch"));
  EXPECT_FALSE(answer["response"].contains("patchType"));
}

TEST_F(WebhookHandlerTest, InvalidLwsIsDeniedWithTheInnerMessage) {
  Json lws = api::testing::DefaultLwsJson();
  lws["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"]["maxSurge"] = -1;
  const Json answer = Send(kValidateLws, Review("CREATE", &lws));
  EXPECT_EQ(answer["response"]["allowed"], false);
  const std::string message =
      "spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge: Invalid value: -1: must be "
      "greater than or equal to 0";
  EXPECT_EQ(answer["response"]["status"], Json({{"metadata", Json::object()},
                                                {"message", message},
                                                {"reason", "Forbidden"},
                                                {"code", 403}}));
  // The in-process plugin says the same behind kube-apiserver's prefix.
  admission::AdmissionRequest request;
  request.object = &lws;
  EXPECT_EQ(controllers::LwsWebhookPlugin()->Validate(request).message(),
            "admission webhook \"vleaderworkerset.kb.io\" denied the request: " + message);
}

TEST_F(WebhookHandlerTest, LwsUpdatesAreValidatedAgainstTheOldObject) {
  Json old_lws = api::testing::DefaultLwsJson();
  old_lws["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] = {{"subGroupSize", 1}};
  Json lws = old_lws;
  lws["spec"]["leaderWorkerTemplate"]["subGroupPolicy"]["subGroupSize"] = 2;
  Json answer = Send(kValidateLws, Review("UPDATE", &lws, &old_lws));
  EXPECT_EQ(answer["response"]["status"]["message"],
            "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: field is "
            "immutable");
  answer = Send(kValidateLws, Review("UPDATE", &old_lws, &old_lws));
  EXPECT_EQ(answer["response"]["allowed"], true);
  // UPDATE without the old object: controller-runtime's DecodeRaw finds nothing to decode.
  answer = Send(kValidateLws, Review("UPDATE", &lws));
  EXPECT_EQ(answer["response"]["status"],
            Json::parse(R"({"metadata":{},"message":"there is no content to decode","code":400})"));
}

TEST_F(WebhookHandlerTest, PodMutationPatchReproducesTheInProcessMutation) {
  auto plugin = controllers::PodWebhookPlugin();
  for (const std::string worker_index : {"0", "2"}) {
    SCOPED_TRACE(worker_index);
    Json pod = LwsPod(worker_index);
    // The LWS variables go first: the diff replaces KEEP and appends three entries.
    pod["spec"]["containers"][0]["env"] = {{{"name", "KEEP"}, {"value", "1"}}};
    const Json answer = Send(kMutatePod, Review("CREATE", &pod));
    EXPECT_EQ(answer["response"]["allowed"], true);
    const Json want = InProcess(*plugin, pod);
    EXPECT_NE(want, pod);
    EXPECT_EQ(Patched(pod, answer), want) << Json::diff(want, Patched(pod, answer)).dump();
    // Appended elements are named by index, as controller-runtime's jsonpatch names them.
    const std::string patch =
        api::Base64Decode(answer["response"]["patch"].get<std::string>()).value();
    EXPECT_EQ(patch.find("/-\""), std::string::npos) << patch;
    EXPECT_NE(patch.find("\"/spec/containers/0/env/3\""), std::string::npos) << patch;
  }
}

TEST_F(WebhookHandlerTest, PodsOutsideAnLwsAndPodValidationPass) {
  Json pod = LwsPod("0");
  pod["metadata"]["labels"].erase("leaderworkerset.sigs.k8s.io/name");
  Json answer = Send(kMutatePod, Review("CREATE", &pod));
  EXPECT_EQ(answer["response"]["allowed"], true);
  EXPECT_FALSE(answer["response"].contains("patch"));
  const Json lws_pod = LwsPod("1");
  answer = Send(kValidatePod, Review("UPDATE", &lws_pod, &lws_pod));
  EXPECT_EQ(answer["response"]["allowed"], true);
}

TEST_F(WebhookHandlerTest, PodMutationErrorsAreDenials) {
  Json pod = LwsPod("0");
  pod["metadata"]["annotations"].erase("leaderworkerset.sigs.k8s.io/size");
  const Json answer = Send(kMutatePod, Review("CREATE", &pod));
  EXPECT_EQ(answer["response"]["allowed"], false);
  EXPECT_EQ(answer["response"]["status"]["code"], 403);
  EXPECT_EQ(answer["response"]["status"]["reason"], "Forbidden");
  const std::string message = answer["response"]["status"]["message"];
  EXPECT_EQ(message.find("admission webhook"), std::string::npos) << message;
}

TEST_F(WebhookHandlerTest, OperationsAndMissingObjectsAsControllerRuntime) {
  const Json lws = api::testing::DefaultLwsJson();
  Json answer = Send(kValidateLws, Review("CONNECT", &lws));
  EXPECT_EQ(answer["response"]["status"]["message"], "unknown operation request \"CONNECT\"");
  EXPECT_EQ(answer["response"]["status"]["code"], 400);
  answer = Send(kValidateLws, Review("DELETE", nullptr, &lws));
  EXPECT_EQ(answer["response"]["allowed"], true);
  answer = Send(kMutateLws, Review("DELETE", nullptr, &lws));
  EXPECT_EQ(answer["response"]["allowed"], true);
  EXPECT_EQ(answer["response"]["status"]["code"], 200);
  for (const char* path : {kMutateLws, kValidateLws, kMutatePod}) {
    answer = Send(path, Review("CREATE", nullptr));
    EXPECT_EQ(answer["response"]["status"]["message"], "there is no content to decode") << path;
  }
}

TEST_F(WebhookHandlerTest, UndecodableObjectsAre400s) {
  Json lws = api::testing::DefaultLwsJson();
  lws["spec"]["replicas"] = "two";
  for (const char* path : {kMutateLws, kValidateLws}) {
    const Json answer = Send(path, Review("CREATE", &lws));
    EXPECT_EQ(answer["response"]["allowed"], false) << path;
    EXPECT_EQ(answer["response"]["status"]["code"], 400) << path;
    EXPECT_FALSE(answer["response"]["status"].contains("reason")) << path;
  }
}

TEST_F(WebhookHandlerTest, MalformedRequestsAnswerUntypedReviews) {
  auto untyped = [](int code, const std::string& message) {
    return Json(
        {{"response",
          {{"uid", ""},
           {"allowed", false},
           {"status", {{"metadata", Json::object()}, {"message", message}, {"code", code}}}}}});
  };
  EXPECT_EQ(SendRaw(Post(kValidateLws, "")), untyped(400, "request body is empty"));
  EXPECT_EQ(SendRaw(Post(kValidateLws, "{}", "application/json; charset=utf-8")),
            untyped(400, "contentType=application/json; charset=utf-8, expected application/json"));
  EXPECT_EQ(SendRaw(Post(kValidateLws, "{}", "")),
            untyped(400, "contentType=, expected application/json"));
  EXPECT_EQ(SendRaw(Post(kValidateLws, std::string(kMaxReviewBytes, ' '))),
            untyped(413, "request entity is too large; limit is 7340032 bytes"));
  EXPECT_EQ(SendRaw(Post(kValidateLws, R"({"request":{"uid":1}})")),
            untyped(400,
                    "json: cannot unmarshal number into Go struct field "
                    "AdmissionRequest.request.uid of type types.UID"));
}

TEST_F(WebhookHandlerTest, AnswerEchoesTheReviewVersion) {
  Json review = Review("CREATE", nullptr);
  review["apiVersion"] = "admission.k8s.io/v1beta1";
  EXPECT_EQ(Send(kValidatePod, review)["apiVersion"], "admission.k8s.io/v1beta1");
  review.erase("apiVersion");
  review.erase("kind");
  const Json answer = Send(kValidatePod, review);
  EXPECT_EQ(answer["apiVersion"], "admission.k8s.io/v1");
  EXPECT_EQ(answer["kind"], "AdmissionReview");
}

}  // namespace
}  // namespace lws::operator_webhook
