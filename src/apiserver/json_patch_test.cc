#include <gtest/gtest.h>

#include <string>

#include "apiserver/patch.h"

namespace lws::apiserver {
namespace {

struct OkCase {
  const char* name;
  const char* doc;
  const char* patch;
  const char* want;
};

TEST(JsonPatchTest, Operations) {
  const OkCase cases[] = {
      // kubectl patch --type json (kubectl-compat 7.6).
      {"replace replicas", R"({"spec":{"replicas":1}})",
       R"([{"op":"replace","path":"/spec/replicas","value":4}])", R"({"spec":{"replicas":4}})"},
      {"add member", R"({"a":{}})", R"([{"op":"add","path":"/a/b","value":[1]}])",
       R"({"a":{"b":[1]}})"},
      {"add replaces member", R"({"a":1})", R"([{"op":"add","path":"/a","value":2}])",
       R"({"a":2})"},
      {"add inserts", R"({"a":[1,2]})", R"([{"op":"add","path":"/a/1","value":9}])",
       R"({"a":[1,9,2]})"},
      {"add at end index", R"({"a":[1]})", R"([{"op":"add","path":"/a/1","value":2}])",
       R"({"a":[1,2]})"},
      {"dash appends", R"({"a":[1]})", R"([{"op":"add","path":"/a/-","value":2}])",
       R"({"a":[1,2]})"},
      {"negative add", R"({"a":[1,2]})", R"([{"op":"add","path":"/a/-1","value":9}])",
       R"({"a":[1,2,9]})"},
      {"remove member", R"({"a":1,"b":2})", R"([{"op":"remove","path":"/a"}])", R"({"b":2})"},
      {"remove element", R"({"a":[1,2,3]})", R"([{"op":"remove","path":"/a/1"}])",
       R"({"a":[1,3]})"},
      {"remove last by -1", R"({"a":[1,2,3]})", R"([{"op":"remove","path":"/a/-1"}])",
       R"({"a":[1,2]})"},
      {"replace element", R"({"a":[1,2]})", R"([{"op":"replace","path":"/a/0","value":"x"}])",
       R"({"a":["x",2]})"},
      {"replace missing key adds", R"({})", R"([{"op":"replace","path":"/new","value":1}])",
       R"({"new":1})"},
      {"replace root", R"({"a":1})", R"([{"op":"replace","path":"","value":{"b":2}}])",
       R"({"b":2})"},
      {"replace root scalar ignored", R"({"a":1})", R"([{"op":"replace","path":"","value":3}])",
       R"({"a":1})"},
      {"move", R"({"a":{"b":1},"c":{}})", R"([{"op":"move","from":"/a/b","path":"/c/d"}])",
       R"({"a":{},"c":{"d":1}})"},
      {"move in array", R"({"a":[1,2,3]})", R"([{"op":"move","from":"/a/0","path":"/a/-"}])",
       R"({"a":[2,3,1]})"},
      {"copy", R"({"a":{"b":[1]}})", R"([{"op":"copy","from":"/a/b","path":"/c"}])",
       R"({"a":{"b":[1]},"c":[1]})"},
      {"copy missing key copies null", R"({"a":{}})",
       R"([{"op":"copy","from":"/a/x","path":"/c"}])", R"({"a":{},"c":null})"},
      {"test then replace", R"({"a":"x"})",
       R"([{"op":"test","path":"/a","value":"x"},{"op":"replace","path":"/a","value":"y"}])",
       R"({"a":"y"})"},
      {"test object", R"({"a":{"b":[1,{"c":true}]}})",
       R"([{"op":"test","path":"/a","value":{"b":[1,{"c":true}]}}])",
       R"({"a":{"b":[1,{"c":true}]}})"},
      {"test missing is null", R"({})", R"([{"op":"test","path":"/x","value":null}])", R"({})"},
      {"test root", R"({"a":1})", R"([{"op":"test","path":"","value":{"a":1}}])", R"({"a":1})"},
      {"escapes", R"({"a/b":{"m~n":1}})", R"([{"op":"replace","path":"/a~1b/m~0n","value":2}])",
       R"({"a/b":{"m~n":2}})"},
      {"tilde then one", R"({"~1":1})", R"([{"op":"remove","path":"/~01"}])", R"({})"},
      {"empty key", R"({"":{"":1}})", R"([{"op":"remove","path":"//"}])", R"({"":{}})"},
      {"first segment ignored", R"({"a":1})", R"([{"op":"replace","path":"x/a","value":2}])",
       R"({"a":2})"},
      {"add without value writes null", R"({})", R"([{"op":"add","path":"/a"}])", R"({"a":null})"},
      {"null patch", R"({"a":1})", "null", R"({"a":1})"},
      {"empty patch", R"({"a":1})", "[]", R"({"a":1})"},
      {"managedFields migration", R"({"metadata":{"managedFields":[{"manager":"a"}]}})",
       R"([{"op":"replace","path":"/metadata/managedFields","value":[{"manager":"b"}]}])",
       R"({"metadata":{"managedFields":[{"manager":"b"}]}})"},
      {"leading plus and zeros", R"({"a":[1,2,3]})", R"([{"op":"remove","path":"/a/+01"}])",
       R"({"a":[1,3]})"},
  };
  for (const OkCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = ApplyJsonPatch(Json::parse(c.doc), Json::parse(c.patch));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, Json::parse(c.want)) << got->dump();
  }
}

struct FailCase {
  const char* name;
  const char* doc;
  const char* patch;
  const char* detail;  // evanphx's message
};

TEST(JsonPatchTest, FailedOperationsAreGeneric422) {
  const FailCase cases[] = {
      {"missing parent", R"({})", R"([{"op":"add","path":"/a/b","value":1}])",
       R"(add operation does not apply: doc is missing path: "/a/b": missing value)"},
      {"through null", R"({"a":null})", R"([{"op":"add","path":"/a/b","value":1}])",
       R"(add operation does not apply: doc is missing path: "/a/b": missing value)"},
      {"through scalar", R"({"a":1})", R"([{"op":"remove","path":"/a/b"}])",
       R"(remove operation does not apply: doc is missing path: "/a/b": missing value)"},
      {"remove missing", R"({})", R"([{"op":"remove","path":"/a"}])",
       "error in remove for path: '/a': Unable to remove nonexistent key: a: missing value"},
      {"remove out of range", R"({"a":[1]})", R"([{"op":"remove","path":"/a/1"}])",
       "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index "
       "referenced"},
      {"add past end", R"({"a":[1]})", R"([{"op":"add","path":"/a/5","value":1}])",
       "error in add for path: '/a/5': Unable to access invalid index: 5: invalid index "
       "referenced"},
      {"huge index", R"({"a":[]})", R"([{"op":"add","path":"/a/99999999999999999999","value":1}])",
       "error in add for path: '/a/99999999999999999999': value was not a proper array index: "
       "'99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value out of "
       "range"},
      {"bad index", R"({"a":[]})", R"([{"op":"add","path":"/a/x","value":1}])",
       "error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: "
       "parsing \"x\": invalid syntax"},
      {"replace bad index", R"({"a":[1]})", R"([{"op":"replace","path":"/a/2","value":1}])",
       "replace operation does not apply: doc is missing key: /a/2: missing value"},
      {"root add", R"({})", R"([{"op":"add","path":"","value":1}])",
       R"(add operation does not apply: doc is missing path: "": missing value)"},
      {"test fails", R"({"a":1})", R"([{"op":"test","path":"/a","value":2}])",
       "testing value /a failed: test failed"},
      {"test int vs float", R"({"a":1})", R"([{"op":"test","path":"/a","value":1.0}])",
       "testing value /a failed: test failed"},
      {"test extra member", R"({"a":{"b":1}})",
       R"([{"op":"test","path":"/a","value":{"b":1,"c":2}}])",
       "testing value /a failed: test failed"},
      {"test null value vs present", R"({"a":1})", R"([{"op":"test","path":"/a","value":null}])",
       "testing value /a failed: test failed"},
      {"move into itself", R"({"a":{"b":1}})", R"([{"op":"move","from":"/a","path":"/a/c"}])",
       "move operation does not apply: doc is missing destination path: /a/c: missing value"},
      {"unknown op", R"({})", R"([{"op":"frobnicate","path":"/a"}])",
       "Unexpected kind: frobnicate"},
      {"missing op", R"({})", R"([{"path":"/a"}])", "Unexpected kind: unknown"},
      {"null op entry", R"({})", R"([null])", "Unexpected kind: unknown"},
      {"missing path", R"({})", R"([{"op":"add","value":1}])",
       "add operation failed to decode path: missing value"},
      {"missing from", R"({})", R"([{"op":"copy","path":"/a"}])",
       "copy operation failed to decode from: operation, missing from field: missing value"},
      {"later op fails", R"({"a":1})",
       R"([{"op":"remove","path":"/a"},{"op":"remove","path":"/a"}])",
       "error in remove for path: '/a': Unable to remove nonexistent key: a: missing value"},
  };
  for (const FailCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = ApplyJsonPatch(Json::parse(c.doc), Json::parse(c.patch));
    ASSERT_FALSE(got.ok()) << got->dump();
    EXPECT_EQ(got.status().code(), Code::kInvalid);
    EXPECT_EQ(got.status().message(),
              "the server rejected our request due to an error in our request");
    EXPECT_TRUE(got.status().causes().empty());
    auto detailed = internal::ApplyJsonPatchDetailed(Json::parse(c.doc), Json::parse(c.patch));
    ASSERT_FALSE(detailed.ok());
    EXPECT_EQ(detailed.status().message(), c.detail);
  }
}

TEST(JsonPatchTest, DecodeErrorsAre400) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"op":"add"})",
       "error decoding patch: json: cannot unmarshal object into Go value of type "
       "[]handlers.jsonPatchOp"},
      {R"("x")",
       "error decoding patch: json: cannot unmarshal string into Go value of type "
       "[]handlers.jsonPatchOp"},
      {R"([1])",
       "error decoding patch: json: cannot unmarshal number into Go value of type "
       "handlers.jsonPatchOp"},
      {R"([{"op":"add","path":1}])",
       "error decoding patch: json: cannot unmarshal number into Go struct field "
       "jsonPatchOp.path of type string"},
      {R"([{"op":["add"],"path":"/a"}])",
       "error decoding patch: json: cannot unmarshal array into Go struct field "
       "jsonPatchOp.op of type string"},
  };
  for (const auto& [patch, message] : cases) {
    SCOPED_TRACE(patch);
    auto got = ApplyJsonPatch(Json::object(), Json::parse(patch));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), Code::kBadRequest);
    EXPECT_EQ(got.status().message(), message);
  }
}

