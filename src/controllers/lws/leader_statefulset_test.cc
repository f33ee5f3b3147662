// File: controllers/lws/leader_statefulset_test.cc
//
// Scenarios S156 (a-i) and S157 of the catalogue: the leader StatefulSet apply body, plus the
// maxUnavailable arithmetic of spec 8.
#include "controllers/lws/leader_statefulset.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/codec.h"

namespace lws::controllers {
namespace {

using api::Json;

const std::string kName = "leaderworkerset.sigs.k8s.io/name";
const std::string kRevision = "leaderworkerset.sigs.k8s.io/template-revision-hash";
const std::string kWorkerIndex = "leaderworkerset.sigs.k8s.io/worker-index";
const std::string kReplicas = "leaderworkerset.sigs.k8s.io/replicas";
const std::string kSize = "leaderworkerset.sigs.k8s.io/size";
const std::string kExclusive = "leaderworkerset.sigs.k8s.io/exclusive-topology";
const std::string kSubExclusive = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
const std::string kSubSize = "leaderworkerset.sigs.k8s.io/subgroup-size";
const std::string kSubType = "leaderworkerset.sigs.k8s.io/subgroup-policy-type";
const std::string kSubdomain = "leaderworkerset.sigs.k8s.io/subdomainPolicy";

const char* kWorkerContainers =
    R"([{"name":"worker","image":"nginxinc/nginx-unprivileged:1.27",
        "ports":[{"containerPort":8080,"protocol":"TCP"}]}])";
const char* kLeaderContainers = R"([{"name":"leader","image":"nginxinc/nginx-unprivileged:1.27"}])";

// upstream wrappers.BuildBasicLeaderWorkerSet("test-sample", "default") with a worker template,
// replicas 1, size 1, maxUnavailable 1, maxSurge 0, as the API server holds it after defaulting.
Json BasicLwsJson() {
  Json lws = {
      {"apiVersion", "leaderworkerset.x-k8s.io/v1"},
      {"kind", "LeaderWorkerSet"},
      {"metadata", {{"name", "test-sample"}, {"namespace", "default"}, {"uid", "lws-uid"}}},
      {"spec",
       {{"replicas", 1},
        {"leaderWorkerTemplate",
         {{"size", 1},
          {"restartPolicy", "RecreateGroupOnPodRestart"},
          {"workerTemplate", {{"spec", {{"containers", Json::parse(kWorkerContainers)}}}}}}},
        {"rolloutStrategy",
         {{"type", "RollingUpdate"},
          {"rollingUpdateConfiguration",
           {{"partition", 0}, {"maxUnavailable", 1}, {"maxSurge", 0}}}}},
        {"startupPolicy", "LeaderCreated"},
        {"networkConfig", {{"subdomainPolicy", "Shared"}}}}},
  };
  return lws;
}

api::LeaderWorkerSet LwsOf(const Json& json) {
  auto decoded = api::Decode<api::LeaderWorkerSet>(json);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? *decoded : api::LeaderWorkerSet{};
}

Json& RolloutConfig(Json& lws) {
  return lws["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"];
}
Json& Lwt(Json& lws) { return lws["spec"]["leaderWorkerTemplate"]; }

// Case a of S156, written out in full: the whole body, nothing more and nothing less.
TEST(LeaderStatefulSetApplyTest, S156aWholeBody) {
  const Json got = LeaderStatefulSetApply(LwsOf(BasicLwsJson()), "rev-a", 0, 1);
  const Json want = Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "StatefulSet",
    "metadata": {
      "name": "test-sample", "namespace": "default",
      "labels": {"leaderworkerset.sigs.k8s.io/name": "test-sample",
                 "leaderworkerset.sigs.k8s.io/role": "leader",
                 "leaderworkerset.sigs.k8s.io/template-revision-hash": "rev-a"},
      "annotations": {"leaderworkerset.sigs.k8s.io/replicas": "1"},
      "ownerReferences": [{"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
                           "name": "test-sample", "uid": "lws-uid", "controller": true,
                           "blockOwnerDeletion": true}]},
    "spec": {
      "replicas": 1,
      "selector": {"matchLabels": {"leaderworkerset.sigs.k8s.io/name": "test-sample",
                                   "leaderworkerset.sigs.k8s.io/worker-index": "0"}},
      "template": {
        "metadata": {
          "labels": {"leaderworkerset.sigs.k8s.io/name": "test-sample",
                     "leaderworkerset.sigs.k8s.io/worker-index": "0",
                     "leaderworkerset.sigs.k8s.io/template-revision-hash": "rev-a"},
          "annotations": {"leaderworkerset.sigs.k8s.io/size": "1"}},
        "spec": {"containers": [{"name": "worker", "image": "nginxinc/nginx-unprivileged:1.27",
                                 "ports": [{"containerPort": 8080, "protocol": "TCP"}]}]}},
      "serviceName": "test-sample",
      "podManagementPolicy": "Parallel",
      "updateStrategy": {"type": "RollingUpdate",
                         "rollingUpdate": {"partition": 0, "maxUnavailable": 1}}}
  })");
  EXPECT_EQ(got, want) << got.dump(2);
}

