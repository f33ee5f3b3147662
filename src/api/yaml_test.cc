// YAML loading must give what kubectl (sigs.k8s.io/yaml over goyaml.v2) gives; emitting must read
// back to the same JSON.
#include "api/yaml.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "testdata/testdata_dir.h"

namespace lws::api {
namespace {

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Json MustLoad(std::string_view text) {
  auto r = LoadYaml(text);
  EXPECT_TRUE(r.ok()) << text << " -> " << r.status().ToString();
  return r.ok() ? *r : Json("<error>");
}

struct ScalarCase {
  std::string yaml;  // the value of key "v"
  Json want;
};

TEST(YamlLoadTest, ScalarsResolveLikeGoYamlV2) {
  const std::vector<ScalarCase> cases = {
      {"true", true},
      {"True", true},
      {"yes", true},
      {"on", true},
      {"y", true},
      {"NO", false},
      {"off", false},
      {"n", false},
      {"~", nullptr},
      {"null", nullptr},
      {"", nullptr},
      {"42", 42},
      {"-7", -7},
      {"+7", 7},
      {"0x1f", 31},
      {"0o17", 15},
      {"017", 15},
      {"0b101", 5},
      {"1_000", 1000},
      {"08", 8},
      {"1.5", 1.5},
      {"1e3", 1000},
      {"1.0", 1},
      {".5", 0.5},
      {"-.5e1", -5},
      {"1e400", "1e400"},
      {"18446744073709551615", 18446744073709551615ULL},
      {"99999999999999999999", 1e20},
      {"2001-12-14", "2001-12-14"},
      {"abc", "abc"},
      {"\"true\"", "true"},
      {"'1'", "1"},
      {"!!str 5", "5"},
      {"!!float 1", 1},
      {"!!int \"12\"", 12},
      {"!!binary aGVsbG8=", "hello"},
      {"0x", "0x"},
      {"-a", "-a"},
      {"1:2", "1:2"},
      {"\"\\u00e9\"", "\xC3\xA9"},
      {"\"\\N\\_\"", "\xC2\x85\xC2\xA0"},
  };
  for (const auto& c : cases) {
    Json got = MustLoad("v: " + c.yaml + "\n");
    EXPECT_EQ(got["v"], c.want) << "v: " << c.yaml;
    if (c.want.is_number_integer()) {
      EXPECT_TRUE(got["v"].is_number_integer()) << c.yaml;
    }
  }
}

TEST(YamlLoadTest, KeysBecomeStrings) {
  EXPECT_EQ(MustLoad("1: a\ntrue: b\non: c\n1.5: d\n0x10: e\n"),
            Json({{"1", "a"}, {"true", "c"}, {"1.5", "d"}, {"16", "e"}}));
  EXPECT_EQ(MustLoad("0.1: x\n"), Json({{"0.1", "x"}}));
  auto null_key = LoadYaml("~: x\n");
  ASSERT_FALSE(null_key.ok());
  EXPECT_NE(null_key.status().message().find("unsupported map key"), std::string::npos);
  EXPECT_FALSE(LoadYaml("[a]: x\n").ok());
}

TEST(YamlLoadTest, BlockScalarsAnchorsAndMergeKeys) {
  Json got = MustLoad(
      "base: &b {x: 1, q: 2}\n"
      "other: &o {q: 3, z: 4}\n"
      "merged:\n  <<: *b\n  q: 9\n"
      "multi:\n  <<: [*b, *o]\n"
      "alias: *b\n"
      "lit: |\n  a\n  b\n"
      "fold: >-\n  a\n  b\n"
      "keep: |+\n  a\n\n"
      "quoted: \"<<\"\n");
  EXPECT_EQ(got["merged"], Json({{"x", 1}, {"q", 9}}));
  EXPECT_EQ(got["multi"], Json({{"x", 1}, {"q", 2}, {"z", 4}}));
  EXPECT_EQ(got["alias"], Json({{"x", 1}, {"q", 2}}));
  // A YAML 1.1 boolean key: goyaml.v2 reads `y` as true.
  EXPECT_EQ(MustLoad("y: 1\n"), Json({{"true", 1}}));
  EXPECT_EQ(got["lit"], "a\nb\n");
  EXPECT_EQ(got["fold"], "a b");
  EXPECT_EQ(got["keep"], "a\n\n");
  EXPECT_EQ(got["quoted"], "<<");
  EXPECT_FALSE(LoadYaml("a: &x 1\nb:\n  <<: *x\n").ok());
}

TEST(YamlLoadTest, JsonIsYaml) {
  Json got = MustLoad("{\"a\": [1, 2.5, \"x\", null, true], \"b\": {\"c\": \"d\"}}");
  EXPECT_EQ(got, Json::parse(R"({"a": [1, 2.5, "x", null, true], "b": {"c": "d"}})"));
  EXPECT_EQ(MustLoad("[1, {\"a\": 1.0}]"), Json::parse(R"([1, {"a": 1}])"));
}

TEST(YamlLoadTest, MultipleDocumentsWithLines) {
  auto docs =
      LoadYamlDocuments("# comment\na: 1\n---\n---\n# only a comment\n---\nb: 2\n---\nnull\n");
  ASSERT_TRUE(docs.ok()) << docs.status().ToString();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0].value, Json({{"a", 1}}));
  EXPECT_EQ((*docs)[0].line, 2);
  EXPECT_EQ((*docs)[1].value, Json({{"b", 2}}));
  EXPECT_EQ((*docs)[1].line, 7);
  EXPECT_FALSE(LoadYaml("a: 1\n---\nb: 2\n").ok());
  EXPECT_FALSE(LoadYaml("").ok());
  EXPECT_EQ(MustLoad("null"), Json());
}

