// podlog::ContainerLog: the newest lines kept, readers resuming where they were, followers woken.
#include "podlog/container_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lws::podlog {
namespace {

const Time kT0 = Time(std::chrono::seconds(1'800'000'000));

TEST(ContainerLogTest, KeepsTheNewestLinesAndReadsFromWhereAReaderWas) {
  ContainerLog log(3);
  for (int i = 0; i < 5; ++i) log.Append(kT0, "line " + std::to_string(i));
  std::uint64_t next = 0;
  std::vector<LogLine> lines;
  EXPECT_FALSE(log.Read(&next, &lines));
  ASSERT_EQ(lines.size(), 3u);  // the two oldest were dropped
  EXPECT_EQ(lines[0].message, "line 2");
  EXPECT_EQ(next, 5u);
  lines.clear();
  log.Append(kT0, "line 5");
  log.End();
  log.Append(kT0, "after the end");  // an ended instance takes no more lines
  EXPECT_TRUE(log.Read(&next, &lines));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].message, "line 5");
  EXPECT_TRUE(log.ended());
}

TEST(ContainerLogTest, FollowersAreWokenUntilTheyLeave) {
  ContainerLog log(10);
  int wakes = 0;
  const std::uint64_t id = log.Subscribe([&wakes] { ++wakes; });
  log.Append(kT0, "a");
  log.Append(kT0, "b");
  EXPECT_EQ(wakes, 2);
  log.Unsubscribe(id);
  log.Append(kT0, "c");
  log.End();
  EXPECT_EQ(wakes, 2);
}

}  // namespace
}  // namespace lws::podlog
