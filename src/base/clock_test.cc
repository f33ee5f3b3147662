#include "base/clock.h"

#include <gtest/gtest.h>

namespace lws {
namespace {

TEST(ClockTest, ManualClockMovesOnlyWhenTold) {
  ManualClock clock;
  Time t0 = clock.Now();
  EXPECT_EQ(clock.Now(), t0);
  clock.Advance(std::chrono::seconds(5));
  EXPECT_EQ(clock.Now() - t0, std::chrono::seconds(5));
  clock.Set(t0 + std::chrono::seconds(7));
  EXPECT_EQ(clock.Now() - t0, std::chrono::seconds(7));
}

TEST(ClockTest, Rfc3339RoundTrip) {
  auto t = ParseRfc3339("2008-01-01T01:01:01Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(FormatRfc3339(*t), "2008-01-01T01:01:01Z");
  auto micro = ParseRfc3339("2024-02-29T23:59:58.123456Z");
  ASSERT_TRUE(micro.ok());
  EXPECT_EQ(FormatRfc3339Micro(*micro), "2024-02-29T23:59:58.123456Z");
  EXPECT_EQ(FormatRfc3339(*micro), "2024-02-29T23:59:58Z");
  auto offset = ParseRfc3339("2008-01-01T03:01:01+02:00");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(*offset, *t);
}

// Years a 64-bit count of nanoseconds cannot hold are refused, not overflowed (found by
// apply_fuzz: a managedFields time in the year 6025).
TEST(ClockTest, Rfc3339YearsOutsideTheNanosecondRangeAreRefused) {
  EXPECT_TRUE(ParseRfc3339("1678-01-01T00:00:00Z").ok());
  EXPECT_TRUE(ParseRfc3339("2261-12-31T23:59:59Z").ok());
  for (const char* text : {"1677-12-31T23:59:59Z", "2262-01-01T00:00:00Z", "6025-01-01T00:00:00Z",
                           "0000-01-01T00:00:00Z"}) {
    Result<Time> t = ParseRfc3339(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), Code::kBadRequest);
    EXPECT_NE(t.status().message().find("outside the years 1678 to 2261"), std::string::npos);
  }
}

// Formatting remembers the last second per thread: a new second, and a return to an older one,
// must each read as themselves.
TEST(ClockTest, Rfc3339FormatsEachSecondAfterAnother) {
  Time t = *ParseRfc3339("2026-12-02T11:59:59.5Z");
  EXPECT_EQ(FormatRfc3339(t), "2026-12-02T11:59:59Z");
  EXPECT_EQ(FormatRfc3339(t + std::chrono::milliseconds(400)), "2026-12-02T11:59:59Z");
  EXPECT_EQ(FormatRfc3339(t + std::chrono::milliseconds(500)), "2026-12-02T12:00:00Z");
  EXPECT_EQ(FormatRfc3339Micro(t + std::chrono::milliseconds(500)), "2026-12-02T12:00:00.000000Z");
  EXPECT_EQ(FormatRfc3339Micro(t), "2026-12-02T11:59:59.500000Z");
  EXPECT_EQ(FormatRfc3339(Time{}), "1970-01-01T00:00:00Z");
}

TEST(ClockTest, Rfc3339RejectsGarbage) {
  for (const char* bad :
       {"", "2008-01-01", "2008-13-01T00:00:00Z", "2008-02-30T00:00:00Z", "2008-01-01T01:01:01",
        "2008-01-01T01:01:01Zjunk", "x008-01-01T01:01:01Z"}) {
    EXPECT_FALSE(ParseRfc3339(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace lws