TEST(YamlLoadTest, MalformedInputReportsLineAndColumn) {
  struct Case {
    std::string yaml;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"a: b: c\n", "yaml: line 1, column 5: illegal map value"},
      {"a:\n  b: [1, 2\nc: 3\n", "line 3, column 2: end of sequence flow not found"},
      {"- a\nb: 1\n", "line 2, column 1: did not find expected <document start>"},
      {"a: .nan\n", "line 1, column 4: json: unsupported value: NaN"},
      {"a: \"\x01\"\n", "line 1, column 5: control characters are not allowed"},
      {"a: \xff\n", "line 1, column 4: invalid UTF-8"},
      {"a: !!int x\n", "cannot decode !!str `x` as a !!int"},
  };
  for (const auto& c : cases) {
    auto r = LoadYaml(c.yaml);
    ASSERT_FALSE(r.ok()) << c.yaml;
    EXPECT_EQ(r.status().code(), Code::kBadRequest);
    EXPECT_NE(r.status().message().find(c.want), std::string::npos) << r.status().message();
  }
}

TEST(YamlLoadTest, ExcessiveAliasingIsRejected) {
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    laughs += std::string(1, c) + ": &" + std::string(1, c) + " [*" + prev + ", *" + prev + ", *" +
              prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
              ", *" + prev + ", *" + prev + "]\n";
  }
  auto r = LoadYaml(laughs);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("excessive aliasing"), std::string::npos);
}

