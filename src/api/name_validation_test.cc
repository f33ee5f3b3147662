#include "api/name_validation.h"

#include <gtest/gtest.h>

#include <string>

namespace lws::api {
namespace {

TEST(NameValidationTest, QualifiedNames) {
  for (std::string_view ok : {"a", "A", "1", "a.b_c-d", "example.com/MyName", "k8s.io/a",
                              "leaderworkerset.sigs.k8s.io/group-index"}) {
    EXPECT_TRUE(IsQualifiedName(ok).empty()) << ok;
  }
  const std::string regex_error =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
      "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  EXPECT_EQ(IsQualifiedName(""),
            (std::vector<std::string>{"name part must be non-empty", "name part " + regex_error}));
  EXPECT_EQ(IsQualifiedName("-a"), std::vector<std::string>{"name part " + regex_error});
  EXPECT_EQ(IsQualifiedName(std::string(64, 'a')),
            std::vector<std::string>{"name part must be no more than 63 characters"});
  EXPECT_EQ(IsQualifiedName("/a"), std::vector<std::string>{"prefix part must be non-empty"});
  EXPECT_EQ(IsQualifiedName("A.com/a").size(), 1u);
  EXPECT_EQ(IsQualifiedName("a/b/c").size(), 1u);
  EXPECT_EQ(IsQualifiedName(std::string(254, 'a') + "/b").size(), 1u);  // prefix too long
}

TEST(NameValidationTest, LabelValuesAndDNSNames) {
  EXPECT_TRUE(IsValidLabelValue("").empty());
  EXPECT_TRUE(IsValidLabelValue("v1.2_a-b").empty());
  EXPECT_EQ(IsValidLabelValue("a b").size(), 1u);
  EXPECT_EQ(IsValidLabelValue(std::string(64, 'a')),
            std::vector<std::string>{"must be no more than 63 characters"});
  EXPECT_TRUE(IsDNS1123Label("web-0").empty());
  EXPECT_EQ(IsDNS1123Label("Web"),
            std::vector<std::string>{
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
                "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
                "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"});
  EXPECT_TRUE(IsDNS1123Subdomain("a.b-c.d").empty());
  EXPECT_FALSE(IsDNS1123Subdomain("a..b").empty());
  EXPECT_FALSE(IsDNS1123Subdomain("a.").empty());
  EXPECT_FALSE(IsDNS1123Subdomain("").empty());
  // The regex has no per-label length limit: only the overall length fails.
  EXPECT_EQ(IsDNS1123Subdomain(std::string(254, 'a')),
            std::vector<std::string>{"must be no more than 253 characters"});
}

}  // namespace
}  // namespace lws::api
