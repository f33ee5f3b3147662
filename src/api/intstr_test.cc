#include "api/intstr.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace lws::api {
namespace {

TEST(IntOrStringTest, ScaledValueMatchesUpstreamCases) {
  // intstr_test.go TestGetScaledValueFromIntOrPercent, plus the rounding LWS relies on.
  struct Row {
    IntOrString input;
    std::int64_t total;
    bool round_up;
    std::int64_t want;
  };
  const Row rows[] = {
      {IntOrString::FromInt(123), 0, false, 123},
      {IntOrString::FromInt(-7), 100, true, -7},
      {IntOrString::FromString("90%"), 100, true, 90},
      {IntOrString::FromString("90%"), 95, true, 86},
      {IntOrString::FromString("90%"), 95, false, 85},
      {IntOrString::FromString("25%"), 4, true, 1},
      {IntOrString::FromString("50%"), 3, true, 2},
      {IntOrString::FromString("50%"), 3, false, 1},
      {IntOrString::FromString("0%"), 1000, true, 0},
      {IntOrString::FromString("100%"), 7, false, 7},
      {IntOrString::FromString("-10%"), 15, false, -2},
      {IntOrString::FromString("-10%"), 15, true, -1},
      {IntOrString::FromString("+5%"), 100, false, 5},
      {IntOrString::FromString("150%"), 3, true, 5},
  };
  for (const auto& row : rows) {
    auto got = GetScaledValueFromIntOrPercent(row.input, row.total, row.round_up);
    ASSERT_TRUE(got.ok()) << row.input.ToString() << ": " << got.status().ToString();
    EXPECT_EQ(*got, row.want) << row.input.ToString() << " of " << row.total;
  }
}

TEST(IntOrStringTest, ScaledValueErrorsCarryUpstreamMessages) {
  const std::pair<std::string, std::string> rows[] = {
      {"%",
       R"(invalid value for IntOrString: invalid value "%": strconv.Atoi: parsing "": invalid syntax)"},
      {"90#", "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"90", "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"", "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"#%",
       R"(invalid value for IntOrString: invalid value "#%": strconv.Atoi: parsing "#": invalid syntax)"},
      {"1.5%",
       R"(invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax)"},
      {"10%%",
       R"(invalid value for IntOrString: invalid value "10%%": strconv.Atoi: parsing "10%": invalid syntax)"},
      {"99999999999999999999%",
       R"(invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range)"},
  };
  for (const auto& [text, message] : rows) {
    auto got = GetScaledValueFromIntOrPercent(IntOrString::FromString(text), 100, true);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.status().code(), Code::kBadRequest);
    EXPECT_EQ(got.status().message(), message);
  }
}

TEST(IntOrStringTest, OutOfRangeProductIsGoIntegerIndefinite) {
  // int(math.Ceil(9.2e22)) on amd64 is the minimum int64; the C++ cast would be undefined.
  auto got = GetScaledValueFromIntOrPercent(IntOrString::FromString("9223372036854775807%"),
                                            1000000, true);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, INT64_MIN);
}

TEST(GoAtoiTest, AcceptsWhatStrconvAccepts) {
  const std::pair<std::string_view, std::int64_t> ok[] = {
      {"0", 0},
      {"-0", 0},
      {"+12", 12},
      {"007", 7},
      {"-42", -42},
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
  };
  for (const auto& [text, want] : ok) {
    auto got = GoAtoi(text);
    ASSERT_TRUE(got.ok()) << text;
    EXPECT_EQ(*got, want);
  }
  const std::pair<std::string_view, std::string> bad[] = {
      {"", R"(strconv.Atoi: parsing "": invalid syntax)"},
      {"+", R"(strconv.Atoi: parsing "+": invalid syntax)"},
      {"-", R"(strconv.Atoi: parsing "-": invalid syntax)"},
      {" 1", R"(strconv.Atoi: parsing " 1": invalid syntax)"},
      {"1_000", R"(strconv.Atoi: parsing "1_000": invalid syntax)"},
      {"0x10", R"(strconv.Atoi: parsing "0x10": invalid syntax)"},
      {"9223372036854775808", R"(strconv.Atoi: parsing "9223372036854775808": value out of range)"},
      {"-9223372036854775809",
       R"(strconv.Atoi: parsing "-9223372036854775809": value out of range)"},
      {"123456789012345678901234567890",
       R"(strconv.Atoi: parsing "123456789012345678901234567890": value out of range)"},
  };
  for (const auto& [text, message] : bad) {
    auto got = GoAtoi(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.status().message(), message);
  }
}

// floor(n / 100) and ceil(n / 100) in integers.
std::int64_t FloorDiv100(std::int64_t n) { return n / 100 - (n % 100 < 0 ? 1 : 0); }
std::int64_t CeilDiv100(std::int64_t n) { return n / 100 + (n % 100 > 0 ? 1 : 0); }

RC_GTEST_PROP(IntOrStringProperty, PercentIsTheExactRationalRounded, ()) {
  const int percent = *rc::gen::inRange(-1000, 1001);
  const std::int64_t total = *rc::gen::inRange<std::int64_t>(0, 1000001);
  const IntOrString value = IntOrString::FromString(std::to_string(percent) + "%");
  const std::int64_t product = static_cast<std::int64_t>(percent) * total;
  auto up = GetScaledValueFromIntOrPercent(value, total, true);
  auto down = GetScaledValueFromIntOrPercent(value, total, false);
  RC_ASSERT(up.ok() && down.ok());
  RC_ASSERT(*up == CeilDiv100(product));
  RC_ASSERT(*down == FloorDiv100(product));
}

RC_GTEST_PROP(IntOrStringProperty, IntsAreReturnedAsIs,
              (std::int32_t v, std::int64_t total, bool round_up)) {
  auto got = GetScaledValueFromIntOrPercent(IntOrString::FromInt(v), total, round_up);
  RC_ASSERT(got.ok());
  RC_ASSERT(*got == v);
}

}  // namespace
}  // namespace lws::api
