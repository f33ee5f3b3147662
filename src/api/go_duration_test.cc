#include "api/go_duration.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace lws::api {
namespace {

using namespace std::chrono_literals;

TEST(GoDurationTest, ParsesGoSyntax) {
  struct Case {
    const char* text;
    Duration want;
  };
  const Case cases[] = {
      {"0", 0ns},
      {"15s", 15s},
      {"1m30s", 90s},
      {"1.5h", 90min},
      {"-2s", -2s},
      {"+3ms", 3ms},
      {".5s", 500ms},
      {"1.s", 1s},
      {"100ns", 100ns},
      {"2us", 2us},
      {"2\xC2\xB5s", 2us},
      {"1h2m3s4ms5us6ns", 3723004005006ns},
      {"0s", 0ns},
      {"9223372036854775807ns", Duration::max()},
      {"-9223372036854775808ns", Duration::min()},
  };
  for (const Case& c : cases) {
    Result<Duration> got = ParseGoDuration(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.status().ToString();
    EXPECT_EQ(*got, c.want) << c.text;
  }
}

TEST(GoDurationTest, RejectsWithGoMessages) {
  struct Case {
    const char* text;
    const char* want;
  };
  const Case cases[] = {
      {"", "time: invalid duration \"\""},
      {"s", "time: invalid duration \"s\""},
      {".s", "time: invalid duration \".s\""},
      {"-", "time: invalid duration \"-\""},
      {"5", "time: missing unit in duration \"5\""},
      {"1d", "time: unknown unit \"d\" in duration \"1d\""},
      {"1s2", "time: missing unit in duration \"1s2\""},
      {"9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\""},
      {"3000000h", "time: invalid duration \"3000000h\""},
  };
  for (const Case& c : cases) {
    Result<Duration> got = ParseGoDuration(c.text);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_EQ(got.status().message(), c.want) << c.text;
  }
}

TEST(GoDurationTest, FormatsLikeGo) {
  EXPECT_EQ(FormatGoDuration(0ns), "0s");
  EXPECT_EQ(FormatGoDuration(15s), "15s");
  EXPECT_EQ(FormatGoDuration(90s), "1m30s");
  EXPECT_EQ(FormatGoDuration(2h), "2h0m0s");
  EXPECT_EQ(FormatGoDuration(1500ms), "1.5s");
  EXPECT_EQ(FormatGoDuration(750ms), "750ms");
  EXPECT_EQ(FormatGoDuration(-1500us), "-1.5ms");
  EXPECT_EQ(FormatGoDuration(Duration::min()), "-2562047h47m16.854775808s");
}

RC_GTEST_PROP(GoDurationProperty, FormatThenParseIsIdentity, (std::int64_t nanos)) {
  Duration d(nanos);
  Result<Duration> back = ParseGoDuration(FormatGoDuration(d));
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == d);
}

}  // namespace
}  // namespace lws::api
