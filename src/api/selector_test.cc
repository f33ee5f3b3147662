#include "api/selector.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace lws::api {
namespace {

using Op = SelectionOperator;

const std::string kNameRegexError =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kValueRegexError =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

Selector MustParse(std::string_view text) {
  auto s = Selector::Parse(text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status().ToString();
  return s.ok() ? *s : Selector::Nothing();
}

Requirement Req(std::string key, Op op, std::vector<std::string> values) {
  auto r = Requirement::Make(key, op, values);
  EXPECT_TRUE(r.ok()) << key << ": " << r.status().ToString();
  return *r;
}

TEST(SelectorTest, ParseAndStringAsUpstream) {
  // selector_test.go TestSelectorParse (good strings re-print without spaces) and
  // TestSetSelectorParser.
  const std::pair<std::string_view, std::string_view> rows[] = {
      {"x=a,y=b,z=c", "x=a,y=b,z=c"},
      {"", ""},
      {"x!=a,y=b", "x!=a,y=b"},
      {"x=", "x="},
      {"x= ", "x="},
      {"x=,z= ", "x=,z="},
      {"x= ,z= ", "x=,z="},
      {"!x", "!x"},
      {"x>1", "x>1"},
      {"x>1,z<5", "x>1,z<5"},
      {"x==a", "x==a"},
      {"\rx", "x"},
      {"this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash"},
      {"this-is-another-dns.domain.com/key-with-dash in (so,what)",
       "this-is-another-dns.domain.com/key-with-dash in (so,what)"},
      {"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
       "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)"},
      {"foo  in\t (abc)", "foo in (abc)"},
      {"x notin\n (abc)", "x notin (abc)"},
      {"x  notin\t\t\t(abc,def)", "x notin (abc,def)"},
      {"x in (def,abc,abc)", "x in (abc,def)"},
      {"x in (abc,)", "x in (,abc)"},
      {"x in ()", "x in ()"},
      {"x notin (abc,def),bar,z in (),w", "bar,w,x notin (abc,def),z in ()"},
      {"x,y in (a)", "x,y in (a)"},
      {"x,y", "x,y"},
      {"x notin ( )", "x notin ()"},
      {"x notin (, a)", "x notin (,a)"},
      {"x in (,,a)", "x in (,a)"},
      {"a ", "a"},
      {"a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"},
      {"notin=in", "notin=in"},
      {"x=a,a=x", "a=x,x=a"},
      {"b=2,a=1,b=1", "a=1,b=2,b=1"},  // Stable: requirements on one key keep their order.
      // A NUL byte reads like the Go lexer's end-of-input zero: it ends an identifier, and the
      // whole input where a token would start.
      {std::string_view("a\0=b", 4), "a=b"},
      {std::string_view("a \0=b", 5), "a"},
  };
  for (const auto& [in, out] : rows) {
    auto s = Selector::Parse(std::string(in.data(), in.size()));
    ASSERT_TRUE(s.ok()) << in << ": " << s.status().ToString();
    EXPECT_EQ(s->String(), out) << in;
    EXPECT_EQ(MustParse(s->String()), *s) << in;
  }
}

TEST(SelectorTest, ParseErrorsCarryUpstreamMessages) {
  const std::pair<std::string_view, std::string> rows[] = {
      {"x=a||y=b",
       "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": " + kValueRegexError},
      {"x==a==b", "found '==', expected: ',' or 'end of string'"},
      {"!x=a", "found '=', expected: ',' or 'end of string'"},
      {"x<a",
       "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' "
       "operators, the value must be an integer"},
      {"x<-1",
       "unable to parse requirement: values[0][x]: Invalid value: \"-1\": " + kValueRegexError},
      {",x,y", "found ',', expected: !, identifier, or 'end of string'"},
      {"x nott in (y)",
       "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"},
      {"env IN (a)",
       "unable to parse requirement: found 'IN', expected: in, notin, =, ==, !=, gt, lt"},
      {"a in (xyz),", "found '', expected: identifier after ','"},
      {"a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'"},
      {"a in (xyz abc)", "unable to parse requirement: found 'abc', expected: ',' or ')'"},
      {"a notin(", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
      {"a notin x", "unable to parse requirement: found 'x' expected: '('"},
      {"a (", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"},
      {"(", "found '(', expected: !, identifier, or 'end of string'"},
      {"!", "unable to parse requirement: found '', expected: identifier"},
      {"x=(", "unable to parse requirement: found '(', expected: identifier"},
      {"a:",
       "unable to parse requirement: <nil>: Invalid value: \"a:\": name part " + kNameRegexError},
      {"a/b/c", "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name " +
                    kNameRegexError +
                    " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
      {"/x",
       "unable to parse requirement: <nil>: Invalid value: \"/x\": prefix part must be "
       "non-empty"},
  };
  for (const auto& [in, message] : rows) {
    auto s = Selector::Parse(in);
    ASSERT_FALSE(s.ok()) << in << " parsed as " << s->String();
    EXPECT_EQ(s.status().code(), Code::kBadRequest);
    EXPECT_EQ(s.status().message(), message) << in;
  }
}

TEST(SelectorTest, MatchesAsUpstream) {
  struct Row {
    std::string_view selector;
    StringMap labels;
    bool match;
  };
  const StringMap labelset = {{"foo", "bar"}, {"baz", "blah"}};
  const Row rows[] = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x", {{"x", "z"}}, true},
      {"!x", {{"y", "z"}}, true},
      {"x>1", {{"x", "2"}}, true},
      {"x<1", {{"x", "0"}}, true},
      {"x>1", {{"x", "v2"}}, false},
      {"x>1000", {}, false},
      {"x=z", {}, false},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"x", {{"y", "z"}}, false},
      {"!x", {{"x", "z"}}, false},
      {"x>1", {{"x", "0"}}, false},
      {"x<1", {{"x", "2"}}, false},
      {"x notin (a)", {}, true},
      {"x in ()", {{"x", ""}}, true},
      {"x in ()", {}, false},
      {"x=", {{"x", ""}}, true},
      {"x!=", {}, true},
      {"foo=bar", labelset, true},
      {"baz=blah", labelset, true},
      {"foo=bar,baz=blah", labelset, true},
      {"foo=blah", labelset, false},
      {"baz=bar", labelset, false},
      {"foo=bar,foobar=bar,baz=blah", labelset, false},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(MustParse(row.selector).Matches(row.labels), row.match) << row.selector;
  }
}

TEST(SelectorTest, RequirementMatchingAndPrinting) {
  // TestRequirementSelectorMatching and TestToString.
  EXPECT_TRUE(Selector()
                  .Add(Req("x", Op::kIn, {"foo"}))
                  .Add(Req("y", Op::kNotIn, {"alpha"}))
                  .Matches({{"x", "foo"}, {"y", "baz"}}));
  EXPECT_FALSE(Selector()
                   .Add(Req("x", Op::kIn, {"foo"}))
                   .Add(Req("y", Op::kIn, {"alpha"}))
                   .Matches({{"x", "foo"}, {"y", "baz"}}));
  EXPECT_TRUE(Selector()
                  .Add(Req("x", Op::kNotIn, {""}))
                  .Add(Req("y", Op::kExists, {}))
                  .Matches({{"y", ""}}));
  EXPECT_FALSE(Selector()
                   .Add(Req("x", Op::kNotIn, {""}))
                   .Add(Req("y", Op::kDoesNotExist, {}))
                   .Matches({{"y", ""}}));
  EXPECT_FALSE(Selector().Add(Req("x", Op::kIn, {""})).Matches({{"y", "baz"}}));
  EXPECT_EQ(Selector()
                .Add(Req("z", Op::kExists, {}))
                .Add(Req("x", Op::kIn, {"def", "abc"}))
                .Add(Req("y", Op::kNotIn, {"jkl"}))
                .String(),
            "x in (abc,def),y notin (jkl),z");
  EXPECT_EQ(Selector()
                .Add(Req("x", Op::kNotIn, {"abc", "def"}))
                .Add(Req("y", Op::kNotEquals, {"jkl"}))
                .Add(Req("z", Op::kDoesNotExist, {}))
                .String(),
            "x notin (abc,def),y!=jkl,!z");
  EXPECT_EQ(Selector()
                .Add(Req("x", Op::kEquals, {"abc"}))
                .Add(Req("y", Op::kDoubleEquals, {"jkl"}))
                .Add(Req("z", Op::kNotEquals, {"a"}))
                .Add(Req("z", Op::kExists, {}))
                .String(),
            "x=abc,y==jkl,z!=a,z");
  EXPECT_EQ(Selector()
                .Add(Req("x", Op::kGreaterThan, {"2"}))
                .Add(Req("y", Op::kLessThan, {"8"}))
                .String(),
            "x>2,y<8");
}

TEST(SelectorTest, RequirementValidationAsNewRequirement) {
  const std::string long_key(254, 'a');
  const std::tuple<std::string, Op, std::vector<std::string>, std::string> rows[] = {
      {"x",
       Op::kIn,
       {},
       "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be "
       "empty"},
      {"x",
       Op::kNotIn,
       {},
       "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be "
       "empty"},
      {"foo",
       Op::kGreaterThan,
       {"bar"},
       "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"y",
       Op::kLessThan,
       {"1", "2"},
       "values: Invalid value: []string{\"1\", \"2\"}: for 'Gt', 'Lt' operators, exactly one "
       "value is required"},
      {"x",
       Op::kEquals,
       {"a", "b"},
       "values: Invalid value: []string{\"a\", \"b\"}: exact-match compatibility requires one "
       "single value"},
      {"x",
       Op::kExists,
       {"a"},
       "values: Invalid value: []string{\"a\"}: values set must be empty for exists and does not "
       "exist"},
      {long_key,
       Op::kExists,
       {},
       "key: Invalid value: \"" + long_key + "\": name part must be no more than 63 characters"},
      {"Example.com/x",
       Op::kExists,
       {},
       "key: Invalid value: \"Example.com/x\": prefix part a lowercase RFC 1123 subdomain must "
       "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
       "alphanumeric character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"a:",
       Op::kIn,
       {},
       "[key: Invalid value: \"a:\": name part " + kNameRegexError +
           ", values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't "
           "be empty]"},
  };
  for (const auto& [key, op, values, message] : rows) {
    auto r = Requirement::Make(key, op, values);
    ASSERT_FALSE(r.ok()) << key;
    EXPECT_EQ(r.status().message(), message);
  }
  for (const auto& [key, op, values] :
       std::vector<std::tuple<std::string, Op, std::vector<std::string>>>{
           {"x", Op::kIn, {"foo"}},
           {"x", Op::kNotIn, {"foo"}},
           {"x", Op::kExists, {}},
           {"x", Op::kDoesNotExist, {}},
           {"1foo", Op::kIn, {"bar"}},
           {"1234", Op::kIn, {"bar"}},
           {"y", Op::kGreaterThan, {"1"}},
           {"z", Op::kLessThan, {"6"}},
           {"example.com/a", Op::kEquals, {""}}}) {
    EXPECT_TRUE(Requirement::Make(key, op, values).ok()) << key;
  }
}

TEST(SelectorTest, FromLabelSelectorAsLabelSelectorAsSelector) {
  auto nothing = Selector::FromLabelSelector(nullptr);
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->MatchesNothing());
  EXPECT_FALSE(nothing->Empty());
  EXPECT_FALSE(nothing->Matches({}));
  EXPECT_EQ(nothing->String(), "");

  LabelSelector empty;
  auto everything = Selector::FromLabelSelector(&empty);
  ASSERT_TRUE(everything.ok());
  EXPECT_TRUE(everything->Empty());
  EXPECT_TRUE(everything->Matches({{"a", "b"}}));

  LabelSelector ls;
  ls.match_labels = {{"leaderworkerset.sigs.k8s.io/name", "demo"}, {"app", "web"}};
  ls.match_expressions = {{"tier", "In", {"b", "a"}, {}},
                          {"canary", "DoesNotExist", {}, {}},
                          {"app", "Exists", {}, {}}};
  auto s = Selector::FromLabelSelector(&ls);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->String(), "app=web,app,!canary,leaderworkerset.sigs.k8s.io/name=demo,tier in (a,b)");
  StringMap labels = {{"app", "web"}, {"tier", "a"}, {"leaderworkerset.sigs.k8s.io/name", "demo"}};
  EXPECT_TRUE(s->Matches(labels));
  labels["canary"] = "true";
  EXPECT_FALSE(s->Matches(labels));
  // Values keep their given order in memory; String() sorts them.
  EXPECT_EQ(MustParse(s->String()).String(), s->String());

  ls.match_expressions.push_back({"x", "Foo", {}, {}});
  EXPECT_EQ(Selector::FromLabelSelector(&ls).status().message(),
            "\"Foo\" is not a valid label selector operator");
  ls.match_expressions.back() = {"x", "In", {}, {}};
  EXPECT_EQ(Selector::FromLabelSelector(&ls).status().message(),
            "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't "
            "be empty");
  LabelSelector bad_key;
  bad_key.match_labels = {{"a b", "c"}};
  EXPECT_EQ(Selector::FromLabelSelector(&bad_key).status().message(),
            "key: Invalid value: \"a b\": name part " + kNameRegexError);
}

TEST(SelectorTest, FromSetAndExactMatch) {
  Selector s = Selector::FromSet({{"b", "2"}, {"a", "1"}});
  EXPECT_EQ(s.String(), "a=1,b=2");
  EXPECT_TRUE(s.Matches({{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_TRUE(Selector::FromSet({}).Empty());
  EXPECT_EQ(s.RequiresExactMatch("a"), "1");
  EXPECT_EQ(MustParse("x in (a)").RequiresExactMatch("x"), "a");
  EXPECT_EQ(MustParse("x in (a,b)").RequiresExactMatch("x"), std::nullopt);
  EXPECT_EQ(MustParse("x!=a").RequiresExactMatch("x"), std::nullopt);
  EXPECT_EQ(MustParse("y=a").RequiresExactMatch("x"), std::nullopt);
}

// A random valid selector built through Requirement::Make, and random label maps over the same
// keys and values.
const std::vector<std::string> kKeys = {"a", "app", "x.io/tier", "k8s.io/n-1"};
const std::vector<std::string> kValues = {"", "web", "v1.2", "0", "7", "42", "in", "notin"};

Selector GenSelector() {
  Selector s;
  const int count = *rc::gen::inRange(0, 5);
  for (int i = 0; i < count; ++i) {
    const std::string key = *rc::gen::elementOf(kKeys);
    const Op op =
        *rc::gen::element(Op::kDoesNotExist, Op::kEquals, Op::kDoubleEquals, Op::kIn,
                          Op::kNotEquals, Op::kNotIn, Op::kExists, Op::kGreaterThan, Op::kLessThan);
    std::vector<std::string> values;
    if (op == Op::kGreaterThan || op == Op::kLessThan) {
      values = {std::to_string(*rc::gen::inRange(0, 50))};
    } else if (op == Op::kIn || op == Op::kNotIn) {
      // Distinct values: upstream prints a duplicate twice and parsing folds it.
      values = *rc::gen::nonEmpty(
          rc::gen::unique<std::vector<std::string>>(rc::gen::elementOf(kValues)));
    } else if (op != Op::kExists && op != Op::kDoesNotExist) {
      values = {*rc::gen::elementOf(kValues)};
    }
    auto r = Requirement::Make(key, op, values);
    RC_ASSERT(r.ok());
    s = s.Add(*r);
  }
  return s;
}

StringMap GenLabels() {
  StringMap labels;
  for (const auto& key : kKeys) {
    if (*rc::gen::arbitrary<bool>()) labels[key] = *rc::gen::elementOf(kValues);
  }
  return labels;
}

RC_GTEST_PROP(SelectorProperty, StringReparsesToTheSameSelector, ()) {
  const Selector s = GenSelector();
  auto again = Selector::Parse(s.String());
  RC_ASSERT(again.ok());
  RC_ASSERT(again->String() == s.String());
  for (int i = 0; i < 4; ++i) {
    const StringMap labels = GenLabels();
    RC_ASSERT(again->Matches(labels) == s.Matches(labels));
  }
}

RC_GTEST_PROP(SelectorProperty, AnyParsedTokenSoupIsCanonicalAfterOneRoundTrip, ()) {
  const std::vector<std::string> pieces = {
      "a",  "b",     "x.io/y", "1", "=", "==", "!=", "!", ">", "<",
      "in", "notin", "(",      ")", ",", " ",  "\t", "-", "_"};
  const auto parts = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(pieces));
  std::string text;
  for (const auto& p : parts) text += p;
  auto s = Selector::Parse(text);
  if (!s.ok()) return;
  auto again = Selector::Parse(s->String());
  RC_ASSERT(again.ok());
  RC_ASSERT(again->String() == s->String());
  RC_ASSERT(*again == *s);
}

}  // namespace
}  // namespace lws::api
