// The LWS webhook scenarios of the catalogue (sections 5 and 6) at the typed level. Enum
// violations (S75, S82, S94, S95) are rejected by the CRD schema; they are covered by the
// admission chain tests.
#include "api/lws_validation.h"

#include <gtest/gtest.h>

#include <functional>

#include "api/group_restarts.h"
#include "api/lws_defaults.h"
#include "api/lws_testing.h"
#include "api/rollout_annotations.h"

namespace lws::api {
namespace {

using testing::DefaultLws;
using testing::Describe;
using Mutate = std::function<void(LeaderWorkerSet&)>;

RollingUpdateConfiguration& Rolling(LeaderWorkerSet& l) {
  return *l.spec.rollout_strategy.rolling_update_configuration;
}

struct CreateCase {
  std::string id;
  Mutate mutate;
  std::vector<std::string> want;  // exact error strings; empty means accepted
};

TEST(LwsValidationTest, CreateScenarios) {
  const std::string mu = "spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable";
  const std::string ms = "spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge";
  const std::string dns1035 =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
      "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
      "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  const std::string percent =
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or "
      "'93%', regex used for validation is '[0-9]+%')";
  const std::vector<CreateCase> cases = {
      {"S70",
       [](auto& l) { l.metadata.name = "2cube"; },
       {"metadata.name: Invalid value: \"2cube\": " + dns1035}},
      {"S71",
       [](auto& l) {
         l.spec.replicas = 100000;
         l.spec.leader_worker_template.size = 1000000;
       },
       {"spec.replicas: Invalid value: 100000: the product of replicas and worker replicas must "
        "not "
        "exceed 2147483647"}},
      {"S72",
       [](auto& l) { l.spec.leader_worker_template.size = -1; },
       {"spec.leaderWorkerTemplate.size: Invalid value: -1: size must be equal or greater than 1"}},
      {"S73",
       [](auto& l) { l.spec.replicas = -1; },
       {"spec.replicas: Invalid value: -1: replicas must be equal or greater than 0"}},
      {"S74",
       [](auto& l) { l.spec.replicas = 1000001; },
       {"spec.replicas: Invalid value: 1000001: replicas must be equal or less than 1000000"}},
      {"S76",
       [](auto& l) {
         l.spec.leader_worker_template.sub_group_policy = SubGroupPolicy{{}, -1, {}};
       },
       {"spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: -1: subGroupSize "
        "must "
        "be equal or greater than 1"}},
      {"S77",
       [](auto& l) {
         l.spec.leader_worker_template.sub_group_policy = SubGroupPolicy{{}, 3, {}};
       },
       {"spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 3: size or size - 1 "
        "must be divisible by subGroupSize",
        "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 3: subGroupSize "
        "cannot "
        "be larger than size"}},
      {"S78",
       [](auto& l) {
         l.spec.leader_worker_template.size = 4;
         l.spec.leader_worker_template.sub_group_policy =
             SubGroupPolicy{kSubGroupLeaderExcluded, 2, {}};
       },
       {"spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: size-1 must be "
        "divisible by subGroupSize when using LeaderExcluded"}},
      {"S93", [](auto& l) { l.spec.leader_worker_template.restart_policy = "None"; }, {}},
      {"S96", [](auto& l) { Rolling(l).max_unavailable = IntOrString::FromInt(10); }, {}},
      {"S97",
       [](auto& l) { Rolling(l).max_unavailable = IntOrString::FromString("200%"); },
       {mu + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"200%\"}: must not be "
             "greater than 100%"}},
      {"S98",
       [](auto& l) { Rolling(l).max_unavailable = IntOrString::FromInt(-1); },
       {mu + ": Invalid value: -1: must be greater than or equal to 0"}},
      {"S99", [](auto& l) { Rolling(l).max_surge = IntOrString::FromInt(10); }, {}},
      {"S100",
       [](auto& l) { Rolling(l).max_surge = IntOrString::FromString("200%"); },
       {ms + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"200%\"}: must not be "
             "greater than 100%"}},
      {"S101",
       [](auto& l) { Rolling(l).max_surge = IntOrString::FromInt(-1); },
       {ms + ": Invalid value: -1: must be greater than or equal to 0"}},
      {"S102",
       [](auto& l) { Rolling(l).max_unavailable = IntOrString::FromInt(0); },
       {mu +
        ": Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: must not be 0 when "
        "`maxSurge` is 0"}},
      {"S103",
       [](auto& l) {
         Rolling(l).max_unavailable = IntOrString::FromInt(0);
         Rolling(l).max_surge = IntOrString::FromInt(1);
       },
       {}},
      {"S104",
       [](auto& l) {
         l.spec.replicas = 0;
         Rolling(l).max_unavailable = IntOrString::FromString("25%");
         Rolling(l).max_surge = IntOrString::FromString("25%");
       },
       {}},
      {"S105",
       [](auto& l) { Rolling(l).max_unavailable = IntOrString::FromString("25%"); },
       {mu + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"25%\"}: must not be 0 "
             "when `maxSurge` is 0"}},
      {"S106",
       [](auto& l) { Rolling(l).partition = -1; },
       {"spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: -1: must be "
        "greater than or equal to 0"}},
      {"S107",
       [](auto& l) {
         l.spec.replicas = 3;
         Rolling(l).partition = 5;
       },
       {}},
      {"S108",
       [](auto& l) {
         l.spec.replicas = 3;
         Rolling(l).partition = 3;
       },
       {}},
      {"S109",
       [](auto& l) {
         l.spec.replicas = 3;
         Rolling(l).partition = 0;
       },
       {}},
      {"V6 percent format",
       [](auto& l) { Rolling(l).max_surge = IntOrString::FromString("abc"); },
       {ms + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"abc\"}: " + percent,
        ms + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"abc\"}: invalid "
             "value"}},
      // S115/S117: getPercentValue and isNotMoreThan100Percent through the public rules.
      {"S117 101%",
       [](auto& l) { Rolling(l).max_surge = IntOrString::FromString("101%"); },
       {ms + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"101%\"}: must not be "
             "greater than 100%"}},
      {"S117 100%", [](auto& l) { Rolling(l).max_surge = IntOrString::FromString("100%"); }, {}},
      {"S117 99%", [](auto& l) { Rolling(l).max_surge = IntOrString::FromString("99%"); }, {}},
      {"S115 \"1\" is not a percent",
       [](auto& l) { Rolling(l).max_unavailable = IntOrString::FromString("1"); },
       {mu + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"1\"}: " + percent,
        mu + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"1\"}: invalid value",
        mu + ": Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"1\"}: must not be 0 "
             "when "
             "`maxSurge` is 0"}},
      {"S116 zero partition", [](auto& l) { Rolling(l).partition = 0; }, {}},
      {"S118 annotation without subgroups",
       [](auto& l) { l.metadata.annotations[kSubGroupExclusiveKeyAnnotation] = "topology"; },
       {"metadata.annotations.leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology: Invalid "
        "value: \"topology\": cannot have subgroup-exclusive-topology without subGroupSize set"}},
      {"S118 subGroupSize 0",
       [](auto& l) {
         l.spec.leader_worker_template.sub_group_policy = SubGroupPolicy{{}, 0, {}};
       },
       {"spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 0: subGroupSize "
        "must "
        "be equal or greater than 1"}},
      {"Q12 subGroupSize nil",
       [](auto& l) { l.spec.leader_worker_template.sub_group_policy = SubGroupPolicy{}; },
       {"spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Required value: subGroupSize must "
        "be "
        "set when subGroupPolicy is set"}},
      {"missing namespace",
       [](auto& l) { l.metadata.namespace_.clear(); },
       {"metadata.namespace: Required value"}},
      // Upstream pkg/webhooks/leaderworkerset_webhook_hash_test.go
      // TestGroupReplacementPolicyDefaultAndValidation and TestValidateHashGroupIdentity.
      {"KEP898 Immediate with Ordinal",
       [](auto& l) { l.spec.group_replacement_policy = kGroupReplacementImmediate; },
       {"spec.groupReplacementPolicy: Invalid value: \"Immediate\": Immediate is only supported "
        "with "
        "groupIdentity Hash"}},
      {"KEP898 PostTermination with Ordinal",
       [](auto& l) { l.spec.group_replacement_policy = kGroupReplacementPostTermination; },
       {}},
      {"KEP898 empty identity is Ordinal", [](auto& l) { l.spec.group_identity.clear(); }, {}},
      {"KEP898 Hash with a partition",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.group_replacement_policy = kGroupReplacementImmediate;
         Rolling(l).partition = 1;
       },
       {"spec.groupIdentity: Invalid value: \"Hash\": rollingUpdateConfiguration.partition is not "
        "supported with groupIdentity Hash"}},
      {"KEP898 valid Hash", [](auto& l) { l.spec.group_identity = kGroupIdentityHash; }, {}},
      {"KEP898 Hash with Immediate",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.group_replacement_policy = kGroupReplacementImmediate;
       },
       {}},
      {"KEP898 Hash with partition 0",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         Rolling(l).partition = 0;
       },
       {}},
      {"ours: Hash with an Ordinal-only rollout behaviour",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.metadata.annotations[kMaxGroupRestartsAnnotation] = "3";
         l.metadata.annotations[kPausedAnnotation] = "true";
       },
       {"metadata.annotations[lws-cpp.dev/max-group-restarts]: Invalid value: \"3\": is not "
        "supported with groupIdentity Hash"}},
      {"ours: Hash with 0 replicas and no room to roll",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.replicas = 0;
         Rolling(l).max_unavailable = IntOrString::FromString("0%");
         Rolling(l).max_surge = IntOrString::FromInt(0);
       },
       {"spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: "
        "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"0%\"}: must not be 0 when `maxSurge` is 0 "
        "with groupIdentity Hash"}},
      {"KEP898 Hash with subGroupPolicy",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.leader_worker_template.size = 4;
         l.spec.leader_worker_template.sub_group_policy = SubGroupPolicy{{}, 2, {}};
       },
       {}},
      {"KEP898 Hash with volumeClaimTemplates",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.leader_worker_template.volume_claim_templates.emplace_back();
       },
       {"spec.groupIdentity: Invalid value: \"Hash\": volumeClaimTemplates are not supported with "
        "groupIdentity Hash"}},
  };
  for (const auto& c : cases) {
    LeaderWorkerSet lws = DefaultLws();
    c.mutate(lws);
    ErrorList errs = ValidateLeaderWorkerSet(lws);
    std::vector<std::string> got;
    for (const auto& e : errs) got.push_back(e.Error());
    EXPECT_EQ(got, c.want) << c.id << ":\n" << Describe(errs);
  }
}

