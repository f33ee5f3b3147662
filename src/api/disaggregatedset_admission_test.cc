// A DisaggregatedSet through the API server's whole admission path
// (api/disaggregatedset_admission.h): upstream's samples are admitted unchanged, the CRD's
// defaults and CEL rule apply, and the embedded CRD agrees with the LWS CRD it is built from.
#include "api/disaggregatedset_admission.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/disaggregatedset_crd.h"
#include "api/disaggregatedset_testing.h"
#include "api/disaggregatedset_types.h"
#include "api/lws_crd.h"
#include "api/schema.h"
#include "api/yaml.h"
#include "testdata/testdata_dir.h"

namespace lws::api {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every DisaggregatedSet document of testdata/disaggregatedset/upstream, as "file:line" -> object.
std::vector<std::pair<std::string, Json>> UpstreamSamples() {
  std::vector<std::pair<std::string, Json>> out;
  const fs::path root = TestdataDir() + "/disaggregatedset/upstream";
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".yaml") continue;
    auto docs = LoadYamlDocuments(ReadFile(entry.path()));
    EXPECT_TRUE(docs.ok()) << entry.path() << ": " << docs.status().message();
    if (!docs.ok()) continue;
    for (const auto& doc : *docs) {
      if (doc.value.value("kind", "") != kDsKind) continue;
      out.emplace_back(fs::relative(entry.path(), root).string() + ":" + std::to_string(doc.line),
                       doc.value);
    }
  }
  return out;
}

TEST(DisaggregatedSetAdmissionTest, UpstreamSamplesAreAdmittedUnchanged) {
  int admitted = 0;
  for (const auto& [where, sample] : UpstreamSamples()) {
    // The v1alpha1 sample is of upstream's first API, which no released CRD serves.
    if (sample.value("apiVersion", "") != kDsApiVersion) continue;
    Json object = sample;
    // kubectl names the namespace of an object that names none.
    if (!object["metadata"].contains("namespace")) object["metadata"]["namespace"] = "default";
    DsAdmission result = AdmitDisaggregatedSet(object);
    EXPECT_TRUE(result.errors.empty()) << where << ": " << AggregateMessage(result.errors);
    EXPECT_TRUE(result.unknown_fields.empty()) << where << ": " << result.unknown_fields[0];
    ++admitted;
  }
  EXPECT_EQ(admitted, 17) << "every v1 DisaggregatedSet of the upstream samples";
}

Json MinimalDs() { return testing::TwoRoleDs("ds"); }

TEST(DisaggregatedSetAdmissionTest, CrdDefaultsFillEachRolesLwsSpec) {
  DsAdmission result = AdmitDisaggregatedSet(MinimalDs());
  ASSERT_TRUE(result.errors.empty()) << AggregateMessage(result.errors);
  const Json& spec = result.object["spec"];
  EXPECT_EQ(spec["slices"], 1);
  const Json& role = spec["roles"][0]["spec"];
  EXPECT_EQ(role["replicas"], 1);
  EXPECT_EQ(role["leaderWorkerTemplate"]["size"], 1);
  EXPECT_EQ(role["startupPolicy"], "LeaderCreated");
  EXPECT_EQ(role["leaderWorkerTemplate"]["restartPolicy"], "RecreateGroupOnPodRestart");
  // rolloutStrategy has no default of its own, so nothing inside it is defaulted unless it is
  // given (sheet 1.2); given, its rollingUpdateConfiguration gets maxUnavailable 1, maxSurge 0.
  EXPECT_FALSE(role.contains("rolloutStrategy"));
  Json with_rollout = MinimalDs();
  with_rollout["spec"]["roles"][0]["spec"]["rolloutStrategy"] = {
      {"rollingUpdateConfiguration", {{"maxSurge", 2}}}};
  DsAdmission defaulted = AdmitDisaggregatedSet(with_rollout);
  ASSERT_TRUE(defaulted.errors.empty()) << AggregateMessage(defaulted.errors);
  EXPECT_EQ(defaulted.object["spec"]["roles"][0]["spec"]["rolloutStrategy"],
            (Json{{"type", "RollingUpdate"},
                  {"rollingUpdateConfiguration",
                   {{"maxSurge", 2}, {"maxUnavailable", 1}, {"partition", 0}}}}));
}

