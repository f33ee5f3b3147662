// api::Json keeps each object as a sorted vector (base/flat_map.h) instead of nlohmann's
// default std::map. These tests pin that nothing a reader can see changed: parsing, the member
// order of every dump, equality and ordering, and edits, against nlohmann::json itself.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "api/field.h"

namespace lws::api {
namespace {

// JSON text whose objects list their keys in any order, some of them twice.
rc::Gen<std::string> GenText(int depth) {
  const auto key = rc::gen::elementOf(
      std::vector<std::string>{"", "a", "b", "ab", "B", "kind", "z\\u00e9", "1"});
  auto scalar = rc::gen::elementOf(
      std::vector<std::string>{"null", "true", "0", "-1", "2.5", "\"s\"", "\"\""});
  if (depth == 0) return scalar;
  auto members = rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
      rc::gen::pair(key, GenText(depth - 1)));
  auto object =
      rc::gen::map(members, [](const std::vector<std::pair<std::string, std::string>>& m) {
        std::string out = "{";
        for (std::size_t i = 0; i < m.size(); ++i) {
          out += (i > 0 ? ",\"" : "\"") + m[i].first + "\":" + m[i].second;
        }
        return out + "}";
      });
  auto array = rc::gen::map(rc::gen::container<std::vector<std::string>>(GenText(depth - 1)),
                            [](const std::vector<std::string>& items) {
                              std::string out = "[";
                              for (std::size_t i = 0; i < items.size(); ++i)
                                out += (i > 0 ? "," : "") + items[i];
                              return out + "]";
                            });
  return rc::gen::oneOf(scalar, object, array);
}

TEST(JsonObject, DumpsMembersInKeyOrderWhateverTheInsertOrder) {
  Json j;
  j["spec"] = 1;
  j["apiVersion"] = "v1";
  j["metadata"]["name"] = "x";
  j["kind"] = "Pod";
  EXPECT_EQ(j.dump(), R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":1})");
  EXPECT_EQ(j, Json::parse(R"({"spec":1,"metadata":{"name":"x"},"kind":"Pod","apiVersion":"v1"})"));
}

TEST(JsonObject, ALaterDuplicateKeyWinsAsBefore) {
  EXPECT_EQ(Json::parse(R"({"a":1,"b":2,"a":3})").dump(), R"({"a":3,"b":2})");
}

RC_GTEST_PROP(JsonObjectProperty, ParsesDumpsAndComparesAsNlohmannJson, ()) {
  const std::string a = *rc::gen::resize(10, GenText(3));
  const std::string b = *rc::gen::resize(10, GenText(3));
  const Json flat_a = Json::parse(a), flat_b = Json::parse(b);
  const nlohmann::json tree_a = nlohmann::json::parse(a), tree_b = nlohmann::json::parse(b);
  RC_ASSERT(flat_a.dump() == tree_a.dump());
  RC_ASSERT((flat_a == flat_b) == (tree_a == tree_b));
  RC_ASSERT((flat_a < flat_b) == (tree_a < tree_b));
  RC_ASSERT(Json::diff(flat_a, flat_b).dump() == nlohmann::json::diff(tree_a, tree_b).dump());
}

RC_GTEST_PROP(JsonObjectProperty, EditsLeaveWhatTheyLeaveInNlohmannJson, ()) {
  const std::string text = *rc::gen::resize(10, GenText(3));
  Json flat = Json::parse(text);
  nlohmann::json tree = nlohmann::json::parse(text);
  if (!flat.is_object()) return;
  const auto edits = *rc::gen::container<std::vector<std::pair<int, std::string>>>(rc::gen::pair(
      rc::gen::inRange(0, 3), rc::gen::elementOf(std::vector<std::string>{"a", "b", "c", "kind"})));
  for (const auto& [op, key] : edits) {
    if (op == 0) {
      flat[key] = key;
      tree[key] = key;
    } else if (op == 1) {
      RC_ASSERT(flat.erase(key) == tree.erase(key));
    } else {
      flat.merge_patch(Json{{key, Json::object({{"x", 1}})}});
      tree.merge_patch(nlohmann::json{{key, nlohmann::json::object({{"x", 1}})}});
    }
  }
  RC_ASSERT(flat.dump() == tree.dump());
}

}  // namespace
}  // namespace lws::api
