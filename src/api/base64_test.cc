#include "api/base64.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace lws::api {
namespace {

struct Base64Case {
  std::string input;
  std::string decoded;  // when error is empty
  std::string error;
};

TEST(Base64DecodeTest, Table) {
  const std::vector<Base64Case> cases = {
      {"", "", ""},
      {"QQ==", "A", ""},
      {"QUI=", "AB", ""},
      {"QUJD", "ABC", ""},
      {"QUJD\nREVG\r\n", "ABCDEF", ""},  // line breaks are skipped, as Go does
      {"QUJD$$$", "", "illegal base64 data at input byte 4"},
      {"QU", "", "illegal base64 data at input byte 0"},        // truncated: at its start
      {"Q===", "", "illegal base64 data at input byte 1"},      // too much padding
      {"QQ==QUJD", "", "illegal base64 data at input byte 4"},  // data after padding
      {"QQ=A", "", "illegal base64 data at input byte 3"},
      {"QUJD-_", "", "illegal base64 data at input byte 4"},  // URL alphabet is not standard
  };
  for (const Base64Case& c : cases) {
    Result<std::string> got = Base64Decode(c.input);
    if (c.error.empty()) {
      ASSERT_TRUE(got.ok()) << c.input << ": " << got.status().ToString();
      EXPECT_EQ(*got, c.decoded) << c.input;
    } else {
      ASSERT_FALSE(got.ok()) << c.input;
      EXPECT_EQ(got.status().message(), c.error) << c.input;
      EXPECT_EQ(got.status().code(), Code::kBadRequest);
    }
  }
}

TEST(Base64EncodeTest, PadsLikeGo) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("A"), "QQ==");
  EXPECT_EQ(Base64Encode("AB"), "QUI=");
  EXPECT_EQ(Base64Encode("ABC"), "QUJD");
  EXPECT_EQ(Base64Encode(std::string("\xff\x00\xfe", 3)), "/wD+");
}

RC_GTEST_PROP(Base64Property, DecodeInvertsEncode, (const std::string& bytes)) {
  Result<std::string> back = Base64Decode(Base64Encode(bytes));
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == bytes);
}

TEST(Base64SextetTest, StandardAlphabetOnly) {
  EXPECT_EQ(Base64Sextet('A'), 0);
  EXPECT_EQ(Base64Sextet('/'), 63);
  EXPECT_EQ(Base64Sextet('-'), -1);
  EXPECT_EQ(Base64Sextet('='), -1);
}

}  // namespace
}  // namespace lws::api
