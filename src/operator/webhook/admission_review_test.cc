// AdmissionReview decoding and the exact bytes of the answers, compared with what
// controller-runtime writes for the same response.
#include "operator/webhook/admission_review.h"

#include <gtest/gtest.h>

#include "api/base64.h"

namespace lws::operator_webhook {
namespace {

TEST(DecodeAdmissionReviewTest, ReadsEveryFieldTheWebhooksUse) {
  Result<AdmissionReview> review = DecodeAdmissionReview(R"({
    "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
    "request": {
      "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
      "kind": {"group": "leaderworkerset.x-k8s.io", "version": "v1", "kind": "LeaderWorkerSet"},
      "resource": {"group": "leaderworkerset.x-k8s.io", "version": "v1",
                   "resource": "leaderworkersets"},
      "subResource": "", "name": "demo", "namespace": "team-a", "operation": "UPDATE",
      "userInfo": {"username": "admin", "groups": ["system:masters"]},
      "object": {"metadata": {"name": "demo"}}, "oldObject": {"metadata": {"name": "old"}},
      "dryRun": true, "options": {"kind": "UpdateOptions"}, "unknownField": 1
    }})");
  ASSERT_TRUE(review.ok()) << review.status().message();
  EXPECT_EQ(review->api_version, "admission.k8s.io/v1");
  EXPECT_EQ(review->kind, "AdmissionReview");
  const AdmissionReviewRequest& request = review->request;
  EXPECT_EQ(request.uid, "705ab4f5-6393-11e8-b7cc-42010a800002");
  EXPECT_EQ(request.kind_group, "leaderworkerset.x-k8s.io");
  EXPECT_EQ(request.kind_version, "v1");
  EXPECT_EQ(request.kind, "LeaderWorkerSet");
  EXPECT_EQ(request.resource, "leaderworkersets");
  EXPECT_EQ(request.name, "demo");
  EXPECT_EQ(request.namespace_, "team-a");
  EXPECT_EQ(request.operation, "UPDATE");
  EXPECT_TRUE(request.dry_run);
  ASSERT_TRUE(request.object.has_value());
  EXPECT_EQ((*request.object)["metadata"]["name"], "demo");
  ASSERT_TRUE(request.old_object.has_value());
  EXPECT_EQ((*request.old_object)["metadata"]["name"], "old");
}

TEST(DecodeAdmissionReviewTest, V1beta1AndMissingPartsReadAsControllerRuntimeReadsThem) {
  Result<AdmissionReview> beta = DecodeAdmissionReview(
      R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",
          "request":{"uid":"u","operation":"CREATE","object":null}})");
  ASSERT_TRUE(beta.ok());
  EXPECT_EQ(beta->api_version, "admission.k8s.io/v1beta1");
  EXPECT_FALSE(beta->request.object.has_value());  // null is no content

  for (const char* body : {"{}", R"({"request":null})"}) {
    Result<AdmissionReview> empty = DecodeAdmissionReview(body);
    ASSERT_TRUE(empty.ok()) << body;
    EXPECT_EQ(empty->api_version, "");
    EXPECT_EQ(empty->request.uid, "");
    EXPECT_EQ(empty->request.operation, "");
  }
}

