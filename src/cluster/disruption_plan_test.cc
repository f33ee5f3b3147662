// Cases ported from k8s.io/kubernetes pkg/controller/disruption/disruption_test.go: TestNoSelector,
// TestUnavailable, TestIntegerMaxUnavailable, TestIntegerMaxUnavailableWithScaling,
// TestPercentageMaxUnavailableWithScaling, TestNakedPod, TestReplicaSet,
// TestReplicationController (its rogue unmanaged pod), TestStatefulSetController and
// TestUpdateDisruptedPods, over PlanBudgetStatus. VerifyPdbStatus(allowed, currentHealthy,
// desiredHealthy, expectedPods) reads as the Expect helper below.
#include "cluster/disruption_plan.h"

#include <gtest/gtest.h>

#include <deque>

namespace lws::cluster {
namespace {

const Time kNow = Time(std::chrono::seconds(1700000000));

Json Budget(const char* key, Json value) {
  return {{"metadata", {{"name", "pdb"}, {"namespace", "default"}, {"generation", 1}}},
          {"spec", {{key, value}, {"selector", {{"matchLabels", {{"foo", "bar"}}}}}}},
          {"status", Json::object()}};
}

class Pods {
 public:
  // A pod of controller `uid` (scale `scale`); uid "" is unmanaged, "?" a controller not found.
  CoveredPod& Add(const std::string& name, const std::string& uid = "", int scale = 0,
                  bool ready = true) {
    Json pod = {{"metadata", {{"name", name}, {"namespace", "default"}}}};
    pod["status"]["conditions"] = {{{"type", "Ready"}, {"status", ready ? "True" : "False"}}};
    json_.push_back(std::move(pod));
    CoveredPod covered;
    covered.pod = &json_.back();
    if (uid == "?") {
      covered.controller = CoveredPod::Controller::kNotFound;
    } else if (!uid.empty()) {
      covered.controller = CoveredPod::Controller::kFound;
      covered.controller_uid = uid;
      covered.controller_scale = scale;
    }
    covered_.push_back(covered);
    return covered_.back();
  }
  Json& Last() { return json_.back(); }
  const std::vector<CoveredPod>& covered() const { return covered_; }
  void SetScale(int scale) {
    for (CoveredPod& pod : covered_) pod.controller_scale = scale;
  }