TEST(JsonPatchTest, TooManyOperationsIs413) {
  Json patch = Json::array();
  for (int i = 0; i < 10001; ++i) patch.push_back({{"op", "test"}, {"path", "/a"}, {"value", 1}});
  auto got = ApplyJsonPatch(Json{{"a", 1}}, patch);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kRequestEntityTooLarge);
  EXPECT_EQ(got.status().message(),
            "The allowed maximum operations in a JSON patch is 10000, got 10001");
  patch.erase(patch.size() - 1);
  EXPECT_TRUE(ApplyJsonPatch(Json{{"a", 1}}, patch).ok());
}

TEST(JsonPatchTest, CopiesCannotGrowTheDocumentPastTheLimit) {
  // Doubling a 1 KiB value would otherwise reach 2^40 bytes.
  Json doc = {{"a", std::string(1024, 'x')}};
  Json patch = Json::array();
  patch.push_back({{"op", "copy"}, {"from", "/a"}, {"path", "/b"}});
  for (int i = 0; i < 40; ++i) {
    patch.push_back({{"op", "copy"}, {"from", "/b"}, {"path", "/c"}});
    patch.push_back({{"op", "add"}, {"path", "/b"}, {"value", {1}}});
    patch.push_back({{"op", "copy"}, {"from", "/c"}, {"path", "/b/-"}});
    patch.push_back({{"op", "copy"}, {"from", "/c"}, {"path", "/b/-"}});
  }
  auto got = internal::ApplyJsonPatchDetailed(doc, patch);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kInvalid);
  EXPECT_NE(got.status().message().find("Unable to complete the copy, the accumulated size "
                                        "increase of copy is "),
            std::string::npos);
  EXPECT_NE(got.status().message().find(", exceeding the limit 3145728"), std::string::npos);
}

TEST(JsonPatchTest, UpstreamPanicsAre500) {
  const char* cases[] = {
      R"([{"op":"test","path":"/missing"}])", R"([{"op":"test","path":""}])",
      R"([{"op":"replace","path":""}])",
      R"([{"op":"test","path":"/a","value":[1,2]}])",  // a null element in the document
  };
  for (const char* patch : cases) {
    SCOPED_TRACE(patch);
    auto got = ApplyJsonPatch(Json::parse(R"({"a":[null,2]})"), Json::parse(patch));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), Code::kInternal);
    EXPECT_EQ(got.status().message(),
              "This request caused apiserver to panic. Look in the logs for details.");
  }
}

}  // namespace
}  // namespace lws::apiserver
