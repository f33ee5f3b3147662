// File: controllers/lws/revision_step_test.cc
//
// Spec section 6 steps 3-4 and 7.6: scenarios S162 (getUpdatedRevision), Q9, Q16 (adopting a
// foreign key) and revision truncation.
#include "controllers/lws/revision_step.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/revision.h"
#include "api/revision_testing.h"
#include "controllers/lws/lws_events.h"

namespace lws::controllers {
namespace {

using api::ControllerRevision;
using api::Json;
using api::LeaderWorkerSet;
using api::StatefulSet;
using api::revision_testing::DefaultLws;
using api::revision_testing::EditedLws;
using api::revision_testing::StoredRevision;
using api::revision_testing::WorkerSpec;

StatefulSet LeaderSts(const std::string& key) {
  StatefulSet sts;
  sts.metadata.name = "test-sample";
  sts.metadata.namespace_ = "default";
  if (!key.empty()) sts.metadata.labels[api::kRevisionLabel] = key;
  return sts;
}

LeaderWorkerSet RenamedWorkerContainer() {
  return EditedLws([](Json& lws) { WorkerSpec(lws)["containers"][0]["name"] = "worker-2"; });
}

// A revision of DefaultLws numbered `number`, keyed `key`, with resourceVersion `rv`.
ControllerRevision Stored(std::int64_t number, const std::string& key = "",
                          const std::string& rv = "100") {
  ControllerRevision revision = api::NewRevision(DefaultLws(), number, key);
  revision.metadata.resource_version = rv;
  return revision;
}

void ExpectOwnedByDefaultLws(const ControllerRevision& revision) {
  EXPECT_EQ(revision.metadata.namespace_, "default");
  EXPECT_EQ(revision.metadata.Label(api::kSetNameLabel), "test-sample");
  const api::OwnerReference* owner = revision.metadata.ControllerRef();
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->uid, "lws-uid");
  EXPECT_EQ(owner->kind, "LeaderWorkerSet");
  EXPECT_EQ(owner->api_version, "leaderworkerset.x-k8s.io/v1");
  EXPECT_EQ(owner->block_owner_deletion, std::optional<bool>(true));
}

TEST(PlanRevisionTest, NewLwsCreatesTheFirstRevision) {
  const LeaderWorkerSet lws = DefaultLws();
  const RevisionStep step = PlanRevision(lws, nullptr, {}, nullptr);
  ASSERT_TRUE(step.create.has_value());
  const std::string hash = api::RevisionHash(api::PatchBytes(api::RevisionPatch(lws)));
  EXPECT_EQ(step.key, hash);
  EXPECT_EQ(api::RevisionKey(*step.create), hash);
  EXPECT_EQ(step.create->revision, 1);
  EXPECT_EQ(step.create->metadata.name, "test-sample-" + hash + "-1");
  EXPECT_EQ(step.create->data, api::RevisionPatch(lws));
  ExpectOwnedByDefaultLws(*step.create);
  EXPECT_FALSE(step.lws_updated);
  EXPECT_EQ(step.event_note,
            "Creating revision with key " + hash + " for a newly created LeaderWorkerSet");
}

// Q9: with the sts absent, an existing revision is not looked up; a second one with the same key
// and the next number is made.
TEST(PlanRevisionTest, Q9StsAbsentCreatesAnotherRevisionWithTheSameKey) {
  const std::vector<ControllerRevision> revisions = {Stored(3)};
  const RevisionStep step = PlanRevision(DefaultLws(), nullptr, api::RefsOf(revisions), nullptr);
  ASSERT_TRUE(step.create.has_value());
  EXPECT_EQ(step.key, api::RevisionKey(revisions[0]));
  EXPECT_EQ(step.create->revision, 4);
  EXPECT_FALSE(step.lws_updated);
  EXPECT_EQ(step.event_note, NewLwsRevisionNote(step.key));
}

// S162 first case: without a leader sts there is never an update, even if the template changed.
TEST(PlanRevisionTest, S162StsNilIsNeverAnUpdate) {
  const std::vector<ControllerRevision> revisions = {Stored(1)};
  const RevisionStep step =
      PlanRevision(RenamedWorkerContainer(), nullptr, api::RefsOf(revisions), nullptr);
  EXPECT_FALSE(step.lws_updated);
  ASSERT_TRUE(step.create.has_value());
  EXPECT_EQ(step.event_note, NewLwsRevisionNote(step.key));
}

struct S162Case {
  std::string name;
  ControllerRevision stored;  // the revision the leader sts's key names
  LeaderWorkerSet live;
  bool want_update;
};

TEST(PlanRevisionTest, S162TemplateUpdateDetection) {
  const std::vector<S162Case> cases = {
      {"same spec", Stored(1), DefaultLws(), false},
      {"Go bytes of the same spec", StoredRevision(api::revision_testing::kGoPatchOfDefault),
       DefaultLws(), false},
      {"creationTimestamp null (old apimachinery)",
       StoredRevision(api::revision_testing::kOldGoPatchOfDefault), DefaultLws(), false},
      {"container name changed", Stored(1), RenamedWorkerContainer(), true},
      {"replicas changed only", Stored(1), EditedLws([](Json& l) { l["spec"]["replicas"] = 7; }),
       false},
      {"networkConfig changed", Stored(1), EditedLws([](Json& l) {
         l["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica";
       }),
       true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string key = api::RevisionKey(c.stored);
    const StatefulSet sts = LeaderSts(key);
    const std::vector<ControllerRevision> revisions = {c.stored};
    const RevisionStep step = PlanRevision(c.live, &sts.metadata, api::RefsOf(revisions), nullptr);
    EXPECT_EQ(step.lws_updated, c.want_update);
    if (!c.want_update) {
      EXPECT_EQ(step.key, key);
      EXPECT_FALSE(step.create.has_value());
      EXPECT_EQ(step.event_note, "");
      continue;
    }
    ASSERT_TRUE(step.create.has_value());
    const std::string hash = api::RevisionHash(api::PatchBytes(api::RevisionPatch(c.live)));
    EXPECT_NE(hash, key);
    EXPECT_EQ(step.key, hash);
    EXPECT_EQ(api::RevisionKey(*step.create), hash);
    EXPECT_EQ(step.create->revision, c.stored.revision + 1);
    EXPECT_EQ(step.create->data, api::RevisionPatch(c.live));
    ExpectOwnedByDefaultLws(*step.create);
    EXPECT_EQ(step.event_note, "Creating revision with key " + hash + " for updated LWS");
  }
}

TEST(PlanRevisionTest, UpdateNumbersAfterTheHighestOwnedRevision) {
  const ControllerRevision current = Stored(2);
  ControllerRevision foreign = Stored(9);  // controlled by another LWS: not counted
  foreign.metadata.owner_references[0].uid = "other-uid";
  const std::vector<ControllerRevision> revisions = {Stored(5, "older-key"), current, foreign};
  const StatefulSet sts = LeaderSts(api::RevisionKey(current));
  const RevisionStep step =
      PlanRevision(RenamedWorkerContainer(), &sts.metadata, api::RefsOf(revisions), nullptr);
  ASSERT_TRUE(step.create.has_value());
  EXPECT_TRUE(step.lws_updated);
  EXPECT_EQ(step.create->revision, 6);
}

// Ours: a pass that created the update's revision and then failed before the leader sts took
// its key (the apply refused, or its answer lost: the sweep's seed 14 with API errors) left the
// revision; the next pass reuses it instead of creating a second revision of the same key, as
// upstream would under the next number.
TEST(PlanRevisionTest, UpdateReusesTheRevisionAFailedPassCreated) {
  const ControllerRevision current = Stored(1);
  ControllerRevision made = api::NewRevision(RenamedWorkerContainer(), 2);
  made.metadata.resource_version = "101";
  const std::vector<ControllerRevision> revisions = {current, made};
  const StatefulSet sts = LeaderSts(api::RevisionKey(current));
  const RevisionStep step =
      PlanRevision(RenamedWorkerContainer(), &sts.metadata, api::RefsOf(revisions), nullptr);
  EXPECT_TRUE(step.lws_updated);
  EXPECT_EQ(step.key, api::RevisionKey(made));
  EXPECT_FALSE(step.create.has_value());
  EXPECT_EQ(step.event_note, "");
}

// Going back to a template whose revision is not truncated yet (mid-rollout) reuses it as well.
TEST(PlanRevisionTest, RevertReusesTheRevisionNotTruncatedYet) {
  const ControllerRevision older = Stored(1);
  ControllerRevision renamed = api::NewRevision(RenamedWorkerContainer(), 2);
  renamed.metadata.resource_version = "101";
  const std::vector<ControllerRevision> revisions = {older, renamed};
  const StatefulSet sts = LeaderSts(api::RevisionKey(renamed));
  const RevisionStep step =
      PlanRevision(DefaultLws(), &sts.metadata, api::RefsOf(revisions), nullptr);
  EXPECT_TRUE(step.lws_updated);
  EXPECT_EQ(step.key, api::RevisionKey(older));
  EXPECT_FALSE(step.create.has_value());
}

// Q16: the sts carries a key no revision has; a revision is made from the live spec under THAT
// key, so a template change made before this point is not seen as an update.
TEST(PlanRevisionTest, Q16AdoptsAForeignKey) {
  const std::vector<ControllerRevision> revisions = {Stored(2)};  // some other key
  const StatefulSet sts = LeaderSts("legacy-key");
  const LeaderWorkerSet live = RenamedWorkerContainer();
  const RevisionStep step = PlanRevision(live, &sts.metadata, api::RefsOf(revisions), nullptr);
  ASSERT_TRUE(step.create.has_value());
  EXPECT_EQ(step.key, "legacy-key");
  EXPECT_EQ(api::RevisionKey(*step.create), "legacy-key");
  EXPECT_EQ(step.create->data, api::RevisionPatch(live));
  EXPECT_EQ(step.create->revision, 3);
  const std::string hash = api::RevisionHash(api::PatchBytes(api::RevisionPatch(live)));
  EXPECT_EQ(step.create->metadata.name, "test-sample-" + hash + "-3");  // name keeps the hash
  ExpectOwnedByDefaultLws(*step.create);
  EXPECT_FALSE(step.lws_updated);
  EXPECT_EQ(step.event_note,
            "Creating missing revision with key legacy-key for existing LeaderWorkerSet");
}

TEST(PlanRevisionTest, OwnershipDecidesWhichRevisionTheStsKeyFinds) {
  ControllerRevision other = Stored(1);
  other.metadata.owner_references[0].uid = "other-uid";
  const StatefulSet sts = LeaderSts(api::RevisionKey(other));

  // Controlled by another LWS: not ours, so a missing revision is created.
  std::vector<ControllerRevision> revisions = {other};
  RevisionStep step = PlanRevision(DefaultLws(), &sts.metadata, api::RefsOf(revisions), nullptr);
  ASSERT_TRUE(step.create.has_value());
  EXPECT_EQ(step.event_note, MissingRevisionNote(api::RevisionKey(other)));
  EXPECT_EQ(step.create->revision, 1);

  // Without any controller it is ours (upstream ListRevisions).
  ControllerRevision orphan = other;
  orphan.metadata.owner_references.clear();
  revisions = {orphan};
  step = PlanRevision(DefaultLws(), &sts.metadata, api::RefsOf(revisions), nullptr);
  EXPECT_FALSE(step.create.has_value());
  EXPECT_EQ(step.key, api::RevisionKey(orphan));
}

TEST(PlanRevisionTest, StsWithoutKeyCreatesAsForANewLws) {
  const StatefulSet sts = LeaderSts("");
  const ControllerRevision stored = Stored(1);
  const RevisionStep step = PlanRevision(DefaultLws(), &sts.metadata, {&stored}, nullptr);
  ASSERT_TRUE(step.create.has_value());
  EXPECT_EQ(step.create->revision, 2);
  EXPECT_FALSE(step.lws_updated);
  EXPECT_EQ(step.event_note, NewLwsRevisionNote(step.key));
}

TEST(PlanRevisionTest, SemanticMatchIsCached) {
  const ControllerRevision stored = StoredRevision(api::revision_testing::kOldGoPatchOfDefault);
  const StatefulSet sts = LeaderSts(api::RevisionKey(stored));
  api::RevisionMatchCache cache;
  const RevisionStep step = PlanRevision(DefaultLws(), &sts.metadata, {&stored}, &cache);
  EXPECT_FALSE(step.lws_updated);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_TRUE(cache.Lookup({"lws-uid", 1, "100"}));
}

TEST(RevisionsToTruncateTest, KeepsOnlyTheCurrentKeyOfOwnedRevisions) {
  ControllerRevision current = Stored(3, "current");
  current.metadata.name = "rev-current";
  ControllerRevision old = Stored(1, "old");
  old.metadata.name = "rev-old";
  ControllerRevision foreign = Stored(2, "old");
  foreign.metadata.name = "rev-foreign";
  foreign.metadata.owner_references[0].uid = "other-uid";
  ControllerRevision orphan = Stored(4, "older");
  orphan.metadata.name = "rev-orphan";
  orphan.metadata.owner_references.clear();
  ControllerRevision other_ns = Stored(5, "old");
  other_ns.metadata.name = "rev-other-ns";
  other_ns.metadata.namespace_ = "elsewhere";
  ControllerRevision current_twin = Stored(6, "current");  // Q9 duplicate key: kept too
  current_twin.metadata.name = "rev-current-twin";

  const std::vector<ControllerRevision> revisions = {orphan, current,  foreign,
                                                     old,    other_ns, current_twin};
  EXPECT_EQ(RevisionsToTruncate(DefaultLws(), api::RefsOf(revisions), "current"),
            (std::vector<std::string>{"rev-orphan", "rev-old"}));
  EXPECT_EQ(RevisionsToTruncate(DefaultLws(), api::RefsOf(revisions), "old"),
            (std::vector<std::string>{"rev-orphan", "rev-current", "rev-current-twin"}));
  EXPECT_TRUE(RevisionsToTruncate(DefaultLws(), {}, "current").empty());

  // Ours: with a failure policy the newest other revision stays, to roll back to.
  api::LeaderWorkerSet with_policy = DefaultLws();
  with_policy.metadata.annotations["lws-cpp.dev/failure-policy"] = "Rollback";
  EXPECT_EQ(RevisionsToTruncate(with_policy, api::RefsOf(revisions), "current"),
            (std::vector<std::string>{"rev-old"}));
}

}  // namespace
}  // namespace lws::controllers
