// Recognising revisions written by the Go controller (DESIGN.md 'Adoption'; spec 7.5; S162,
// S167). Each Go sample is hand-written from the JSON tags of k8s.io/api: structs always present
// (template metadata, container resources, PVC metadata/spec/status), quantities canonical, and
// for apimachinery < v0.34 "creationTimestamp":null in every ObjectMeta.
#include <gtest/gtest.h>

#include "api/go_json.h"
#include "api/revision.h"
#include "api/revision_testing.h"

namespace lws::api {
namespace {

using namespace revision_testing;  // NOLINT: test fixtures

// A template using claims, env from the downward API, resources, volumes and anti-affinity, as a
// user would write it (numbers for quantities, non-canonical units, no empty structs).
Json RichLwsJson() {
  Json lws = DefaultLwsJson();
  lws["spec"]["leaderWorkerTemplate"] = Json::parse(R"({
    "size": 4, "restartPolicy": "None",
    "workerTemplate": {
      "metadata": {"labels": {"app": "llm"}},
      "spec": {
        "containers": [{
          "name": "worker", "image": "vllm:1",
          "env": [{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
          "resources": {"limits": {"cpu": 2, "memory": "4096Mi"}},
          "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}]}],
        "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
        "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
          "labelSelector": {"matchExpressions": [
            {"key": "app", "operator": "In", "values": ["llm"]}]},
          "topologyKey": "kubernetes.io/hostname"}]}}}},
    "volumeClaimTemplates": [{"metadata": {"name": "pvc1"},
      "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}],
    "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"}})");
  return lws;
}

// The Go controller's patch for RichLwsJson(); `timestamp` is what its ObjectMetas carry.
std::string GoPatchOfRich(const std::string& timestamp) {
  return R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace",)"
         R"("persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Retain"},)"
         R"("restartPolicy":"None","size":4,"volumeClaimTemplates":[{"metadata":{)" +
         timestamp +
         R"("name":"pvc1"},"spec":{"accessModes":["ReadWriteOnce"],"resources":)"
         R"({"requests":{"storage":"1Gi"}}},"status":{}}],"workerTemplate":{"metadata":{)" +
         timestamp +
         R"("labels":{"app":"llm"}},"spec":{"affinity":{"podAntiAffinity":)"
         R"({"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":)"
         R"({"matchExpressions":[{"key":"app","operator":"In","values":["llm"]}]},)"
         R"("topologyKey":"kubernetes.io/hostname"}]}},"containers":[{"env":[{"name":"POD",)"
         R"("valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"image":"vllm:1",)"
         R"("name":"worker","resources":{"limits":{"cpu":"2","memory":"4Gi"}},"volumeMounts":)"
         R"([{"mountPath":"/dev/shm","name":"dshm"}]}],"volumes":[{"emptyDir":{"medium":"Memory"},)"
         R"("name":"dshm"}]}}},"networkConfig":{"$patch":"replace","subdomainPolicy":"Shared"}}})";
}

TEST(AdoptRevisionTest, CurrentGoBytesOfRichTemplate) {
  const LeaderWorkerSet lws = LwsFrom(RichLwsJson());
  EXPECT_EQ(PatchBytes(RevisionPatch(lws)), GoPatchOfRich(""));
  EXPECT_FALSE(IsTemplateUpdate(lws, StoredRevision(GoPatchOfRich(""))));
}

TEST(AdoptRevisionTest, OldGoBytesMatchSemantically) {
  const LeaderWorkerSet lws = LwsFrom(RichLwsJson());
  const ControllerRevision stored = StoredRevision(GoPatchOfRich(R"("creationTimestamp":null,)"));
  EXPECT_NE(PatchBytes(stored.data), PatchBytes(RevisionPatch(lws)));
  EXPECT_TRUE(RevisionMatchesTemplate(stored, lws));
  EXPECT_FALSE(IsTemplateUpdate(lws, stored));
}

TEST(AdoptRevisionTest, EmptySpellingsInLiveObjectMatchGoBytes) {
  // Go drops empty maps and slices (omitempty); a live object may still spell them.
  const LeaderWorkerSet lws = EditedLws([](Json& j) {
    Json& worker = j["spec"]["leaderWorkerTemplate"]["workerTemplate"];
    worker["metadata"] = {{"labels", Json::object()}, {"creationTimestamp", nullptr}};
    worker["spec"]["containers"][0]["env"] = Json::array();
    worker["spec"]["containers"][0]["resources"] = Json::object();
    worker["spec"]["nodeSelector"] = Json::object();
  });
  EXPECT_TRUE(RevisionMatchesTemplate(StoredRevision(kGoPatchOfDefault), lws));
  EXPECT_FALSE(IsTemplateUpdate(lws, StoredRevision(kGoPatchOfDefault)));
}

TEST(AdoptRevisionTest, RealChangesAreNotMatched) {
  const LeaderWorkerSet lws = LwsFrom(RichLwsJson());
  std::string other_image = GoPatchOfRich(R"("creationTimestamp":null,)");
  other_image.replace(other_image.find("vllm:1"), 6, "vllm:2");
  EXPECT_FALSE(RevisionMatchesTemplate(StoredRevision(other_image), lws));
  EXPECT_TRUE(IsTemplateUpdate(lws, StoredRevision(other_image)));

  std::string no_medium = GoPatchOfRich("");
  no_medium.replace(no_medium.find(R"({"medium":"Memory"})"), 19, "{}");
  EXPECT_FALSE(RevisionMatchesTemplate(StoredRevision(no_medium), lws));
}

TEST(AdoptRevisionTest, UnusableDataNeverMatches) {
  const LeaderWorkerSet lws = DefaultLws();
  EXPECT_FALSE(RevisionMatchesTemplate(StoredRevision(R"("text")"), lws));
  EXPECT_FALSE(RevisionMatchesTemplate(
      StoredRevision(R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace","size":"x"}}})"), lws));
  EXPECT_TRUE(IsTemplateUpdate(lws, StoredRevision(R"({"spec":{}})")));
}

// S162: getUpdatedRevision (the "no leader sts" case belongs to the controller).
TEST(TemplateUpdateTest, GetUpdatedRevisionScenarios) {
  const LeaderWorkerSet lws = DefaultLws();
  EXPECT_FALSE(IsTemplateUpdate(lws, NewRevision(lws, 1)));

  const ControllerRevision old_go = StoredRevision(kOldGoPatchOfDefault);
  const ControllerRevision proposed = NewRevision(lws, 2);
  EXPECT_FALSE(EqualRevision(&old_go, &proposed));  // bytes differ ...
  EXPECT_FALSE(IsTemplateUpdate(lws, old_go));      // ... but it is the same template

  const LeaderWorkerSet renamed =
      EditedLws([](Json& j) { WorkerSpec(j)["containers"][0]["name"] = "w2"; });
  EXPECT_TRUE(IsTemplateUpdate(renamed, NewRevision(lws, 1)));
  EXPECT_TRUE(IsTemplateUpdate(renamed, old_go));
}

// S167.
TEST(SetMatchesRevisionTest, CachesPositiveResults) {
  LeaderWorkerSet lws = DefaultLws();
  lws.metadata.uid = "test-uid";
  lws.metadata.generation = 1;
  ControllerRevision existing = NewRevision(lws, 1);
  existing.metadata.resource_version = "100";
  ControllerRevision proposed = NewRevision(lws, 1);
  RevisionMatchCache cache(10);

  EXPECT_TRUE(SetMatchesRevision(lws, proposed, existing, &cache));
  EXPECT_EQ(cache.size(), 1u);

  proposed.data = Json::parse(R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace"}}})");
  EXPECT_TRUE(SetMatchesRevision(lws, proposed, existing, &cache));  // cache hit

  lws.metadata.generation = 2;
  EXPECT_FALSE(SetMatchesRevision(lws, proposed, existing, &cache));
  EXPECT_FALSE(SetMatchesRevision(lws, proposed, existing, nullptr));
  EXPECT_EQ(cache.size(), 1u);  // negative results are not cached
}

TEST(SetMatchesRevisionTest, TemplateUpdateUsesTheCache) {
  const LeaderWorkerSet lws = DefaultLws();
  const ControllerRevision old_go = StoredRevision(kOldGoPatchOfDefault, "7");
  RevisionMatchCache cache(10);
  EXPECT_FALSE(IsTemplateUpdate(lws, old_go, &cache));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_TRUE(cache.Lookup({"lws-uid", 1, "7"}));
}

}  // namespace
}  // namespace lws::api
