#include "base/flat_map.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lws::base {
namespace {

using Map = FlatMap<std::string, int>;

std::vector<std::pair<std::string, int>> Items(const Map& map) { return {map.begin(), map.end()}; }
std::vector<std::pair<std::string, int>> Items(const std::map<std::string, int>& map) {
  return {map.begin(), map.end()};
}

TEST(FlatMap, KeepsKeysInStdMapOrder) {
  Map map;
  for (const char* key : {"spec", "apiVersion", "status", "kind", "metadata", "Z", ""})
    map[key] = 1;
  std::vector<std::string> keys;
  for (const auto& [key, value] : map) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"", "Z", "apiVersion", "kind", "metadata", "spec",
                                            "status"}));
}

TEST(FlatMap, LooksUpByAnyStringLikeKey) {
  Map map{{"b", 2}, {"a", 1}};
  EXPECT_EQ(map.at(std::string_view("a")), 1);
  EXPECT_EQ(map.find("b")->second, 2);
  EXPECT_EQ(map.count(std::string("c")), 0u);
  EXPECT_THROW(map.at("c"), std::out_of_range);
  EXPECT_EQ(map.erase("a"), 1u);
  EXPECT_EQ(map.erase("a"), 0u);
  EXPECT_EQ(Items(map), (std::vector<std::pair<std::string, int>>{{"b", 2}}));
}

TEST(FlatMap, EmplaceKeepsTheFirstValueLikeStdMap) {
  Map map{{"a", 1}, {"a", 2}};
  EXPECT_EQ(map.at("a"), 1);
  EXPECT_FALSE(map.emplace("a", 3).second);
  EXPECT_EQ(map.at("a"), 1);
  EXPECT_TRUE(map.emplace("b", 3).second);
}

TEST(FlatMap, EraseReturnsTheNextMember) {
  Map map{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}};
  auto it = map.erase(map.find("b"));
  EXPECT_EQ(it->first, "c");
  it = map.erase(map.begin(), map.find("d"));
  EXPECT_EQ(it->first, "d");
  EXPECT_EQ(map.size(), 1u);
}

// Any sequence of inserts, assignments and erases leaves the same members, in the same order,
// as std::map.
RC_GTEST_PROP(FlatMapProperty, BehavesAsStdMap, ()) {
  const auto ops = *rc::gen::container<std::vector<std::pair<int, int>>>(
      rc::gen::pair(rc::gen::inRange(0, 4), rc::gen::inRange(0, 30)));
  Map flat;
  std::map<std::string, int> tree;
  for (const auto& [op, n] : ops) {
    const std::string key = std::string(static_cast<std::size_t>(n % 5), 'k') + std::to_string(n);
    switch (op) {
      case 0:
        RC_ASSERT(flat.emplace(key, n).second == tree.emplace(key, n).second);
        break;
      case 1:
        flat[key] += n;
        tree[key] += n;
        break;
      case 2:
        RC_ASSERT(flat.erase(key) == tree.erase(key));
        break;
      default:
        RC_ASSERT((flat.find(key) == flat.end()) == (tree.find(key) == tree.end()));
    }
  }
  RC_ASSERT(Items(flat) == Items(tree));
  RC_ASSERT(Items(Map(tree.rbegin(), tree.rend())) == Items(tree));
}

}  // namespace
}  // namespace lws::base
