// The leader Deployment of Hash mode. Ported from upstream
// pkg/controllers/leaderworkerset_hash_test.go (TestLeaderDeploymentApplyConfig,
// TestLeaderDeploymentApplyConfigSizeOneHasNoGate) and leaderworkerset_hash_status_test.go
// (TestSSAWithDeployment: subdomain, readiness gates, owner).
#include "controllers/lws/leader_deployment.h"

#include <gtest/gtest.h>

#include "api/group_identity.h"
#include "api/lws_testing.h"
#include "api/rollout_annotations.h"

namespace lws::controllers {
namespace {

using api::Json;

api::LeaderWorkerSet HashLws(int replicas, int size) {
  api::LeaderWorkerSet lws = api::testing::DefaultLws();
  lws.metadata.uid = "u-lws";
  lws.spec.replicas = replicas;
  lws.spec.leader_worker_template.size = size;
  lws.spec.group_identity = api::kGroupIdentityHash;
  auto& rolling = *lws.spec.rollout_strategy.rolling_update_configuration;
  rolling.max_unavailable = api::IntOrString::FromInt(1);
  rolling.max_surge = api::IntOrString::FromInt(2);
  return lws;
}

TEST(LeaderDeploymentTest, CarriesTheRolloutAndTheGroupReadyGate) {
  const api::LeaderWorkerSet lws = HashLws(4, 3);
  const Json d = LeaderDeploymentApply(lws, "rev-1");
  EXPECT_EQ(d["kind"], "Deployment");
  EXPECT_EQ(d["metadata"]["name"], lws.metadata.name);
  EXPECT_EQ(d["metadata"]["labels"][api::kRevisionLabel], "rev-1");
  EXPECT_EQ(d["metadata"]["labels"][api::kRoleLabel], "leader");
  EXPECT_EQ(d["metadata"]["annotations"][api::kReplicasAnnotation], "4");
  EXPECT_EQ(d["metadata"]["ownerReferences"][0]["kind"], "LeaderWorkerSet");
  EXPECT_EQ(d["metadata"]["ownerReferences"][0]["controller"], true);
  const Json& spec = d["spec"];
  EXPECT_EQ(spec["replicas"], 4);
  EXPECT_EQ(spec["selector"]["matchLabels"],
            (Json{{api::kSetNameLabel, lws.metadata.name}, {api::kWorkerIndexLabel, "0"}}));
  EXPECT_EQ(spec["strategy"]["type"], "RollingUpdate");
  EXPECT_EQ(spec["strategy"]["rollingUpdate"]["maxUnavailable"], 1);
  EXPECT_EQ(spec["strategy"]["rollingUpdate"]["maxSurge"], 2);  // verbatim, not capped
  const Json& tmpl = spec["template"];
  EXPECT_EQ(tmpl["metadata"]["labels"][api::kRevisionLabel], "rev-1");
  EXPECT_EQ(tmpl["metadata"]["labels"][api::kWorkerIndexLabel], "0");
  EXPECT_EQ(tmpl["metadata"]["annotations"][api::kGroupIdentityAnnotation], "Hash");
  EXPECT_EQ(tmpl["metadata"]["annotations"][api::kSizeAnnotation], "3");
  EXPECT_EQ(tmpl["spec"]["subdomain"], lws.metadata.name);
  EXPECT_EQ(tmpl["spec"]["readinessGates"],
            Json::array({{{"conditionType", "leaderworkerset.sigs.k8s.io/group-ready"}}}));
}

TEST(LeaderDeploymentTest, SizeOneHasNoGate) {
  const Json d = LeaderDeploymentApply(HashLws(2, 1), "rev-1");
  EXPECT_FALSE(d["spec"]["template"]["spec"].contains("readinessGates"));
}

TEST(LeaderDeploymentTest, PercentagesAreCopiedForTheDeploymentToResolve) {
  api::LeaderWorkerSet lws = HashLws(10, 2);
  auto& rolling = *lws.spec.rollout_strategy.rolling_update_configuration;
  rolling.max_unavailable = api::IntOrString::FromString("25%");
  rolling.max_surge = api::IntOrString::FromString("50%");
  const Json d = LeaderDeploymentApply(lws, "rev-2");
  EXPECT_EQ(d["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"], "25%");
  EXPECT_EQ(d["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "50%");
}

TEST(LeaderDeploymentTest, PausedLwsPausesTheDeployment) {
  api::LeaderWorkerSet lws = HashLws(2, 2);
  EXPECT_FALSE(LeaderDeploymentApply(lws, "rev-1")["spec"].contains("paused"));
  lws.metadata.annotations[api::kPausedAnnotation] = "true";
  EXPECT_EQ(LeaderDeploymentApply(lws, "rev-1")["spec"]["paused"], true);
}

}  // namespace
}  // namespace lws::controllers
