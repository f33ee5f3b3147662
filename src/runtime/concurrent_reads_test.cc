#include "runtime/concurrent_reads.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>

namespace lws::runtime {
namespace {

// An object that says when it is freed.
std::shared_ptr<const void> Tracked(bool* freed) {
  return std::shared_ptr<const int>(new int(0), [freed](const int* p) {
    *freed = true;
    delete p;
  });
}

TEST(ConcurrentReadsTest, RetiredWithoutReadersIsFreedAtOnce) {
  ConcurrentReads reads;
  bool freed = false;
  reads.Retire(Tracked(&freed));
  EXPECT_TRUE(freed);
  EXPECT_EQ(reads.retired(), 0u);
}

TEST(ConcurrentReadsTest, FreedWhenEveryEarlierReaderHasEnded) {
  ConcurrentReads reads;
  bool first = false, second = false;
  std::optional<ConcurrentReads::Reader> old_reader(std::in_place, &reads);
  reads.Retire(Tracked(&first));  // old_reader may hold it
  std::optional<ConcurrentReads::Reader> new_reader(std::in_place, &reads);
  reads.Retire(Tracked(&second));  // both may hold it
  EXPECT_EQ(reads.readers(), 2u);
  EXPECT_EQ(reads.retired(), 2u);
  old_reader.reset();
  EXPECT_TRUE(first);  // new_reader started after its retirement: it cannot hold it
  EXPECT_FALSE(second);
  new_reader.reset();
  EXPECT_TRUE(second);
  EXPECT_EQ(reads.readers(), 0u);
  EXPECT_EQ(reads.retired(), 0u);
}

TEST(ConcurrentReadsTest, ReadersOfOneEpochAreCounted) {
  ConcurrentReads reads;
  bool freed = false;
  std::optional<ConcurrentReads::Reader> a(std::in_place, &reads);
  std::optional<ConcurrentReads::Reader> b(std::in_place, &reads);  // same epoch as a
  reads.Retire(Tracked(&freed));
  a.reset();
  EXPECT_FALSE(freed);  // b may still hold it
  b.reset();
  EXPECT_TRUE(freed);
}

}  // namespace
}  // namespace lws::runtime
