#include "api/identical_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace lws::api {
namespace {

TEST(IdenticalJsonTest, TypesAndOrderCount) {
  EXPECT_TRUE(IdenticalJson(Json::parse(R"({"a":[1,"x",null,{"b":true}]})"),
                            Json::parse(R"({"a":[1,"x",null,{"b":true}]})")));
  EXPECT_FALSE(IdenticalJson(Json(1), Json(1.0)));
  EXPECT_FALSE(IdenticalJson(Json::array({1, 2}), Json::array({2, 1})));
  EXPECT_FALSE(IdenticalJson(Json::object(), Json::array()));
  EXPECT_FALSE(IdenticalJson(Json::parse(R"({"a":1})"), Json::parse(R"({"a":1,"b":2})")));
}

}  // namespace
}  // namespace lws::api