TEST(DecodeAdmissionReviewTest, MalformedReviewsAreBadRequestsInGoWords) {
  struct Case {
    const char* body;
    const char* message;
  } cases[] = {
      {R"({"request":{"uid":5}})",
       "json: cannot unmarshal number into Go struct field AdmissionRequest.request.uid of type "
       "types.UID"},
      {R"({"request":{"operation":true}})",
       "json: cannot unmarshal bool into Go struct field AdmissionRequest.request.operation of "
       "type v1.Operation"},
      {R"({"request":{"kind":"Pod"}})",
       "json: cannot unmarshal string into Go struct field AdmissionRequest.request.kind of type "
       "v1.GroupVersionKind"},
      {R"({"request":{"resource":{"resource":[]}}})",
       "json: cannot unmarshal array into Go struct field GroupVersionResource.request.resource"
       ".resource of type string"},
      {R"({"request":{"dryRun":"yes"}})",
       "json: cannot unmarshal string into Go struct field AdmissionRequest.request.dryRun of type "
       "bool"},
      {R"({"request":[]})",
       "json: cannot unmarshal array into Go struct field AdmissionReview.request of type "
       "v1.AdmissionRequest"},
      {R"({"apiVersion":"a/b/c"})", "unexpected GroupVersion string: a/b/c"},
      {"[1]",
       "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value "
       "of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
       "\"json:\\\"kind,omitempty\\\"\" }"},
  };
  for (const Case& c : cases) {
    Result<AdmissionReview> review = DecodeAdmissionReview(c.body);
    ASSERT_FALSE(review.ok()) << c.body;
    EXPECT_EQ(review.status().code(), Code::kBadRequest) << c.body;
    EXPECT_EQ(review.status().message(), c.message) << c.body;
  }
  Result<AdmissionReview> garbage = DecodeAdmissionReview("not json");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().message().rfind("couldn't get version/kind; json parse error: ", 0),
            0u)
      << garbage.status().message();
}

TEST(EncodeAdmissionReviewTest, AllowedDeniedAndErroredAsGoWritesThem) {
  AdmissionResponse allowed = Allowed();
  allowed.uid = "u-1";
  EXPECT_EQ(EncodeAdmissionReview(allowed, kAdmissionV1, kAdmissionReviewKind),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":)"
            R"({"uid":"u-1","allowed":true,"status":{"metadata":{},"code":200}}})"
            "\n");

  AdmissionResponse denied = Denied("spec.replicas: Invalid value: -1: must be >= 0 & <x>");
  denied.uid = "u-2";
  // json.Encoder escapes <, > and & by default.
  EXPECT_EQ(EncodeAdmissionReview(denied, "admission.k8s.io/v1beta1", kAdmissionReviewKind),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1beta1","response":)"
            R"({"uid":"u-2","allowed":false,"status":{"metadata":{},"message":)"
            R"("spec.replicas: Invalid value: -1: must be \u003e= 0 \u0026 \u003cx\u003e",)"
            R"("reason":"Forbidden","code":403}}})"
            "\n");

  // writeResponse for a request that could not be read: no type information, no uid.
  EXPECT_EQ(EncodeAdmissionReview(Errored(400, "request body is empty"), "", ""),
            R"({"response":{"uid":"","allowed":false,"status":{"metadata":{},)"
            R"("message":"request body is empty","code":400}}})"
            "\n");
}

TEST(EncodeAdmissionReviewTest, PatchIsBase64OfGoJsonWithPatchType) {
  AdmissionResponse response = Allowed();
  response.patch = Json::parse(R"([{"op":"add","path":"/spec/b","value":{"z":1,"a":true}},
                                   {"op":"remove","path":"/spec/c"},
                                   {"op":"add","path":"/spec/d","value":null}])");
  response.warnings = {"careful"};
  const Json answer = Json::parse(EncodeAdmissionReview(response, kAdmissionV1, "AdmissionReview"));
  EXPECT_EQ(answer["response"]["patchType"], "JSONPatch");
  EXPECT_EQ(answer["response"]["warnings"], Json::array({"careful"}));
  Result<std::string> patch = api::Base64Decode(answer["response"]["patch"].get<std::string>());
  ASSERT_TRUE(patch.ok());
  // Keys sorted as Go marshals maps; a nil value is omitted (omitempty on an interface).
  EXPECT_EQ(*patch, R"([{"op":"add","path":"/spec/b","value":{"a":true,"z":1}},)"
                    R"({"op":"remove","path":"/spec/c"},{"op":"add","path":"/spec/d"}])");
}

}  // namespace
}  // namespace lws::operator_webhook
