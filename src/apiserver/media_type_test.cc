#include "apiserver/media_type.h"

#include <gtest/gtest.h>

namespace lws::apiserver {
namespace {

TEST(ParseAcceptTest, KubectlTableAcceptKeepsOrderAndParameters) {
  auto ranges = ParseAccept(
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
      "g=meta.k8s.io,application/json");
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].Param("as"), "Table");
  EXPECT_EQ(ranges[0].Param("v"), "v1");
  EXPECT_EQ(ranges[0].Param("g"), "meta.k8s.io");
  EXPECT_EQ(ranges[1].Param("v"), "v1beta1");
  EXPECT_TRUE(ranges[2].params.empty());
  EXPECT_TRUE(ranges[2].Accepts("application", "json"));
}

TEST(ParseAcceptTest, QualityReordersStably) {
  auto ranges = ParseAccept("text/plain;q=0.5, application/json, */*;q=0.1, application/yaml");
  ASSERT_EQ(ranges.size(), 4u);
  EXPECT_EQ(ranges[0].subtype, "json");
  EXPECT_EQ(ranges[1].subtype, "yaml");
  EXPECT_EQ(ranges[2].subtype, "plain");
  EXPECT_EQ(ranges[3].type, "*");
}

TEST(ParseAcceptTest, WildcardsSpacesCaseAndQuotes) {
  auto ranges = ParseAccept(" Application/JSON ; AS = \"Table\" , */* ");
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].type, "application");
  EXPECT_EQ(ranges[0].subtype, "json");
  EXPECT_EQ(ranges[0].Param("as"), "Table");
  EXPECT_TRUE(ranges[1].Accepts("application", "vnd.kubernetes.protobuf"));
  EXPECT_FALSE(ranges[0].Accepts("application", "yaml"));
}

TEST(ParseAcceptTest, MalformedRangesAreSkippedAndRefusedOnesDropped) {
  auto ranges = ParseAccept("garbage, application/json;q=abc, text/html;q=0, application/json;x");
  EXPECT_TRUE(ranges.empty());
  auto empty = ParseAccept("");
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_TRUE(empty[0].Accepts("application", "json"));
  EXPECT_EQ(ParseAccept("*").size(), 1u);
}

}  // namespace
}  // namespace lws::apiserver
