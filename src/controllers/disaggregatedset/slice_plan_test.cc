// The slice plan (slice_plan.h) driven reconcile by reconcile over an in-memory slice, as the
// controller drives it: after each reconcile its writes are applied and the new revision's
// LeaderWorkerSets become ready. Every upstream planner table that a DisaggregatedSet can
// express (testdata/disaggregatedset/planner_batch_cases.json; upstream
// pkg/controllers/disaggregatedset/planner_test.go TestComputeAllSteps_ExactSequence and
// test/e2e/disaggregatedset/e2e_test.go "Rolling Update Step Tracking") must come out step for
// step: the executor adds the start, the stability gate and the coordinated drain around the
// planner and may not change its arithmetic.
#include "controllers/disaggregatedset/slice_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "api/codec.h"
#include "testdata/testdata_dir.h"

namespace lws::disaggregatedset {
namespace {

using Kind = SliceAction::Kind;

struct Slice {
  api::DisaggregatedSet ds;
  ScalersByRole scalers;
  std::vector<OwnedLws> lws;
  int clock = 0;  // creation order, as RFC 3339 text sorts

  OwnedLws* Find(const std::string& name) {
    for (OwnedLws& l : lws) {
      if (l.name == name) return &l;
    }
    return nullptr;
  }

  // One reconcile: plan, apply, then every LWS of `revision` becomes ready.
  SlicePlan Reconcile(const std::string& revision) {
    SlicePlan plan = PlanSlice({&ds, revision, 0, lws, &scalers});
    for (const SliceAction& a : plan.actions) Apply(a, revision);
    for (OwnedLws& l : lws) {
      if (l.revision == revision) l.ready_replicas = l.spec_replicas;
    }
    return plan;
  }

  void Apply(const SliceAction& a, const std::string& revision) {
    switch (a.kind) {
      case Kind::kDelete:
        std::erase_if(lws, [&](const OwnedLws& l) { return l.name == a.lws; });
        break;
      case Kind::kAnnotateInitial:
        Find(a.lws)->initial_replicas = a.replicas;
        break;
      case Kind::kCreate:
        if (Find(a.lws) == nullptr) lws.push_back(Lws(a.lws, a.role, revision, a.replicas));
        break;
      case Kind::kScale:
        Find(a.lws)->spec_replicas = a.replicas;
        break;
      case Kind::kEvent:
        break;
    }
  }

  OwnedLws Lws(std::string name, std::string role, std::string revision, int replicas) {
    OwnedLws l;
    l.name = std::move(name);
    l.role = std::move(role);
    l.revision = std::move(revision);
    l.spec_replicas = l.ready_replicas = replicas;
    l.creation_timestamp = "2026-01-01T00:00:" + std::to_string(10 + clock++) + "Z";
    return l;
  }