struct UpdateCase {
  std::string id;
  Mutate old_mutate;
  Mutate new_mutate;
  bool accept;
  std::string want_first;  // first error, when rejected
};

TEST(LwsValidationTest, UpdateScenarios) {
  auto sub = [](int size) { return SubGroupPolicy{{}, size, {}}; };
  const std::vector<UpdateCase> cases = {
      // Upstream leaderworkerset_webhook_hash_test.go TestGroupIdentityImmutable: "" -> Ordinal
      // is no change; the policy may change freely.
      {"KEP898 empty to Ordinal", [](auto& l) { l.spec.group_identity.clear(); }, {}, true, ""},
      {"KEP898 Ordinal to Hash",
       {},
       [](auto& l) { l.spec.group_identity = kGroupIdentityHash; },
       false,
       "spec.groupIdentity: Invalid value: \"Hash\": groupIdentity is immutable"},
      {"KEP898 Hash to Ordinal", [](auto& l) { l.spec.group_identity = kGroupIdentityHash; },
       [](auto& l) { l.spec.group_identity = kGroupIdentityOrdinal; }, false,
       "spec.groupIdentity: Invalid value: \"Ordinal\": groupIdentity is immutable"},
      {"KEP898 Hash policy Immediate to PostTermination",
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.group_replacement_policy = kGroupReplacementImmediate;
       },
       [](auto& l) {
         l.spec.group_identity = kGroupIdentityHash;
         l.spec.group_replacement_policy = kGroupReplacementPostTermination;
       },
       true, ""},
      {"S79", {}, [](auto& l) { l.spec.leader_worker_template.size = 3; }, true, ""},
      {"S80",
       [](auto& l) {
         l.spec.replicas = 100000;
         l.spec.leader_worker_template.size = 1;
       },
       [](auto& l) {
         l.spec.replicas = 100000;
         l.spec.leader_worker_template.size = 100000000;
       },
       false,
       "spec.replicas: Invalid value: 100000: the product of replicas and worker replicas must not "
       "exceed 2147483647"},
      {"S81", [](auto& l) { l.spec.replicas = 1; }, [](auto& l) { l.spec.replicas = -1; }, false,
       "spec.replicas: Invalid value: -1: replicas must be equal or greater than 0"},
      {"S83",
       [&](auto& l) {
         l.spec.replicas = 1;
         l.spec.leader_worker_template.sub_group_policy = sub(1);
       },
       [&](auto& l) {
         l.spec.replicas = 1;
         l.spec.leader_worker_template.sub_group_policy = sub(2);
       },
       false,
       "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: field is "
       "immutable"},
      {"S84",
       {},
       [&](auto& l) { l.spec.leader_worker_template.sub_group_policy = sub(2); },
       false,
       "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: cannot enable "
       "subGroupSize after the lws is already created"},
      {"S85", [&](auto& l) { l.spec.leader_worker_template.sub_group_policy = sub(1); },
       [](auto& l) { l.spec.leader_worker_template.sub_group_policy.reset(); }, false,
       "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 1: cannot remove "
       "subGroupSize after enabled"},
      {"S86", [](auto& l) { l.spec.replicas = 1; }, [](auto& l) { l.spec.replicas = 3; }, true, ""},
      {"S87", [](auto& l) { l.spec.replicas = 1; }, [](auto& l) { l.spec.replicas = 1000001; },
       false, "spec.replicas: Invalid value: 1000001: replicas must be equal or less than 1000000"},
      {"S88",
       {},
       [](auto& l) {
         std::swap(l.spec.leader_worker_template.leader_template->spec,
                   l.spec.leader_worker_template.worker_template.spec);
       },
       true,
       ""},
      {"S89", [](auto& l) { l.spec.network_config->subdomain_policy = kSubdomainUniquePerReplica; },
       [](auto& l) { l.spec.network_config->subdomain_policy = kSubdomainShared; }, true, ""},
      {"S90",
       {},
       [](auto& l) { l.spec.network_config->subdomain_policy = kSubdomainUniquePerReplica; },
       true,
       ""},
      {"S110", [](auto& l) { l.spec.replicas = 5; },
       [](auto& l) {
         l.spec.replicas = 5;
         Rolling(l).partition = 2;
       },
       true, ""},
      {"S111",
       {},
       [](auto& l) { Rolling(l).partition = -1; },
       false,
       "spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: -1: must be "
       "greater "
       "than or equal to 0"},
      {"S112", {}, [](auto& l) { Rolling(l).partition = 10; }, true, ""},
      {"S113", {}, [](auto& l) { Rolling(l).partition = 5; }, true, ""},
      {"S114", [](auto& l) { Rolling(l).partition = 3; }, [](auto& l) { Rolling(l).partition = 0; },
       true, ""},
      {"V20",
       {},
       [](auto& l) { l.spec.network_config->subdomain_policy.reset(); },
       false,
       "spec.networkConfig.subdomainPolicy: Invalid value: \"Shared\": cannot set subdomainPolicy "
       "as null"},
  };
  for (const auto& c : cases) {
    LeaderWorkerSet old_lws = DefaultLws();
    if (c.old_mutate) c.old_mutate(old_lws);
    LeaderWorkerSet new_lws = old_lws;
    if (c.new_mutate) c.new_mutate(new_lws);
    ErrorList errs = ValidateLeaderWorkerSetUpdate(new_lws, old_lws);
    if (c.accept) {
      EXPECT_TRUE(errs.empty()) << c.id << ":\n" << Describe(errs);
    } else {
      ASSERT_FALSE(errs.empty()) << c.id;
      EXPECT_EQ(errs[0].Error(), c.want_first) << c.id << ":\n" << Describe(errs);
    }
  }
}