 private:
  std::deque<Json> json_;  // stable addresses
  std::vector<CoveredPod> covered_;
};

void Expect(const BudgetStatusPlan& plan, int allowed, int healthy, int desired, int expected) {
  EXPECT_EQ(plan.status["disruptionsAllowed"], allowed);
  EXPECT_EQ(plan.status["currentHealthy"], healthy);
  EXPECT_EQ(plan.status["desiredHealthy"], desired);
  EXPECT_EQ(plan.status["expectedPods"], expected);
  EXPECT_EQ(plan.status["observedGeneration"], 1);
}

TEST(DisruptionPlanTest, HealthyCountFollowsReadiness) {  // TestNoSelector, TestUnavailable
  Json budget = Budget("minAvailable", 3);
  Pods pods;
  BudgetStatusPlan plan = PlanBudgetStatus(budget, pods.covered(), kNow);
  Expect(plan, 0, 0, 3, 0);
  EXPECT_EQ(plan.events.at(0).reason, "NoPods");
  for (int i = 0; i < 4; ++i) pods.Add("pod-" + std::to_string(i));
  plan = PlanBudgetStatus(budget, pods.covered(), kNow);
  Expect(plan, 1, 4, 3, 4);
  EXPECT_EQ(plan.status["conditions"][0]["status"], "True");
  EXPECT_EQ(plan.status["conditions"][0]["reason"], "SufficientPods");
  pods.Last()["status"]["conditions"][0]["status"] = "False";
  Expect(PlanBudgetStatus(budget, pods.covered(), kNow), 0, 3, 3, 4);
}

TEST(DisruptionPlanTest, IntegerMaxUnavailableNeedsControllers) {  // TestIntegerMaxUnavailable
  Pods pods;
  pods.Add("naked");
  BudgetStatusPlan plan = PlanBudgetStatus(Budget("maxUnavailable", 1), pods.covered(), kNow);
  EXPECT_EQ(plan.status["disruptionsAllowed"], 0);
  EXPECT_EQ(plan.events.at(0).reason, "UnmanagedPods");
}

TEST(DisruptionPlanTest, MaxUnavailableFollowsTheControllerScale) {
  // TestIntegerMaxUnavailableWithScaling and TestPercentageMaxUnavailableWithScaling.
  Pods pods;
  pods.Add("pod", "rs", 7);
  Expect(PlanBudgetStatus(Budget("maxUnavailable", 2), pods.covered(), kNow), 0, 1, 5, 7);
  Expect(PlanBudgetStatus(Budget("maxUnavailable", "30%"), pods.covered(), kNow), 0, 1, 4, 7);
  pods.SetScale(5);
  Expect(PlanBudgetStatus(Budget("maxUnavailable", 2), pods.covered(), kNow), 0, 1, 3, 5);
  pods.SetScale(3);
  Expect(PlanBudgetStatus(Budget("maxUnavailable", "30%"), pods.covered(), kNow), 0, 1, 2, 3);
}

TEST(DisruptionPlanTest,
     PercentagesOfBareReplicaSetsAndNakedPods) {  // TestReplicaSet, TestNakedPod
  Pods pods;
  pods.Add("pod", "rs", 10);
  Expect(PlanBudgetStatus(Budget("minAvailable", "20%"), pods.covered(), kNow), 0, 1, 2, 10);
  Pods naked;
  naked.Add("naked");
  EXPECT_EQ(PlanBudgetStatus(Budget("minAvailable", "28%"), naked.covered(), kNow)
                .status["disruptionsAllowed"],
            0);
}

// TestReplicationController / TestStatefulSetController: 34% of 3 rounds up to 2; a rogue pod
// without a controller is healthy but adds no scale.
TEST(DisruptionPlanTest, ControllerPodsThenARoguePod) {
  Json budget = Budget("minAvailable", "34%");
  Pods pods;
  pods.Add("foobar-0", "sts", 3);
  Expect(PlanBudgetStatus(budget, pods.covered(), kNow), 0, 1, 2, 3);
  pods.Add("foobar-1", "sts", 3);
  Expect(PlanBudgetStatus(budget, pods.covered(), kNow), 0, 2, 2, 3);
  pods.Add("foobar-2", "sts", 3);
  Expect(PlanBudgetStatus(budget, pods.covered(), kNow), 1, 3, 2, 3);
  pods.Add("rogue");
  EXPECT_EQ(PlanBudgetStatus(budget, pods.covered(), kNow).status["disruptionsAllowed"], 2);
}

TEST(DisruptionPlanTest, ControllerNotFoundFailsSafe) {
  Json budget = Budget("maxUnavailable", 1);
  budget["status"] = {{"disruptionsAllowed", 2}, {"currentHealthy", 3}};
  Pods pods;
  pods.Add("orphan", "?");
  BudgetStatusPlan plan = PlanBudgetStatus(budget, pods.covered(), kNow);
  EXPECT_EQ(plan.status["disruptionsAllowed"], 0);
  EXPECT_EQ(plan.status["currentHealthy"], 3);
  EXPECT_EQ(plan.status["conditions"][0]["reason"], "SyncFailed");
  EXPECT_EQ(plan.status["conditions"][0]["message"], "found no controllers for pod \"orphan\"");
  EXPECT_TRUE(plan.changed);
}

// TestUpdateDisruptedPods: a granted eviction keeps its pod out of the count for two minutes;
// past that the entry goes (with a NotDeleted event) and the pod counts again.
TEST(DisruptionPlanTest, DisruptedPodsExpireAfterTwoMinutes) {
  Json budget = Budget("minAvailable", 1);
  Pods pods;
  pods.Add("p1", "rs", 2);
  pods.Add("p2", "rs", 2);
  budget["status"]["disruptedPods"] = {{"p1", FormatRfc3339(kNow - std::chrono::seconds(30))}};
  BudgetStatusPlan plan = PlanBudgetStatus(budget, pods.covered(), kNow);
  Expect(plan, 0, 1, 1, 2);
  EXPECT_TRUE(plan.status["disruptedPods"].contains("p1"));
  ASSERT_TRUE(plan.recheck.has_value());
  EXPECT_EQ(*plan.recheck, kNow + std::chrono::seconds(90));
  plan = PlanBudgetStatus(budget, pods.covered(), kNow + std::chrono::minutes(3));
  Expect(plan, 1, 2, 1, 2);
  EXPECT_FALSE(plan.status.contains("disruptedPods"));
  ASSERT_EQ(plan.events.size(), 1u);
  EXPECT_EQ(plan.events[0].reason, "NotDeleted");
  EXPECT_EQ(plan.events[0].pod, "p1");
}

TEST(DisruptionPlanTest, UnchangedStatusIsNotRewritten) {
  Json budget = Budget("minAvailable", 1);
  Pods pods;
  pods.Add("p1", "rs", 1);
  BudgetStatusPlan first = PlanBudgetStatus(budget, pods.covered(), kNow);
  EXPECT_TRUE(first.changed);
  budget["status"] = first.status;
  BudgetStatusPlan again = PlanBudgetStatus(budget, pods.covered(), kNow + std::chrono::hours(1));
  EXPECT_FALSE(again.changed);
}

}  // namespace
}  // namespace lws::cluster
