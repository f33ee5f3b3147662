#include "api/go_json.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace lws::api {
namespace {

struct StringCase {
  std::string name;
  std::string input;
  std::string want;  // the quoted output
};

TEST(GoJsonStringTest, EscapesAsGoDoes) {
  const std::vector<StringCase> cases = {
      {"plain", "abc-1.2_x/y", R"("abc-1.2_x/y")"},
      {"empty", "", R"("")"},
      {"quote and backslash", "a\"b\\c", R"("a\"b\\c")"},
      {"html characters", "<a&b>", R"("\u003ca\u0026b\u003e")"},
      {"short escapes", "\n\r\t", R"("\n\r\t")"},
      {"backspace and form feed (Go 1.22)", "\b\f", R"("\b\f")"},
      {"other control bytes", std::string("\x00\x01\x1f", 3), R"("\u0000\u0001\u001f")"},
      {"DEL is printed as is", "\x7f", "\"\x7f\""},
      {"two-byte UTF-8 copied", "caf\xc3\xa9", "\"caf\xc3\xa9\""},
      {"four-byte UTF-8 copied", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},
      {"U+FFFD itself copied", "\xef\xbf\xbd", "\"\xef\xbf\xbd\""},
      {"line and paragraph separators",
       "a\xe2\x80\xa8"
       "b\xe2\x80\xa9",
       R"("a\u2028b\u2029")"},
      {"stray continuation byte", "a\x80z", R"("a\ufffdz")"},
      {"invalid lead byte", "\xff", R"("\ufffd")"},
      {"truncated at end", "a\xc3", R"("a\ufffd")"},
      {"truncated before ASCII",
       "\xe2\x82"
       "a",
       R"("\ufffd\ufffda")"},
      {"overlong encoding", "\xc0\xaf", R"("\ufffd\ufffd")"},
      {"overlong three-byte", "\xe0\x80\xaf", R"("\ufffd\ufffd\ufffd")"},
      {"surrogate", "\xed\xa0\x80", R"("\ufffd\ufffd\ufffd")"},
      {"above U+10FFFF", "\xf4\x90\x80\x80", R"("\ufffd\ufffd\ufffd\ufffd")"},
  };
  for (const auto& c : cases) {
    std::string out;
    AppendGoJsonString(c.input, &out);
    EXPECT_EQ(out, c.want) << c.name;
  }
}

struct FloatCase {
  double input;
  std::string want;
};

TEST(GoJsonNumberTest, PrintsShortestFloat64) {
  const std::vector<FloatCase> cases = {
      {0, "0"},
      {-0.0, "-0"},
      {1, "1"},
      {-3, "-3"},
      {8080, "8080"},
      {0.5, "0.5"},
      {0.1, "0.1"},
      {1.5, "1.5"},
      {123.456, "123.456"},
      {-2.25, "-2.25"},
      {1e-6, "0.000001"},
      {1.5e-6, "0.0000015"},
      {1e-7, "1e-7"},
      {1.5e-7, "1.5e-7"},
      {1.2345e-10, "1.2345e-10"},
      {5e-324, "5e-324"},
      {1e20, "100000000000000000000"},
      {123456789012345678901.0, "123456789012345680000"},  // Go pads digits with zeros
      {1e21, "1e+21"},
      {-1.5e21, "-1.5e+21"},
      {1e100, "1e+100"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e+308"},
  };
  for (const auto& c : cases) EXPECT_EQ(FormatGoFloat(c.input), c.want) << c.input;
}

TEST(GoJsonNumberTest, NonFiniteIsNull) {
  EXPECT_EQ(FormatGoFloat(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(FormatGoFloat(std::numeric_limits<double>::infinity()), "null");
}

TEST(GoJsonNumberTest, IntegersGoThroughFloat64) {
  EXPECT_EQ(MarshalGoJson(Json(std::int64_t{8080})), "8080");
  EXPECT_EQ(MarshalGoJson(Json(std::int64_t{-7})), "-7");
  // 2^53 + 1 is not a float64; Go reads it as 2^53.
  EXPECT_EQ(MarshalGoJson(Json(std::int64_t{9007199254740993})), "9007199254740992");
  EXPECT_EQ(MarshalGoJson(Json(std::int64_t{1} << 60)), "1152921504606847000");
  EXPECT_EQ(MarshalGoJson(Json(std::numeric_limits<std::uint64_t>::max())), "18446744073709552000");
  EXPECT_EQ(MarshalGoJson(Json::parse("1.0")), "1");
  EXPECT_EQ(MarshalGoJson(Json::parse("1E3")), "1000");
  EXPECT_EQ(MarshalGoJson(Json::parse("100000000000000000000000")), "1e+23");
}

TEST(GoJsonTest, SortsKeysByteOrderWithoutWhitespace) {
  const Json doc = Json::parse(
      "{\"b\": 1, \"a\": {\"d\": [], \"c\": null}, \"A\": true, \"\xc3\xa9\": 1, \"z\": \"x\","
      " \"a1\": false}");
  EXPECT_EQ(MarshalGoJson(doc),
            "{\"A\":true,\"a\":{\"c\":null,\"d\":[]},\"a1\":false,\"b\":1,\"z\":\"x\","
            "\"\xc3\xa9\":1}");
}

TEST(GoJsonTest, EscapesKeysAndNestedValues) {
  const Json doc = Json::parse(R"({"<k>": ["a&b", [1, 2.5, {}], null, {"x": {}}]})");
  EXPECT_EQ(MarshalGoJson(doc), R"({"\u003ck\u003e":["a\u0026b",[1,2.5,{}],null,{"x":{}}]})");
}

TEST(GoJsonTest, Scalars) {
  EXPECT_EQ(MarshalGoJson(Json()), "null");
  EXPECT_EQ(MarshalGoJson(Json(true)), "true");
  EXPECT_EQ(MarshalGoJson(Json(false)), "false");
  EXPECT_EQ(MarshalGoJson(Json::object()), "{}");
  EXPECT_EQ(MarshalGoJson(Json::array()), "[]");
  EXPECT_EQ(MarshalGoJson(Json::binary({1, 2})), "null");
}

RC_GTEST_PROP(GoJsonProperty, FloatsReadBackExactly, (double f)) {
  RC_PRE(std::isfinite(f));
  const std::string text = FormatGoFloat(f);
  RC_ASSERT(std::strtod(text.c_str(), nullptr) == f);
  RC_ASSERT(std::signbit(std::strtod(text.c_str(), nullptr)) == std::signbit(f));
}

RC_GTEST_PROP(GoJsonProperty, IntegersBelow2To53PrintPlain, (std::int64_t n)) {
  const std::int64_t v = n % (std::int64_t{1} << 53);
  RC_ASSERT(MarshalGoJson(Json(v)) == std::to_string(v));
}

RC_GTEST_PROP(GoJsonProperty, AnyBytesGiveValidJson, (std::string s)) {
  std::string out;
  AppendGoJsonString(s, &out);
  const Json parsed = Json::parse(out, nullptr, /*allow_exceptions=*/false);
  RC_ASSERT(parsed.is_string());
  bool ascii = true;
  for (char c : s) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) RC_ASSERT(parsed.get<std::string>() == s);
}

}  // namespace
}  // namespace lws::api
