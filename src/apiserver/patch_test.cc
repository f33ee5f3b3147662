#include "apiserver/patch.h"

#include <gtest/gtest.h>

#include <string>

namespace lws::apiserver {
namespace {

api::ResourceInfo BuiltinPods() {
  api::ResourceInfo info;
  info.resource = "pods";
  info.kind = "Pod";
  return info;
}

api::ResourceInfo CustomLws() {
  api::ResourceInfo info;
  info.group = "leaderworkerset.x-k8s.io";
  info.resource = "leaderworkersets";
  info.kind = "LeaderWorkerSet";
  info.custom = true;
  return info;
}

TEST(PatchTypeTest, ContentTypes) {
  const api::ResourceInfo pods = BuiltinPods();
  const std::pair<std::string, PatchType> cases[] = {
      {"application/json-patch+json", PatchType::kJson},
      {"application/merge-patch+json", PatchType::kMerge},
      {"application/strategic-merge-patch+json", PatchType::kStrategic},
      {"application/apply-patch+yaml", PatchType::kApply},
      {"application/merge-patch+json; charset=utf-8", PatchType::kMerge},
      {"application/json-patch+json;foo", PatchType::kJson},
  };
  for (const auto& [content_type, want] : cases) {
    SCOPED_TRACE(content_type);
    auto got = PatchTypeFromContentType(content_type, pods);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, want);
    EXPECT_EQ(content_type.substr(0, PatchContentType(want).size()), PatchContentType(want));
  }
}

TEST(PatchTypeTest, UnsupportedTypesAre415WithTheAcceptedList) {
  const std::string builtin_list =
      "the body of the request was in an unknown format - accepted media types include: "
      "application/json-patch+json, application/merge-patch+json, "
      "application/strategic-merge-patch+json, application/apply-patch+yaml";
  // kubectl-compat.md 10.3: the list a custom resource answers with.
  const std::string custom_list =
      "the body of the request was in an unknown format - accepted media types include: "
      "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";
  const std::string bad[] = {"application/json",
                             "",
                             "Application/merge-patch+json",
                             "application/merge-patch+json ; charset=utf-8",
                             ";application/merge-patch+json",
                             "application/apply-patch+cbor"};
  for (const std::string& content_type : bad) {
    SCOPED_TRACE(content_type);
    auto got = PatchTypeFromContentType(content_type, BuiltinPods());
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), Code::kUnsupportedMediaType);
    EXPECT_EQ(got.status().http_code(), 415);
    EXPECT_EQ(got.status().message(), builtin_list);
  }
  auto smp_on_cr = PatchTypeFromContentType("application/strategic-merge-patch+json", CustomLws());
  ASSERT_FALSE(smp_on_cr.ok());
  EXPECT_EQ(smp_on_cr.status().code(), Code::kUnsupportedMediaType);
  EXPECT_EQ(smp_on_cr.status().message(), custom_list);
  EXPECT_EQ(*PatchTypeFromContentType("application/merge-patch+json", CustomLws()),
            PatchType::kMerge);
}

struct MergeCase {
  const char* name;
  const char* original;
  const char* patch;
  const char* want;
};