  // {old per role / new per role} as the planner tables write a step.
  std::string Counts(const std::string& revision) const {
    std::string old, now;
    for (std::size_t i = 0; i < ds.spec.roles.size(); ++i) {
      int o = 0, n = 0;
      for (const OwnedLws& l : lws) {
        if (l.role != ds.spec.roles[i].name) continue;
        (l.revision == revision ? n : o) += l.spec_replicas;
      }
      old += (i ? "," : "") + std::to_string(o);
      now += (i ? "," : "") + std::to_string(n);
    }
    return "{" + old + "/" + now + "} ";
  }
};

// A set of roles r0, r1, ... with `target` replicas and the rollout of `config`, as a user
// would write it.
api::DisaggregatedSet Set(const nlohmann::json& c) {
  api::Json roles = api::Json::array();
  for (std::size_t i = 0; i < c["target"].size(); ++i) {
    const int surge = c["config"][i][0], unavailable = c["config"][i][1];
    roles.push_back({{"name", "r" + std::to_string(i)},
                     {"spec",
                      {{"replicas", c["target"][i].get<int>()},
                       {"rolloutStrategy",
                        {{"type", "RollingUpdate"},
                         {"rollingUpdateConfiguration",
                          {{"maxSurge", surge}, {"maxUnavailable", unavailable}}}}}}}});
  }
  api::DisaggregatedSet ds;
  EXPECT_TRUE(api::DecodeInto(api::Json{{"metadata", {{"name", "ds"}, {"uid", "u"}}},
                                        {"spec", {{"roles", roles}}}},
                              &ds)
                  .empty());
  return ds;
}

// What the CRD and webhook allow: all targets zero or all positive, and each role's settings
// mean what the table says (upstream keeps the default {1, 0} when both are 0).
bool Expressible(const nlohmann::json& c) {
  bool zero = false, positive = false, old = false;
  for (const auto& t : c["target"]) (t.get<int>() == 0 ? zero : positive) = true;
  for (const auto& o : c["initialOld"]) old = old || o.get<int>() > 0;
  for (const auto& r : c["config"]) {
    if (r[0].get<int>() == 0 && r[1].get<int>() == 0) return false;
  }
  return old && !(zero && positive);
}

std::string Expected(const nlohmann::json& c) {
  std::string out;
  for (const auto& step : c["steps"]) {
    std::string old, now;
    for (std::size_t i = 0; i < step[0].size(); ++i) {
      old += (i ? "," : "") + std::to_string(step[0][i].get<int>());
      now += (i ? "," : "") + std::to_string(step[1][i].get<int>());
    }
    out += "{" + old + "/" + now + "} ";
  }
  return out;
}

std::string Drive(const nlohmann::json& c) {
  Slice s{Set(c)};
  for (std::size_t i = 0; i < c["initialOld"].size(); ++i) {
    s.lws.push_back(s.Lws("ds-0-old-r" + std::to_string(i), "r" + std::to_string(i), "old",
                          c["initialOld"][i].get<int>()));
  }
  std::string steps = s.Counts("new");
  for (int reconcile = 0; reconcile < 200; ++reconcile) {
    const std::string before = s.Counts("new");
    SlicePlan plan = s.Reconcile("new");
    if (plan.actions.empty() && !plan.requeue_soon) break;
    if (s.Counts("new") != before) steps += s.Counts("new");
  }
  return steps;
}

void CheckTable(const char* table) {
  std::ifstream in(TestdataDir() + "/disaggregatedset/planner_batch_cases.json");
  const nlohmann::json cases = nlohmann::json::parse(in).at(table);
  int checked = 0;
  for (const auto& c : cases) {
    if (!Expressible(c)) continue;
    SCOPED_TRACE(c["name"].get<std::string>());
    EXPECT_EQ(Drive(c), Expected(c));
    ++checked;
  }
  EXPECT_GE(checked, 2);
}

TEST(SlicePlanTest, ExecutorFollowsEveryUpstreamExactSequence) { CheckTable("exact_sequence"); }

TEST(SlicePlanTest, ExecutorFollowsUpstreamE2eStepTables) { CheckTable("e2e_plan_steps"); }

}  // namespace
}  // namespace lws::disaggregatedset

