// Cases ported from k8s.io/kubernetes pkg/registry/core/pod/storage/eviction_test.go
// (TestEviction, TestEvictionIgnorePDB, TestEvictionDryRun, TestEvictionPDBStatus) and the
// selector rule of getPodDisruptionBudgets, over api::PlanEviction.
#include "api/eviction.h"

#include <gtest/gtest.h>

#include "api/disruption_budget.h"

namespace lws::api {
namespace {

const Time kNow = Time(std::chrono::seconds(1700000000));

Json Pod(const std::string& phase, bool ready) {
  Json pod = {
      {"metadata", {{"name", "foo"}, {"namespace", "default"}, {"labels", {{"a", "true"}}}}},
      {"status", {{"phase", phase}}}};
  pod["status"]["conditions"] = {{{"type", "Ready"}, {"status", ready ? "True" : "False"}}};
  return pod;
}

Json Budget(int allowed, int current, int desired, const std::string& policy = "") {
  Json budget = {{"metadata", {{"name", "foo"}, {"namespace", "default"}, {"generation", 1}}},
                 {"spec", {{"selector", {{"matchLabels", {{"a", "true"}}}}}}},
                 {"status",
                  {{"disruptionsAllowed", allowed},
                   {"currentHealthy", current},
                   {"desiredHealthy", desired},
                   {"expectedPods", current},
                   {"observedGeneration", 1}}}};
  if (!policy.empty()) budget["spec"]["unhealthyPodEvictionPolicy"] = policy;
  return budget;
}

TEST(EvictionTest, NoBudgetDeletesThePod) {
  EvictionPlan plan = PlanEviction(Pod("Running", true), {}, false, kNow);
  EXPECT_EQ(plan.action, EvictionPlan::Action::kDelete);
  EXPECT_FALSE(plan.budget_status.has_value());
}

// TestEviction "matching pdbs with no disruptions allowed".
TEST(EvictionTest, NoDisruptionAllowedIsTooManyRequests) {
  EvictionPlan plan = PlanEviction(Pod("Running", true), {Budget(0, 3, 3)}, false, kNow);
  ASSERT_EQ(plan.action, EvictionPlan::Action::kRefuse);
  EXPECT_EQ(plan.refusal.code(), Code::kTooManyRequests);
  EXPECT_EQ(plan.refusal.message(),
            "Cannot evict pod as it would violate the pod's disruption budget.");
  ASSERT_EQ(plan.refusal.causes().size(), 1u);
  EXPECT_EQ(plan.refusal.causes()[0].type, "DisruptionBudget");
  EXPECT_EQ(plan.refusal.causes()[0].message,
            "The disruption budget foo needs 3 healthy pods and has 3 currently");
}

// TestEviction "matching pdbs with disruptions allowed" and TestEvictionPDBStatus: one spent,
// the pod recorded, the condition flips when none is left.
TEST(EvictionTest, AllowedDisruptionIsSpentAndRecorded) {
  EvictionPlan plan = PlanEviction(Pod("Running", true), {Budget(1, 3, 2)}, false, kNow);
  ASSERT_EQ(plan.action, EvictionPlan::Action::kDelete);
  ASSERT_TRUE(plan.budget_status.has_value());
  EXPECT_EQ((*plan.budget_status)["disruptionsAllowed"], 0);
  EXPECT_EQ((*plan.budget_status)["disruptedPods"]["foo"], FormatRfc3339(kNow));
  const Json& condition = (*plan.budget_status)["conditions"][0];
  EXPECT_EQ(condition["type"], "DisruptionAllowed");
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], "InsufficientPods");

  EvictionPlan two_left = PlanEviction(Pod("Running", true), {Budget(2, 3, 1)}, false, kNow);
  EXPECT_EQ((*two_left.budget_status)["disruptionsAllowed"], 1);
  EXPECT_FALSE(two_left.budget_status->contains("conditions"));
}

// TestEvictionDryRun: the budget is checked, not spent.
TEST(EvictionTest, DryRunChecksWithoutSpending) {
  EvictionPlan plan = PlanEviction(Pod("Running", true), {Budget(1, 3, 2)}, true, kNow);
  EXPECT_EQ(plan.action, EvictionPlan::Action::kDelete);
  EXPECT_FALSE(plan.budget_status.has_value());
  EXPECT_EQ(PlanEviction(Pod("Running", true), {Budget(0, 3, 3)}, true, kNow).action,
            EvictionPlan::Action::kRefuse);
}

// TestEvictionIgnorePDB: pods that are not available are deleted without the budget.
TEST(EvictionTest, PendingSucceededFailedAndDeletingPodsIgnoreTheBudget) {
  for (const char* phase : {"Pending", "Succeeded", "Failed"}) {
    EvictionPlan plan = PlanEviction(Pod(phase, false), {Budget(0, 0, 3)}, false, kNow);
    EXPECT_EQ(plan.action, EvictionPlan::Action::kDelete) << phase;
    EXPECT_FALSE(plan.budget_status.has_value()) << phase;
    EXPECT_EQ(plan.require_pod_resource_version, std::string(phase) == "Pending") << phase;
  }
  Json deleting = Pod("Running", true);
  deleting["metadata"]["deletionTimestamp"] = "2023-11-14T22:13:20Z";
  EXPECT_EQ(PlanEviction(deleting, {Budget(0, 3, 3)}, false, kNow).action,
            EvictionPlan::Action::kDelete);
}

