// Go's encoding/json syntax errors (scanner.go), byte for byte, for the malformed bodies clients
// send.
#include "api/go_json_syntax.h"

#include <gtest/gtest.h>

namespace lws::api {
namespace {

TEST(GoJsonSyntaxError, ValidDocumentsPass) {
  for (const char* text : {"{}", " [ ] ", "{\"a\":[1,-2.5e+3,true,false,null,\"x\\u00e9\\n\"]}",
                           "0", "-0.1E-2", "\"\xc3\xa9\"", "\n{\"a\" : {\"b\" : []}}\n"}) {
    EXPECT_EQ(GoJsonSyntaxError(text), "") << text;
  }
}

TEST(GoJsonSyntaxError, GoWordsEveryState) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "unexpected end of JSON input"},
      {"{", "unexpected end of JSON input"},
      {"{\"a\":1", "unexpected end of JSON input"},
      {"tru", "invalid character ' ' in literal true (expecting 'e')"},  // Go feeds a space at EOF
      {"{bad", "invalid character 'b' looking for beginning of object key string"},
      {"[1,]", "invalid character ']' looking for beginning of value"},
      {"x", "invalid character 'x' looking for beginning of value"},
      {"{\"a\" 1}", "invalid character '1' after object key"},
      {"{\"a\":1 \"b\":2}", "invalid character '\"' after object key:value pair"},
      {"[1 2]", "invalid character '2' after array element"},
      {"trux", "invalid character 'x' in literal true (expecting 'e')"},
      {"nul1", "invalid character '1' in literal null (expecting 'l')"},
      {"fx", "invalid character 'x' in literal false (expecting 'a')"},
      {"{} x", "invalid character 'x' after top-level value"},
      {"01", "invalid character '1' after top-level value"},
      {"1.", "invalid character ' ' after decimal point in numeric literal"},
      {"1.x", "invalid character 'x' after decimal point in numeric literal"},
      {"1e+", "invalid character ' ' in exponent of numeric literal"},
      {"-", "invalid character ' ' in numeric literal"},
      {"-a", "invalid character 'a' in numeric literal"},
      {"\"a\tb\"", "invalid character '\\t' in string literal"},
      {"\"\\x\"", "invalid character 'x' in string escape code"},
      {"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"},
      {"[1]'", "invalid character '\\'' after top-level value"},
      {"\x01", "invalid character '\\x01' looking for beginning of value"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(GoJsonSyntaxError(text), want) << text;
}

TEST(GoJsonSyntaxError, DepthBeyondGosLimit) {
  EXPECT_EQ(GoJsonSyntaxError(std::string(10001, '[') + std::string(10001, ']')),
            "invalid character '[' exceeded max depth");
  EXPECT_EQ(GoJsonSyntaxError(std::string(10000, '[') + std::string(10000, ']')), "");
}

}  // namespace
}  // namespace lws::api
