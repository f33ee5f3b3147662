// Tests of the watch body decoder: object framing across arbitrary reads and event decoding.
#include "client/rest/watch_decoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "store/object.h"

namespace lws::rest {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> FeedAll(JsonObjectSplitter& splitter,
                                 const std::vector<std::string>& reads, Status* status = nullptr) {
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
      splitter,
      {"{\"a\":1}\n{\"b\":{\"c\":[1,{}]}}\n{\"s\":\"}", "{\\\"\"}\n", "  {\"d\":\"[\"}", "\r\n"});
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
  EXPECT_THAT(FeedAll(small, {"{\"a\":1}", "{\"long\":", "\"value\"}"}, &status),
              ElementsAre("{\"a\":1}"));
  EXPECT_THAT(status.message(), HasSubstr("exceeds 8 bytes"));
}

RC_GTEST_PROP(JsonObjectSplitterProperty, ReadBoundariesDoNotMatter, ()) {
  const auto values = *rc::gen::container<std::vector<std::string>>(rc::gen::string<std::string>());
  std::string body;
  std::vector<std::string> want;
  for (const std::string& value : values) {
    std::string object =
        "{\"v\":" + api::Json(value).dump(-1, ' ', false, api::Json::error_handler_t::replace) +
        ",\"n\":[{}]}";
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

  Result<DecodedWatchEvent> bookmark = DecodeWatchEvent(
      R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"40"}}})");
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
  EXPECT_EQ(DecodeWatchEvent(R"({"object":{}})").status().message(),
            "watch event: type: missing or not a string");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"ADDED","object":7})").status().message(),
            "watch event: object: missing or not an object");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"UPSERTED","object":{}})").status().message(),
            "watch event: unknown type \"UPSERTED\"");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"MODIFIED","object":{"metadata":{}}})").status().message(),
            "watch event MODIFIED: object.metadata.resourceVersion: missing or not a string");
  EXPECT_EQ(DecodeWatchEvent(R"({"type":"DELETED","object":{"metadata":{"resourceVersion":"x1"}}})")
                .status()
                .message(),
            "watch event DELETED: object.metadata.resourceVersion: resourceVersion \"x1\" is not a "
            "decimal number");
}

}  // namespace
}  // namespace lws::rest
