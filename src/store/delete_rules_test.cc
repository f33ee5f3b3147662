#include <gtest/gtest.h>

#include "store/object_rules.h"
#include "store/store_testing.h"

namespace lws::store {
namespace {

using testing::ConfigMaps;
using testing::Pods;
using testing::StatefulSets;
using Action = DeletePlan::Action;

const Time kNow = Time(std::chrono::seconds(1'700'000'000));
const std::string kNowText = "2023-11-14T22:13:20Z";

Json Stored(Json object) {
  object["metadata"]["uid"] = "u-1";
  object["metadata"]["resourceVersion"] = "7";
  return object;
}

Json Finalizers(const Json& object) {
  return object["metadata"].value("finalizers", Json::array());
}

TEST(ParseDeleteOptionsTest, ReadsWhatKubectlSends) {
  auto options = ParseDeleteOptions(Json::parse(
      R"({"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground",
          "gracePeriodSeconds":0,"dryRun":["All"],
          "preconditions":{"uid":"u","resourceVersion":"3"}})"));
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->propagation_policy, "Foreground");
  EXPECT_EQ(options->grace_period_seconds, 0);
  EXPECT_TRUE(options->dry_run);
  EXPECT_EQ(options->precondition_uid, "u");
  EXPECT_EQ(options->precondition_resource_version, "3");
  EXPECT_TRUE(ParseDeleteOptions(nullptr).ok());
  EXPECT_TRUE(ParseDeleteOptions(Json::object()).ok());
}

TEST(ParseDeleteOptionsTest, Errors) {
  struct Case {
    std::string body;
    Code code;
    std::string message;
  };
  std::vector<Case> cases = {
      {R"({"propagationPolicy":"Sideways"})", Code::kInvalid,
       "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: "
       "\"Sideways\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""},
      {R"({"propagationPolicy":"Orphan","orphanDependents":true})", Code::kInvalid,
       "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Orphan\": "
       "orphanDependents and deletionPropagation cannot be both set"},
      {R"({"dryRun":["Some"]})", Code::kInvalid,
       "DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Some\"}: "
       "supported values: \"All\""},
      {R"({"gracePeriodSeconds":"5"})", Code::kBadRequest, ""},
      {R"({"preconditions":{"uid":5}})", Code::kBadRequest, ""},
      {R"([1])", Code::kBadRequest, ""},
  };
  for (const auto& c : cases) {
    auto options = ParseDeleteOptions(Json::parse(c.body));
    ASSERT_FALSE(options.ok()) << c.body;
    EXPECT_EQ(options.status().code(), c.code) << c.body;
    if (!c.message.empty()) {
      EXPECT_EQ(options.status().message(), c.message);
    }
  }
}

TEST(PlanDeleteTest, PropagationPolicyFinalizers) {
  struct Case {
    std::string name;
    Json existing_finalizers;
    DeleteOptions options;
    Action action;
    Json finalizers;
  };
  DeleteOptions background, foreground, orphan, legacy_orphan, legacy_keep;
  background.propagation_policy = "Background";
  foreground.propagation_policy = "Foreground";
  orphan.propagation_policy = "Orphan";
  legacy_orphan.orphan_dependents = true;
  legacy_keep.orphan_dependents = false;
  std::vector<Case> cases = {
      {"no policy, no finalizers", Json::array(), {}, Action::kDelete, Json::array()},
      {"background", Json::array(), background, Action::kDelete, Json::array()},
      {"foreground", Json::array(), foreground, Action::kUpdate, {"foregroundDeletion"}},
      {"orphan", Json::array(), orphan, Action::kUpdate, {"orphan"}},
      {"orphanDependents=true", Json::array(), legacy_orphan, Action::kUpdate, {"orphan"}},
      {"orphanDependents=false", {"orphan"}, legacy_keep, Action::kDelete, Json::array()},
      {"custom finalizer kept", {"x/y"}, background, Action::kUpdate, {"x/y"}},
      {"foreground replaces orphan",
       {"x/y", "orphan"},
       foreground,
       Action::kUpdate,
       {"x/y", "foregroundDeletion"}},
      {"existing orphan finalizer wins without policy",
       {"orphan"},
       {},
       Action::kUpdate,
       {"orphan"}},
  };
  for (const auto& c : cases) {
    Json cm = Stored(testing::ConfigMap("c"));
    if (!c.existing_finalizers.empty()) cm["metadata"]["finalizers"] = c.existing_finalizers;
    auto plan = PlanDelete(ConfigMaps(), cm, c.options, kNow);
    ASSERT_TRUE(plan.ok()) << c.name;
    EXPECT_EQ(plan->action, c.action) << c.name;
    EXPECT_EQ(Finalizers(plan->object), c.finalizers) << c.name;
    if (c.action == Action::kUpdate) {
      EXPECT_EQ(plan->object["metadata"]["deletionTimestamp"], kNowText) << c.name;
      EXPECT_EQ(plan->object["metadata"]["deletionGracePeriodSeconds"], 0) << c.name;
    }
  }
}

TEST(PlanDeleteTest, GenerationMovesOnceWhenDeletionStarts) {
  Json sts = Stored(testing::StatefulSet("s"));
  sts["metadata"]["generation"] = 3;
  sts["metadata"]["finalizers"] = {"keep"};
  auto first = PlanDelete(StatefulSets(), sts, {}, kNow);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->object["metadata"]["generation"], 4);
  auto again = PlanDelete(StatefulSets(), first->object, {}, kNow + std::chrono::seconds(5));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->action, Action::kUpdate);
  EXPECT_EQ(again->object, first->object) << "a repeated DELETE changes nothing";
}

TEST(PlanDeleteTest, Preconditions) {
  Json cm = Stored(testing::ConfigMap("c"));
  DeleteOptions uid;
  uid.precondition_uid = "other";
  auto plan = PlanDelete(ConfigMaps(), cm, uid, kNow);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), Code::kConflict);
  EXPECT_EQ(plan.status().message(),
            "Operation cannot be fulfilled on ConfigMap \"c\": the UID in the precondition (other) "
            "does not match the UID in record (u-1). The object might have been deleted and then "
            "recreated");
  DeleteOptions rv;
  rv.precondition_resource_version = "6";
  plan = PlanDelete(ConfigMaps(), cm, rv, kNow);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "Operation cannot be fulfilled on ConfigMap \"c\": the ResourceVersion in the "
            "precondition (6) does not match the ResourceVersion in record (7). The object might "
            "have been modified");
  rv.precondition_resource_version = "7";
  uid.precondition_uid = "u-1";
  EXPECT_TRUE(PlanDelete(ConfigMaps(), cm, rv, kNow).ok());
  EXPECT_TRUE(PlanDelete(ConfigMaps(), cm, uid, kNow).ok());
}

