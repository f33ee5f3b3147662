#include "api/revision_cache.h"

#include <gtest/gtest.h>

namespace lws::api {
namespace {

RevisionMatchCache::Key KeyOf(const std::string& resource_version, std::int64_t generation = 1) {
  return {"uid-1", generation, resource_version};
}

TEST(RevisionMatchCacheTest, RemembersAddedKeysOnly) {
  RevisionMatchCache cache(4);
  EXPECT_EQ(cache.capacity(), 4u);
  EXPECT_FALSE(cache.Lookup(KeyOf("1")));
  cache.Add(KeyOf("1"));
  EXPECT_TRUE(cache.Lookup(KeyOf("1")));
  EXPECT_FALSE(cache.Lookup(KeyOf("1", 2)));      // another generation
  EXPECT_FALSE(cache.Lookup({"uid-2", 1, "1"}));  // another LWS
  cache.Add(KeyOf("1"));
  EXPECT_EQ(cache.size(), 1u);
}

TEST(RevisionMatchCacheTest, EvictsLeastRecentlyUsed) {
  RevisionMatchCache cache(2);
  cache.Add(KeyOf("a"));
  cache.Add(KeyOf("b"));
  EXPECT_TRUE(cache.Lookup(KeyOf("a")));  // "b" is now the least recently used
  cache.Add(KeyOf("c"));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_TRUE(cache.Lookup(KeyOf("a")));
  EXPECT_FALSE(cache.Lookup(KeyOf("b")));
  EXPECT_TRUE(cache.Lookup(KeyOf("c")));
  cache.Add(KeyOf("a"));  // re-adding refreshes instead of duplicating
  cache.Add(KeyOf("d"));
  EXPECT_FALSE(cache.Lookup(KeyOf("c")));
  EXPECT_TRUE(cache.Lookup(KeyOf("a")));
  EXPECT_TRUE(cache.Lookup(KeyOf("d")));
}

TEST(RevisionMatchCacheTest, CapacityOneKeepsNewest) {
  RevisionMatchCache cache(1);
  cache.Add(KeyOf("a"));
  cache.Add(KeyOf("b"));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_FALSE(cache.Lookup(KeyOf("a")));
  EXPECT_TRUE(cache.Lookup(KeyOf("b")));
}

TEST(RevisionMatchCacheDeathTest, ZeroCapacityIsAProgrammerError) {
  EXPECT_DEATH(RevisionMatchCache(0), "positive capacity");
}

}  // namespace
}  // namespace lws::api
