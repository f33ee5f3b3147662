// Webhook defaulting scenarios S59-S69 (catalogue section 5) at the typed level. Replicas and
// size defaults (S59, S60) come from the CRD schema and are tested with the admission chain.
#include "api/lws_defaults.h"

#include <gtest/gtest.h>

#include "api/lws_testing.h"

namespace lws::api {
namespace {

using testing::DefaultLws;

TEST(LwsDefaultsTest, DefaultLwsIsUnchanged) {  // S61, S69 shape
  LeaderWorkerSet lws = DefaultLws();
  const Json before = Encode(lws);
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(Encode(lws), before);
}

TEST(LwsDefaultsTest, RestartPolicy) {  // S62, S63, S64
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "RecreateGroupOnPodRestart"},
      {"None", "None"},
      {"Default", "None"},
      {"RecreateGroupAfterStart", "RecreateGroupAfterStart"}};
  for (const auto& [in, want] : cases) {
    LeaderWorkerSet lws = DefaultLws();
    lws.spec.leader_worker_template.restart_policy = in;
    DefaultLeaderWorkerSet(&lws);
    EXPECT_EQ(lws.spec.leader_worker_template.restart_policy, want) << in;
  }
}

// Upstream TestGroupReplacementPolicyDefaultAndValidation: the webhook defaults both KEP 898
// fields; set values are kept.
TEST(LwsDefaultsTest, GroupIdentityAndReplacementPolicy) {
  LeaderWorkerSet lws = DefaultLws();
  lws.spec.group_identity.clear();
  lws.spec.group_replacement_policy.clear();
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(lws.spec.group_identity, "Ordinal");
  EXPECT_EQ(lws.spec.group_replacement_policy, "PostTermination");
  lws.spec.group_identity = kGroupIdentityHash;
  lws.spec.group_replacement_policy = kGroupReplacementImmediate;
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(lws.spec.group_identity, "Hash");
  EXPECT_EQ(lws.spec.group_replacement_policy, "Immediate");
}

TEST(LwsDefaultsTest, StartupPolicyIsKept) {  // S65, S66
  LeaderWorkerSet lws = DefaultLws();
  lws.spec.startup_policy = kLeaderReadyStartupPolicy;
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(lws.spec.startup_policy, kLeaderReadyStartupPolicy);
}

TEST(LwsDefaultsTest, NilNetworkConfigBecomesShared) {  // S67
  LeaderWorkerSet lws = DefaultLws();
  lws.spec.network_config.reset();
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(Encode(lws)["spec"]["networkConfig"], Json::parse(R"({"subdomainPolicy":"Shared"})"));
}

TEST(LwsDefaultsTest, EmptyRolloutStrategy) {  // S68
  LeaderWorkerSet lws = DefaultLws();
  lws.spec.rollout_strategy = RolloutStrategy{};
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(Encode(lws)["spec"]["rolloutStrategy"],
            Json::parse(R"({"type":"RollingUpdate","rollingUpdateConfiguration":
                            {"partition":0,"maxUnavailable":1,"maxSurge":0}})"));
}

TEST(LwsDefaultsTest, ExplicitRollingUpdateIsKept) {  // S69
  LeaderWorkerSet lws = DefaultLws();
  auto& config = *lws.spec.rollout_strategy.rolling_update_configuration;
  config.partition = 2;
  config.max_unavailable = IntOrString::FromInt(2);
  config.max_surge = IntOrString::FromInt(1);
  DefaultLeaderWorkerSet(&lws);
  EXPECT_EQ(Encode(lws)["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"],
            Json::parse(R"({"partition":2,"maxUnavailable":2,"maxSurge":1})"));
}

}  // namespace
}  // namespace lws::api