TEST(MergePatchTest, Rfc7386AndEvanphxCases) {
  const MergeCase cases[] = {
      // RFC 7386 appendix A.
      {"replace", R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {"add", R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {"delete", R"({"a":"b"})", R"({"a":null})", R"({})"},
      {"delete one", R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {"array replaces", R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {"scalar to array", R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {"nested", R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {"array of objects replaced", R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {"nested nulls pruned", R"({"e":null})", R"({"a":1,"c":{"d":null}})",
       R"({"e":null,"a":1,"c":{}})"},
      {"empty patch", R"({"a":1})", R"({})", R"({"a":1})"},
      // kubectl label / annotate / scale / edit bodies (kubectl-compat 7.4-7.6).
      {"label", R"({"metadata":{"name":"p1","labels":{"app":"x"}}})",
       R"({"metadata":{"labels":{"z":"2"}}})",
       R"({"metadata":{"name":"p1","labels":{"app":"x","z":"2"}}})"},
      {"remove label", R"({"metadata":{"labels":{"app":"x","z":"2"}}})",
       R"({"metadata":{"labels":{"z":null}}})", R"({"metadata":{"labels":{"app":"x"}}})"},
      {"scale", R"({"spec":{"replicas":1,"template":{}}})", R"({"spec":{"replicas":3}})",
       R"({"spec":{"replicas":3,"template":{}}})"},
      // evanphx v4: values copied from the patch lose nulls, also inside arrays...
      {"array copy pruned", R"({})", R"({"a":[{"b":null,"c":1},null,2]})", R"({"a":[{"c":1},2]})"},
      {"replacing scalar prunes", R"({"a":1})", R"({"a":[{"b":null}]})", R"({"a":[{}]})"},
      // ...but an array replacing an object is taken verbatim.
      {"replacing object keeps", R"({"a":{"x":1}})", R"({"a":[{"b":null},null]})",
       R"({"a":[{"b":null},null]})"},
      {"null current is replaced", R"({"a":null})", R"({"a":{"b":null,"c":2}})",
       R"({"a":{"c":2}})"},
      {"object merged into array", R"({"a":[1]})", R"({"a":{"b":1,"c":null}})", R"({"a":{"b":1}})"},
      {"keys with slashes", R"({"a/b":1})", R"({"a/b":null,"~":2})", R"({"~":2})"},
  };
  for (const MergeCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = ApplyMergePatch(Json::parse(c.original), Json::parse(c.patch));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, Json::parse(c.want)) << got->dump();
  }
}

TEST(MergePatchTest, NonObjectOriginal) {
  // evanphx turns a document that is not an object into the pruned patch.
  EXPECT_EQ(*ApplyMergePatch(Json::parse("[1]"), Json::parse(R"({"a":null,"b":1})")),
            Json::parse(R"({"b":1})"));
  auto null_doc = ApplyMergePatch(Json(), Json::object());
  ASSERT_FALSE(null_doc.ok());
  EXPECT_EQ(null_doc.status().code(), Code::kInternal);
  EXPECT_EQ(null_doc.status().message(), "Invalid JSON Document");
}

TEST(MergePatchTest, PatchMustBeAnObject) {
  const std::pair<const char*, const char*> cases[] = {
      {"[1]",
       "error decoding patch: json: cannot unmarshal array into Go value of type "
       "map[string]interface {}"},
      {R"("x")",
       "error decoding patch: json: cannot unmarshal string into Go value of type "
       "map[string]interface {}"},
      {"3",
       "error decoding patch: json: cannot unmarshal number into Go value of type "
       "map[string]interface {}"},
      {"true",
       "error decoding patch: json: cannot unmarshal bool into Go value of type "
       "map[string]interface {}"},
      {"null", "Invalid JSON Patch"},
  };
  for (const auto& [patch, message] : cases) {
    SCOPED_TRACE(patch);
    auto got = ApplyMergePatch(Json::parse(R"({"a":1})"), Json::parse(patch));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), Code::kBadRequest);
    EXPECT_EQ(got.status().message(), message);
  }
}

Json Nested(int depth, const Json& leaf) {
  Json v = leaf;
  for (int i = 0; i < depth; ++i) v = Json{{"a", std::move(v)}};
  return v;
}

TEST(MergePatchTest, DepthLimitOfGosDecoder) {
  // 10000 levels decode in Go; one more fails like Go's scanner.
  Json ok_patch = Nested(9999, 1);
  auto ok = ApplyMergePatch(Json::object(), ok_patch);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, ok_patch);
  auto deep = ApplyMergePatch(Json::object(), Nested(10000, Json::object()));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), Code::kBadRequest);
  EXPECT_EQ(deep.status().message(),
            "error decoding patch: invalid character '{' exceeded max depth");
}

}  // namespace
}  // namespace lws::apiserver
