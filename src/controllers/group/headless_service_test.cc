#include "controllers/group/headless_service.h"

#include <gtest/gtest.h>

#include "controllers/group/group_testing.h"

namespace lws::controllers {
namespace {

using testing::Leader;
using testing::Lws;

void ExpectControllerRef(const api::Service& service, const std::string& api_version,
                         const std::string& kind, const std::string& name, const std::string& uid) {
  ASSERT_EQ(service.metadata.owner_references.size(), 1u);
  const api::OwnerReference& ref = service.metadata.owner_references[0];
  EXPECT_EQ(ref.api_version, api_version);
  EXPECT_EQ(ref.kind, kind);
  EXPECT_EQ(ref.name, name);
  EXPECT_EQ(ref.uid, uid);
  EXPECT_EQ(ref.controller, std::optional<bool>(true));
  EXPECT_EQ(ref.block_owner_deletion, std::optional<bool>(true));
}

TEST(HeadlessServiceTest, SharedServiceIsNamedAfterAndOwnedByTheLws) {
  api::Service service = SharedHeadlessService(Lws());
  EXPECT_EQ(service.metadata.name, "test-sample");
  EXPECT_EQ(service.metadata.namespace_, "default");
  EXPECT_EQ(service.metadata.labels, (api::StringMap{{api::kSetNameLabel, "test-sample"}}));
  EXPECT_EQ(service.spec.selector, (api::StringMap{{api::kSetNameLabel, "test-sample"}}));
  EXPECT_EQ(service.spec.cluster_ip, "None");
  EXPECT_TRUE(service.spec.publish_not_ready_addresses);
  ExpectControllerRef(service, "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "test-sample",
                      "lws-uid");
}

TEST(HeadlessServiceTest, GroupServiceSelectsTheGroupAndIsOwnedByTheLeader) {
  api::Pod leader = Leader("3");
  api::Service service = GroupHeadlessService(Lws(), leader);
  EXPECT_EQ(service.metadata.name, "test-sample-3");
  EXPECT_EQ(service.metadata.namespace_, "default");
  EXPECT_EQ(service.metadata.labels, (api::StringMap{{api::kSetNameLabel, "test-sample"}}));
  EXPECT_EQ(service.spec.selector,
            (api::StringMap{{api::kSetNameLabel, "test-sample"}, {api::kGroupIndexLabel, "3"}}));
  EXPECT_EQ(service.spec.cluster_ip, "None");
  EXPECT_TRUE(service.spec.publish_not_ready_addresses);
  ExpectControllerRef(service, "v1", "Pod", "test-sample-3", "test-sample-3-uid");
}

TEST(HeadlessServiceTest, EncodesAsAHeadlessService) {
  api::Json json = api::Encode(
      HeadlessService("ns", "svc", "lws", {{"a", "b"}}, ControllerRefTo("v1", "Pod", "p", "u")));
  EXPECT_EQ(json["apiVersion"], "v1");
  EXPECT_EQ(json["kind"], "Service");
  EXPECT_EQ(json["spec"]["clusterIP"], "None");
  EXPECT_EQ(json["spec"]["publishNotReadyAddresses"], true);
  EXPECT_EQ(json["spec"]["selector"], api::Json({{"a", "b"}}));
  EXPECT_EQ(json["metadata"]["ownerReferences"][0]["blockOwnerDeletion"], true);
}

}  // namespace
}  // namespace lws::controllers
