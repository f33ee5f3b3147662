// The planner against upstream's tables: every TestComputeAllSteps_ExactSequence case of
// kubernetes-sigs/lws pkg/controllers/disaggregatedset/planner_test.go and the e2e "Rolling
// Update Step Tracking" steps (test/e2e/disaggregatedset/e2e_test.go), transcribed in
// testdata/disaggregatedset/planner_batch_cases.json.
#include "controllers/disaggregatedset/planner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "testdata/testdata_dir.h"

namespace lws::disaggregatedset {
namespace {

using Json = nlohmann::json;

Json Cases() {
  std::ifstream in(TestdataDir() + "/disaggregatedset/planner_batch_cases.json");
  return Json::parse(in);
}

std::string Show(const std::vector<UpdateStep>& steps) {
  std::string out;
  for (const UpdateStep& s : steps) {
    out += "{";
    for (std::size_t i = 0; i < s.old.size(); ++i) out += (i ? "," : "") + std::to_string(s.old[i]);
    out += "/";
    for (std::size_t i = 0; i < s.new_.size(); ++i) {
      out += (i ? "," : "") + std::to_string(s.new_[i]);
    }
    out += "} ";
  }
  return out;
}

std::vector<UpdateStep> Expected(const Json& c) {
  std::vector<UpdateStep> steps;
  for (const Json& s : c.at("steps")) {
    steps.push_back({s.at(0).get<std::vector<int>>(), s.at(1).get<std::vector<int>>()});
  }
  return steps;
}

std::vector<RoleRollout> Rollout(const Json& c) {
  std::vector<RoleRollout> out;
  for (const Json& r : c.at("config")) out.push_back({r.at(0).get<int>(), r.at(1).get<int>()});
  return out;
}

void CheckTable(const char* table) {
  const Json cases = Cases().at(table);
  ASSERT_FALSE(cases.empty());
  for (const Json& c : cases) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    std::vector<UpdateStep> got = AllSteps(c.at("initialOld").get<std::vector<int>>(),
                                           c.at("target").get<std::vector<int>>(), Rollout(c));
    EXPECT_EQ(Show(got), Show(Expected(c)));
  }
}

TEST(DisaggregatedSetPlannerTest, UpstreamExactSequences) { CheckTable("exact_sequence"); }

TEST(DisaggregatedSetPlannerTest, UpstreamEndToEndSteps) { CheckTable("e2e_plan_steps"); }

}  // namespace
}  // namespace lws::disaggregatedset
