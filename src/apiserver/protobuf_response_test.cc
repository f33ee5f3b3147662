// Kubernetes protobuf through the API server: bodies decoded, answers of built-in kinds (objects,
// lists, Status errors) encoded for clients that prefer protobuf, custom resources and Tables
// left in JSON, and wrong JSON types refused with kube-apiserver's words.
#include "apiserver/protobuf_response.h"

#include <gtest/gtest.h>

#include "api/protobuf/envelope.h"
#include "apiserver/api_server_testing.h"

namespace lws::apiserver::testing {
namespace {

constexpr const char* kProtobuf = "application/vnd.kubernetes.protobuf";
constexpr const char* kClientGoAccept = "application/vnd.kubernetes.protobuf, */*";

std::string ContentType(const Reply& reply) { return reply.raw.headers.Get("Content-Type"); }

api::Json Decoded(const Reply& reply) {
  Result<api::Json> object = api::protobuf::DecodeObject(reply.raw.body);
  EXPECT_TRUE(object.ok()) << object.status().message();
  return object.ok() ? *object : api::Json();
}

TEST(PrefersProtobuf, FollowsTheAcceptOrder) {
  EXPECT_TRUE(PrefersProtobuf(kClientGoAccept));
  EXPECT_TRUE(PrefersProtobuf("application/vnd.kubernetes.protobuf,application/json"));
  EXPECT_FALSE(PrefersProtobuf("application/json, application/vnd.kubernetes.protobuf"));
  EXPECT_FALSE(PrefersProtobuf("*/*"));
  EXPECT_FALSE(PrefersProtobuf(""));
  EXPECT_FALSE(PrefersProtobuf("application/json;as=Table;v=v1;g=meta.k8s.io, application/json"));
}

TEST_F(ApiServerTest, ProtobufBodiesAndAnswers) {
  const api::Json ns = {
      {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "pb"}}}};
  Reply created = Send("POST", "/api/v1/namespaces", api::protobuf::EncodeObject(ns).value(),
                       kProtobuf, kClientGoAccept);
  ASSERT_EQ(created.code, 201) << created.raw.body;
  EXPECT_EQ(ContentType(created), kProtobuf);
  EXPECT_EQ(Decoded(created)["metadata"]["name"], "pb");
  EXPECT_EQ(Decoded(created)["status"]["phase"], "Active");

  Reply list = Send("GET", "/api/v1/namespaces", "", "", kClientGoAccept);
  EXPECT_EQ(ContentType(list), kProtobuf);
  EXPECT_EQ(Decoded(list)["kind"], "NamespaceList");
  EXPECT_GE(Decoded(list)["items"].size(), 5u);

  Reply missing = Send("GET", "/api/v1/namespaces/nosuch", "", "", kClientGoAccept);
  EXPECT_EQ(missing.code, 404);
  EXPECT_EQ(ContentType(missing), kProtobuf);
  EXPECT_EQ(Decoded(missing)["reason"], "NotFound");

  // JSON clients are unaffected; a Table is JSON only.
  EXPECT_EQ(ContentType(Get("/api/v1/namespaces/pb")), "application/json");
  Reply table = Send("GET", "/api/v1/namespaces", "", "",
                     "application/json;as=Table;v=v1;g=meta.k8s.io, application/json");
  EXPECT_EQ(table.body["kind"], "Table");
}

TEST_F(ApiServerTest, CustomResourcesStayJson) {
  Reply lws = Send("GET", kLws, "", "", kClientGoAccept);
  EXPECT_EQ(lws.code, 200);
  EXPECT_EQ(ContentType(lws), "application/json");
  std::string envelope =
      api::protobuf::EncodeObject(
          {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "x"}}}})
          .value();
  Reply wrong = Send("POST", kLws, envelope, kProtobuf, "application/json");
  EXPECT_EQ(wrong.code, 400);  // a ConfigMap envelope for a LeaderWorkerSet URL
}

TEST_F(ApiServerTest, WrongJsonTypesOfBuiltinKindsAreRefused) {
  Reply cm = Post("/api/v1/namespaces/default/configmaps", {{"apiVersion", "v1"},
                                                            {"kind", "ConfigMap"},
                                                            {"metadata", {{"name", "c"}}},
                                                            {"data", {{"k", {{"deep", 1}}}}}});
  EXPECT_EQ(cm.code, 400);
  EXPECT_EQ(
      cm.body["message"],
      "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal object "
      "into Go struct field ConfigMap.data of type string");
  Reply patched =
      Patch("/api/v1/namespaces/default/configmaps/c", "application/merge-patch+json", {});
  EXPECT_EQ(patched.code, 404);
  ASSERT_EQ(Post("/api/v1/namespaces/default/configmaps",
                 {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}})
                .code,
            201);
  // A patch that makes a value the wrong type is refused as the body would be.
  Reply bad_patch = Patch("/api/v1/namespaces/default/configmaps/c", "application/merge-patch+json",
                          {{"data", {{"k", 5}}}});
  EXPECT_EQ(bad_patch.code, 400);
  EXPECT_NE(bad_patch.body["message"].get<std::string>().find("cannot unmarshal number"),
            std::string::npos);
}

TEST_F(ApiServerTest, TooDeepBodiesAreRefusedWithGosWords) {
  std::string deep =
      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"d\"},\"data\":";
  for (int i = 0; i < 10001; ++i) deep += "[";
  for (int i = 0; i < 10001; ++i) deep += "]";
  deep += "}";
  Reply reply = Send("POST", "/api/v1/namespaces/default/configmaps", deep);
  EXPECT_EQ(reply.code, 400);
  EXPECT_EQ(
      reply.body["message"],
      "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth");
}

}  // namespace
}  // namespace lws::apiserver::testing
