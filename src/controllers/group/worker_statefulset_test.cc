#include "controllers/group/worker_statefulset.h"

#include <gtest/gtest.h>

#include <functional>

#include "api/revision.h"
#include "controllers/group/group_testing.h"

namespace lws::controllers {
namespace {

using api::Json;
using testing::Lws;

// The leader pod of S164: "test-sample" with group-index 1, group-key test-key.
api::Pod S164Leader() {
  api::Pod pod = testing::MakePod("test-sample", "0", "1", "rev-key");
  pod.metadata.labels[api::kGroupUniqueHashLabel] = "test-key";
  return pod;
}

const api::StringMap kS164Labels = {{api::kSetNameLabel, "test-sample"},
                                    {api::kGroupIndexLabel, "1"},
                                    {api::kGroupUniqueHashLabel, "test-key"},
                                    {api::kRevisionLabel, "rev-key"}};
const api::StringMap kS164Selector = {{api::kSetNameLabel, "test-sample"},
                                      {api::kGroupIndexLabel, "1"},
                                      {api::kGroupUniqueHashLabel, "test-key"}};

api::StatefulSet Build(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  return BuildWorkerStatefulSet(lws, lws, leader);
}

struct S164Case {
  std::string name;
  std::function<void(Json&)> edit;
  std::int32_t replicas;
  api::StringMap sts_annotations;
  api::StringMap template_annotations;
};

void PrintTo(const S164Case& c, std::ostream* os) { *os << c.name; }

class S164Test : public ::testing::TestWithParam<S164Case> {};

TEST_P(S164Test, WorkerStatefulSetApplyConfiguration) {
  const S164Case& c = GetParam();
  api::StatefulSet sts = Build(Lws(c.edit), S164Leader());
  EXPECT_EQ(sts.metadata.name, "test-sample");
  EXPECT_EQ(sts.metadata.namespace_, "default");
  api::StringMap sts_labels = kS164Labels;
  sts_labels[api::kRoleLabel] = "worker";  // the StatefulSet's only: not the pod template's
  EXPECT_EQ(sts.metadata.labels, sts_labels);
  EXPECT_EQ(sts.metadata.annotations, c.sts_annotations);
  EXPECT_EQ(sts.spec.replicas, std::optional<std::int32_t>(c.replicas));
  ASSERT_TRUE(sts.spec.selector.has_value());
  EXPECT_EQ(sts.spec.selector->match_labels, kS164Selector);
  EXPECT_TRUE(sts.spec.selector->match_expressions.empty());
  EXPECT_EQ(sts.spec.template_.metadata.labels, kS164Labels);
  EXPECT_EQ(sts.spec.template_.metadata.annotations, c.template_annotations);
  ASSERT_EQ(sts.spec.template_.spec.containers.size(), 1u);
  EXPECT_EQ(sts.spec.template_.spec.containers[0].name, "worker");
  ASSERT_TRUE(sts.spec.ordinals.has_value());
  EXPECT_EQ(sts.spec.ordinals->start, 1);
  EXPECT_EQ(sts.spec.service_name, "test-sample");
  EXPECT_EQ(sts.spec.pod_management_policy, "Parallel");
  EXPECT_EQ(sts.spec.update_strategy.type, "");
  EXPECT_FALSE(sts.spec.update_strategy.rolling_update.has_value());
  ASSERT_EQ(sts.metadata.owner_references.size(), 1u);
  const api::OwnerReference& owner = sts.metadata.owner_references[0];
  EXPECT_EQ(owner.api_version, "v1");
  EXPECT_EQ(owner.kind, "Pod");
  EXPECT_EQ(owner.name, "test-sample");
  EXPECT_EQ(owner.uid, "test-sample-uid");
  EXPECT_TRUE(owner.IsController());
  EXPECT_EQ(owner.block_owner_deletion, std::optional<bool>(true));
}

const std::string kSize = api::kSizeAnnotation;
const std::string kLeaderName = api::kLeaderPodNameAnnotation;

INSTANTIATE_TEST_SUITE_P(
    S164, S164Test,
    ::testing::Values(
        S164Case{"a_size1",
                 [](Json& j) { j["spec"]["leaderWorkerTemplate"]["size"] = 1; },
                 0,
                 {},
                 {{kSize, "1"}, {kLeaderName, "test-sample"}}},
        S164Case{"b_size2_exclusive",
                 [](Json& j) {
                   j["metadata"]["annotations"] = {{api::kExclusiveKeyAnnotation, "topologyKey"}};
                 },
                 1,
                 {{api::kExclusiveKeyAnnotation, "topologyKey"}},
                 {{kSize, "2"},
                  {kLeaderName, "test-sample"},
                  {api::kExclusiveKeyAnnotation, "topologyKey"}}},
        S164Case{"c_subgroup_leader_excluded",
                 [](Json& j) {
                   j["metadata"]["annotations"] = {
                       {api::kSubGroupExclusiveKeyAnnotation, "topologyKey"}};
                   j["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] = {
                       {"subGroupSize", 2}, {"subGroupPolicyType", "LeaderExcluded"}};
                 },
                 1,
                 {{api::kSubGroupExclusiveKeyAnnotation, "topologyKey"}},
                 {{kSize, "2"},
                  {kLeaderName, "test-sample"},
                  {api::kSubGroupExclusiveKeyAnnotation, "topologyKey"},
                  {api::kSubGroupSizeAnnotation, "2"},
                  {api::kSubGroupPolicyTypeAnnotation, "LeaderExcluded"}}}),
    [](const auto& info) { return info.param.name; });

TEST(WorkerStatefulSetTest, S164dClaimTemplatesAreReducedAndRetentionCopied) {
  api::LeaderWorkerSet lws = Lws([](Json& j) {
    auto& t = j["spec"]["leaderWorkerTemplate"];
    t["size"] = 1;
    t["volumeClaimTemplates"] = Json::parse(R"([{
      "metadata": {"name": "pvc1", "labels": {"dropped": "yes"}},
      "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
               "volumeMode": "Filesystem",
               "selector": {"matchLabels": {"dropped": "yes"}},
               "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}}}}])");
    t["persistentVolumeClaimRetentionPolicy"] = {{"whenDeleted", "Retain"},
                                                 {"whenScaled", "Delete"}};
  });
  api::StatefulSet sts = Build(lws, S164Leader());
  ASSERT_EQ(sts.spec.volume_claim_templates.size(), 1u);
  Json claim = api::Encode(sts.spec.volume_claim_templates[0]);
  EXPECT_EQ(claim, Json::parse(R"({
      "apiVersion": "v1", "kind": "PersistentVolumeClaim",
      "metadata": {"name": "pvc1", "namespace": "default"},
      "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
               "volumeMode": "Filesystem",
               "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}}}})"))
      << claim.dump();
  ASSERT_TRUE(sts.spec.persistent_volume_claim_retention_policy.has_value());
  EXPECT_EQ(sts.spec.persistent_volume_claim_retention_policy->when_deleted, "Retain");
  EXPECT_EQ(sts.spec.persistent_volume_claim_retention_policy->when_scaled, "Delete");
}

TEST(WorkerStatefulSetTest, NoClaimsNoRetentionPolicy) {
  api::StatefulSet sts = Build(Lws(), S164Leader());
  EXPECT_TRUE(sts.spec.volume_claim_templates.empty());
  EXPECT_FALSE(sts.spec.persistent_volume_claim_retention_policy.has_value());
}

TEST(WorkerStatefulSetTest, S157LwsMetadataPropagatesButControllerLabelsWin) {
  api::LeaderWorkerSet lws = Lws([](Json& j) {
    j["metadata"]["labels"] = {{"app", "inference"}, {api::kGroupIndexLabel, "user-value"}};
    j["metadata"]["annotations"] = {{"owner", "platform"}};
  });
  api::StatefulSet sts = Build(lws, S164Leader());
  api::StringMap want_labels = kS164Labels;
  want_labels["app"] = "inference";
  want_labels[api::kRoleLabel] = "worker";
  EXPECT_EQ(sts.metadata.labels, want_labels);
  EXPECT_EQ(sts.metadata.annotations, (api::StringMap{{"owner", "platform"}}));
  // The pod template carries only the group's labels, not the LWS object's.
  EXPECT_EQ(sts.spec.template_.metadata.labels, kS164Labels);
  EXPECT_EQ(sts.spec.template_.metadata.annotations.count("owner"), 0u);
}

TEST(WorkerStatefulSetTest, TemplateKeepsItsOwnMetadataAndNodeSelector) {
  api::LeaderWorkerSet lws = Lws([](Json& j) {
    auto& t = j["spec"]["leaderWorkerTemplate"]["workerTemplate"];
    t["metadata"] = {{"labels", {{"team", "a"}, {api::kSetNameLabel, "spoofed"}}},
                     {"annotations", {{"note", "x"}}}};
    t["spec"]["nodeSelector"] = {{"disk", "ssd"}};
  });
  api::StatefulSet sts = Build(lws, S164Leader());
  api::StringMap want_labels = kS164Labels;
  want_labels["team"] = "a";
  EXPECT_EQ(sts.spec.template_.metadata.labels, want_labels);
  EXPECT_EQ(sts.spec.template_.metadata.annotations.at("note"), "x");
  EXPECT_EQ(sts.spec.template_.spec.node_selector, (api::StringMap{{"disk", "ssd"}}));
}

TEST(WorkerStatefulSetTest, UniquePerReplicaUsesTheGroupService) {
  api::LeaderWorkerSet lws =
      Lws([](Json& j) { j["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica"; });
  api::Pod leader = testing::Leader("2");
  EXPECT_EQ(Build(lws, leader).spec.service_name, "test-sample-2");
  api::LeaderWorkerSet nil_config = Lws([](Json& j) { j["spec"].erase("networkConfig"); });
  EXPECT_EQ(Build(nil_config, leader).spec.service_name, "test-sample");
}

TEST(WorkerStatefulSetTest, LeaderRequestingTpusIsAnnotated) {
  api::Pod leader = S164Leader();
  EXPECT_EQ(Build(Lws(), leader)
                .spec.template_.metadata.annotations.count(api::kLeaderRequestsTpusAnnotation),
            0u);
  api::Container container;
  container.name = "tpu";
  container.resources.limits["google.com/tpu"] = api::Quantity::FromInt(4);
  leader.spec.containers.push_back(container);
  EXPECT_EQ(Build(Lws(), leader)
                .spec.template_.metadata.annotations.at(api::kLeaderRequestsTpusAnnotation),
            "true");
}

// Q1/F38: a leader of an old revision gets workers of that revision's template and size, while
// the LWS object's metadata stays live.
TEST(WorkerStatefulSetTest, OldRevisionKeepsOldSizeAndTemplate) {
  api::LeaderWorkerSet old_lws = Lws([](Json& j) {
    j["spec"]["leaderWorkerTemplate"]["size"] = 4;
    j["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["image"] = "old";
  });
  api::ControllerRevision old_revision = api::NewRevision(old_lws, 1);
  api::LeaderWorkerSet live = Lws([](Json& j) {
    j["metadata"]["annotations"] = {{"owner", "now"}};
    j["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]["image"] = "new";
  });
  auto revision_lws = api::ApplyRevision(live, old_revision);
  ASSERT_TRUE(revision_lws.ok()) << revision_lws.status().ToString();
  api::StatefulSet sts = BuildWorkerStatefulSet(live, *revision_lws, S164Leader());
  EXPECT_EQ(sts.spec.replicas, std::optional<std::int32_t>(3));
  EXPECT_EQ(sts.spec.template_.metadata.annotations.at(api::kSizeAnnotation), "4");
  EXPECT_EQ(sts.spec.template_.spec.containers.at(0).image, "old");
  EXPECT_EQ(sts.metadata.annotations, (api::StringMap{{"owner", "now"}}));
  // The live LWS would have given size 2 and the new image.
  api::StatefulSet current = Build(live, S164Leader());
  EXPECT_EQ(current.spec.replicas, std::optional<std::int32_t>(1));
  EXPECT_EQ(current.spec.template_.spec.containers.at(0).image, "new");
}

TEST(WorkerStatefulSetTest, ExclusiveNodeSelectorMergesIntoTheTemplate) {
  api::StatefulSet sts = Build(Lws(), S164Leader());
  sts.spec.template_.spec.node_selector = {{"disk", "ssd"}};
  api::Node node = testing::MakeNode("n1", {{"cloud.google.com/gke-nodepool", "pool-a"}});
  ASSERT_TRUE(AddExclusiveNodeSelector(&sts, "cloud.google.com/gke-nodepool", node).ok());
  EXPECT_EQ(sts.spec.template_.spec.node_selector,
            (api::StringMap{{"disk", "ssd"}, {"cloud.google.com/gke-nodepool", "pool-a"}}));
}

TEST(WorkerStatefulSetTest, ExclusiveNodeSelectorFailsWithoutTheLabel) {
  api::StatefulSet sts = Build(Lws(), S164Leader());
  api::Node node = testing::MakeNode("n1", {{"other", "x"}});
  Status status = AddExclusiveNodeSelector(&sts, "cloud.google.com/gke-nodepool", node);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "node does not have topology label: ");
  EXPECT_TRUE(sts.spec.template_.spec.node_selector.empty());
}

TEST(WorkerStatefulSetTest, S170StatefulSetReady) {
  struct Case {
    std::optional<std::int32_t> replicas;
    std::int32_t available;
    std::string current, update;
    bool want;
  };
  const Case cases[] = {
      {2, 2, "r1", "r1", true},          {2, 1, "r1", "r1", false},
      {2, 2, "r1", "r2", false},         {0, 0, "", "", true},
      {std::nullopt, 1, "r", "r", true}, {std::nullopt, 0, "r", "r", false},
      {1, 2, "r", "r", false},
  };
  for (const Case& c : cases) {
    api::StatefulSet sts;
    sts.spec.replicas = c.replicas;
    sts.status.available_replicas = c.available;
    sts.status.current_revision = c.current;
    sts.status.update_revision = c.update;
    EXPECT_EQ(StatefulSetReady(sts), c.want)
        << c.replicas.value_or(-1) << " " << c.available << " " << c.current << " " << c.update;
  }
}

TEST(WorkerStatefulSetTest, PodReadiness) {
  struct Case {
    std::string phase;
    std::optional<bool> ready;
    bool running_and_ready, ready_only;
  };
  const Case cases[] = {
      {"Running", true, true, true},           {"Running", false, false, false},
      {"Running", std::nullopt, false, false}, {"Pending", true, false, true},
      {"Failed", true, false, true},
  };
  for (const Case& c : cases) {
    api::Pod pod = testing::MakePod("p-0", "0");
    pod.status.phase = c.phase;
    if (c.ready) testing::SetReady(pod, *c.ready);
    EXPECT_EQ(PodRunningAndReady(pod), c.running_and_ready) << c.phase;
    EXPECT_EQ(PodReady(pod), c.ready_only) << c.phase;
  }
}

TEST(WorkerStatefulSetTest, EventNotes) {
  EXPECT_EQ(CreatedWorkerStatefulSetNote("test-sample-1"),
            "Created worker statefulset for leader pod test-sample-1");
  EXPECT_EQ(FailedCreateWorkerStatefulSetNote("test-sample-1", Status::Internal("boom")),
            "Failed to create worker statefulset for leader pod test-sample-1: boom");
}

}  // namespace
}  // namespace lws::controllers
