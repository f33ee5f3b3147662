#include "base/file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace lws {
namespace {

TEST(ReadFileTest, ReadsAndReportsMissingFiles) {
  char tmpl[] = "/tmp/lws-file-test-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  const std::string path = dir + "/f";
  std::ofstream(path, std::ios::binary) << std::string("a\0b", 3);
  Result<std::string> got = ReadFile(path);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, std::string("a\0b", 3));
  EXPECT_TRUE(FileExists(path));

  Result<std::string> missing = ReadFile(dir + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_EQ(missing.status().message(), "open " + dir + "/nope: no such file or directory");
  EXPECT_FALSE(FileExists(dir + "/nope"));
  std::filesystem::remove_all(dir);  // every run used to leave its directory in /tmp
}

}  // namespace
}  // namespace lws