TEST(DisaggregatedSetAdmissionTest, SchemaErrorsComeBeforeTheWebhook) {
  Json one_role = MinimalDs();
  one_role["spec"]["roles"].erase(1);
  one_role["spec"]["roles"][0]["spec"]["rolloutStrategy"] = {
      {"rollingUpdateConfiguration", {{"partition", 3}}}};
  DsAdmission result = AdmitDisaggregatedSet(one_role);
  ASSERT_EQ(result.errors.size(), 1u) << AggregateMessage(result.errors);
  EXPECT_EQ(result.errors[0].Error(),
            "spec.roles: Invalid value: 1: spec.roles in body should have at least 2 items");

  Json duplicate = MinimalDs();
  duplicate["spec"]["roles"][1]["name"] = "prefill";
  EXPECT_THAT(AggregateMessage(AdmitDisaggregatedSet(duplicate).errors),
              ::testing::HasSubstr("spec.roles[1]: Duplicate value"));

  Json bad_name = MinimalDs();
  bad_name["spec"]["roles"][1]["name"] = "Decode";
  EXPECT_THAT(AggregateMessage(AdmitDisaggregatedSet(bad_name).errors),
              ::testing::HasSubstr("spec.roles[1].name: Invalid value: \"Decode\""));
}

TEST(DisaggregatedSetAdmissionTest, CelRuleKeepsNonExternalRolesAllZeroOrAllPositive) {
  const std::string message =
      "spec: Invalid value: \"object\": replicas must be zero for all non-External roles or "
      "non-zero for all non-External roles";
  Json mixed = MinimalDs();
  mixed["spec"]["roles"][0]["spec"]["replicas"] = 0;
  mixed["spec"]["roles"][1]["spec"]["replicas"] = 2;
  EXPECT_EQ(AggregateMessage(AdmitDisaggregatedSet(mixed).errors), message);

  Json all_zero = mixed;
  all_zero["spec"]["roles"][1]["spec"]["replicas"] = 0;
  EXPECT_TRUE(AdmitDisaggregatedSet(all_zero).errors.empty());

  // An External role is left out of the rule: its replicas come from its scaler.
  Json external = mixed;
  external["spec"]["roles"][0]["scaling"] = {{"mode", "External"}};
  DsAdmission result = AdmitDisaggregatedSet(external);
  EXPECT_TRUE(result.errors.empty()) << AggregateMessage(result.errors);
}

TEST(DisaggregatedSetAdmissionTest, WebhookWarningsReachTheCaller) {
  Json external = MinimalDs();
  external["spec"]["roles"][0]["scaling"] = {{"mode", "External"}};
  external["spec"]["roles"][0]["spec"]["replicas"] = 4;
  DsAdmission result = AdmitDisaggregatedSet(external);
  EXPECT_TRUE(result.errors.empty()) << AggregateMessage(result.errors);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_THAT(result.warnings[0], ::testing::HasSubstr("spec.replicas is ignored"));
}

// deploy/crd/disaggregatedset.x-k8s.io_disaggregatedsets.yaml is written by
// scripts/gen_disaggregatedset_crd.py from the LWS CRD; a changed LWS CRD needs it run again.
TEST(DisaggregatedSetAdmissionTest, RoleSpecSchemaIsTheLwsSpecSchema) {
  auto v1 = [](const Json& crd) -> const Json& {
    return crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
  };
  Json role_spec = v1(DisaggregatedSetCrd())["properties"]["spec"]["properties"]["roles"]["items"]
                                            ["properties"]["spec"];
  Json lws_spec = v1(LwsCrd())["properties"]["spec"];
  role_spec.erase("description");
  lws_spec.erase("description");
  EXPECT_TRUE(role_spec == lws_spec) << "run scripts/gen_disaggregatedset_crd.py";
}

TEST(DisaggregatedSetAdmissionTest, RoleScalerCrdDefaultsReplicasToZero) {
  Json scaler = {{"apiVersion", "disaggregatedset.x-k8s.io/v1"},
                 {"kind", "DisaggregatedSetRoleScaler"},
                 {"metadata", {{"name", "ds-prefill"}}},
                 {"spec", Json::object()}};
  RoleScalerStructuralSchema().ApplyDefaults(&scaler);
  EXPECT_EQ(scaler["spec"]["replicas"], 0);
  EXPECT_TRUE(RoleScalerStructuralSchema().Validate(scaler).empty());
}

}  // namespace
}  // namespace lws::api
