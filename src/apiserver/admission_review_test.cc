// File: apiserver/admission_review_test.cc
//
// The AdmissionReview request document, the checks on a webhook's answer and the errors the
// client sees, with kube-apiserver's wording.
#include "apiserver/admission_review.h"

#include <gtest/gtest.h>

#include "api/base64.h"

namespace lws::apiserver {
namespace {

Json Answer(const std::string& uid, Json response) {
  response["uid"] = uid;
  return {{"apiVersion", "admission.k8s.io/v1"},
          {"kind", "AdmissionReview"},
          {"response", std::move(response)}};
}

TEST(AdmissionReview, RequestDocument) {
  Json lws = {{"kind", "LeaderWorkerSet"}, {"metadata", {{"name", "demo"}}}};
  Json old = {{"kind", "LeaderWorkerSet"}, {"metadata", {{"name", "demo"}, {"generation", 1}}}};
  ReviewRequest r;
  r.uid = "u-1";
  r.operation = "UPDATE";
  r.group = "leaderworkerset.x-k8s.io";
  r.version = "v1";
  r.resource = "leaderworkersets";
  r.kind = "LeaderWorkerSet";
  r.name = "demo";
  r.namespace_ = "default";
  r.object = &lws;
  r.old_object = &old;
  r.dry_run = true;
  r.field_manager = "kubectl-edit";
  Json gvk = {
      {"group", "leaderworkerset.x-k8s.io"}, {"version", "v1"}, {"kind", "LeaderWorkerSet"}};
  Json gvr = {
      {"group", "leaderworkerset.x-k8s.io"}, {"version", "v1"}, {"resource", "leaderworkersets"}};
  Json want = {
      {"apiVersion", "admission.k8s.io/v1"},
      {"kind", "AdmissionReview"},
      {"request",
       {{"uid", "u-1"},
        {"kind", gvk},
        {"resource", gvr},
        {"requestKind", gvk},
        {"requestResource", gvr},
        {"name", "demo"},
        {"namespace", "default"},
        {"operation", "UPDATE"},
        {"userInfo",
         {{"username", "system:admin"}, {"groups", {"system:masters", "system:authenticated"}}}},
        {"object", lws},
        {"oldObject", old},
        {"dryRun", true},
        {"options",
         {{"kind", "UpdateOptions"},
          {"apiVersion", "meta.k8s.io/v1"},
          {"dryRun", {"All"}},
          {"fieldManager", "kubectl-edit"}}}}}};
  EXPECT_EQ(BuildAdmissionReview(r), want);

  r.operation = "CREATE";
  r.old_object = nullptr;
  r.subresource = "status";
  r.dry_run = false;
  Json request = BuildAdmissionReview(r)["request"];
  EXPECT_TRUE(request["oldObject"].is_null());
  EXPECT_EQ(request["subResource"], "status");
  EXPECT_EQ(request["requestSubResource"], "status");
  EXPECT_EQ(request["options"]["kind"], "CreateOptions");
  EXPECT_FALSE(request["options"].contains("dryRun"));
}

TEST(AdmissionReview, ReadsAllowedAndPatch) {
  Json patch =
      Json::array({{{"op", "add"}, {"path", "/metadata/labels"}, {"value", {{"a", "b"}}}}});
  Json answer = Answer("u", {{"allowed", true},
                             {"patchType", "JSONPatch"},
                             {"patch", api::Base64Encode(patch.dump())},
                             {"warnings", {"careful"}}});
  WebhookVerdict verdict = ReadAdmissionReview(answer, "u", WebhookType::kMutating).value();
  EXPECT_TRUE(verdict.allowed);
  EXPECT_EQ(verdict.patch, patch);
  EXPECT_EQ(verdict.patch_type, "JSONPatch");
  EXPECT_EQ(verdict.warnings, std::vector<std::string>{"careful"});
}

TEST(AdmissionReview, InvalidResponses) {
  auto reason = [](const Json& answer, WebhookType type = WebhookType::kMutating) {
    Result<WebhookVerdict> verdict = ReadAdmissionReview(answer, "u", type);
    EXPECT_FALSE(verdict.ok());
    return verdict.ok() ? std::string() : verdict.status().message();
  };
  EXPECT_EQ(reason({{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}}),
            "received invalid webhook response: webhook response was absent");
  EXPECT_EQ(reason(Answer("other", {{"allowed", true}})),
            "received invalid webhook response: expected response.uid=\"u\", got \"other\"");
  Json untyped = {{"response", {{"uid", "u"}, {"allowed", true}}}};
  EXPECT_EQ(reason(untyped),
            "received invalid webhook response: expected webhook response of "
            "admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=");
  EXPECT_EQ(reason(Answer("u", {{"allowed", true}, {"patch", api::Base64Encode("[]")}})),
            "received invalid webhook response: webhook returned response.patch but not "
            "response.patchType");
  EXPECT_EQ(reason(Answer("u", {{"allowed", true}, {"patchType", "JSONPatch"}})),
            "received invalid webhook response: webhook returned response.patchType but not "
            "response.patch");
  EXPECT_EQ(reason(Answer("u", {{"allowed", true},
                                {"patchType", "JSONPatch"},
                                {"patch", api::Base64Encode("[]")}}),
                   WebhookType::kValidating),
            "received invalid webhook response: validating webhook may not return "
            "response.patch");
  EXPECT_EQ(reason(Answer("u", {{"allowed", true},
                                {"patchType", "JSONPatch"},
                                {"patch", api::Base64Encode("{}")}})),
            "received undecodable patch in webhook response: json: cannot unmarshal object "
            "into Go value of type jsonpatch.Patch");
  EXPECT_EQ(reason(Json::array()),
            "failed to call webhook: json: cannot unmarshal array into Go value of type "
            "v1.AdmissionReview");
}

TEST(AdmissionReview, DenialAsKubeApiserverReportsIt) {
  // controller-runtime's admission.Denied("spec.replicas: ...").
  Status denied = WebhookDenied(
      "vleaderworkerset.kb.io",
      {{"code", 403}, {"reason", "Forbidden"}, {"message", "spec.replicas: Invalid value: -1"}});
  EXPECT_EQ(denied.code(), Code::kForbidden);
  EXPECT_EQ(denied.message(),
            "admission webhook \"vleaderworkerset.kb.io\" denied the request: spec.replicas: "
            "Invalid value: -1");

  Status bare = WebhookDenied("w", nullptr);
  EXPECT_EQ(bare.code(), Code::kBadRequest) << "no code: raised to 400";
  EXPECT_EQ(bare.message(), "admission webhook \"w\" denied the request without explanation");
  EXPECT_EQ(WebhookDenied("w", {{"reason", "NotAllowed"}, {"code", 200}}).message(),
            "admission webhook \"w\" denied the request: NotAllowed");

  Status invalid = WebhookDenied(
      "w",
      {{"code", 422},
       {"reason", "Invalid"},
       {"message", "bad"},
       {"details",
        {{"causes", {{{"reason", "FieldValueInvalid"}, {"message", "m"}, {"field", "spec.x"}}}}}}});
  EXPECT_EQ(invalid.code(), Code::kInvalid);
  EXPECT_EQ(invalid.causes(), (std::vector<FieldCause>{{"FieldValueInvalid", "m", "spec.x"}}));
}

TEST(AdmissionReview, CallFailureAndDryRunErrors) {
  Status failed =
      WebhookCallFailed("vpod.kb.io",
                        "failed to call webhook: Post \"https://127.0.0.1:9443/validate--v1-pod\": "
                        "dial tcp 127.0.0.1:9443: connect: connection refused");
  EXPECT_EQ(failed.code(), Code::kInternal);
  EXPECT_EQ(failed.message(),
            "Internal error occurred: failed calling webhook \"vpod.kb.io\": failed to call "
            "webhook: Post \"https://127.0.0.1:9443/validate--v1-pod\": dial tcp "
            "127.0.0.1:9443: connect: connection refused");
  ASSERT_EQ(failed.causes().size(), 1u);
  EXPECT_EQ(failed.causes()[0].message,
            failed.message().substr(strlen("Internal error occurred: ")));

  Status dry = WebhookDryRunUnsupported("w");
  EXPECT_EQ(dry.code(), Code::kBadRequest);
  EXPECT_EQ(dry.message(), "admission webhook \"w\" does not support dry run");
  EXPECT_TRUE(SideEffectsAllowDryRun("None"));
  EXPECT_TRUE(SideEffectsAllowDryRun("NoneOnDryRun"));
  EXPECT_FALSE(SideEffectsAllowDryRun("Some"));
  EXPECT_FALSE(SideEffectsAllowDryRun("Unknown"));
}

}  // namespace
}  // namespace lws::apiserver
