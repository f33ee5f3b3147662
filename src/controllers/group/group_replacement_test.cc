// The group-replacement gate's decision. The cases are upstream's
// pkg/controllers/pod_controller_test.go TestReconcileGroupReplacementGate (LWS of 2 groups of
// 2, Hash; every pod labelled with its group's index, here the leader's name).
#include "controllers/group/group_replacement.h"

#include <gtest/gtest.h>

#include "api/group_identity.h"
#include "api/lws_testing.h"

namespace lws::controllers {
namespace {

struct PodCase {
  std::string name;
  bool leader = true;
  bool gated = false;
  bool terminating = false;
  std::string created = "2026-12-05T10:00:00Z";
  std::string group;  // "" = the pod's own name
};

api::Pod MakePod(const PodCase& c) {
  api::Pod pod;
  pod.metadata.name = c.name;
  pod.metadata.namespace_ = "default";
  pod.metadata.creation_timestamp = c.created;
  pod.metadata.labels[api::kSetNameLabel] = "lws";
  pod.metadata.labels[api::kWorkerIndexLabel] = c.leader ? "0" : "1";
  pod.metadata.labels[api::kGroupIndexLabel] = c.group.empty() ? c.name : c.group;
  if (c.terminating) pod.metadata.deletion_timestamp = "2026-12-05T10:00:05Z";
  if (c.gated) {
    pod.spec.rest["schedulingGates"] =
        api::Json::array({{{"name", "example.com/other"}}, {{"name", api::kGroupReplacementGate}}});
  }
  return pod;
}

bool Admitted(const std::string& policy, const std::vector<PodCase>& cases,
              const std::string& reconciled) {
  api::LeaderWorkerSet lws = api::testing::DefaultLws();
  lws.spec.replicas = 2;
  lws.spec.leader_worker_template.size = 2;
  lws.spec.group_identity = api::kGroupIdentityHash;
  lws.spec.group_replacement_policy = policy;
  std::vector<api::Pod> pods;
  for (const PodCase& c : cases) pods.push_back(MakePod(c));
  std::vector<const api::Pod*> refs;
  const api::Pod* leader = nullptr;
  for (const api::Pod& pod : pods) {
    refs.push_back(&pod);
    if (pod.metadata.name == reconciled) leader = &pod;
  }
  EXPECT_NE(leader, nullptr);
  return DecideGroupReplacement(lws, refs, *leader).admit;
}

const std::string kPost = api::kGroupReplacementPostTermination;

TEST(GroupReplacementTest, UpstreamCases) {
  const PodCase fresh{.name = "new", .gated = true};
  const PodCase old{.name = "old", .terminating = true};
  EXPECT_TRUE(Admitted(api::kGroupReplacementImmediate, {fresh, old}, "new"));  // 1
  EXPECT_TRUE(Admitted(kPost, {fresh, {.name = "running"}}, "new"));            // 2
  EXPECT_FALSE(Admitted(kPost, {fresh, old}, "new"));                           // 3
  const PodCase first{.name = "first", .gated = true, .created = "2026-12-05T10:00:00Z"};
  const PodCase second{.name = "second", .gated = true, .created = "2026-12-05T10:00:01Z"};
  EXPECT_TRUE(Admitted(kPost, {first, second, old}, "first"));    // 4
  EXPECT_FALSE(Admitted(kPost, {first, second, old}, "second"));  // 5
  EXPECT_FALSE(Admitted(kPost,
                        {first,
                         second,
                         {.name = "old-a", .terminating = true},
                         {.name = "old-b", .terminating = true}},
                        "first"));  // 6
  // 7: a worker whose leader is already gone still holds its group's nodes.
  EXPECT_FALSE(Admitted(
      kPost, {fresh, {.name = "old-1", .leader = false, .terminating = true, .group = "old"}},
      "new"));
  // 8: a terminating leader and its terminating worker are one group.
  EXPECT_TRUE(Admitted(
      kPost,
      {first, second, old, {.name = "old-1", .leader = false, .terminating = true, .group = "old"}},
      "first"));
  // 9: a terminating worker under a live leader tears nothing down.
  EXPECT_TRUE(
      Admitted(kPost,
               {fresh,
                {.name = "running"},
                {.name = "running-1", .leader = false, .terminating = true, .group = "running"}},
               "new"));
}

TEST(GroupReplacementTest, OnlyTheReplacementGateIsRemoved) {
  api::Pod pod = MakePod({.name = "new", .gated = true});
  EXPECT_TRUE(HasSchedulingGate(pod, api::kGroupReplacementGate));
  EXPECT_EQ(GatesWithoutGroupReplacement(pod), api::Json::array({{{"name", "example.com/other"}}}));
  EXPECT_FALSE(HasSchedulingGate(MakePod({.name = "plain"}), api::kGroupReplacementGate));
}

}  // namespace
}  // namespace lws::controllers
