// The NOSPACE alarm (space_reserve.h) on a disk with room: the reserve is really allocated, a
// full disk lets it go and refuses writes with a clear error, and the alarm goes off by itself
// once the reserve can be made again. tests/cli/apiserver_disk_full.sh fills a real (tmpfs) disk.
#include "store/space_reserve.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

namespace lws::store {
namespace {

std::string Dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::int64_t AllocatedBytes(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_blocks) * 512 : -1;
}

TEST(SpaceReserve, TheReserveTakesRealBlocks) {
  const std::string path = Dir("reserve-blocks") + "/space.reserve";
  SpaceReserve reserve(path, "store.db", 4 << 20);
  reserve.Open();
  EXPECT_FALSE(reserve.alarmed());
  EXPECT_GE(AllocatedBytes(path), 4 << 20);  // not a sparse file
}

TEST(SpaceReserve, AFullDiskRefusesWritesUntilTheReserveCanBeMadeAgain) {
  const std::string path = Dir("reserve-alarm") + "/space.reserve";
  SpaceReserve reserve(path, "/data/store.db", 1 << 20);
  reserve.Open();
  const Status full = reserve.Full(Status::Internal("database or disk is full"));
  EXPECT_TRUE(reserve.alarmed());
  EXPECT_EQ(full.code(), Code::kInternal);
  EXPECT_NE(full.message().find("/data/store.db: database space exceeded: the disk is full "
                                "(NOSPACE alarm)"),
            std::string::npos)
      << full.message();
  EXPECT_FALSE(std::filesystem::exists(path)) << "the reserve is let go for deletions";
  // This disk has room: the next write re-makes the reserve and the alarm goes off.
  EXPECT_TRUE(reserve.Admit().ok());
  EXPECT_FALSE(reserve.alarmed());
  EXPECT_TRUE(std::filesystem::exists(path));
}

TEST(SpaceReserve, AnUnusableReserveStartsWithTheAlarmOn) {
  SpaceReserve reserve("/nonexistent-dir/space.reserve", "store.db", 1 << 20);
  reserve.Open();
  EXPECT_TRUE(reserve.alarmed());
  EXPECT_FALSE(reserve.Admit().ok());
}

}  // namespace
}  // namespace lws::store