struct S156Case {
  std::string name;
  std::function<void(Json&)> edit;
  std::int32_t replicas;  // what the rolling-update arithmetic passes
  Json sts_annotations;
  Json template_annotations;
  std::string container;  // name of the single template container
  std::int32_t max_unavailable;
  std::optional<Json> claims;
  std::optional<Json> retention;
};

TEST(LeaderStatefulSetApplyTest, S156Table) {
  const std::vector<S156Case> cases = {
      {"a: replicas 1, size 1, no leader template, mu 1",
       [](Json&) {},
       1,
       {{kReplicas, "1"}},
       {{kSize, "1"}},
       "worker",
       1,
       std::nullopt,
       std::nullopt},
      {"b: exclusive-topology annotation, size 2",
       [](Json& l) {
         l["metadata"]["annotations"] = {{kExclusive, "topologyKey"}};
         Lwt(l)["size"] = 2;
       },
       1,
       {{kExclusive, "topologyKey"}, {kReplicas, "1"}},
       {{kSize, "2"}, {kExclusive, "topologyKey"}},
       "worker",
       1,
       std::nullopt,
       std::nullopt},
      {"c: replicas 2 with leader template",
       [](Json& l) {
         l["metadata"]["annotations"] = {{kExclusive, "topologyKey"}};
         l["spec"]["replicas"] = 2;
         Lwt(l)["size"] = 2;
         Lwt(l)["leaderTemplate"] = {{"spec", {{"containers", Json::parse(kLeaderContainers)}}}};
       },
       2,
       {{kExclusive, "topologyKey"}, {kReplicas, "2"}},
       {{kSize, "2"}, {kExclusive, "topologyKey"}},
       "leader",
       1,
       std::nullopt,
       std::nullopt},
      {"d: mu 2, ms 1 (capped to replicas 1)",
       [](Json& l) {
         RolloutConfig(l)["maxUnavailable"] = 2;
         RolloutConfig(l)["maxSurge"] = 1;
       },
       1,
       {{kReplicas, "1"}},
       {{kSize, "1"}},
       "worker",
       3,
       std::nullopt,
       std::nullopt},
      {"e: mu 0, ms 2",
       [](Json& l) {
         RolloutConfig(l)["maxUnavailable"] = 0;
         RolloutConfig(l)["maxSurge"] = 2;
       },
       1,
       {{kReplicas, "1"}},
       {{kSize, "1"}},
       "worker",
       1,
       std::nullopt,
       std::nullopt},
      {"f: subgroup policy and subgroup-exclusive annotation",
       [](Json& l) {
         l["metadata"]["annotations"] = {{kSubExclusive, "topologyKey"}};
         Lwt(l)["size"] = 2;
         Lwt(l)["subGroupPolicy"] = {{"subGroupPolicyType", "LeaderWorker"}, {"subGroupSize", 2}};
         Lwt(l)["leaderTemplate"] = {{"spec", {{"containers", Json::parse(kLeaderContainers)}}}};
       },
       1,
       {{kReplicas, "1"}, {kSubExclusive, "topologyKey"}},
       {{kSize, "2"}, {kSubSize, "2"}, {kSubExclusive, "topologyKey"}, {kSubType, "LeaderWorker"}},
       "leader",
       1,
       std::nullopt,
       std::nullopt},
      {"g: claim template and retention policy",
       [](Json& l) {
         Lwt(l)["volumeClaimTemplates"] = Json::parse(R"([{
           "metadata": {"name": "pvc1", "labels": {"tier": "cache"}},
           "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
                    "volumeMode": "Filesystem",
                    "selector": {"matchLabels": {"disk": "ssd"}},
                    "dataSource": {"kind": "PersistentVolumeClaim", "name": "seed"},
                    "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}}},
           "status": {"phase": "Pending"}}])");
         Lwt(l)["persistentVolumeClaimRetentionPolicy"] = {{"whenDeleted", "Retain"},
                                                           {"whenScaled", "Delete"}};
       },
       1,
       {{kReplicas, "1"}},
       {{kSize, "1"}},
       "worker",
       1,
       Json::parse(R"([{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
         "metadata": {"name": "pvc1", "namespace": "default"},
         "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
                  "volumeMode": "Filesystem",
                  "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}}}}])"),
       Json{{"whenDeleted", "Retain"}, {"whenScaled", "Delete"}}},
      {"h: replicas 0, mu 0, ms 0",
       [](Json& l) {
         l["spec"]["replicas"] = 0;
         RolloutConfig(l)["maxUnavailable"] = 0;
         RolloutConfig(l)["maxSurge"] = 0;
       },
       0,
       {{kReplicas, "0"}},
       {{kSize, "1"}},
       "worker",
       1,
       std::nullopt,
       std::nullopt},
      {"i: lws replicas 2, sts replicas 3, mu 1, ms 50% (of lws replicas)",
       [](Json& l) {
         l["spec"]["replicas"] = 2;
         RolloutConfig(l)["maxUnavailable"] = 1;
         RolloutConfig(l)["maxSurge"] = "50%";
       },
       3,
       {{kReplicas, "2"}},
       {{kSize, "1"}},
       "worker",
       2,
       std::nullopt,
       std::nullopt},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Json lws_json = BasicLwsJson();
    c.edit(lws_json);
    const Json got = LeaderStatefulSetApply(LwsOf(lws_json), "rev-1", 0, c.replicas);
    const Json& spec = got["spec"];
    EXPECT_EQ(got["metadata"]["name"], "test-sample");
    EXPECT_EQ(got["metadata"]["namespace"], "default");
    EXPECT_EQ(got["metadata"]["labels"],
              (Json{{kName, "test-sample"}, {kRevision, "rev-1"}, {api::kRoleLabel, "leader"}}));
    EXPECT_EQ(got["metadata"]["annotations"], c.sts_annotations);
    EXPECT_EQ(spec["replicas"], c.replicas);
    EXPECT_EQ(spec["selector"],
              (Json{{"matchLabels", {{kName, "test-sample"}, {kWorkerIndex, "0"}}}}));
    EXPECT_EQ(spec["template"]["metadata"]["labels"],
              (Json{{kName, "test-sample"}, {kWorkerIndex, "0"}, {kRevision, "rev-1"}}));
    EXPECT_EQ(spec["template"]["metadata"]["annotations"], c.template_annotations);
    ASSERT_EQ(spec["template"]["spec"]["containers"].size(), 1u);
    EXPECT_EQ(spec["template"]["spec"]["containers"][0]["name"], c.container);
    EXPECT_EQ(spec["serviceName"], "test-sample");
    EXPECT_EQ(spec["podManagementPolicy"], "Parallel");
    EXPECT_EQ(spec["updateStrategy"],
              (Json{{"type", "RollingUpdate"},
                    {"rollingUpdate", {{"partition", 0}, {"maxUnavailable", c.max_unavailable}}}}));
    if (c.claims) {
      EXPECT_EQ(spec["volumeClaimTemplates"], *c.claims) << spec["volumeClaimTemplates"].dump();
    } else {
      EXPECT_FALSE(spec.contains("volumeClaimTemplates"));
    }
    if (c.retention) {
      EXPECT_EQ(spec["persistentVolumeClaimRetentionPolicy"], *c.retention);
    } else {
      EXPECT_FALSE(spec.contains("persistentVolumeClaimRetentionPolicy"));
    }
    EXPECT_FALSE(got.contains("status"));
  }
}