TEST(YamlEmitTest, KubectlStyle) {
  Json obj = Json::parse(R"({
    "status": {"replicas": 2},
    "spec": {"replicas": 3, "list": [{"b": 1, "a": "x"}, [1, 2], {}, []], "empty": {}},
    "metadata": {"name": "demo", "labels": {"app": "web"}, "annotations": {"note": "line1\nline2\n"}},
    "kind": "LeaderWorkerSet",
    "apiVersion": "leaderworkerset.x-k8s.io/v1",
    "data": {"k10": "a", "k9": "b", "K": "c"}
  })");
  const std::string want =
      "apiVersion: leaderworkerset.x-k8s.io/v1\n"
      "kind: LeaderWorkerSet\n"
      "metadata:\n"
      "  annotations:\n"
      "    note: |\n"
      "      line1\n"
      "      line2\n"
      "  labels:\n"
      "    app: web\n"
      "  name: demo\n"
      "spec:\n"
      "  empty: {}\n"
      "  list:\n"
      "  - a: x\n"
      "    b: 1\n"
      "  - - 1\n"
      "    - 2\n"
      "  - {}\n"
      "  - []\n"
      "  replicas: 3\n"
      "status:\n"
      "  replicas: 2\n"
      "data:\n"
      "  K: c\n"
      "  k9: b\n"
      "  k10: a\n";
  EXPECT_EQ(EmitYaml(obj), want);
  EXPECT_EQ(MustLoad(want), obj);
}

TEST(YamlEmitTest, QuotesStringsThatWouldBeMisread) {
  const std::vector<std::string> quoted = {"",
                                           "true",
                                           "yes",
                                           "Off",
                                           "y",
                                           "null",
                                           "~",
                                           "1",
                                           "-1",
                                           "0x1f",
                                           "1e3",
                                           ".inf",
                                           "08",
                                           " a",
                                           "a ",
                                           "a: b",
                                           "- a",
                                           "-",
                                           "#x",
                                           "a #b",
                                           "<<",
                                           "---",
                                           "*a",
                                           "&a",
                                           "!a",
                                           "%a",
                                           "@a",
                                           "`a`",
                                           "'a'",
                                           "\"a",
                                           "{a}",
                                           "[a]",
                                           "? a",
                                           ":a",
                                           "a:",
                                           "|",
                                           ">",
                                           "\t",
                                           "a\tb",
                                           "\x7f",
                                           "2024-01-01T00:00:00Z",
                                           "x\r\ny",
                                           "\xe2\x80\xa8",
                                           ",a"};
  for (const std::string& s : quoted) {
    std::string text = EmitYaml(Json({{"v", s}}));
    EXPECT_NE(text.rfind("v: \"", 0), std::string::npos) << "not quoted: " << text;
    EXPECT_EQ(MustLoad(text)["v"], s) << text;
  }
  for (const std::string s :
       {"nginx:1.14", "--port=8080", "a b", "x-y", "é", "a,b", "http://x/y#z"}) {
    std::string text = EmitYaml(Json({{"v", s}}));
    EXPECT_EQ(text, "v: " + s + "\n");
    EXPECT_EQ(MustLoad(text)["v"], s) << text;
  }
}

TEST(YamlEmitTest, NumbersAndScalarsAtTopLevel) {
  EXPECT_EQ(EmitYaml(Json(1.5)), "1.5\n");
  EXPECT_EQ(EmitYaml(Json(1e6)), "1e+06\n");
  EXPECT_EQ(EmitYaml(Json(-7)), "-7\n");
  EXPECT_EQ(EmitYaml(Json()), "null\n");
  EXPECT_EQ(EmitYaml(Json::object()), "{}\n");
  EXPECT_EQ(EmitYaml(Json::array()), "[]\n");
  EXPECT_EQ(EmitYaml(Json("a\nb")), "|-\n  a\n  b\n");
  EXPECT_EQ(MustLoad(EmitYaml(Json(0.1))), Json(0.1));
}

void ExpectRoundTrip(const Json& j);

TEST(YamlEmitTest, LongKeysUseExplicitForm) {
  Json j = {{"a", {{std::string(2000, 'k'), {1, 2}}, {"b", {{"c", "x\ny"}}}}}};
  std::string text = EmitYaml(j);
  EXPECT_NE(text.find("? kkk"), std::string::npos);
  ExpectRoundTrip(j);
}