// TestEvictionIgnorePDB "pdbs with ... unhealthy pod": a not-ready pod of a met budget goes
// without spending it; of an unmet budget it is refused unless the policy is AlwaysAllow.
TEST(EvictionTest, UnreadyPodUnderMetBudgetOrAlwaysAllow) {
  EvictionPlan met = PlanEviction(Pod("Running", false), {Budget(0, 2, 2)}, false, kNow);
  EXPECT_EQ(met.action, EvictionPlan::Action::kDelete);
  EXPECT_TRUE(met.require_pod_resource_version);
  EXPECT_FALSE(met.budget_status.has_value());
  EXPECT_EQ(PlanEviction(Pod("Running", false), {Budget(0, 1, 2)}, false, kNow).action,
            EvictionPlan::Action::kRefuse);
  EXPECT_EQ(
      PlanEviction(Pod("Running", false), {Budget(0, 1, 2, "AlwaysAllow")}, false, kNow).action,
      EvictionPlan::Action::kDelete);
  EXPECT_EQ(
      PlanEviction(Pod("Running", false), {Budget(0, 1, 2, "IfHealthyBudget")}, false, kNow).action,
      EvictionPlan::Action::kRefuse);
}

TEST(EvictionTest, StaleBudgetStatusIsRetriedLater) {
  Json budget = Budget(1, 3, 2);
  budget["metadata"]["generation"] = 2;
  EvictionPlan plan = PlanEviction(Pod("Running", true), {budget}, false, kNow);
  ASSERT_EQ(plan.action, EvictionPlan::Action::kRefuse);
  EXPECT_EQ(plan.retry_after_seconds, 10);
  EXPECT_EQ(plan.refusal.causes()[0].message,
            "The disruption budget foo is still being processed by the server.");
}

TEST(EvictionTest, TwoBudgetsAreNotSupported) {
  Json second = Budget(1, 3, 2);
  second["metadata"]["name"] = "bar";
  EvictionPlan plan = PlanEviction(Pod("Running", true), {Budget(1, 3, 2), second}, false, kNow);
  ASSERT_EQ(plan.action, EvictionPlan::Action::kRefuse);
  EXPECT_EQ(plan.refusal.code(), Code::kInternal);
  EXPECT_EQ(plan.refusal.message(),
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does "
            "not support.");
}

TEST(EvictionTest, NegativeAllowanceIsForbidden) {
  EvictionPlan plan = PlanEviction(Pod("Running", true), {Budget(-1, 3, 2)}, false, kNow);
  ASSERT_EQ(plan.action, EvictionPlan::Action::kRefuse);
  EXPECT_EQ(plan.refusal.message(),
            "poddisruptionbudget.policy \"foo\" is forbidden: pdb disruptions allowed is negative");
}

// policy/v1: an empty selector covers every pod of the namespace, a missing one none, another
// namespace's budget nothing.
TEST(DisruptionBudgetTest, SelectorCoverage) {
  Json budget = Budget(1, 1, 1);
  EXPECT_TRUE(BudgetCoversPod(budget, Pod("Running", true)));
  budget["spec"]["selector"] = Json::object();
  EXPECT_TRUE(BudgetCoversPod(budget, Pod("Running", true)));
  budget["spec"].erase("selector");
  EXPECT_FALSE(BudgetCoversPod(budget, Pod("Running", true)));
  budget = Budget(1, 1, 1);
  budget["metadata"]["namespace"] = "other";
  EXPECT_FALSE(BudgetCoversPod(budget, Pod("Running", true)));
  budget = Budget(1, 1, 1);
  budget["spec"]["selector"]["matchLabels"]["a"] = "false";
  EXPECT_FALSE(BudgetCoversPod(budget, Pod("Running", true)));
}

// pkg/apis/policy/validation TestValidateMinAvailablePodDisruptionBudgetSpec and
// TestValidatePodDisruptionBudgetSpec.
TEST(DisruptionBudgetTest, Validation) {
  auto messages = [](const Json& spec) {
    std::vector<std::string> out;
    for (const FieldError& e : ValidatePodDisruptionBudgetSpec(spec, FieldPath("spec"))) {
      out.push_back(e.field + ": " + e.detail);
    }
    return out;
  };
  EXPECT_TRUE(messages({{"minAvailable", 1}}).empty());
  EXPECT_TRUE(messages({{"maxUnavailable", "50%"}}).empty());
  EXPECT_EQ(messages({{"minAvailable", 1}, {"maxUnavailable", 1}}),
            std::vector<std::string>{
                "spec.minAvailable: minAvailable and maxUnavailable cannot be both set"});
  EXPECT_EQ(messages({{"minAvailable", -1}}),
            std::vector<std::string>{"spec.minAvailable: must be greater than or equal to 0"});
  EXPECT_EQ(messages({{"maxUnavailable", "101%"}}),
            std::vector<std::string>{"spec.maxUnavailable: must not be greater than 100%"});
  EXPECT_EQ(messages({{"minAvailable", 1}, {"unhealthyPodEvictionPolicy", "Sometimes"}}).size(),
            1u);
}

}  // namespace
}  // namespace lws::api
