// The headless Services of a slice (services.h; upstream service_manager.go, sheet 3.6).
#include "controllers/disaggregatedset/services.h"

#include <gtest/gtest.h>

#include "api/codec.h"

namespace lws::disaggregatedset {
namespace {

api::DisaggregatedSet TwoRoles() {
  api::DisaggregatedSet ds;
  ds.metadata.name = "ds";
  ds.metadata.namespace_ = "ns";
  ds.metadata.uid = "uid-1";
  ds.spec.roles.resize(2);
  ds.spec.roles[0].name = "prefill";
  ds.spec.roles[1].name = "decode";
  return ds;
}

OwnedLws Lws(const std::string& role, const std::string& revision, int ready) {
  OwnedLws l;
  l.name = "ds-0-" + revision + "-" + role;
  l.role = role;
  l.revision = revision;
  l.ready_replicas = ready;
  return l;
}

TEST(PlanServicesTest, NothingChangesUntilTheTargetIsReadyOnEveryRole) {
  std::vector<OwnedLws> lws = {Lws("prefill", "new", 1), Lws("decode", "new", 0),
                               Lws("prefill", "old", 2), Lws("decode", "old", 2)};
  ServicePlan plan = PlanServices(TwoRoles(), 0, "new", lws, {{"ds-0-old-prefill-prv", "old", 0}});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_TRUE(plan.delete_names.empty());
}

TEST(PlanServicesTest, ReadyTargetGetsServicesAndDrainedRevisionsLoseThem) {
  std::vector<OwnedLws> lws = {Lws("prefill", "new", 1), Lws("decode", "new", 1),
                               Lws("prefill", "old", 0), Lws("decode", "old", 1)};
  std::vector<OwnedService> services = {{"ds-0-old-prefill-prv", "old", 0},
                                        {"ds-0-old-decode-prv", "old", 0},
                                        {"ds-0-new-prefill-prv", "new", 0},
                                        {"ds-1-old-decode-prv", "old", 1}};
  ServicePlan plan = PlanServices(TwoRoles(), 0, "new", lws, services);
  ASSERT_EQ(plan.create.size(), 1u) << "prefill's Service exists already";
  const api::Service& s = plan.create[0];
  EXPECT_EQ(s.metadata.name, "ds-0-new-decode-prv");
  EXPECT_EQ(s.spec.cluster_ip, "None");
  EXPECT_EQ(api::Json(s.spec.selector), (api::Json{{"disaggregatedset.x-k8s.io/name", "ds"},
                                                   {"disaggregatedset.x-k8s.io/revision", "new"},
                                                   {"disaggregatedset.x-k8s.io/role", "decode"},
                                                   {"disaggregatedset.x-k8s.io/slice", "0"}}));
  EXPECT_TRUE(s.metadata.owner_references[0].IsController());
  // "old" is no longer ready on prefill; slice 1's Services are another slice's business.
  EXPECT_EQ(plan.delete_names,
            (std::vector<std::string>{"ds-0-old-prefill-prv", "ds-0-old-decode-prv"}));
}

}  // namespace
}  // namespace lws::disaggregatedset
