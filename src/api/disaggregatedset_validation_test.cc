// The DisaggregatedSet webhook's checks (api/disaggregatedset_validation.h). Cases ported from
// upstream kubernetes-sigs/lws pkg/webhooks/disaggregatedset/disaggregatedset_webhook_test.go
// (TestValidateCreate, TestValidateUpdate, TestValidateExternalScalingRules) and
// test/integration/webhooks/disaggregatedset_test.go ("disaggregatedset placement policy
// validation"), with the messages of docs/disaggregatedset-upstream.md section 2.2.
#include "api/disaggregatedset_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/codec.h"
#include "api/disaggregatedset_crd.h"
#include "api/disaggregatedset_testing.h"
#include "api/schema.h"

namespace lws::api {
namespace {

using ::testing::HasSubstr;

// Upstream's test object: roles prefill and decode, 2 replicas each, size 1.
Json TwoRoles() {
  Json ds = testing::TwoRoleDs("test-ds");
  for (Json& role : ds["spec"]["roles"]) {
    role["spec"]["replicas"] = 2;
    role["spec"]["leaderWorkerTemplate"]["size"] = 1;
  }
  return ds;
}

// The webhook sees objects after the CRD's defaults: a rollingUpdateConfiguration given at all
// gets maxUnavailable 1 and maxSurge 0. (Upstream's unit tests call the webhook with Go structs
// instead; their "partition set to 0" case predates the maxSurge/maxUnavailable check and would
// fail it without the defaults.)
DsValidation Validate(Json object) {
  DisaggregatedSetStructuralSchema().ApplyDefaults(&object);
  DisaggregatedSet ds;
  ErrorList decode = DecodeInto(object, &ds);
  EXPECT_TRUE(decode.empty()) << AggregateMessage(decode);
  return ValidateDisaggregatedSet(ds);
}

std::string Message(const DsValidation& v) { return AggregateMessage(v.errors); }

Json& Prefill(Json& ds) { return ds["spec"]["roles"][0]; }
Json& Decode(Json& ds) { return ds["spec"]["roles"][1]; }

TEST(DisaggregatedSetValidationTest, UpstreamValidateCreateCases) {
  EXPECT_TRUE(Validate(TwoRoles()).errors.empty()) << "no rolloutStrategy";

  Json rolling = TwoRoles();
  Prefill(rolling)["spec"]["rolloutStrategy"] = {
      {"type", "RollingUpdate"},
      {"rollingUpdateConfiguration", {{"maxSurge", 1}, {"maxUnavailable", 0}}}};
  EXPECT_TRUE(Validate(rolling).errors.empty()) << Message(Validate(rolling));

  Json zero_partition = TwoRoles();
  Prefill(zero_partition)["spec"]["rolloutStrategy"] = {
      {"type", "RollingUpdate"}, {"rollingUpdateConfiguration", {{"partition", 0}}}};
  EXPECT_TRUE(Validate(zero_partition).errors.empty()) << Message(Validate(zero_partition));

  Json partition = TwoRoles();
  Prefill(partition)["spec"]["rolloutStrategy"] = {
      {"type", "RollingUpdate"}, {"rollingUpdateConfiguration", {{"partition", 1}}}};
  EXPECT_EQ(Message(Validate(partition)),
            "spec.roles[0].spec.rolloutStrategy.rollingUpdateConfiguration.partition: Forbidden: "
            "partition is not supported by DisaggregatedSet; rolling updates are managed across "
            "roles by the DisaggregatedSet controller");

  Json type = TwoRoles();
  Prefill(type)["spec"]["rolloutStrategy"] = {{"type", "SomeOtherType"}};
  EXPECT_EQ(Message(Validate(type)),
            "spec.roles[0].spec.rolloutStrategy.type: Unsupported value: \"SomeOtherType\": "
            "supported values: \"RollingUpdate\", \"\"");

  Json both = TwoRoles();
  Prefill(both)["spec"]["rolloutStrategy"] = {{"type", "InvalidType"},
                                              {"rollingUpdateConfiguration", {{"partition", 5}}}};
  DsValidation v = Validate(both);
  ASSERT_EQ(v.errors.size(), 2u);
  EXPECT_THAT(v.errors[0].Error(), HasSubstr("type"));
  EXPECT_THAT(v.errors[1].Error(), HasSubstr("partition"));
}

TEST(DisaggregatedSetValidationTest, UpdateRunsTheSameChecksOnTheNewObject) {
  // TestValidateUpdate: valid -> partition 1 is rejected; nothing compares with the old object,
  // so renaming a role is allowed.
  Json renamed = TwoRoles();
  Decode(renamed)["name"] = "generate";
  EXPECT_TRUE(Validate(renamed).errors.empty());
}

TEST(DisaggregatedSetValidationTest, MaxSurgeAndMaxUnavailableAsTheLwsWebhookChecksThem) {
  Json zero = TwoRoles();
  Prefill(zero)["spec"]["rolloutStrategy"] = {
      {"type", "RollingUpdate"},
      {"rollingUpdateConfiguration", {{"maxSurge", 0}, {"maxUnavailable", 0}}}};
  EXPECT_EQ(Message(Validate(zero)),
            "spec.roles[0].spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: "
            "Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: must not be 0 when "
            "`maxSurge` is 0");

  // A role of 0 replicas skips these checks.
  Prefill(zero)["spec"]["replicas"] = 0;
  EXPECT_TRUE(Validate(zero).errors.empty());

  Json percent = TwoRoles();
  Prefill(percent)["spec"]["rolloutStrategy"] = {
      {"type", "RollingUpdate"},
      {"rollingUpdateConfiguration", {{"maxSurge", "150%"}, {"maxUnavailable", 0}}}};
  EXPECT_THAT(Message(Validate(percent)), HasSubstr("must not be greater than 100%"));
}

Json ExternalPrefill(Json ds) {
  Prefill(ds)["scaling"] = {{"mode", "External"}};
  return ds;
}

TEST(DisaggregatedSetValidationTest, UpstreamExternalScalingRules) {
  Json replicas = ExternalPrefill(TwoRoles());
  Prefill(replicas)["spec"]["replicas"] = 3;
  DsValidation v = Validate(replicas);
  EXPECT_TRUE(v.errors.empty());
  ASSERT_EQ(v.warnings.size(), 1u);
  EXPECT_EQ(v.warnings[0],
            "role \"prefill\" sets scaling.mode: External and spec.replicas: 3 \u2014 "
            "spec.replicas is ignored; drive replicas via DisaggregatedSetRoleScaler "
            "\"test-ds-prefill\" instead");

  Json one = ExternalPrefill(TwoRoles());
  Prefill(one)["spec"]["replicas"] = 1;
  EXPECT_TRUE(Validate(one).warnings.empty()) << "the CRD's default never warns";

  Json slices = ExternalPrefill(TwoRoles());
  slices["spec"]["slices"] = 2;
  EXPECT_EQ(Message(Validate(slices)),
            "spec.slices: Forbidden: spec.slices > 1 is not supported while any role has "
            "scaling.mode: External (alpha restriction)");

  Json long_name = ExternalPrefill(TwoRoles());
  long_name["metadata"]["name"] = std::string(250, 'a');
  EXPECT_THAT(Message(Validate(long_name)),
              HasSubstr("spec.roles[0].name: Invalid value: \"prefill\": would produce scaler "
                        "name \"" +
                        std::string(250, 'a') + "-prefill\" exceeding 253 characters"));
}

TEST(DisaggregatedSetValidationTest, GeneratedNamesMustFitDns1035) {
  // Derived in the fact sheet (2.2.5): role prefill with 2 replicas and 1 slice allows a name of
  // 31 characters; 32 gives 64 characters and a combined limit of 38.
  Json fits = TwoRoles();
  fits["metadata"]["name"] = std::string(31, 'd');
  EXPECT_TRUE(Validate(fits).errors.empty()) << Message(Validate(fits));

  Json too_long = TwoRoles();
  too_long["metadata"]["name"] = std::string(32, 'd');
  DsValidation v = Validate(too_long);
  ASSERT_EQ(v.errors.size(), 1u) << "decode is one letter shorter than prefill";
  EXPECT_EQ(v.errors[0].Error(),
            "spec.roles[0].name: Invalid value: \"prefill\": the generated names (64 chars) would "
            "exceed the DNS-1035 limit of 63 characters (accounting for service name and "
            "StatefulSet revision hash labels); reduce the DisaggregatedSet name and/or role name "
            "(combined limit: 38 characters)");

  // 11 replicas need two digits of group index: the limit drops by one.
  Json more = TwoRoles();
  more["metadata"]["name"] = std::string(31, 'd');
  Prefill(more)["spec"]["replicas"] = 11;
  EXPECT_THAT(Message(Validate(more)), HasSubstr("combined limit: 37 characters"));
}

Json WithPolicy(Json ds, const std::string& type, const std::string& topology) {
  ds["spec"]["placementPolicy"] = {{"type", type}, {"topology", topology}};
  return ds;
}

TEST(DisaggregatedSetValidationTest, UpstreamPlacementPolicyCases) {
  const std::string exclusive = "leaderworkerset.sigs.k8s.io/exclusive-topology";
  const std::string subgroup = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
  EXPECT_TRUE(
      Validate(WithPolicy(TwoRoles(), "ExclusiveSlice", "kubernetes.io/hostname")).errors.empty());

  Json annotation_only = TwoRoles();
  Prefill(annotation_only)["metadata"]["annotations"][exclusive] = "rack";
  EXPECT_TRUE(Validate(annotation_only).errors.empty());

  Json both = WithPolicy(annotation_only, "ExclusiveSlice", "kubernetes.io/hostname");
  EXPECT_EQ(Message(Validate(both)),
            "spec.roles[0]: Forbidden: the \"" + exclusive +
                "\" annotation must not be combined with a non-None spec.placementPolicy.type "
                "(ExclusiveSlice)");

  Json worker = WithPolicy(TwoRoles(), "ExclusiveTopology", "rack");
  Decode(worker)["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["annotations"]
                [exclusive] = "rack";
  EXPECT_THAT(Message(Validate(worker)), HasSubstr("spec.roles[1]: Forbidden: the \"" + exclusive));

  Json sub = WithPolicy(TwoRoles(), "ExclusiveSlice", "rack");
  Decode(sub)["metadata"]["annotations"][subgroup] = "rack";
  EXPECT_THAT(Message(Validate(sub)), HasSubstr(subgroup));

  EXPECT_EQ(Message(Validate(WithPolicy(TwoRoles(), "ExclusiveSlice", ""))),
            "spec.placementPolicy.topology: Required value: topology is required when type is "
            "not None");
  EXPECT_TRUE(Validate(WithPolicy(TwoRoles(), "None", "")).errors.empty());
}

}  // namespace
}  // namespace lws::api
