// Hash-mode status from the leader Deployment. The cases are upstream's
// pkg/controllers/leaderworkerset_hash_status_test.go TestUpdateStatusHash and
// TestUpdateStatusHashNoWriteWhenUnchanged.
#include "controllers/lws/hash_status.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "api/group_identity.h"
#include "api/lws_testing.h"

namespace lws::controllers {
namespace {

const std::string kNow = "2026-12-05T12:00:00Z";

api::LeaderWorkerSet HashLws() {
  api::LeaderWorkerSet lws = api::testing::DefaultLws();
  lws.metadata.generation = 4;
  lws.spec.replicas = 2;
  lws.spec.group_identity = api::kGroupIdentityHash;
  return lws;
}

api::Deployment Deployment(int replicas, int ready, int updated) {
  api::Deployment d;
  d.metadata.generation = 3;
  d.status.observed_generation = 3;
  d.spec.template_.metadata.labels[api::kRevisionLabel] = "rev-1";
  d.status.replicas = replicas;
  d.status.ready_replicas = ready;
  d.status.updated_replicas = updated;
  return d;
}

std::vector<std::string> TrueConditions(const StatusPlan& plan) {
  std::vector<std::string> types;
  for (const api::Condition& c : plan.status.conditions) {
    if (c.status == "True") types.push_back(c.type);
  }
  std::sort(types.begin(), types.end());
  return types;
}

TEST(HashStatusTest, ConditionsFollowTheDeployment) {
  const api::LeaderWorkerSet lws = HashLws();
  api::Deployment all = Deployment(2, 2, 2);
  StatusPlan available = PlanHashStatus(lws, &all, "rev-1", kNow);
  EXPECT_EQ(TrueConditions(available), (std::vector<std::string>{"Available"}));
  EXPECT_TRUE(available.update_done);
  EXPECT_EQ(available.status.observed_generation, 4);
  EXPECT_EQ(available.status.hpa_pod_selector,
            "leaderworkerset.sigs.k8s.io/name=" + lws.metadata.name +
                ",leaderworkerset.sigs.k8s.io/worker-index=0");
  ASSERT_TRUE(available.event.has_value());
  EXPECT_EQ(available.event->first, "AllGroupsReady");

  api::Deployment rolling = Deployment(3, 2, 2);
  EXPECT_EQ(TrueConditions(PlanHashStatus(lws, &rolling, "rev-1", kNow)),
            (std::vector<std::string>{"Progressing", "UpdateInProgress"}));
  api::Deployment short_of_replicas = Deployment(1, 1, 1);
  EXPECT_EQ(TrueConditions(PlanHashStatus(lws, &short_of_replicas, "rev-1", kNow)),
            (std::vector<std::string>{"Progressing"}));
  api::Deployment not_ready = Deployment(2, 0, 2);
  EXPECT_EQ(TrueConditions(PlanHashStatus(lws, &not_ready, "rev-1", kNow)),
            (std::vector<std::string>{"Progressing"}));
}

TEST(HashStatusTest, NoWriteWhenUnchanged) {
  api::LeaderWorkerSet lws = HashLws();
  api::Deployment all = Deployment(2, 2, 2);
  lws.status = PlanHashStatus(lws, &all, "rev-1", kNow).status;
  StatusPlan again = PlanHashStatus(lws, &all, "rev-1", "2026-12-05T12:05:00Z");
  EXPECT_FALSE(again.changed);
  EXPECT_FALSE(again.event.has_value());
}

// Ours: a Deployment that has not seen its new template yet reports the old rollout's counts.
TEST(HashStatusTest, AnUnobservedDeploymentIsNotAvailable) {
  api::Deployment stale = Deployment(2, 2, 2);
  stale.metadata.generation = 4;
  EXPECT_EQ(TrueConditions(PlanHashStatus(HashLws(), &stale, "rev-1", kNow)),
            (std::vector<std::string>{"Progressing"}));
  EXPECT_EQ(TrueConditions(PlanHashStatus(HashLws(), nullptr, "rev-1", kNow)),
            (std::vector<std::string>{"Progressing"}));
  // The reconcile that applied a new template reads the Deployment its cache still holds: the
  // old template, observed, all ready. Believing it would truncate the old revision while old
  // groups still need it.
  EXPECT_EQ(TrueConditions(PlanHashStatus(HashLws(), &stale, "rev-2", kNow)),
            (std::vector<std::string>{"Progressing"}));
  api::Deployment cached = Deployment(2, 2, 2);
  EXPECT_TRUE(PlanHashStatus(HashLws(), &cached, "rev-1", kNow).update_done);
  EXPECT_FALSE(PlanHashStatus(HashLws(), &cached, "rev-2", kNow).update_done);
}

}  // namespace
}  // namespace lws::controllers
