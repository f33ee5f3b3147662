// Tests of the naming, hashing and Go-integer helpers of pod_names.h (scenarios S147, S150, S169).
#include "api/pod_names.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

namespace lws::api {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// S169, plus the regexp corners: newlines, int32 overflow, leading zeros.
TEST(GetParentNameAndOrdinalTest, Table) {
  struct Case {
    std::string name;
    std::string parent;
    int ordinal;
  };
  const std::vector<Case> cases = {
      {"lws-samples-132", "lws-samples", 132},
      {"lws-samples-132-u", "", -1},
      {"lws-samples-", "", -1},
      {"lws-samples-0", "lws-samples", 0},
      {"lws-samples--1", "lws-samples-", 1},
      {"lws-samples1", "", -1},
      {"lws-samples-1-0", "lws-samples-1", 0},
      {"", "", -1},
      {"-5", "", 5},
      {"web-007", "web", 7},
      {"web-2147483647", "web", 2147483647},
      {"web-2147483648", "web", -1},  // ParseInt(.., 32) fails: parent kept, ordinal -1.
      {"a-1\nb-2", "b", 2},           // '.' stops at '\n'; only the last line can match.
      {"a-1\n", "", -1},              // '$' is the end of the text, not the end of a line.
      {"a-1\r", "", -1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(GetParentNameAndOrdinal(c.name), std::make_pair(c.parent, c.ordinal)) << c.name;
  }
}

RC_GTEST_PROP(GetParentNameAndOrdinalTest, SplitsWhatWasJoined, (std::string parent)) {
  RC_PRE(parent.find('\n') == std::string::npos);
  const int ordinal = *rc::gen::inRange(0, std::numeric_limits<int>::max());
  RC_ASSERT(GetParentNameAndOrdinal(parent + "-" + std::to_string(ordinal)) ==
            std::make_pair(parent, ordinal));
}

TEST(Sha1HexTest, KnownVectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

// S147: the keys of upstream's TestGenGroupUniqueKey.
TEST(GroupUniqueKeyTest, UpstreamValues) {
  EXPECT_EQ(GroupUniqueKey("default", "test-sample"), "95e88034e460983f51a9952fe128729fbc0663b5");
  EXPECT_EQ(GroupUniqueKey("default", "podName"), "390b34ab671d29e9997d7d4252b8bbf8da02f5b7");
  EXPECT_EQ(GroupUniqueKey("leaderworkerset", "test-sample"),
            "39f5d7e9122b9d94d3932e3720b43fd3b56347e8");
}

TEST(SubGroupUniqueKeyTest, HashesLeaderSlashIndex) {
  EXPECT_EQ(SubGroupUniqueKey("test-1", "0"), "59bac77b64b24f75ab12f1432a5d2eac2a8648c4");
  EXPECT_EQ(SubGroupUniqueKey("", "1"), "d26c6bc5f2b78fb12e4cc4be07dcaba345adab6a");
}

// S150 and the examples of spec section 14.
TEST(SubGroupIndexTest, Table) {
  struct Case {
    std::int64_t size, sub_group_size, worker_index;
    std::string want;
  };
  const std::vector<Case> cases = {
      {4, 2, 2, "1"}, {5, 2, 2, "0"}, {3, 1, 1, "1"}, {3, 1, 2, "2"}, {4, 2, 3, "1"},
      {5, 2, 4, "1"}, {5, 2, 1, "0"}, {9, 4, 4, "0"}, {9, 4, 5, "1"},
  };
  for (const Case& c : cases) {
    auto got = SubGroupIndex(c.size, c.sub_group_size, c.worker_index);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, c.want) << c.size << "," << c.sub_group_size << "," << c.worker_index;
  }
}

// Q12: upstream divides by zero; the recovered panic rejects the request.
TEST(SubGroupIndexTest, ZeroSubGroupSizeIsTheRecoveredPanic) {
  auto got = SubGroupIndex(4, 0, 1);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kInternal);
  EXPECT_EQ(got.status().message(), "panic: runtime error: integer divide by zero [recovered]");
}

TEST(SubGroupIndexTest, ExtremeValuesFollowGo) {
  EXPECT_EQ(*SubGroupIndex(kMin, -1, kMin), std::to_string(kMin));  // kMin / -1 wraps.
  EXPECT_EQ(*SubGroupIndex(kMax, kMax, 3), "0");
}

TEST(ParseGoIntTest, Accepts) {
  const std::vector<std::pair<std::string, std::int64_t>> cases = {
      {"5", 5},
      {"+7", 7},
      {"-3", -3},
      {"007", 7},
      {"0", 0},
      {"-0", 0},
      {"9223372036854775807", kMax},
      {"-9223372036854775808", kMin},
  };
  for (const auto& [text, want] : cases) {
    auto got = ParseGoInt(text);
    ASSERT_TRUE(got.ok()) << text << ": " << got.status().ToString();
    EXPECT_EQ(*got, want) << text;
  }
}

TEST(ParseGoIntTest, RejectsWithGoMessages) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", R"(strconv.Atoi: parsing "": invalid syntax)"},
      {"+", R"(strconv.Atoi: parsing "+": invalid syntax)"},
      {"abc", R"(strconv.Atoi: parsing "abc": invalid syntax)"},
      {" 1", R"(strconv.Atoi: parsing " 1": invalid syntax)"},
      {"1_000", R"(strconv.Atoi: parsing "1_000": invalid syntax)"},
      {"0x10", R"(strconv.Atoi: parsing "0x10": invalid syntax)"},
      {"--1", R"(strconv.Atoi: parsing "--1": invalid syntax)"},
      {"9223372036854775808", R"(strconv.Atoi: parsing "9223372036854775808": value out of range)"},
      {"-9223372036854775809",
       R"(strconv.Atoi: parsing "-9223372036854775809": value out of range)"},
      // The first overflow wins over a later bad character, as in strconv.ParseUint.
      {"99999999999999999999x",
       R"(strconv.Atoi: parsing "99999999999999999999x": value out of range)"},
      {"x99999999999999999999", R"(strconv.Atoi: parsing "x99999999999999999999": invalid syntax)"},
      {"1\n", R"(strconv.Atoi: parsing "1\n": invalid syntax)"},
  };
  for (const auto& [text, want] : cases) {
    auto got = ParseGoInt(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.status().code(), Code::kForbidden) << text;
    EXPECT_EQ(got.status().message(), want);
  }
}

RC_GTEST_PROP(ParseGoIntTest, ParsesWhatToStringPrints, (std::int64_t value)) {
  auto got = ParseGoInt(std::to_string(value));
  RC_ASSERT(got.ok());
  RC_ASSERT(*got == value);
}

TEST(GoArithmeticTest, WrapsAndTruncatesLikeGo) {
  EXPECT_EQ(GoAdd(kMax, 1), kMin);
  EXPECT_EQ(GoSub(kMin, 1), kMax);
  EXPECT_EQ(GoMul(kMax, 2), -2);
  EXPECT_EQ(GoQuo(kMin, -1), kMin);
  EXPECT_EQ(GoRem(kMin, -1), 0);
  EXPECT_EQ(GoQuo(-7, 2), -3);
  EXPECT_EQ(GoRem(-7, 2), -1);
  EXPECT_EQ(GoRem(7, -2), 1);
}

}  // namespace
}  // namespace lws::api
