#include "apiserver/request_target.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace lws::apiserver {
namespace {

// Everything a target decodes to, for comparing two parses.
std::vector<std::string> Fields(const RequestTarget& t) {
  std::vector<std::string> out{std::to_string(static_cast<int>(t.kind)),
                               t.path,
                               t.group,
                               t.version,
                               t.namespace_,
                               t.resource,
                               t.name,
                               t.subresource};
  for (const auto& [key, value] : t.query.values()) {
    out.push_back(key);
    out.push_back(value);
  }
  return out;
}

TEST(RequestTargetTest, NamespacedResourcePathsNameEveryPart) {
  auto t = ParseRequestTarget("/apis/apps/v1/namespaces/prod/statefulsets/web-0/status");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->kind, TargetKind::kResource);
  EXPECT_EQ(t->group, "apps");
  EXPECT_EQ(t->version, "v1");
  EXPECT_EQ(t->namespace_, "prod");
  EXPECT_EQ(t->resource, "statefulsets");
  EXPECT_EQ(t->name, "web-0");
  EXPECT_EQ(t->subresource, "status");
  EXPECT_FALSE(t->IsCollection());
}

TEST(RequestTargetTest, CoreCollectionsAndTheNamespaceObjectItself) {
  auto pods = ParseRequestTarget("/api/v1/pods");
  ASSERT_TRUE(pods.ok());
  EXPECT_TRUE(pods->IsCollection());
  EXPECT_EQ(pods->group, "");
  EXPECT_EQ(pods->namespace_, "");

  // namespaces/{name}/status is the namespace's own subresource, not a resource "status".
  auto ns_status = ParseRequestTarget("/api/v1/namespaces/prod/status");
  ASSERT_TRUE(ns_status.ok());
  EXPECT_EQ(ns_status->resource, "namespaces");
  EXPECT_EQ(ns_status->name, "prod");
  EXPECT_EQ(ns_status->subresource, "status");
  EXPECT_EQ(ns_status->namespace_, "");

  auto too_deep = ParseRequestTarget("/api/v1/namespaces/prod/pods/a/status/extra");
  ASSERT_TRUE(too_deep.ok());
  EXPECT_EQ(too_deep->kind, TargetKind::kUnknown);
}

TEST(RequestTargetTest, QueryValuesAreDecodedAsGoDoes) {
  auto t = ParseRequestTarget("/api/v1/pods?labelSelector=tier+in+%28a%2Cb%29&limit=500&limit=1");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->query.Get("labelSelector"), "tier in (a,b)");
  EXPECT_EQ(t->query.Get("limit"), "500");  // the first of a repeated key
  EXPECT_EQ(t->path, "/api/v1/pods");
}

TEST(RequestTargetTest, PercentEncodedSegmentsAreDecoded) {
  auto t = ParseRequestTarget("/api/v1/namespaces/a%2Db/pods");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->namespace_, "a-b");
  EXPECT_EQ(t->path, "/api/v1/namespaces/a-b/pods");
}

TEST(RequestTargetTest, MalformedTargetsAreBadRequests) {
  for (const char* bad : {"api/v1/pods", "/api/v1/pods%zz", "", "http://x/api"}) {
    auto t = ParseRequestTarget(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), Code::kBadRequest) << bad;
  }
}

TEST(RequestTargetTest, EmptySegmentsAreSkippedOnBothPaths) {
  for (const char* target : {"//api//v1///pods/", "/", "/version", "/healthz/etcd", "/apis/apps",
                             "/openapi/v3/apis/apps/v1", "/api/v1/namespaces/./pods/..",
                             "/./api/v1/pods", "/./", "/.", "/.//api/v1", "/a/./b"}) {
    auto plain = ParseRequestTarget(target);
    auto url = ParseRequestTargetWithUrl(target);
    ASSERT_EQ(plain.ok(), url.ok()) << target;
    if (plain.ok()) {
      EXPECT_EQ(Fields(*plain), Fields(*url)) << target;
    }
  }
}

// The plain-path split and Boost.URL agree on every target. Targets are built like the API's
// paths (a prefix, then namespace, resource, name and subresource segments), with doubled and
// trailing slashes, dot segments, and, in half of them, a piece only Boost.URL may parse (a
// percent-encoding, a query, a fragment, a space), so both the split and the fallback are
// held to the same answers on paths that mean something.
RC_GTEST_PROP(RequestTargetProperty, SplittingPlainPathsAgreesWithBoostUrl, ()) {
  const bool plain = *rc::gen::arbitrary<bool>();
  const auto separator = [] { return *rc::gen::element<std::string>("/", "/", "/", "//"); };
  const auto segment = [plain] {
    std::string piece = *rc::gen::element<std::string>("namespaces", "pods", "status", "web-0",
                                                       "a.b_c~d", "Z9", ".", "..", "");
    if (!plain && *rc::gen::inRange(0, 4) == 0) {
      piece += *rc::gen::element<std::string>("%41", "%2F", "%", "?watch=1&x=a+b", "#f", " ");
    }
    return piece;
  };
  std::string target =
      *rc::gen::element<std::string>("/api/v1", "/apis/apps/v1", "/apis", "", "/version",
                                     "/healthz", "/openapi/v3", "/.", "/./api/v1");
  const int segments = *rc::gen::inRange(0, 6);
  for (int i = 0; i < segments; ++i) target += separator() + segment();
  if (*rc::gen::arbitrary<bool>()) target += "/";
  auto split = ParseRequestTarget(target);
  auto url = ParseRequestTargetWithUrl(target);
  RC_ASSERT(split.ok() == url.ok());
  if (split.ok()) RC_ASSERT(Fields(*split) == Fields(*url));
}

}  // namespace
}  // namespace lws::apiserver