TEST(LwsValidationTest, S91AndS92NilNetworkConfigIsDefaultedBeforeValidation) {
  LeaderWorkerSet old_lws = DefaultLws();
  old_lws.spec.network_config.reset();
  DefaultLeaderWorkerSet(&old_lws);  // S91: created with nil networkConfig -> Shared
  LeaderWorkerSet updated = old_lws;
  updated.spec.network_config->subdomain_policy = kSubdomainUniquePerReplica;
  EXPECT_TRUE(ValidateLeaderWorkerSetUpdate(updated, old_lws).empty());
  updated.spec.network_config->subdomain_policy.reset();  // S92: re-defaulted to Shared
  DefaultLeaderWorkerSet(&updated);
  EXPECT_EQ(*updated.spec.network_config->subdomain_policy, kSubdomainShared);
  EXPECT_TRUE(ValidateLeaderWorkerSetUpdate(updated, old_lws).empty());
}

TEST(LwsValidationTest, StatusCarriesCausesForEveryError) {
  LeaderWorkerSet lws = DefaultLws();
  lws.spec.replicas = -1;
  lws.spec.leader_worker_template.size = 0;
  Status s = InvalidStatus(kLwsQualifiedKind, lws.metadata.name, ValidateLeaderWorkerSet(lws));
  EXPECT_EQ(s.code(), Code::kInvalid);
  EXPECT_EQ(s.http_code(), 422);
  EXPECT_EQ(
      s.message(),
      "LeaderWorkerSet.leaderworkerset.x-k8s.io \"test-sample\" is invalid: [spec.replicas: "
      "Invalid value: -1: replicas must be equal or greater than 0, "
      "spec.leaderWorkerTemplate.size: Invalid value: 0: size must be equal or greater than 1]");
  ASSERT_EQ(s.causes().size(), 2u);
  EXPECT_EQ(s.causes()[1].field, "spec.leaderWorkerTemplate.size");
  EXPECT_EQ(s.causes()[1].type, "FieldValueInvalid");
}

}  // namespace
}  // namespace lws::api
