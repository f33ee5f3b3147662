#include "client/rest/rest_util.h"

#include <gtest/gtest.h>

namespace lws::rest {
namespace {

TEST(PathTest, DirNameAndResolve) {
  EXPECT_EQ(DirName("/a/b/config"), "/a/b");
  EXPECT_EQ(DirName("config"), ".");
  EXPECT_EQ(DirName("/config"), "/");
  EXPECT_EQ(ResolvePath("/a/b", "pki/ca.crt"), "/a/b/pki/ca.crt");
  EXPECT_EQ(ResolvePath("/a/b/", "ca.crt"), "/a/b/ca.crt");
  EXPECT_EQ(ResolvePath("/a/b", "/etc/ca.crt"), "/etc/ca.crt");
  EXPECT_EQ(ResolvePath("/a/b", ""), "");
}

}  // namespace
}  // namespace lws::rest
