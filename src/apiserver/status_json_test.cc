#include "apiserver/status_json.h"

#include <gtest/gtest.h>

#include "api/lws_crd.h"

namespace lws::apiserver {
namespace {

class StatusJsonTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(registry_.AddCustomResource(api::LwsCrd()).ok()); }
  const api::ResourceInfo& R(const std::string& group, const std::string& resource) {
    return *registry_.Find(group, "v1", resource);
  }
  api::ResourceRegistry registry_ = api::ResourceRegistry::WithBuiltins();
};

// The Status documents of kubectl-compat.md section 10.3, byte for byte as JSON values.
TEST_F(StatusJsonTest, NotFoundNamesTheResourcePlural) {
  const auto& pods = R("", "pods");
  EXPECT_EQ(StatusJson(NotFoundError(pods, "nosuch"), {&pods, "nosuch"}), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"pods \"nosuch\" not found","reason":"NotFound",
     "details":{"name":"nosuch","kind":"pods"},"code":404})"));
}

TEST_F(StatusJsonTest, AlreadyExistsOfACustomResourceCarriesTheGroup) {
  const auto& lws = R("leaderworkerset.x-k8s.io", "leaderworkersets");
  EXPECT_EQ(StatusJson(AlreadyExistsError(lws, "l1"), {&lws, "l1"}), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"leaderworkersets.leaderworkerset.x-k8s.io \"l1\" already exists",
     "reason":"AlreadyExists",
     "details":{"name":"l1","group":"leaderworkerset.x-k8s.io","kind":"leaderworkersets"},
     "code":409})"));
}

TEST_F(StatusJsonTest, OptimisticLockConflict) {
  const auto& sts = R("apps", "statefulsets");
  EXPECT_EQ(StatusJson(ConflictError(sts, "s1"), {&sts, "s1"}), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"Operation cannot be fulfilled on statefulsets.apps \"s1\": the object has been modified; please apply your changes to the latest version and try again",
     "reason":"Conflict","details":{"name":"s1","group":"apps","kind":"statefulsets"},"code":409})"));
}

TEST_F(StatusJsonTest, ApplyConflictCarriesOnlyCauses) {
  const auto& sts = R("apps", "statefulsets");
  Status conflict(
      Code::kConflict,
      "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: "
      ".spec.replicas",
      {{"FieldManagerConflict", "conflict with \"kubectl-client-side-apply\" using apps/v1",
        ".spec.replicas"}});
  EXPECT_EQ(StatusJson(conflict, {&sts, "s1"}), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas",
     "reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict",
     "message":"conflict with \"kubectl-client-side-apply\" using apps/v1","field":".spec.replicas"}]},
     "code":409})"));
}

TEST_F(StatusJsonTest, InvalidNamesTheKind) {
  const auto& pods = R("", "pods");
  api::ErrorList errors = {api::Required(api::FieldPath("spec").Child("containers"), "")};
  Status invalid = api::InvalidStatus("Pod", "invalid", errors);
  EXPECT_EQ(StatusJson(invalid, {&pods, "invalid"}), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"Pod \"invalid\" is invalid: spec.containers: Required value","reason":"Invalid",
     "details":{"name":"invalid","kind":"Pod","causes":[{"reason":"FieldValueRequired",
     "message":"Required value","field":"spec.containers"}]},"code":422})"));
  const auto& lws = R("leaderworkerset.x-k8s.io", "leaderworkersets");
  Json custom = StatusJson(invalid, {&lws, "l1"});
  EXPECT_EQ(custom["details"]["kind"], "LeaderWorkerSet");
  EXPECT_EQ(custom["details"]["group"], "leaderworkerset.x-k8s.io");
}

TEST_F(StatusJsonTest, BadRequestAndUnsupportedMediaTypeHaveNoDetails) {
  const auto& pods = R("", "pods");
  EXPECT_EQ(StatusJson(Status::BadRequest("strict decoding error: unknown field \"spec.bogus\""),
                       {&pods, "p"}),
            Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
              "message":"strict decoding error: unknown field \"spec.bogus\"","reason":"BadRequest",
              "code":400})"));
  Status media =
      UnsupportedMediaTypeError({"application/json-patch+json", "application/merge-patch+json",
                                 "application/apply-patch+yaml"});
  EXPECT_EQ(StatusJson(media), Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},
    "status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    "reason":"UnsupportedMediaType","code":415})"));
}

TEST_F(StatusJsonTest, WatchExpiredHasNoDetails) {
  EXPECT_EQ(StatusJson(Status::Gone("too old resource version: 103 (110)")), Json::parse(R"j(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"too old resource version: 103 (110)","reason":"Expired","code":410})j"));
}

TEST_F(StatusJsonTest, UnknownPathAndMethods) {
  EXPECT_EQ(StatusJson(UnknownPathError()), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
     "message":"the server could not find the requested resource","reason":"NotFound",
     "details":{},"code":404})"));
  const auto& leases = R("coordination.k8s.io", "leases");
  EXPECT_EQ(StatusJson(MethodNotSupportedError(leases, "deletecollection"), {&leases, ""}),
            Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
              "message":"deletecollection is not supported on resources of kind \"leases.coordination.k8s.io\"",
              "reason":"MethodNotAllowed","details":{"group":"coordination.k8s.io","kind":"leases"},
              "code":405})"));
  Json generic = StatusJson(MethodNotAllowedError());
  EXPECT_EQ(generic["code"], 405);
  EXPECT_EQ(generic["message"], "the server does not allow this method on the requested resource");
  EXPECT_FALSE(generic.contains("details"));
}

TEST_F(StatusJsonTest, DeleteSuccess) {
  EXPECT_EQ(DeleteSuccessJson(R("apps", "statefulsets"), "s1", "uid-1"), Json::parse(R"(
    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",
     "details":{"name":"s1","group":"apps","kind":"statefulsets","uid":"uid-1"}})"));
  EXPECT_EQ(DeleteSuccessJson(R("", "services"), "svc", "u")["details"],
            Json::parse(R"({"name":"svc","kind":"services","uid":"u"})"));
}

}  // namespace
}  // namespace lws::apiserver
