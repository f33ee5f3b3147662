#include "api/field_selector.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace lws::api {
namespace {

FieldSelector MustParse(std::string_view text) {
  auto s = FieldSelector::Parse(text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status().ToString();
  return s.ok() ? *s : FieldSelector();
}

TEST(FieldSelectorTest, ParseAndStringAsUpstream) {
  // fields/selector_test.go TestSelectorParse good strings, which re-print unchanged, and more.
  const std::pair<std::string_view, std::string_view> rows[] = {
      {"x=a,y=b,z=c", "x=a,y=b,z=c"},
      {"", ""},
      {"x!=a,y=b", "x!=a,y=b"},
      {R"(x=a||y\=b)", R"(x=a||y\=b)"},
      {R"(x=a\=\=b)", R"(x=a\=\=b)"},
      {"x==a", "x=a"},
      {"x=a,a=x", "a=x,x=a"},
      {"a=x,x=a", "a=x,x=a"},
      {",,x=a,", "x=a"},
      {"=", ""},  // Upstream drops a term whose field and value are both empty.
      {"=,x=", "x="},
      {"metadata.name=web-0,status.phase!=Running", "metadata.name=web-0,status.phase!=Running"},
      {R"(a\,b=c)", R"(a\,b=c)"},  // The field is never unescaped.
      {"a!b=c", "a!b=c"},
      {R"(x=\\,y=\,)", R"(x=\\,y=\,)"},
  };
  for (const auto& [in, out] : rows) {
    EXPECT_EQ(MustParse(in).String(), out) << in;
  }
  EXPECT_TRUE(MustParse("").Empty());
  EXPECT_TRUE(MustParse("=").Empty());
  EXPECT_FALSE(MustParse("a=").Empty());
}

TEST(FieldSelectorTest, ParseErrorsCarryUpstreamMessages) {
  const std::pair<std::string_view, std::string> rows[] = {
      {"x=a||y=b", "invalid field selector: unescaped character in value: 61"},
      {"x==a==b", "invalid field selector: unescaped character in value: 61"},
      {"x=a,b", "invalid selector: 'x=a,b'; can't understand 'b'"},
      {"x in (a)", "invalid selector: 'x in (a)'; can't understand 'x in (a)'"},
      // Terms are checked in sorted order: "b" < "c)" < "x in (a".
      {"x in (a,b,c)", "invalid selector: 'x in (a,b,c)'; can't understand 'b'"},
      {"x", "invalid selector: 'x'; can't understand 'x'"},
      {R"(x=a\)", R"(invalid field selector: invalid escape sequence: \)"},
      {R"(x=\a)", R"(invalid field selector: invalid escape sequence: \a)"},
      {"x=\\\xC3\xA9", "invalid field selector: invalid escape sequence: \\\xC3\xA9"},
      {"x=\\\xFF", "invalid field selector: invalid escape sequence: \\\xEF\xBF\xBD"},
  };
  for (const auto& [in, message] : rows) {
    auto s = FieldSelector::Parse(in);
    ASSERT_FALSE(s.ok()) << in << " parsed as " << s->String();
    EXPECT_EQ(s.status().code(), Code::kBadRequest);
    EXPECT_EQ(s.status().message(), message) << in;
  }
}

TEST(FieldSelectorTest, EscapingAsUpstream) {
  const std::pair<std::string_view, std::string_view> rows[] = {
      {"", ""},       {"a", "a"},        {"=", R"(\=)"},
      {",", R"(\,)"}, {R"(\)", R"(\\)"}, {R"(\=\,\)", R"(\\\=\\\,\\)"},
  };
  for (const auto& [raw, escaped] : rows) {
    EXPECT_EQ(EscapeFieldValue(raw), escaped);
    auto back = UnescapeFieldValue(escaped);
    ASSERT_TRUE(back.ok()) << escaped;
    EXPECT_EQ(*back, raw);
  }
  EXPECT_EQ(UnescapeFieldValue(",").status().message(),
            "invalid field selector: unescaped character in value: 44");
  // Without any special character the value is returned untouched, invalid UTF-8 included.
  EXPECT_EQ(*UnescapeFieldValue("\xFF"), "\xFF");
  // With one, Go decodes runes and writes U+FFFD for an invalid byte.
  EXPECT_EQ(*UnescapeFieldValue("\xFF\\,"), "\xEF\xBF\xBD,");
}

TEST(FieldSelectorTest, MatchesAsUpstream) {
  const StringMap fieldset = {{"foo", "bar"}, {"baz", "blah"}, {"complex", R"(=value\,\)"}};
  const std::tuple<std::string_view, StringMap, bool> rows[] = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"x=", {}, true},  // A missing field reads as "".
      {"x!=a", {}, true},
      {"foo=bar", fieldset, true},
      {"baz=blah", fieldset, true},
      {"foo=bar,baz=blah", fieldset, true},
      {R"(foo=bar,baz=blah,complex=\=value\\\,\\)", fieldset, true},
      {"foo=blah", fieldset, false},
      {"baz=bar", fieldset, false},
      {"foo=bar,foobar=bar,baz=blah", fieldset, false},
  };
  for (const auto& [selector, fields, match] : rows) {
    EXPECT_EQ(MustParse(selector).Matches(fields), match) << selector;
  }
}

