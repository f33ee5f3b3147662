// api::ResourcePath, the paths kube-apiserver routes (k8s.io/apiserver's request info:
// /api/<version>/... for the core group, /apis/<group>/<version>/... for the others), and
// client::Resource::Path built on it.
#include "api/resource_path.h"

#include <gtest/gtest.h>

namespace lws::api {
namespace {

TEST(ResourcePathTest, CoreGroupUnderApiNamedGroupsUnderApis) {
  EXPECT_EQ(ResourcePath("", "v1", "default", "pods"), "/api/v1/namespaces/default/pods");
  EXPECT_EQ(ResourcePath("apps", "v1", "default", "statefulsets", "demo"),
            "/apis/apps/v1/namespaces/default/statefulsets/demo");
}

TEST(ResourcePathTest, NoNamespaceForClusterScopedOrEveryNamespace) {
  EXPECT_EQ(ResourcePath("", "v1", "", "nodes", "n1"), "/api/v1/nodes/n1");
  EXPECT_EQ(ResourcePath("leaderworkerset.x-k8s.io", "v1", "", "leaderworkersets"),
            "/apis/leaderworkerset.x-k8s.io/v1/leaderworkersets");
}

TEST(ResourcePathTest, SubresourceFollowsTheName) {
  EXPECT_EQ(ResourcePath("", "v1", "default", "pods", "p", "eviction"),
            "/api/v1/namespaces/default/pods/p/eviction");
  EXPECT_EQ(
      ResourcePath("leaderworkerset.x-k8s.io", "v1", "ns", "leaderworkersets", "demo", "scale"),
      "/apis/leaderworkerset.x-k8s.io/v1/namespaces/ns/leaderworkersets/demo/scale");
  // Without a name there is nothing for a subresource to follow.
  EXPECT_EQ(ResourcePath("", "v1", "default", "pods", "", "status"),
            "/api/v1/namespaces/default/pods");
}

}  // namespace
}  // namespace lws::api