TEST(PlanDeleteTest, GracefulPods) {
  struct Case {
    std::string name;
    std::function<void(Json&)> setup;
    std::optional<std::int64_t> grace;
    Action action;
    std::string deletion_timestamp;  // "" = absent
    std::optional<std::int64_t> grace_recorded;
  };
  auto bound = [](Json& p) { p["spec"]["nodeName"] = "n1"; };
  std::vector<Case> cases = {
      {"bound, default 30 s", bound, std::nullopt, Action::kUpdate, "2023-11-14T22:13:50Z", 30},
      {"bound, spec grace",
       [&](Json& p) {
         bound(p);
         p["spec"]["terminationGracePeriodSeconds"] = 5;
       },
       std::nullopt, Action::kUpdate, "2023-11-14T22:13:25Z", 5},
      {"bound, option grace", bound, 10, Action::kUpdate, "2023-11-14T22:13:30Z", 10},
      {"bound, negative grace is 1", bound, -3, Action::kUpdate, "2023-11-14T22:13:21Z", 1},
      {"bound, grace 0 (--force)", bound, 0, Action::kDelete, kNowText, 0},
      {"unbound goes at once", [](Json&) {}, 30, Action::kDelete, kNowText, 0},
      {"succeeded goes at once",
       [&](Json& p) {
         bound(p);
         p["status"] = {{"phase", "Succeeded"}};
       },
       std::nullopt, Action::kDelete, kNowText, 0},
      {"failed goes at once",
       [&](Json& p) {
         bound(p);
         p["status"] = {{"phase", "Failed"}};
       },
       std::nullopt, Action::kDelete, kNowText, 0},
  };
  for (const auto& c : cases) {
    Json pod = Stored(testing::Pod("p"));
    c.setup(pod);
    DeleteOptions options;
    options.grace_period_seconds = c.grace;
    auto plan = PlanDelete(Pods(), pod, options, kNow);
    ASSERT_TRUE(plan.ok()) << c.name;
    EXPECT_EQ(plan->action, c.action) << c.name;
    EXPECT_EQ(MetaString(plan->object, "deletionTimestamp"), c.deletion_timestamp) << c.name;
    EXPECT_EQ(plan->object["metadata"].value("deletionGracePeriodSeconds", std::int64_t{-99}),
              c.grace_recorded.value_or(-99))
        << c.name;
  }
}

TEST(PlanDeleteTest, PendingGracefulDeletionOnlyShortens) {
  Json pod = Stored(testing::Pod("p"));
  pod["spec"]["nodeName"] = "n1";
  auto first = PlanDelete(Pods(), pod, {}, kNow);
  ASSERT_TRUE(first.ok());
  const Json deleting = first->object;

  DeleteOptions longer;
  longer.grace_period_seconds = 60;
  EXPECT_EQ(PlanDelete(Pods(), deleting, longer, kNow)->action, Action::kKeep);
  EXPECT_EQ(PlanDelete(Pods(), deleting, {}, kNow)->action, Action::kKeep);
  DeleteOptions orphan;
  orphan.propagation_policy = "Orphan";
  EXPECT_EQ(PlanDelete(Pods(), deleting, orphan, kNow)->action, Action::kKeep)
      << "finalizers cannot change through DeleteOptions once graceful deletion is pending";

  DeleteOptions shorter;
  shorter.grace_period_seconds = 10;
  auto shortened = PlanDelete(Pods(), deleting, shorter, kNow);
  ASSERT_TRUE(shortened.ok());
  EXPECT_EQ(shortened->action, Action::kUpdate);
  EXPECT_EQ(MetaString(shortened->object, "deletionTimestamp"), "2023-11-14T22:13:30Z");
  EXPECT_EQ(shortened->object["metadata"]["deletionGracePeriodSeconds"], 10);

  DeleteOptions now;
  now.grace_period_seconds = 0;
  auto gone = PlanDelete(Pods(), deleting, now, kNow);
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(gone->action, Action::kDelete);

  Json with_finalizer = deleting;
  with_finalizer["metadata"]["finalizers"] = {"x/y"};
  EXPECT_EQ(PlanDelete(Pods(), with_finalizer, now, kNow)->action, Action::kUpdate)
      << "finalizers keep the pod after its grace period";
}

}  // namespace
}  // namespace lws::store