TEST(FieldSelectorTest, ExactMatch) {
  EXPECT_EQ(MustParse("a!=1,a=2").RequiresExactMatch("a"), "2");
  EXPECT_EQ(MustParse("a!=1").RequiresExactMatch("a"), std::nullopt);
  EXPECT_EQ(FieldSelector::OneTermEqual("spec.nodeName", "n1").String(), "spec.nodeName=n1");
  EXPECT_EQ(FieldSelector::OneTermEqual("spec.nodeName", "n1").RequiresExactMatch("spec.nodeName"),
            "n1");
}

RC_GTEST_PROP(FieldSelectorProperty, EscapeThenUnescapeIsIdentity, (const std::string& value)) {
  auto back = UnescapeFieldValue(EscapeFieldValue(value));
  RC_ASSERT(back.ok());
  // Escaping leaves no special character unescaped, so only invalid UTF-8 next to a special
  // character could change; restrict the claim to printable ASCII.
  bool ascii = true;
  for (char c : value) ascii &= c >= 0x20 && c < 0x7f;
  if (ascii) RC_ASSERT(*back == value);
}

RC_GTEST_PROP(FieldSelectorProperty, BuiltSelectorsParseAndMatchTheirTerms, ()) {
  const std::vector<std::string> fields = {"metadata.name", "spec.nodeName", "a!b", "x"};
  const std::vector<std::string> values = {"",     "web-0",   "a=b", "c,d",
                                           R"(\)", "Running", "==",  "!="};
  const int count = *rc::gen::inRange(0, 5);
  std::string text;
  std::vector<FieldSelector::Term> terms;
  for (int i = 0; i < count; ++i) {
    FieldSelector::Term term{
        *rc::gen::elementOf(fields),
        *rc::gen::element(SelectionOperator::kEquals, SelectionOperator::kNotEquals),
        *rc::gen::elementOf(values)};
    const std::string op = term.op == SelectionOperator::kEquals
                               ? *rc::gen::element<std::string>("=", "==")
                               : std::string("!=");
    text += (i > 0 ? "," : "") + term.field + op + EscapeFieldValue(term.value);
    terms.push_back(term);
  }
  auto s = FieldSelector::Parse(text);
  RC_ASSERT(s.ok());
  RC_ASSERT(s->terms().size() == terms.size());
  auto again = FieldSelector::Parse(s->String());
  RC_ASSERT(again.ok());
  RC_ASSERT(FieldSelector::Parse(again->String())->String() == again->String());
  StringMap object;
  for (const auto& f : fields) {
    if (*rc::gen::arbitrary<bool>()) object[f] = *rc::gen::elementOf(values);
  }
  bool want = true;
  for (const auto& t : terms) {
    const std::string actual = object.count(t.field) ? object.at(t.field) : "";
    want &= (actual == t.value) == (t.op == SelectionOperator::kEquals);
  }
  RC_ASSERT(s->Matches(object) == want);
  RC_ASSERT(again->Matches(object) == want);
}

}  // namespace
}  // namespace lws::api
