#include "apiserver/jsonpath.h"

#include <gtest/gtest.h>

namespace lws::apiserver {
namespace {

const Json kDoc = Json::parse(R"({
  "kind": "List",
  "items": [
    {"metadata": {"name": "a", "labels": {"app": "x", "kubernetes.io/role": "w"}},
     "status": {"replicas": 3, "ratio": 0.5, "ready": true,
                "conditions": [{"type": "Ready", "status": "True"},
                               {"type": "Progressing", "status": "False", "gen": 2}]}},
    {"metadata": {"name": "b"}, "status": {"replicas": 1, "nothing": null}}
  ],
  "empty": [],
  "text": "hi"
})");

// Evaluates `path` with missing keys allowed and returns every value of every template
// element, printed as jsonpath prints them and joined by spaces.
std::string Eval(const std::string& path, const Json& doc = kDoc) {
  Result<JsonPath> parsed = JsonPath::Parse(path);
  if (!parsed.ok()) return "parse error: " + parsed.status().message();
  auto results = parsed->FindResults(doc, true);
  if (!results.ok()) return "error: " + results.status().message();
  std::string out;
  for (const auto& list : *results) {
    for (const Json& v : list) {
      if (!out.empty()) out += " ";
      out += JsonPathText(v);
    }
  }
  return out;
}

struct Case {
  const char* path;
  const char* want;
};

TEST(JsonPathTest, PrinterColumnForms) {
  const Case cases[] = {
      {"{.kind}", "List"},
      {"{.items[0].metadata.name}", "a"},
      {"{.items[1].status.replicas}", "1"},
      {"{.items[-1].metadata.name}", "b"},
      {"{.items[*].metadata.name}", "a b"},
      {"{.items[0:1].metadata.name}", "a"},
      {"{.items[::2].metadata.name}", "a"},
      {"{.items[0,1].status.replicas}", "3 1"},
      {"{.items[0].metadata.labels.kubernetes\\.io/role}", "w"},
      {"{.items[0].metadata.labels['app']}", "x"},
      {"{.items[0].status.conditions[?(@.type==\"Ready\")].status}", "True"},
      {"{.items[0].status.conditions[?(@.type=='Progressing')].status}", "False"},
      {"{.items[0].status.conditions[?(@.type!=\"Ready\")].type}", "Progressing"},
      {"{.items[0].status.conditions[?(@.gen)].type}", "Progressing"},
      {"{.items[0].status.conditions[?(@.gen>1)].type}", "Progressing"},
      {"{.items[0].status.conditions[?(@.gen<=1)].type}", ""},
      {"{.items[?(@.status.replicas>=3)].metadata.name}", "a"},
      {"{.items[?(@.status.replicas<3)].metadata.name}", "b"},
      {"{.items[?(@.status.ready==true)].metadata.name}", "a"},
      {"{..name}", "a b"},
      {"{.items[0].metadata.labels.*}", "x w"},
      {"{$.text}", "hi"},
      {"{.text.*}", "104 105"},
      {"{.text[*]}", "error: string is not array or slice"},
      {"name={.items[0].metadata.name} n={.items[1].metadata.name}", "name= a  n= b"},
      {"{.items[0].status.ratio}", "0.5"},
      {"{.items[0].status.ready}", "true"},
      {"{.items[1].status.nothing}", "<nil>"},
      {"{.items[0].status.conditions[1]}", R"({"gen":2,"status":"False","type":"Progressing"})"},
      {"{.empty[*]}", ""},
      {"{.missing.deeper}", ""},
      {"{.items[5]}", "error: array index out of bounds: index 5, length 2"},
      {"{.items[1:0]}", "error: starting index 1 is greater than ending index 0"},
      {"{.items[::0]}", "error: step must be > 0"},
      {"{.kind[0]}", "error: string is not array or slice"},
      {"{.items[?(@.status.ratio>1)].metadata.name}", "error: incompatible types for comparison"},
      {"{.items[?(@.status.ready<true)].metadata.name}", "error: invalid type for comparison"},
  };
  for (const Case& c : cases) EXPECT_EQ(Eval(c.path), c.want) << c.path;
}

TEST(JsonPathTest, MissingKeysAreErrorsUnlessAllowed) {
  auto path = JsonPath::Parse("{.status.nosuch}");
  ASSERT_TRUE(path.ok());
  Json doc = Json::parse(R"({"status":{}})");
  EXPECT_EQ(path->FindResults(doc, false).status().message(), "nosuch is not found");
  auto allowed = path->FindResults(doc, true);
  ASSERT_TRUE(allowed.ok());
  ASSERT_EQ(allowed->size(), 1u);
  EXPECT_TRUE((*allowed)[0].empty());
}

TEST(JsonPathTest, ParseErrorsUseClientGoMessages) {
  const Case cases[] = {
      {"{.a", "parse error: unclosed action"},
      {"{.a[0}", "parse error: unterminated array"},
      {"{.a[x]}", "parse error: invalid array index x"},
      {"{.a[-]}", "parse error: array index - is not a number"},
      {"{.a[?(@.b==\"x\"}", "parse error: unterminated filter"},
      {"{.a[?(@.b)x}", "parse error: unclosed array expect ]"},
      {"{\"abc}", "parse error: unterminated quoted string"},
      {"{", "parse error: unclosed action"},
      {"{....a}", "parse error: invalid multiple recursive descent"},
      {"{.a}{#}", "parse error: unrecognized character in action: U+0023 '#'"},
      {"{1.2.3}", "parse error: cannot parse number 1.2.3"},
      {"{range .items[*]}{.x}{end}", "parse error: jsonpath range/end is not supported"},
      {"{nosuch}", "error: unrecognized identifier nosuch"},
  };
  for (const Case& c : cases) EXPECT_EQ(Eval(c.path), c.want) << c.path;
}

TEST(JsonPathTest, ParsesIntoClientGoNodes) {
  auto path = JsonPath::Parse("x{.a[1:]}");
  ASSERT_TRUE(path.ok());
  const auto& root = path->root();
  ASSERT_EQ(root.size(), 2u);
  EXPECT_EQ(root[0].kind, JsonPath::Node::Kind::kText);
  EXPECT_EQ(root[0].text, "x");
  ASSERT_EQ(root[1].children.size(), 2u);
  const JsonPath::Node& array = root[1].children[1];
  EXPECT_EQ(array.kind, JsonPath::Node::Kind::kArray);
  EXPECT_TRUE(array.slice[0].known);
  EXPECT_EQ(array.slice[0].value, 1);
  EXPECT_FALSE(array.slice[1].known);
  EXPECT_FALSE(array.slice[2].known);
}

TEST(JsonPathTest, QuotedLiteralsUnescapeLikeGo) {
  Json doc = Json::parse(R"({"a":[{"k":"x\"y"},{"k":"tab\tend"},{"k":"é"}]})");
  EXPECT_EQ(Eval(R"({.a[?(@.k=="x\"y")].k})", doc), "x\"y");
  EXPECT_EQ(Eval(R"({.a[?(@.k=="tab\tend")].k})", doc), "tab\tend");
  EXPECT_EQ(Eval(R"({.a[?(@.k=="\u00e9")].k})", doc), "é");
  EXPECT_EQ(Eval(R"({.a[?(@.k=="\q")].k})", doc),
            "parse error: unquote string \"\\q\" error invalid syntax");
}

TEST(FormatGoFloatGTest, MatchesStrconvShortestG) {
  const std::pair<double, const char*> cases[] = {
      {0.5, "0.5"},
      {1, "1"},
      {-2.25, "-2.25"},
      {100000, "100000"},
      {1e6, "1e+06"},
      {1234567, "1.234567e+06"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {1.5e-7, "1.5e-07"},
      {1e21, "1e+21"},
      {123456.5, "123456.5"},
      {0.1 + 0.2, "0.30000000000000004"},
      {0, "0"},
      {1e100, "1e+100"},
  };
  for (const auto& [value, want] : cases) EXPECT_EQ(FormatGoFloatG(value), want) << value;
}

}  // namespace
}  // namespace lws::apiserver
