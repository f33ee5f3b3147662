// The pattern matcher follows Go's regexp (RE2) syntax and unanchored search.
#include "api/schema_regex.h"

#include <gtest/gtest.h>

namespace lws::api {
namespace {

bool Matches(const char* pattern, std::string_view text) {
  auto re = SchemaRegex::Compile(pattern);
  EXPECT_TRUE(re.ok()) << pattern << ": " << re.status().ToString();
  return re.ok() && re->Search(text);
}

TEST(SchemaRegexTest, MatchesLikeGo) {
  struct Case {
    const char* pattern;
    const char* text;
    bool want;
  };
  const Case cases[] = {
      {"^a", "abc", true},
      {"^a", "bac", false},
      {"b", "abc", true},
      {"^abc$", "abcd", false},
      {"^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+("
       "\\.[0-9]*)?)|(\\.[0-9]+))))?$",
       "500Mi", true},
      {"^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+("
       "\\.[0-9]*)?)|(\\.[0-9]+))))?$",
       "5Xi", false},
      {"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$", "Ready", true},
      {"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$", "Ready:", false},
      {"^[^a-c]+$", "xyz", true},
      {"^[^a-c]+$", "xaz", false},
      {"^a{2,3}$", "aaa", true},
      {"^a{2,3}$", "aaaa", false},
      {"^a{2,}$", "aaaaa", true},
      {"^(ab)*$", "ababab", true},
      {"^\\d+\\s\\w+$", "12 ab_c", true},
      {"\\bfoo\\b", "a foo b", true},
      {"\\bfoo\\b", "afoo", false},
      {"^.$", "\xc3\xa9", true},
      {"^[[:alpha:]]+$", "abc", true},
      {"^(?:x|y)z$", "yz", true},
      {"a|b|^c$", "c", true},
      {"^\\x41\\x{42}$", "AB", true},
      {"", "anything", true},
      {"x*", "", true},
      {"^$", "", true},
  };
  for (const auto& c : cases)
    EXPECT_EQ(Matches(c.pattern, c.text), c.want) << c.pattern << " ~ " << c.text;
}

TEST(SchemaRegexTest, LongInputIsLinear) {
  std::string text(200000, 'a');
  EXPECT_FALSE(Matches("^(a|aa)*b$", text));
  EXPECT_TRUE(Matches("^(a*)*$", text));
}

TEST(SchemaRegexTest, ErrorsUseGoWording) {
  struct Case {
    const char* pattern;
    const char* want;
  };
  const Case cases[] = {
      {"+", "error parsing regexp: missing argument to repetition operator: `+`"},
      {"a**", "error parsing regexp: invalid nested repetition operator: `**`"},
      {"(abc", "error parsing regexp: missing closing ): `(abc`"},
      {"abc)", "error parsing regexp: unexpected ): `abc)`"},
      {"[abc", "error parsing regexp: missing closing ]: `[abc`"},
      {"[z-a]", "error parsing regexp: invalid character class range: `z-a`"},
      {"\\q", "error parsing regexp: invalid escape sequence: `\\q`"},
      {"a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"},
  };
  for (const auto& c : cases) {
    auto re = SchemaRegex::Compile(c.pattern);
    ASSERT_FALSE(re.ok()) << c.pattern;
    EXPECT_EQ(re.status().message(), c.want);
  }
}

}  // namespace
}  // namespace lws::api
