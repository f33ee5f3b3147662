// The revision hash and names (revision.h, naming.h). Cases from upstream kubernetes-sigs/lws
// pkg/utils/disaggregatedset/naming_test.go: TestComputeRevisionV1Compatibility (the golden
// value), TestGenerateName and TestGenerateLabels.
#include "controllers/disaggregatedset/revision.h"

#include <gtest/gtest.h>

#include "api/codec.h"
#include "controllers/disaggregatedset/naming.h"

namespace lws::disaggregatedset {
namespace {

api::DisaggregatedSet GoldenSet() {
  api::Json role = {
      {"spec",
       {{"startupPolicy", "LeaderCreated"},
        {"leaderWorkerTemplate",
         {{"size", 2},
          {"workerTemplate",
           {{"spec", {{"containers", {{{"name", "main"}, {"image", "image:v1"}}}}}}}}}}}}};
  api::Json prefill = role, decode = role;
  prefill["name"] = "prefill";
  decode["name"] = "decode";
  api::Json json = {{"metadata", {{"name", "ds"}}}, {"spec", {{"roles", {prefill, decode}}}}};
  api::DisaggregatedSet ds;
  EXPECT_TRUE(api::DecodeInto(json, &ds).empty());
  return ds;
}

TEST(RevisionTest, UpstreamV1CompatibilityGoldenValue) {
  api::DisaggregatedSet ds = GoldenSet();
  Result<std::string> bytes = RevisionBytes(ds);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  const std::string worker =
      R"({"metadata":{},"spec":{"containers":[{"name":"main","image":"image:v1","resources":{}}]}})";
  EXPECT_EQ(*bytes, R"([{"name":"prefill","template":{"workerTemplate":)" + worker +
                        R"(,"size":2}},{"name":"decode","template":{"workerTemplate":)" + worker +
                        R"(,"size":2}}])");
  EXPECT_EQ(*ComputeRevision(ds), "c51abc75");
}

TEST(RevisionTest, OnlyNamesAndTemplatesCount) {
  api::DisaggregatedSet ds = GoldenSet();
  const std::string before = *ComputeRevision(ds);
  ds.spec.roles[0].spec.replicas = 7;
  ds.spec.roles[0].metadata.labels["team"] = "a";
  ds.spec.slices = 3;
  EXPECT_EQ(*ComputeRevision(ds), before);
  ds.spec.roles[0].spec.leader_worker_template.size = 3;
  EXPECT_NE(*ComputeRevision(ds), before);
  ds = GoldenSet();
  std::swap(ds.spec.roles[0], ds.spec.roles[1]);
  EXPECT_NE(*ComputeRevision(ds), before) << "spec order is hashed";
}

TEST(NamingTest, UpstreamGenerateNameAndLabels) {
  EXPECT_EQ(LwsName("ds", 0, "abcd1234", "prefill"), "ds-0-abcd1234-prefill");
  EXPECT_EQ(LwsName("ds", 3, "abcd1234", "decode"), "ds-3-abcd1234-decode");
  EXPECT_EQ(LegacyLwsName("ds", "abcd1234", "decode"), "ds-abcd1234-decode");
  EXPECT_EQ(ServiceName("ds-0-abcd1234-decode"), "ds-0-abcd1234-decode-prv");
  api::StringMap labels = DsLabels("ds", 2, "abcd1234", "decode");
  EXPECT_EQ(labels.size(), 5u);
  EXPECT_EQ(api::ValueOf(labels, "app"), "ds-2-decode");
  EXPECT_EQ(api::ValueOf(labels, api::kDsRoleLabel), "decode");
  EXPECT_EQ(api::ValueOf(labels, api::kDsSliceLabel), "2");
  EXPECT_EQ(api::ValueOf(labels, api::kDsNameLabel), "ds");
  EXPECT_EQ(api::ValueOf(labels, api::kDsRevisionLabel), "abcd1234");
  EXPECT_EQ(SliceOfLabels(labels), 2);
  EXPECT_EQ(SliceOfLabels({}), 0) << "objects from before slices are slice 0";
  EXPECT_EQ(SliceOfLabels({{api::kDsSliceLabel, "x"}}), -1);
}

}  // namespace
}  // namespace lws::disaggregatedset
