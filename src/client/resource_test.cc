// client::Resource::Path: the namespace only for namespaced resources (api/resource_path_test.cc
// has the paths themselves).
#include "client/resource.h"

#include <gtest/gtest.h>

#include "api/resources.h"

namespace lws::client {
namespace {

TEST(ResourceTest, PathIgnoresTheNamespaceOfClusterScopedResources) {
  EXPECT_EQ(kNodes.Path("default", "n1"), "/api/v1/nodes/n1");
  EXPECT_EQ(kPods.Path("default", "p", "binding"), "/api/v1/namespaces/default/pods/p/binding");
  EXPECT_EQ(kPods.Path(""), "/api/v1/pods");  // every namespace
  EXPECT_EQ(kLeaderWorkerSets.Path("ns", "demo", "status"),
            "/apis/leaderworkerset.x-k8s.io/v1/namespaces/ns/leaderworkersets/demo/status");
}

TEST(ResourceTest, ResourceOfARegistryEntryKeepsItsScope) {
  api::ResourceInfo info;
  info.group = "apps";
  info.version = "v1";
  info.resource = "statefulsets";
  info.kind = "StatefulSet";
  Resource sts = ResourceOf(info);
  EXPECT_EQ(sts.ApiVersion(), "apps/v1");
  EXPECT_EQ(sts.Path("ns", "s"), "/apis/apps/v1/namespaces/ns/statefulsets/s");
  info = api::ResourceInfo{};
  info.version = "v1";
  info.resource = "nodes";
  info.namespaced = false;
  EXPECT_EQ(ResourceOf(info).Path("ns", "n1"), "/api/v1/nodes/n1");
}

}  // namespace
}  // namespace lws::client
