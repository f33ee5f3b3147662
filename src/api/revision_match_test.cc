// Revision objects, ApplyRevision and the equality checks (spec 7.3-7.5; S162, S165-S168).
#include <gtest/gtest.h>

#include "api/go_json.h"
#include "api/revision.h"
#include "api/revision_testing.h"

namespace lws::api {
namespace {

using namespace revision_testing;  // NOLINT: test fixtures

// ---- NewRevision and lookups (spec 7.3) ------------------------------------------------------

TEST(NewRevisionTest, BuildsNameLabelsOwnerAndData) {
  const LeaderWorkerSet lws = DefaultLws();
  const ControllerRevision revision = NewRevision(lws, 3);
  const std::string hash = RevisionHash(kGoPatchOfDefault);
  EXPECT_EQ(revision.metadata.name, "test-sample-" + hash + "-3");
  EXPECT_EQ(revision.metadata.namespace_, "default");
  EXPECT_EQ(revision.metadata.labels,
            (StringMap{{kSetNameLabel, "test-sample"}, {kRevisionLabel, hash}}));
  EXPECT_EQ(RevisionKey(revision), hash);
  EXPECT_EQ(revision.revision, 3);
  EXPECT_EQ(PatchBytes(revision.data), kGoPatchOfDefault);
  ASSERT_EQ(revision.metadata.owner_references.size(), 1u);
  const OwnerReference& owner = revision.metadata.owner_references[0];
  EXPECT_EQ(owner.api_version, "leaderworkerset.x-k8s.io/v1");
  EXPECT_EQ(owner.kind, "LeaderWorkerSet");
  EXPECT_EQ(owner.name, "test-sample");
  EXPECT_EQ(owner.uid, "lws-uid");
  EXPECT_EQ(owner.controller, true);
  EXPECT_EQ(owner.block_owner_deletion, true);
}

TEST(NewRevisionTest, KeyOverrideChangesOnlyTheLabel) {
  const ControllerRevision plain = NewRevision(DefaultLws(), 1);
  const ControllerRevision adopted = NewRevision(DefaultLws(), 1, "legacy-key");
  EXPECT_EQ(RevisionKey(adopted), "legacy-key");
  EXPECT_EQ(adopted.metadata.name, plain.metadata.name);
  EXPECT_TRUE(EqualRevision(&plain, &adopted));
}

std::vector<ControllerRevision> Numbered(const std::vector<std::int64_t>& numbers) {
  std::vector<ControllerRevision> out;
  for (std::int64_t n : numbers) out.push_back(NewRevision(DefaultLws(), n));
  return out;
}

// S168.
TEST(HighestRevisionTest, PicksHighestNumber) {
  EXPECT_EQ(HighestRevision(std::vector<ControllerRevision>{}), nullptr);
  const auto one = Numbered({1});
  EXPECT_EQ(HighestRevision(one), &one[0]);
  const auto several = Numbered({2, 3, 2});
  EXPECT_EQ(HighestRevision(several), &several[1]);
  const auto ties = Numbered({4, 4});
  EXPECT_EQ(HighestRevision(ties), &ties[1]);  // upstream `<=`: the last one wins
  EXPECT_EQ(HighestRevision(Numbered({-1})), nullptr);
}

TEST(HighestRevisionTest, NextRevisionNumber) {
  EXPECT_EQ(NextRevisionNumber({}), 1);
  const auto revisions = Numbered({1, 3});
  EXPECT_EQ(NextRevisionNumber({&revisions[0], &revisions[1]}), 4);
}

TEST(OwnedRevisionsTest, KeepsRevisionsControlledByTheLwsOrByNothing) {
  const LeaderWorkerSet lws = DefaultLws();
  std::vector<ControllerRevision> revisions = Numbered({1, 2, 3, 4, 5, 6});
  revisions[1].metadata.owner_references.clear();               // orphan: kept
  revisions[2].metadata.owner_references[0].uid = "other-uid";  // another controller
  revisions[3].metadata.owner_references[0].uid = "other-uid";  // not a controller: kept
  revisions[3].metadata.owner_references[0].controller = false;
  revisions[4].metadata.namespace_ = "elsewhere";
  revisions[5].metadata.labels[kSetNameLabel] = "other-lws";
  const auto owned = OwnedRevisions(RefsOf(revisions), lws);
  EXPECT_EQ(owned,
            (std::vector<const ControllerRevision*>{&revisions[0], &revisions[1], &revisions[3]}));
}

TEST(FindRevisionTest, MatchesKeyAmongOwnedRevisions) {
  const LeaderWorkerSet lws = DefaultLws();
  std::vector<ControllerRevision> revisions = Numbered({1, 4, 2});
  revisions[0].metadata.labels[kRevisionLabel] = "k1";
  revisions[1].metadata.labels[kRevisionLabel] = "k1";
  revisions[2].metadata.labels[kRevisionLabel] = "k2";
  EXPECT_EQ(FindRevision(RefsOf(revisions), lws, "k1"), &revisions[1]);
  EXPECT_EQ(FindRevision(RefsOf(revisions), lws, "k2"), &revisions[2]);
  EXPECT_EQ(FindRevision(RefsOf(revisions), lws, "k3"), nullptr);
  EXPECT_EQ(FindRevision(RefsOf(revisions), lws, ""), nullptr);
  revisions[2].metadata.owner_references[0].uid = "other-uid";
  EXPECT_EQ(FindRevision(RefsOf(revisions), lws, "k2"), nullptr);
}

// ---- ApplyRevision (spec 7.4) ------------------------------------------------------------------

// S165.
TEST(ApplyRevisionTest, RestoresTemplateAndNetworkConfigKeepsTheRest) {
  const ControllerRevision revision = NewRevision(DefaultLws(), 1);
  const LeaderWorkerSet live = EditedLws([](Json& j) {
    j["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"]["containers"][0]["name"] =
        "update-name";
    j["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica";
    j["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"] = {{"maxUnavailable", 2},
                                                                  {"maxSurge", 1}};
    j["spec"]["replicas"] = 5;
  });
  auto restored = ApplyRevision(live, revision);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  const ControllerRevision again = NewRevision(*restored, 1);
  EXPECT_TRUE(EqualRevision(&revision, &again));
  EXPECT_EQ(restored->LeaderTemplate().spec.containers[0].name, "leader");
  EXPECT_FALSE(restored->UniquePerReplica());
  EXPECT_EQ(Encode(restored->spec.rollout_strategy), Encode(live.spec.rollout_strategy));
  EXPECT_EQ(restored->Replicas(), 5);
  EXPECT_EQ(Encode(restored->metadata), Encode(live.metadata));
}

TEST(ApplyRevisionTest, AppliesGoWrittenData) {
  const LeaderWorkerSet live =
      EditedLws([](Json& j) { j["spec"]["leaderWorkerTemplate"]["size"] = 9; });
  auto restored = ApplyRevision(live, StoredRevision(kOldGoPatchOfDefault));
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(restored->Size(), 2);
  EXPECT_EQ(restored->spec.leader_worker_template.worker_template.spec.containers[0].name,
            "worker");
  EXPECT_EQ(PatchBytes(RevisionPatch(*restored)), kGoPatchOfDefault);
}

TEST(ApplyRevisionTest, MergesSectionsWithoutReplaceDirective) {
  auto merged =
      ApplyRevision(DefaultLws(), StoredRevision(R"({"spec":{"leaderWorkerTemplate":{"size":5},
                                               "networkConfig":{"$patch":"delete"}}})"));
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(merged->Size(), 5);
  EXPECT_EQ(merged->LeaderTemplate().spec.containers[0].name, "leader");  // kept
  EXPECT_FALSE(merged->spec.network_config.has_value());
}

TEST(ApplyRevisionTest, RejectsMalformedData) {
  const std::vector<std::string> bad = {
      R"([1, 2])",
      R"({"spec":{"leaderWorkerTemplate":{"$patch":"bogus"}}})",
      R"({"spec":{"leaderWorkerTemplate":{"$patch":7}}})",
      R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace","size":"two"}}})",
      R"({"spec":5})",
  };
  for (const auto& data : bad) {
    auto result = ApplyRevision(DefaultLws(), StoredRevision(data));
    ASSERT_FALSE(result.ok()) << data;
    EXPECT_EQ(result.status().code(), Code::kBadRequest) << data;
  }
  auto typed = ApplyRevision(DefaultLws(), StoredRevision(bad[3]));
  EXPECT_NE(typed.status().message().find("spec.leaderWorkerTemplate.size"), std::string::npos)
      << typed.status().message();
}

// ---- EqualRevision (S166) --------------------------------------------------------------------

struct EqualCase {
  std::string name;
  std::optional<Json> left;  // LWS JSON; nullopt = no revision
  std::optional<Json> right;
  std::string right_key;
  bool equal;
};

Json Edited(void (*edit)(Json&)) {
  Json json = DefaultLwsJson();
  edit(json);
  return json;
}

Json WithVolume(const char* volume) {
  Json json = DefaultLwsJson();
  WorkerSpec(json)["volumes"] = {Json::parse(volume)};
  return json;
}

TEST(EqualRevisionTest, Table) {
  const Json base = DefaultLwsJson();
  const std::vector<EqualCase> cases = {
      {"same spec", base, base, "", true},
      {"same spec, different key", base, base, "templateHash", true},
      {"Shared and nil networkConfig", base,
       Edited([](Json& j) { j["spec"].erase("networkConfig"); }), "", true},
      {"volume with image null and without", WithVolume(R"({"name":"dshm","image":null})"),
       WithVolume(R"({"name":"dshm"})"), "", true},
      {"nil and nil", std::nullopt, std::nullopt, "", true},
      {"nil and non-nil", std::nullopt, base, "", false},
      {"UniquePerReplica and Shared",
       Edited([](Json& j) { j["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica"; }),
       base, "", false},
      {"different worker template", Edited([](Json& j) {
         WorkerSpec(j) = j["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"];
       }),
       base, "", false},
  };
  for (const auto& c : cases) {
    std::optional<ControllerRevision> left;
    std::optional<ControllerRevision> right;
    if (c.left) left = NewRevision(LwsFrom(*c.left), 1);
    if (c.right) right = NewRevision(LwsFrom(*c.right), 1, c.right_key);
    EXPECT_EQ(EqualRevision(left ? &*left : nullptr, right ? &*right : nullptr), c.equal) << c.name;
  }
}

}  // namespace
}  // namespace lws::api
