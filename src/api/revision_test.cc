// Revision patch, hash, objects and equality (spec section 7; scenarios S162, S165-S168).
#include "api/revision.h"

#include <gtest/gtest.h>

#include "api/go_json.h"
#include "api/revision_testing.h"

namespace lws::api {
namespace {

using namespace revision_testing;  // NOLINT: test fixtures

// ---- Hash and name -----------------------------------------------------------------------------

TEST(RevisionHashTest, Fnv1AndSafeEncoding) {
  EXPECT_EQ(Fnv1_32(""), 2166136261u);
  EXPECT_EQ(Fnv1_32("a"), 84696446u);
  EXPECT_EQ(SafeEncodeString("0123456789"), "456789bcdf");
  EXPECT_EQ(RevisionHash("a"), "d8bfb88b");
}

// The illustrative patch of spec 7.2 and the LWS it comes from (nil networkConfig).
const char* kIllustrativePatch =
    R"({"spec":{"leaderWorkerTemplate":{"$patch":"replace","restartPolicy":)"
    R"("RecreateGroupOnPodRestart","size":1,"workerTemplate":{"metadata":{},"spec":{"containers":)"
    R"([{"image":"nginx","name":"nginx","resources":{}}]}}},"networkConfig":{"$patch":"replace",)"
    R"("subdomainPolicy":"Shared"}}})";

TEST(RevisionHashTest, IllustrativePatchOfSpec) {
  EXPECT_EQ(Fnv1_32(kIllustrativePatch), 979425061u);
  EXPECT_EQ(RevisionHash(kIllustrativePatch), "fcf8694b5");
  // Go's bytes survive a parse and re-serialisation unchanged.
  EXPECT_EQ(PatchBytes(Json::parse(kIllustrativePatch)), kIllustrativePatch);

  const LeaderWorkerSet lws = LwsFrom(Json::parse(R"({"metadata": {"name": "demo"}, "spec": {
      "leaderWorkerTemplate": {"size": 1, "restartPolicy": "RecreateGroupOnPodRestart",
        "workerTemplate": {"spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}}}})"));
  EXPECT_EQ(PatchBytes(RevisionPatch(lws)), kIllustrativePatch);
  EXPECT_EQ(NewRevision(lws, 1).metadata.name, "demo-fcf8694b5-1");
}

TEST(RevisionHashTest, OrdinaryTemplateHasGoBytes) {
  EXPECT_EQ(PatchBytes(RevisionPatch(DefaultLws())), kGoPatchOfDefault);
}

TEST(RevisionHashTest, NameTruncatesPrefixTo220Bytes) {
  EXPECT_EQ(RevisionName("lws", "abc", 7), "lws-abc-7");
  const std::string long_name(250, 'a');
  EXPECT_EQ(RevisionName(long_name, "abc", 12), std::string(220, 'a') + "-abc-12");
}

// ---- What the patch covers (spec 7.1, 7.2) ---------------------------------------------------

TEST(RevisionPatchTest, OnlyTemplateAndNetworkConfigAreVersioned) {
  const std::string base = PatchBytes(RevisionPatch(DefaultLws()));
  const LeaderWorkerSet unversioned = EditedLws([](Json& j) {
    j["spec"]["replicas"] = 7;
    j["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"]["partition"] = 3;
    j["spec"]["startupPolicy"] = "LeaderReady";
    j["metadata"]["labels"] = {{"app", "x"}};
    j["status"] = {{"replicas", 4}};
  });
  EXPECT_EQ(PatchBytes(RevisionPatch(unversioned)), base);

  const LeaderWorkerSet resized =
      EditedLws([](Json& j) { j["spec"]["leaderWorkerTemplate"]["size"] = 3; });
  EXPECT_NE(PatchBytes(RevisionPatch(resized)), base);
  const LeaderWorkerSet unique = EditedLws(
      [](Json& j) { j["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica"; });
  EXPECT_NE(PatchBytes(RevisionPatch(unique)), base);
}

TEST(RevisionPatchTest, NilNetworkConfigIsShared) {
  const LeaderWorkerSet nil_config = EditedLws([](Json& j) { j["spec"].erase("networkConfig"); });
  EXPECT_EQ(PatchBytes(RevisionPatch(nil_config)), PatchBytes(RevisionPatch(DefaultLws())));
  // An empty networkConfig is not defaulted: Go writes its nil policy as null.
  const LeaderWorkerSet empty_config =
      EditedLws([](Json& j) { j["spec"]["networkConfig"] = Json::object(); });
  EXPECT_EQ(RevisionPatch(empty_config)["spec"]["networkConfig"],
            Json::parse(R"({"$patch": "replace", "subdomainPolicy": null})"));
}

TEST(RevisionPatchTest, UnmodeledFieldsInAnyOrderGiveSameBytes) {
  const char* a = R"({"name": "w", "image": "i", "volumeMounts": [{"name": "v", "mountPath": "/m"}],
                      "securityContext": {"runAsUser": 1000, "privileged": false}})";
  const char* b = R"({"securityContext": {"privileged": false, "runAsUser": 1000},
                      "volumeMounts": [{"mountPath": "/m", "name": "v"}],
                      "image": "i", "name": "w"})";
  const LeaderWorkerSet first =
      EditedLws([&](Json& j) { WorkerSpec(j)["containers"] = {Json::parse(a)}; });
  const LeaderWorkerSet second =
      EditedLws([&](Json& j) { WorkerSpec(j)["containers"] = {Json::parse(b)}; });
  EXPECT_EQ(PatchBytes(RevisionPatch(first)), PatchBytes(RevisionPatch(second)));
}

// Each row spells the worker pod spec two ways; `same` says whether Go would decode both to the
// same value (and so whether the patches must be equal).
struct SpellingCase {
  std::string name;
  std::string left;
  std::string right;
  bool same;
};

// A worker pod spec with one container {name: w, image: i}; `container` and `pod` are extra
// members (with a leading comma) of the container and of the pod spec.
std::string PodSpec(const std::string& container = "", const std::string& pod = "") {
  return R"({"containers": [{"name": "w", "image": "i")" + container + "}]" + pod + "}";
}

TEST(RevisionPatchTest, NormalFormMergesOnlyEquivalentSpellings) {
  const std::string affinity =
      R"(, "affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [)";
  const std::vector<SpellingCase> cases = {
      {"resources {} is absent", PodSpec(R"(, "resources": {})"), PodSpec(), true},
      {"env [] is absent", PodSpec(R"(, "env": [])"), PodSpec(), true},
      {"null member is absent", PodSpec(R"(, "command": null)"), PodSpec(), true},
      {"volume image null (S166)", PodSpec("", R"(, "volumes": [{"name": "dshm", "image": null}])"),
       PodSpec("", R"(, "volumes": [{"name": "dshm"}])"), true},
      {"empty nodeSelector map", PodSpec("", R"(, "nodeSelector": {})"), PodSpec(), true},
      {"empty limits map", PodSpec(R"(, "resources": {"limits": {}})"), PodSpec(), true},
      {"emptyDir {} is a volume source",
       PodSpec("", R"(, "volumes": [{"name": "v", "emptyDir": {}}])"),
       PodSpec("", R"(, "volumes": [{"name": "v"}])"), false},
      {"empty namespaceSelector selects every namespace",
       PodSpec("", affinity + R"({"topologyKey": "z", "namespaceSelector": {}}]}})"),
       PodSpec("", affinity + R"({"topologyKey": "z"}]}})"), false},
      {"zero grace period is not absent", PodSpec("", R"(, "terminationGracePeriodSeconds": 0)"),
       PodSpec(), false},
      {"pull policy", PodSpec(R"(, "imagePullPolicy": "Always")"), PodSpec(), false},
  };
  for (const auto& row : cases) {
    const LeaderWorkerSet l = EditedLws([&](Json& j) { WorkerSpec(j) = Json::parse(row.left); });
    const LeaderWorkerSet r = EditedLws([&](Json& j) { WorkerSpec(j) = Json::parse(row.right); });
    EXPECT_EQ(PatchBytes(RevisionPatch(l)) == PatchBytes(RevisionPatch(r)), row.same) << row.name;
  }
}

TEST(RevisionPatchTest, TemplateMetadataSpellings) {
  const std::string base = PatchBytes(RevisionPatch(DefaultLws()));
  for (const char* metadata : {R"({})", R"({"creationTimestamp": null})", R"({"labels": {}})"}) {
    const LeaderWorkerSet lws = EditedLws([&](Json& j) {
      j["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"] = Json::parse(metadata);
    });
    EXPECT_EQ(PatchBytes(RevisionPatch(lws)), base) << metadata;
  }
}

}  // namespace
}  // namespace lws::api
