// Tests of the watch body decoder: object framing across arbitrary reads, event decoding, and the
// events a re-list produces (rest_watch.h).
#include "client/rest/watch_decoder.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "client/rest/rest_watch.h"
#include "store/object.h"

namespace lws::rest {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> FeedAll(JsonObjectSplitter& splitter, const std::vector<std::string>& reads,
                                 Status* status = nullptr) {
  std::vector<std::string> objects;
  for (const std::string& read : reads) {
    Status fed = splitter.Feed(read, [&](std::string_view o) { objects.emplace_back(o); });
    if (status) *status = fed;
    if (!fed.ok()) break;
  }
  return objects;
}

TEST(JsonObjectSplitterTest, FindsObjectsWhateverTheReads) {
  JsonObjectSplitter splitter;
  // Our server's newline-terminated lines, several per read, one cut in two; kube-apiserver's
  // one object per chunk; braces and escaped quotes inside strings do not count.
  std::vector<std::string> objects = FeedAll(
      splitter, {"{\"a\":1}\n{\"b\":{\"c\":[1,{}]}}\n{\"s\":\"}", "{\\\"\"}\n", "  {\"d\":\"[\"}", "\r\n"});
  EXPECT_THAT(objects, ElementsAre("{\"a\":1}", "{\"b\":{\"c\":[1,{}]}}", "{\"s\":\"}{\\\"\"}",
                                   "{\"d\":\"[\"}"));
  EXPECT_FALSE(splitter.partial());
  EXPECT_EQ(splitter.offset(), 53u);
}

TEST(JsonObjectSplitterTest, RefusesBytesBetweenObjectsAndOversizedObjects) {
  JsonObjectSplitter garbage;
  Status status;
  FeedAll(garbage, {"{}\n", "<html>"}, &status);
  EXPECT_EQ(status.code(), Code::kBadRequest);
  EXPECT_EQ(status.message(), "watch stream: unexpected byte 0x3c between events at offset 3");
  EXPECT_FALSE(garbage.Feed("{}", [](std::string_view) {}).ok());  // unusable afterwards

  JsonObjectSplitter small(8);
  EXPECT_THAT(FeedAll(small, {"{\"a\":1}", "{\"long\":", "\"value\"}"}, &status), ElementsAre("{\"a\":1}"));
  EXPECT_THAT(status.message(), HasSubstr("exceeds 8 bytes"));
}

RC_GTEST_PROP(JsonObjectSplitterProperty, ReadBoundariesDoNotMatter, ()) {
  const auto values = *rc::gen::container<std::vector<std::string>>(rc::gen::string<std::string>());
  std::string body;
  std::vector<std::string> want;
  for (const std::string& value : values) {
    std::string object = "{\"v\":" + api::Json(value).dump(-1, ' ', false, api::Json::error_handler_t::replace) + ",\"n\":[{}]}";
    want.push_back(object);
    body += object + (value.size() % 2 ? "\n" : "");
  }
  std::vector<std::string> reads;
  for (std::size_t at = 0; at < body.size();) {
    std::size_t n = *rc::gen::inRange<std::size_t>(1, 9);
    reads.push_back(body.substr(at, n));
    at += n;
  }
  JsonObjectSplitter splitter;
  Status status;
  RC_ASSERT(FeedAll(splitter, reads, &status) == want);
  RC_ASSERT(status.ok());
}

TEST(DecodeWatchEventTest, ReadsObjectEventsBookmarksAndErrors) {
  Result<DecodedWatchEvent> added = DecodeWatchEvent(
      R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","resourceVersion":"12"}}})");
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ(added->type, store::EventType::kAdded);
  EXPECT_EQ(added->resource_version, 12u);
  EXPECT_EQ(added->object["metadata"]["name"], "a");

  Result<DecodedWatchEvent> bookmark =
      DecodeWatchEvent(R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"40"}}})");
  ASSERT_TRUE(bookmark.ok());
  EXPECT_EQ(bookmark->type, store::EventType::kBookmark);
  EXPECT_EQ(bookmark->resource_version, 40u);

  Result<DecodedWatchEvent> gone = DecodeWatchEvent(
      R"j({"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old resource version: 1 (40)"}})j");
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(gone->type, store::EventType::kError);
  EXPECT_EQ(gone->error_code, 410);
}

TEST(DecodeWatchEventTest, NamesWhatIsWrong) {
  EXPECT_EQ(DecodeWatchEvent("[1]").status().message(), "watch event: not a JSON object");
  EXPECT_EQ(DecodeWatchEvent(R"({"object":{}})").status().message(), "watch event: type: missing or not a string");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"ADDED","object":7})").status().message(),
            "watch event: object: missing or not an object");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"UPSERTED","object":{}})").status().message(),
            "watch event: unknown type \"UPSERTED\"");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"MODIFIED","object":{"metadata":{}}})").status().message(),
            "watch event MODIFIED: object.metadata.resourceVersion: missing or not a string");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"DELETED","object":{"metadata":{"resourceVersion":"x1"}}})")
                .status()
                .message(),
            "watch event DELETED: object.metadata.resourceVersion: resourceVersion \"x1\" is not a decimal number");
}

store::ObjectPtr Pod(const std::string& ns, const std::string& name, std::uint64_t rv) {
  return store::MakeStoredObject({{"kind", "Pod"}, {"metadata", {{"namespace", ns}, {"name", name}}}}, rv);
}

TEST(RelistEventsTest, DeletesWhatVanishedThenAddsWhatIsListed) {
  std::map<store::ObjectName, store::ObjectPtr> known = {
      {{"a", "gone"}, Pod("a", "gone", 3)}, {{"a", "kept"}, Pod("a", "kept", 4)}, {{"b", "x"}, Pod("b", "x", 5)}};
  std::vector<store::ObjectPtr> listed = {Pod("a", "kept", 9), Pod("a", "new", 8)};
  std::vector<store::WatchEvent> events = RelistEvents(known, listed, 10, /*namespaced=*/true);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, store::EventType::kDeleted);
  EXPECT_EQ(events[0].object->json["metadata"]["name"], "gone");
  EXPECT_EQ(events[0].object->resource_version, 10u);  // the list's, so versions only grow
  EXPECT_EQ(events[1].type, store::EventType::kDeleted);
  EXPECT_EQ(events[1].object->json["metadata"]["namespace"], "b");
  EXPECT_EQ(events[2].type, store::EventType::kAdded);
  EXPECT_EQ(events[2].object, listed[0]);
  EXPECT_EQ(events[3].object, listed[1]);
}

TEST(RelistEventsTest, ClusterScopedKeysIgnoreNamespace) {
  std::map<store::ObjectName, store::ObjectPtr> known = {{{"", "n1"}, Pod("", "n1", 1)}};
  std::vector<store::ObjectPtr> listed = {Pod("stray", "n1", 2)};
  std::vector<store::WatchEvent> events = RelistEvents(known, listed, 3, /*namespaced=*/false);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, store::EventType::kAdded);
}

}  // namespace
}  // namespace lws::rest