TEST(LeaderStatefulSetApplyTest, S157UserMetadataPropagatesAndControllerKeysWin) {
  Json lws_json = BasicLwsJson();
  lws_json["spec"]["replicas"] = 2;
  lws_json["metadata"]["labels"] = {{"app", "inference"}, {kName, "user-value"}};
  lws_json["metadata"]["annotations"] = {{"owner", "platform"}, {kReplicas, "user-value"}};
  const Json got = LeaderStatefulSetApply(LwsOf(lws_json), "revision-1", 0, 2);
  EXPECT_EQ(got["metadata"]["labels"], (Json{{"app", "inference"},
                                             {kName, "test-sample"},
                                             {kRevision, "revision-1"},
                                             {api::kRoleLabel, "leader"}}));
  EXPECT_EQ(got["metadata"]["annotations"], (Json{{"owner", "platform"}, {kReplicas, "2"}}));
  // LWS metadata does not reach the pod template.
  EXPECT_FALSE(got["spec"]["template"]["metadata"]["labels"].contains("app"));
  EXPECT_FALSE(got["spec"]["template"]["metadata"]["annotations"].contains("owner"));
}

TEST(LeaderStatefulSetApplyTest, TemplateIsTheLwsTemplateWithControllerKeysOverlaid) {
  Json lws_json = BasicLwsJson();
  Lwt(lws_json)["workerTemplate"] = Json::parse(R"({
    "metadata": {"creationTimestamp": null,
                 "labels": {"team": "a", "leaderworkerset.sigs.k8s.io/worker-index": "7"},
                 "annotations": {"note": "kept", "leaderworkerset.sigs.k8s.io/size": "9"}},
    "spec": {"containers": [{"name": "worker", "image": "img", "resources": {},
                             "terminationMessagePolicy": "File", "futureField": {"x": 1}}],
             "schedulerName": "custom", "nodeSelector": null}})");
  const Json got = LeaderStatefulSetApply(LwsOf(lws_json), "k", 0, 1);
  const Json& templ = got["spec"]["template"];
  EXPECT_EQ(templ["metadata"], Json::parse(R"({
    "labels": {"team": "a", "leaderworkerset.sigs.k8s.io/worker-index": "0",
               "leaderworkerset.sigs.k8s.io/name": "test-sample",
               "leaderworkerset.sigs.k8s.io/template-revision-hash": "k"},
    "annotations": {"note": "kept", "leaderworkerset.sigs.k8s.io/size": "1"}})"));
  // Containers exactly as stored (unmodeled fields included); nulls vanish as in Go.
  EXPECT_EQ(templ["spec"], Json::parse(R"({
    "containers": [{"name": "worker", "image": "img", "resources": {},
                    "terminationMessagePolicy": "File", "futureField": {"x": 1}}],
    "schedulerName": "custom"})"));
}