void ExpectRoundTrip(const Json& j) {
  std::string text = EmitYaml(j);
  auto back = LoadYaml(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << text;
  EXPECT_EQ(*back, j) << text;
}

TEST(YamlRoundTripTest, ApiFixtures) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TestdataDir() + "/k8s-api")) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    Json j = Json::parse(ReadFile(entry.path()));
    ExpectRoundTrip(j);
    // JSON text is YAML too.
    EXPECT_EQ(MustLoad(ReadFile(entry.path())), j) << entry.path();
  }
  EXPECT_GE(count, 10);
}

TEST(YamlRoundTripTest, LwsSamples) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TestdataDir() + "/lws/samples")) {
    auto docs = LoadYamlDocuments(ReadFile(entry.path()));
    ASSERT_TRUE(docs.ok()) << entry.path() << ": " << docs.status().ToString();
    for (const auto& d : *docs) {
      ExpectRoundTrip(d.value);
      ++count;
    }
  }
  EXPECT_GE(count, 10);
}

rc::Gen<std::string> TrickyString() {
  static const std::vector<std::string> kPieces = {"a",
                                                   "b",
                                                   "Z",
                                                   "1",
                                                   "0",
                                                   "9",
                                                   "e",
                                                   "x",
                                                   "_",
                                                   ".",
                                                   "-",
                                                   "+",
                                                   ":",
                                                   " ",
                                                   "  ",
                                                   "\n",
                                                   "\t",
                                                   "#",
                                                   "\"",
                                                   "'",
                                                   "\\",
                                                   "{",
                                                   "}",
                                                   "[",
                                                   "]",
                                                   ",",
                                                   "&",
                                                   "*",
                                                   "!",
                                                   "?",
                                                   "%",
                                                   "@",
                                                   "`",
                                                   "~",
                                                   "<",
                                                   ">",
                                                   "|",
                                                   "=",
                                                   "/",
                                                   "\r",
                                                   "\x01",
                                                   "\x7f",
                                                   "\xc3\xa9",
                                                   "\xe2\x82\xac",
                                                   "\xf0\x9f\x98\x80",
                                                   "\xc2\x85",
                                                   "\xe2\x80\xa8",
                                                   "\xef\xbb\xbf",
                                                   "\xc2\x9f",
                                                   "true",
                                                   "null",
                                                   "yes",
                                                   "0x",
                                                   "---",
                                                   "<<",
                                                   "2024-",
                                                   "1e5",
                                                   ".inf"};
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(kPieces)),
                      [](const std::vector<std::string>& parts) {
                        std::string s;
                        for (const auto& p : parts) s += p;
                        return s;
                      });
}

rc::Gen<Json> GenJson(int depth) {
  auto scalar = rc::gen::oneOf(
      rc::gen::just(Json()),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); }),
      rc::gen::map(rc::gen::arbitrary<std::int64_t>(), [](std::int64_t v) { return Json(v); }),
      rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t v) { return Json(v); }),
      rc::gen::map(rc::gen::suchThat(rc::gen::arbitrary<double>(),
                                     [](double d) { return std::isfinite(d); }),
                   [](double v) { return Json(v); }),
      rc::gen::map(TrickyString(), [](std::string s) { return Json(std::move(s)); }));
  if (depth == 0) return scalar;
  auto array = rc::gen::map(rc::gen::container<std::vector<Json>>(GenJson(depth - 1)),
                            [](std::vector<Json> v) { return Json(std::move(v)); });
  auto object = rc::gen::map(
      rc::gen::container<std::map<std::string, Json>>(TrickyString(), GenJson(depth - 1)),
      [](std::map<std::string, Json> m) { return Json(std::move(m)); });
  return rc::gen::oneOf(scalar, array, object);
}

RC_GTEST_PROP(YamlRoundTripProp, EmitThenLoadIsIdentity, ()) {
  const Json j = *rc::gen::resize(12, GenJson(3));
  std::string text = EmitYaml(j);
  auto back = LoadYaml(text);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == j);
}

}  // namespace
}  // namespace lws::api