namespace lws::disaggregatedset {
namespace {

nlohmann::json TwoRoles(int prefill, int decode) {
  return {{"target", {prefill, decode}}, {"config", {{1, 0}, {1, 0}}}};
}

std::string Show(const SlicePlan& plan) {
  std::string out;
  for (const SliceAction& a : plan.actions) {
    switch (a.kind) {
      case Kind::kDelete:
        out += "delete " + a.lws + "; ";
        break;
      case Kind::kAnnotateInitial:
        out += "annotate " + a.lws + "=" + std::to_string(a.replicas) + "; ";
        break;
      case Kind::kCreate:
        out += "create " + a.lws + "@" + std::to_string(a.replicas) + "; ";
        break;
      case Kind::kScale:
        out += "scale " + a.lws + " " + std::to_string(a.from) + "->" + std::to_string(a.replicas) +
               "; ";
        break;
      case Kind::kEvent:
        out += a.reason + "; ";
        break;
    }
  }
  return out;
}

// An interrupted rollout (sheet 4.6.5): revisions A and B are both old when C is wanted. The
// start annotates every old LWS with its current count and creates C's at 0.
TEST(SlicePlanTest, StartOfAnInterruptedRollout) {
  Slice s{Set(TwoRoles(2, 2))};
  s.lws.push_back(s.Lws("ds-0-a-r0", "r0", "a", 1));
  s.lws.push_back(s.Lws("ds-0-a-r1", "r1", "a", 1));
  s.lws.push_back(s.Lws("ds-0-b-r0", "r0", "b", 1));
  s.lws.push_back(s.Lws("ds-0-b-r1", "r1", "b", 1));
  s.lws[0].initial_replicas = 2;  // A's annotation from the first rollout is overwritten
  SlicePlan plan = PlanSlice({&s.ds, "c", 0, s.lws, &s.scalers});
  EXPECT_EQ(Show(plan),
            "RollingUpdateStarted; annotate ds-0-a-r0=1; annotate ds-0-a-r1=1; "
            "annotate ds-0-b-r0=1; annotate ds-0-b-r1=1; create ds-0-c-r0@0; create ds-0-c-r1@0; ");
  EXPECT_TRUE(plan.requeue_soon);
  EXPECT_TRUE(plan.rolling);
}

TEST(SlicePlanTest, WaitsUntilTheNewRevisionIsReady) {
  Slice s{Set(TwoRoles(2, 2))};
  s.lws.push_back(s.Lws("ds-0-a-r0", "r0", "a", 2));
  s.lws.push_back(s.Lws("ds-0-a-r1", "r1", "a", 2));
  s.lws.push_back(s.Lws("ds-0-b-r0", "r0", "b", 1));
  s.lws.push_back(s.Lws("ds-0-b-r1", "r1", "b", 1));
  s.lws.back().ready_replicas = 0;
  SlicePlan plan = PlanSlice({&s.ds, "b", 0, s.lws, &s.scalers});
  EXPECT_EQ(Show(plan), "");
  EXPECT_TRUE(plan.requeue_soon);
}

// A revision drained to 0 on every role is deleted; with no old replicas left the simple path
// scales the target to the spec (here after a scale-down of the set).
TEST(SlicePlanTest, DrainedRevisionIsDeletedAndTheTargetFollowsTheSpec) {
  Slice s{Set(TwoRoles(1, 1))};
  s.lws.push_back(s.Lws("ds-0-a-r0", "r0", "a", 0));
  s.lws.push_back(s.Lws("ds-0-a-r1", "r1", "a", 0));
  s.lws.push_back(s.Lws("ds-0-b-r0", "r0", "b", 2));
  s.lws.push_back(s.Lws("ds-0-b-r1", "r1", "b", 2));
  SlicePlan plan = PlanSlice({&s.ds, "b", 0, s.lws, &s.scalers});
  EXPECT_EQ(Show(plan),
            "delete ds-0-a-r0; LWSDeleted; delete ds-0-a-r1; LWSDeleted; "
            "scale ds-0-b-r0 2->1; scale ds-0-b-r1 2->1; ");
  EXPECT_FALSE(plan.rolling);
}

// upstream scaleDownOld: the newest old revision drains first, and a revision whose drain would
// leave one role at 0 goes to 0 on every role; the replicas zeroed by that do not use budget.
TEST(SlicePlanTest, CoordinatedDrainTakesTheNewestOldRevisionToZero) {
  Slice s{Set(TwoRoles(2, 2))};
  s.ds.spec.roles[0].spec.rollout_strategy.rolling_update_configuration->max_surge =
      api::IntOrString::FromInt(0);
  s.ds.spec.roles[0].spec.rollout_strategy.rolling_update_configuration->max_unavailable =
      api::IntOrString::FromInt(1);
  s.ds.spec.roles[1].spec.rollout_strategy.rolling_update_configuration->max_surge =
      api::IntOrString::FromInt(0);
  s.ds.spec.roles[1].spec.rollout_strategy.rolling_update_configuration->max_unavailable =
      api::IntOrString::FromInt(1);
  s.lws.push_back(s.Lws("ds-0-a-r0", "r0", "a", 1));
  s.lws.push_back(s.Lws("ds-0-a-r1", "r1", "a", 1));
  s.lws.push_back(s.Lws("ds-0-b-r0", "r0", "b", 1));
  s.lws.push_back(s.Lws("ds-0-b-r1", "r1", "b", 1));
  s.lws.push_back(s.Lws("ds-0-c-r0", "r0", "c", 0));
  s.lws.push_back(s.Lws("ds-0-c-r1", "r1", "c", 0));
  SlicePlan plan = PlanSlice({&s.ds, "c", 0, s.lws, &s.scalers});
  // Old {2,2} of initial {2,2}, new {0,0}, target {2,2}, unavailable 1: the planner drains one
  // of each role; the budget {1,1} empties B (created after A) on both roles.
  EXPECT_EQ(Show(plan), "scale ds-0-b-r0 1->0; ScalingDown; scale ds-0-b-r1 1->0; ScalingDown; ");
}

}  // namespace
}  // namespace lws::disaggregatedset