TEST(LeaderStatefulSetApplyTest, UniquePerReplicaAnnotatesTheTemplateOnly) {
  Json lws_json = BasicLwsJson();
  lws_json["spec"]["networkConfig"]["subdomainPolicy"] = "UniquePerReplica";
  Json got = LeaderStatefulSetApply(LwsOf(lws_json), "k", 2, 1);
  EXPECT_EQ(got["spec"]["template"]["metadata"]["annotations"][kSubdomain], "UniquePerReplica");
  EXPECT_EQ(got["spec"]["serviceName"], "test-sample");  // always L (spec 8)
  EXPECT_EQ(got["spec"]["updateStrategy"]["rollingUpdate"]["partition"], 2);

  lws_json["spec"].erase("networkConfig");  // nil means Shared
  got = LeaderStatefulSetApply(LwsOf(lws_json), "k", 0, 1);
  EXPECT_FALSE(got["spec"]["template"]["metadata"]["annotations"].contains(kSubdomain));
}

struct MaxUnavailableCase {
  std::string name;
  std::int32_t replicas;
  Json max_unavailable;
  Json max_surge;
  std::int32_t want;
};

TEST(LeaderStatefulSetMaxUnavailableTest, Table) {
  const std::vector<MaxUnavailableCase> cases = {
      {"mu 1 ms 0", 4, 1, 0, 1},
      {"mu 2 ms 1 capped at R 1", 1, 2, 1, 3},
      {"mu 0 ms 2 capped at R 1", 1, 0, 2, 1},
      {"R 0 all zero is at least 1", 0, 0, 0, 1},
      {"ms 50% of 2 rounds up", 2, 1, "50%", 2},
      {"mu 50% of 3 rounds down", 3, "50%", 0, 1},
      {"ms 50% of 3 rounds up", 3, 0, "50%", 2},
      {"both percentages", 4, "25%", "100%", 5},
      {"ms 300% capped at R", 2, 1, "300%", 3},
      {"mu 3 ms 2 of 10", 10, 3, 2, 5},
  };
  for (const auto& c : cases) {
    Json lws_json = BasicLwsJson();
    lws_json["spec"]["replicas"] = c.replicas;
    RolloutConfig(lws_json)["maxUnavailable"] = c.max_unavailable;
    RolloutConfig(lws_json)["maxSurge"] = c.max_surge;
    EXPECT_EQ(LeaderStatefulSetMaxUnavailable(LwsOf(lws_json)), c.want) << c.name;
  }
}

}  // namespace
}  // namespace lws::controllers
