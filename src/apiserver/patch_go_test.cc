#include "apiserver/patch_go.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "api/json_depth.h"

namespace lws::apiserver::internal {
namespace {

TEST(PatchGoTest, SprintLikeFmt) {
  const std::pair<const char*, const char*> v_cases[] = {
      {R"({"b":"x","a":1,"c":[true,null,{}]})", "map[a:1 b:x c:[true <nil> map[]]]"},
      {R"([])", "[]"},
      {R"("s p")", "s p"},
      {"1.5", "1.5"},
      {"1000000.0", "1e+06"},
      {"123456.0", "123456"},
      {"0.0001", "0.0001"},
      {"0.00001", "1e-05"},
      {"-2.5e-7", "-2.5e-07"},
      {"1234567.0", "1.234567e+06"},
      {"18446744073709551615", "1.8446744073709552e+19"},
      {"-7", "-7"},
  };
  for (const auto& [json, want] : v_cases) {
    SCOPED_TRACE(json);
    EXPECT_EQ(GoSprintV(Json::parse(json)), want);
  }
  EXPECT_EQ(GoSprintS(Json::parse(R"({"$patch":1,"k":"v","n":null,"t":true,"f":0.5})")),
            "map[$patch:%!s(int64=1) f:%!s(float64=0.5) k:v n:%!s(<nil>) t:%!s(bool=true)]");
  EXPECT_EQ(GoSprintS(Json("foo")), "foo");
}

TEST(PatchGoTest, TypesAndEquality) {
  EXPECT_EQ(GoTypeName(Json(1)), "int64");
  EXPECT_EQ(GoTypeName(Json(1.0)), "float64");
  EXPECT_EQ(GoTypeName(Json::object()), "map[string]interface {}");
  EXPECT_EQ(GoTypeName(Json::array()), "[]interface {}");
  EXPECT_EQ(GoTypeName(Json()), "%!s(<nil>)");
  EXPECT_TRUE(GoEqual(Json(1), Json(1u)));
  EXPECT_FALSE(GoEqual(Json(1), Json(1.0)));  // int64(1) != float64(1)
  EXPECT_FALSE(GoEqual(Json("1"), Json(1)));
  EXPECT_TRUE(GoEqual(Json(), Json()));
  EXPECT_FALSE(GoEqual(Json::object(), Json("x")));  // different types never panic
  EXPECT_THROW(GoEqual(Json::object(), Json::object()), GoPanic);
  EXPECT_THROW(GoEqual(Json::array(), Json::array()), GoPanic);
  EXPECT_THROW(RequireHashable(Json::array()), GoPanic);
  EXPECT_NO_THROW(RequireHashable(Json("x")));
}

TEST(PatchGoTest, DepthCheck) {
  Json v = 1;
  for (int i = 0; i < api::kMaxJsonDepth; ++i) v = Json::array({std::move(v)});
  EXPECT_EQ(api::JsonDepthError(v), "");
  v = Json::array({std::move(v)});
  EXPECT_EQ(api::JsonDepthError(v), "invalid character '[' exceeded max depth");
}

// With an inconsistent less (always true), Go's insertion sort moves each element to the front,
// reversing blocks of up to 20 elements; longer inputs go through SymMerge as in Go.
TEST(PatchGoTest, SliceStableWithAlwaysTrueLess) {
  std::vector<Json> items;
  for (int i = 0; i < 5; ++i) items.push_back(i);
  GoSliceStable(items, [](const Json&, const Json&) { return true; });
  EXPECT_EQ(Json(items), Json::parse("[4,3,2,1,0]"));
}

RC_GTEST_PROP(PatchGoProp, SliceStableSortsLikeStableSort, (std::vector<std::pair<int, int>> in)) {
  std::vector<Json> items;
  for (const auto& [key, tag] : in) items.push_back(Json::array({key % 7, tag}));
  auto less = [](const Json& a, const Json& b) { return a[0].get<int>() < b[0].get<int>(); };
  std::vector<Json> want = items;
  std::stable_sort(want.begin(), want.end(), less);
  GoSliceStable(items, less);
  RC_ASSERT(Json(items) == Json(want));
}

}  // namespace
}  // namespace lws::apiserver::internal
