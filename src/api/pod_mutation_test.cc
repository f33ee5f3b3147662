// Tests of the pod mutating webhook (spec sections 4, 14-16): scenarios S119-S146 from upstream's
// test/integration/webhooks/pod_test.go, S172 (AddLWSVariables), errors, and the JSON patch.
#include "api/pod_mutation.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "api/exclusive_placement.h"
#include "api/lws_types.h"
#include "api/tpu_env.h"

namespace lws::api {
namespace {

// sha1("default/test-1"), sha1("default/test-sample-1"), sha1("test-1/0"), sha1("test-sample-1/0").
const std::string kKeyTest1 = "86053e0d1617c866e4570d50f722cfc9c3e5d026";
const std::string kKeyTestSample1 = "b072c7f2aec151f513da6ebc6786ff77f0c7bdc4";
const std::string kSubKeyTest1 = "59bac77b64b24f75ab12f1432a5d2eac2a8648c4";
const std::string kSubKeyTestSample1 = "095fdab01c4ba6935cf75abe722d8af82c6d9079";

Container MakeContainer(std::string name, std::int64_t tpus = 0, bool tpu_requests = false) {
  Container c;
  c.name = std::move(name);
  c.image = "busybox";
  if (tpus > 0) c.resources.limits[kTpuResourceName] = Quantity::FromInt(tpus);
  if (tpus > 0 && tpu_requests) c.resources.requests[kTpuResourceName] = Quantity::FromInt(tpus);
  return c;
}

PodSpec Spec(std::vector<Container> containers, std::string subdomain = "") {
  PodSpec spec;
  spec.containers = std::move(containers);
  spec.subdomain = std::move(subdomain);
  return spec;
}

// The pod specs of upstream's test/testutils.
PodSpec WorkerSpec() { return Spec({MakeContainer("worker")}); }
PodSpec LeaderTpuSpec() { return Spec({MakeContainer("worker", 4)}, "default"); }
PodSpec WorkerTpuSpec() { return Spec({MakeContainer("leader", 4, true)}, "default"); }
PodSpec LeaderTpuTwoContainersSpec() {
  return Spec({MakeContainer("worker", 4), MakeContainer("leader")}, "default");
}
PodSpec InitContainerSpec() {
  Container main = MakeContainer("test");
  main.env = {{"key1", "value1", {}}, {"key2", "value2", {}}};
  Container init = MakeContainer("init-test");
  init.env = main.env;
  PodSpec spec = Spec({main}, "test-sample");
  spec.init_containers = {init};
  return spec;
}

Pod MakePod(std::string name, StringMap labels, StringMap annotations, PodSpec spec,
            std::string ns = "default") {
  Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = std::move(ns);
  pod.metadata.labels = std::move(labels);
  pod.metadata.annotations = std::move(annotations);
  pod.spec = std::move(spec);
  return pod;
}

Pod Mutated(Pod pod, const PodMutationOptions& options = {}) {
  const Status status = MutateLwsPod(&pod, options);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return pod;
}

std::string Env(const Container& c, const std::string& name) {
  const EnvVar* var = c.FindEnv(name);
  return var ? var->value : "<unset>";
}

std::vector<std::string> EnvNames(const Container& c) {
  std::vector<std::string> names;
  for (const EnvVar& var : c.env) names.push_back(var.name);
  return names;
}

bool HasTpuEnv(const Pod& pod) {
  for (const auto* list : {&pod.spec.containers, &pod.spec.init_containers}) {
    for (const Container& c : *list) {
      for (const std::string* name :
           {&kTpuWorkerHostnamesEnv, &kTpuWorkerIdEnv, &kTpuNameEnv, &kTpuProcessAddressesEnv}) {
        if (c.FindEnv(*name) != nullptr) return true;
      }
    }
  }
  return false;
}

Json AffinityJson(const Pod& pod) { return Encode(pod)["spec"]["affinity"]; }

// The exclusive terms of spec 16 for label `label`, key `key`, topology `topology`.
Json Together(const std::string& label, const std::string& key, const std::string& topology) {
  return {{"labelSelector",
           {{"matchExpressions", {{{"key", label}, {"operator", "In"}, {"values", {key}}}}}}},
          {"topologyKey", topology}};
}
Json Apart(const std::string& label, const std::string& key, const std::string& topology) {
  return {{"labelSelector",
           {{"matchExpressions",
             {{{"key", label}, {"operator", "Exists"}},
              {{"key", label}, {"operator", "NotIn"}, {"values", {key}}}}}}},
          {"topologyKey", topology}};
}
// Vectors, not Json: a one-element braced Json list would collapse into that element.
Json Affinity(const std::vector<Json>& together, const std::vector<Json>& apart) {
  return {{"podAffinity", {{"requiredDuringSchedulingIgnoredDuringExecution", Json(together)}}},
          {"podAntiAffinity", {{"requiredDuringSchedulingIgnoredDuringExecution", Json(apart)}}}};
}

const StringMap kSize2 = {{kSizeAnnotation, "2"}};

// ---- Labels (S119-S124) ------------------------------------------------------------------------

TEST(MutateLwsPodTest, S119_NonLwsPodIsUntouched) {
  Pod pod =
      MakePod("randompod", {{"random-label", "random-value"}}, {}, Spec({MakeContainer("leader")}));
  const Json before = Encode(pod);
  EXPECT_EQ(Encode(Mutated(pod)), before);
}

TEST(MutateLwsPodTest, S120_WorkerIndexFromTheName) {
  Pod pod = Mutated(MakePod("test-1-1", {{kSetNameLabel, "test"}, {kGroupIndexLabel, "1"}}, kSize2,
                            WorkerSpec()));
  EXPECT_EQ(
      pod.metadata.labels,
      (StringMap{{kSetNameLabel, "test"}, {kWorkerIndexLabel, "1"}, {kGroupIndexLabel, "1"}}));
}

TEST(MutateLwsPodTest, S121_LeaderGetsGroupIndexAndKey) {
  Pod pod = Mutated(
      MakePod("test-1", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "0"}}, kSize2, WorkerSpec()));
  EXPECT_EQ(pod.metadata.labels, (StringMap{{kGroupIndexLabel, "1"},
                                            {kSetNameLabel, "test"},
                                            {kGroupUniqueHashLabel, kKeyTest1},
                                            {kWorkerIndexLabel, "0"}}));
}

TEST(MutateLwsPodTest, S122_LeaderJoinsSubGroupZero) {
  Pod pod = Mutated(MakePod("test-1", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "0"}},
                            {{kSizeAnnotation, "5"},
                             {kLeaderRequestsTpusAnnotation, "true"},
                             {kSubGroupSizeAnnotation, "4"}},
                            LeaderTpuSpec()));
  EXPECT_EQ(pod.metadata.labels, (StringMap{{kGroupIndexLabel, "1"},
                                            {kSetNameLabel, "test"},
                                            {kGroupUniqueHashLabel, kKeyTest1},
                                            {kWorkerIndexLabel, "0"},
                                            {kSubGroupIndexLabel, "0"},
                                            {kSubGroupUniqueHashLabel, kSubKeyTest1}}));
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerHostnamesEnv),
            "test-1.default,test-1-1.default,test-1-2.default,test-1-3.default");
}

TEST(MutateLwsPodTest, S123_WorkerSubGroupWhenLeaderRequestsTpus) {
  Pod pod = Mutated(MakePod(
      "test-1-3", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "3"}, {kGroupIndexLabel, "1"}},
      {{kSizeAnnotation, "4"},
       {kLeaderRequestsTpusAnnotation, "true"},
       {kSubGroupSizeAnnotation, "2"}},
      WorkerSpec()));
  // No leader-name annotation: the key hashes "/1".
  EXPECT_EQ(pod.metadata.labels,
            (StringMap{{kSetNameLabel, "test"},
                       {kWorkerIndexLabel, "3"},
                       {kGroupIndexLabel, "1"},
                       {kSubGroupIndexLabel, "1"},
                       {kSubGroupUniqueHashLabel, "d26c6bc5f2b78fb12e4cc4be07dcaba345adab6a"}}));
}

TEST(MutateLwsPodTest, S124_WorkerSubGroupCountsTheLeaderAsExtra) {
  Pod pod = Mutated(MakePod(
      "test-1-4", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "4"}, {kGroupIndexLabel, "1"}},
      {{kSizeAnnotation, "5"},
       {kSubGroupSizeAnnotation, "2"},
       {kLeaderPodNameAnnotation, "test-1"}},
      WorkerTpuSpec()));
  EXPECT_EQ(pod.metadata.Label(kSubGroupIndexLabel), "1");  // (4-1)/2
  EXPECT_EQ(pod.metadata.Label(kSubGroupUniqueHashLabel),
            "6fa5c1d471220852817373612b3482a8c03122f8");  // sha1("test-1/1")
  EXPECT_FALSE(pod.metadata.labels.contains(kGroupUniqueHashLabel));
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerHostnamesEnv),
            "test-1-3.default,test-1-4.default");
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerIdEnv), "1");
}

TEST(MutateLwsPodTest, LeaderKeepsItsGroupLabelsAndWorkerIndexIsOverwritten) {
  Pod leader = Mutated(MakePod("test-1",
                               {{kSetNameLabel, "test"},
                                {kWorkerIndexLabel, "0"},
                                {kGroupIndexLabel, "7"},
                                {kGroupUniqueHashLabel, "mine"}},
                               kSize2, WorkerSpec()));
  EXPECT_EQ(leader.metadata.Label(kGroupIndexLabel), "7");
  EXPECT_EQ(leader.metadata.Label(kGroupUniqueHashLabel), "mine");
  Pod worker = Mutated(MakePod(
      "test-1-3", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "9"}, {kGroupIndexLabel, "1"}},
      kSize2, WorkerSpec()));
  EXPECT_EQ(worker.metadata.Label(kWorkerIndexLabel), "3");
}

TEST(MutateLwsPodTest, LeaderExcludedLeaderHasNoSubGroup) {
  Pod pod = Mutated(MakePod("test-1", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "0"}},
                            {{kSizeAnnotation, "5"},
                             {kSubGroupSizeAnnotation, "2"},
                             {kSubGroupPolicyTypeAnnotation, kSubGroupLeaderExcluded},
                             {kSubGroupExclusiveKeyAnnotation, "rack"}},
                            WorkerSpec()));
  EXPECT_FALSE(pod.metadata.labels.contains(kSubGroupIndexLabel));
  EXPECT_FALSE(pod.metadata.labels.contains(kSubGroupUniqueHashLabel));
  EXPECT_FALSE(pod.spec.affinity.has_value());
}

TEST(MutateLwsPodTest, ExistingSubGroupIndexIsKept) {
  Pod pod = Mutated(MakePod(
      "test-1-3", {{kSetNameLabel, "test"}, {kGroupIndexLabel, "1"}, {kSubGroupIndexLabel, "5"}},
      {{kSizeAnnotation, "4"}, {kSubGroupSizeAnnotation, "2"}}, WorkerSpec()));
  EXPECT_EQ(pod.metadata.Label(kSubGroupIndexLabel), "5");
  EXPECT_FALSE(pod.metadata.labels.contains(kSubGroupUniqueHashLabel));
}

// ---- TPU variables through the webhook (S125-S137) ---------------------------------------------

TEST(MutateLwsPodTest, S125_TpuPodOutsideLwsGetsNoTpuEnv) {
  EXPECT_FALSE(HasTpuEnv(Mutated(MakePod("test-1", {}, {}, WorkerTpuSpec()))));
}

TEST(MutateLwsPodTest, S126_S127_PodsWithoutTpusGetNoTpuEnv) {
  EXPECT_FALSE(HasTpuEnv(Mutated(MakePod(
      "test-1", {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "0"}}, kSize2, WorkerSpec()))));
  EXPECT_FALSE(HasTpuEnv(Mutated(MakePod(
      "test-1-2", {{kSetNameLabel, "test"}, {kGroupIndexLabel, "1"}}, kSize2, WorkerSpec()))));
}

const std::string kHostsOfGroup1 =
    "test-sample-1.default,test-sample-1-1.default,test-sample-1-2.default,"
    "test-sample-1-3.default,test-sample-1-4.default";

TEST(MutateLwsPodTest, S128_LeaderTpuEnvAndEnvOrder) {
  Pod pod =
      Mutated(MakePod("test-sample-1", {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}},
                      {{kSizeAnnotation, "5"}}, LeaderTpuSpec(), "lws-ns"));
  const Container& c = pod.spec.containers[0];
  EXPECT_EQ(Env(c, kTpuWorkerHostnamesEnv), kHostsOfGroup1);
  EXPECT_EQ(Env(c, kTpuWorkerIdEnv), "0");
  EXPECT_EQ(EnvNames(c),
            (std::vector<std::string>{kLwsLeaderAddressEnv, kLwsGroupSizeEnv, kLwsWorkerIndexEnv,
                                      kTpuWorkerHostnamesEnv, kTpuWorkerIdEnv, kTpuNameEnv,
                                      kTpuProcessAddressesEnv, kTpuProcessPortEnv}));
  EXPECT_EQ(Env(c, kLwsLeaderAddressEnv), "test-sample-1.default.lws-ns");
}

TEST(MutateLwsPodTest, S129_UniquePerReplicaSubdomain) {
  Pod pod = Mutated(
      MakePod("test-sample-1", {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}},
              {{kSizeAnnotation, "5"}, {kSubdomainPolicyAnnotation, kSubdomainUniquePerReplica}},
              LeaderTpuSpec(), "lws-ns"));
  EXPECT_EQ(pod.spec.subdomain, "test-sample-1");
  const Container& c = pod.spec.containers[0];
  EXPECT_EQ(
      Env(c, kTpuWorkerHostnamesEnv),
      "test-sample-1.test-sample-1,test-sample-1-1.test-sample-1,test-sample-1-2.test-sample-1,"
      "test-sample-1-3.test-sample-1,test-sample-1-4.test-sample-1");
  EXPECT_EQ(Env(c, kLwsLeaderAddressEnv), "test-sample-1.test-sample-1.lws-ns");
}

TEST(MutateLwsPodTest, SharedSubdomainPolicyLeavesSubdomain) {
  Pod pod = Mutated(MakePod(
      "test-sample-1", {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}},
      {{kSizeAnnotation, "5"}, {kSubdomainPolicyAnnotation, kSubdomainShared}}, LeaderTpuSpec()));
  EXPECT_EQ(pod.spec.subdomain, "default");
}

struct TpuCase {
  const char* id;
  std::string name;
  StringMap labels;
  StringMap annotations;
  PodSpec spec;
  std::string want_hosts;
  std::string want_id;
};

TEST(MutateLwsPodTest, S130_S136_TpuHostnames) {
  const StringMap leader = {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}};
  const auto worker = [](std::string index) {
    return StringMap{
        {kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, index}, {kGroupIndexLabel, "1"}};
  };
  const std::vector<TpuCase> cases = {
      {"S130",
       "test-sample-1",
       leader,
       {{kSizeAnnotation, "5"}, {kSubGroupSizeAnnotation, "5"}},
       LeaderTpuSpec(),
       kHostsOfGroup1,
       "0"},
      {"S131",
       "test-sample-1-3",
       worker("3"),
       {{kSizeAnnotation, "5"}, {kLeaderRequestsTpusAnnotation, "true"}},
       WorkerTpuSpec(),
       kHostsOfGroup1,
       "3"},
      {"S132",
       "test-sample-1-3",
       worker("3"),
       {{kSizeAnnotation, "10"},
        {kLeaderRequestsTpusAnnotation, "true"},
        {kSubGroupSizeAnnotation, "5"}},
       WorkerTpuSpec(),
       kHostsOfGroup1,
       "3"},
      {"S133",
       "test-sample-1-3",
       worker("3"),
       {{kSizeAnnotation, "5"}},
       WorkerTpuSpec(),
       "test-sample-1-1.default,test-sample-1-2.default,"
       "test-sample-1-3.default,test-sample-1-4.default",
       "2"},
      {"S134",
       "test-sample-1-7",
       worker("7"),
       {{kSizeAnnotation, "11"}, {kSubGroupSizeAnnotation, "5"}},
       WorkerTpuSpec(),
       "test-sample-1-6.default,test-sample-1-7.default,test-sample-1-8.default,"
       "test-sample-1-9.default,test-sample-1-10.default",
       "1"},
      {"S135",
       "test-sample-1-1",
       worker("1"),
       {{kSizeAnnotation, "2"}, {kLeaderRequestsTpusAnnotation, "true"}},
       WorkerTpuSpec(),
       "test-sample-1.default,test-sample-1-1.default",
       "1"},
      {"S136",
       "test-sample-1",
       leader,
       {{kSizeAnnotation, "1"}},
       LeaderTpuSpec(),
       "test-sample-1.default",
       "0"},
  };
  for (const TpuCase& c : cases) {
    Pod pod = Mutated(MakePod(c.name, c.labels, c.annotations, c.spec));
    EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerHostnamesEnv), c.want_hosts) << c.id;
    EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerIdEnv), c.want_id) << c.id;
    EXPECT_EQ(Env(pod.spec.containers[0], kTpuNameEnv), "test-sample-1") << c.id;
  }
}

TEST(MutateLwsPodTest, S137_OnlyTheTpuContainerGetsTpuEnv) {
  Pod pod =
      Mutated(MakePod("test-sample-1", {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}},
                      {{kSizeAnnotation, "1"}}, LeaderTpuTwoContainersSpec()));
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerHostnamesEnv), "test-sample-1.default");
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuProcessAddressesEnv), "test-sample-1.default:8476");
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuProcessPortEnv), "8476");
  EXPECT_EQ(EnvNames(pod.spec.containers[1]),
            (std::vector<std::string>{kLwsLeaderAddressEnv, kLwsGroupSizeEnv, kLwsWorkerIndexEnv}));
}

// ---- Exclusive placement (S138-S143) -----------------------------------------------------------

Pod ExclusiveLeader(StringMap extra_annotations = {}) {
  StringMap annotations = {{kSizeAnnotation, "4"}, {kExclusiveKeyAnnotation, "topologyKey"}};
  annotations.insert(extra_annotations.begin(), extra_annotations.end());
  return MakePod("test-sample-1", {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}},
                 annotations, LeaderTpuSpec());
}

TEST(MutateLwsPodTest, S138_LeaderExclusiveTerms) {
  Pod pod = Mutated(ExclusiveLeader());
  EXPECT_EQ(AffinityJson(pod),
            Affinity({Together(kGroupUniqueHashLabel, kKeyTestSample1, "topologyKey")},
                     {Apart(kGroupUniqueHashLabel, kKeyTestSample1, "topologyKey")}));
}

TEST(MutateLwsPodTest, S139_LeaderGroupAndSubGroupTerms) {
  Pod pod = Mutated(ExclusiveLeader(
      {{kSubGroupExclusiveKeyAnnotation, "topologyKey-2"}, {kSubGroupSizeAnnotation, "2"}}));
  EXPECT_EQ(AffinityJson(pod),
            Affinity({Together(kGroupUniqueHashLabel, kKeyTestSample1, "topologyKey"),
                      Together(kSubGroupUniqueHashLabel, kSubKeyTestSample1, "topologyKey-2")},
                     {Apart(kGroupUniqueHashLabel, kKeyTestSample1, "topologyKey"),
                      Apart(kSubGroupUniqueHashLabel, kSubKeyTestSample1, "topologyKey-2")}));
}

TEST(MutateLwsPodTest, S140_WorkerGetsOnlySubGroupTerms) {
  Pod pod = Mutated(
      MakePod("test-sample-1-1",
              {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "1"}, {kGroupIndexLabel, "1"}},
              {{kSizeAnnotation, "4"},
               {kExclusiveKeyAnnotation, "topologyKey"},
               {kSubGroupExclusiveKeyAnnotation, "topologyKey-2"},
               {kSubGroupSizeAnnotation, "2"},
               {kLeaderPodNameAnnotation, "test-sample-1"}},
              WorkerSpec()));
  // Worker 1 of size 4 is in the leader's subgroup 0, so it shares the leader's subgroup key.
  EXPECT_EQ(pod.metadata.Label(kSubGroupIndexLabel), "0");
  EXPECT_EQ(AffinityJson(pod),
            Affinity({Together(kSubGroupUniqueHashLabel, kSubKeyTestSample1, "topologyKey-2")},
                     {Apart(kSubGroupUniqueHashLabel, kSubKeyTestSample1, "topologyKey-2")}));
}

TEST(MutateLwsPodTest, S141_NoAnnotationNoTerms) {
  Pod pod =
      Mutated(MakePod("test-sample-1", {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "0"}},
                      {{kSizeAnnotation, "4"}}, LeaderTpuSpec()));
  EXPECT_FALSE(pod.spec.affinity.has_value());
}

TEST(MutateLwsPodTest, S142_AppliedTermsAreNotReapplied) {
  Pod pod = ExclusiveLeader();
  SetExclusiveAffinities(&pod, "uniquehash", "topologyKey", kGroupUniqueHashLabel);
  pod = Mutated(pod);
  EXPECT_EQ(AffinityJson(pod),
            Affinity({Together(kGroupUniqueHashLabel, "uniquehash", "topologyKey")},
                     {Apart(kGroupUniqueHashLabel, "uniquehash", "topologyKey")}));
}

TEST(MutateLwsPodTest, S143_ExistingTermsStayFirst) {
  Pod pod = ExclusiveLeader();
  pod.spec.affinity.emplace();
  pod.spec.affinity->pod_affinity.emplace();
  pod.spec.affinity->pod_anti_affinity.emplace();
  auto existing = [](std::vector<LabelSelectorRequirement> reqs) {
    PodAffinityTerm term;
    term.label_selector.emplace().match_expressions = std::move(reqs);
    term.topology_key = "topology";
    return term;
  };
  pod.spec.affinity->pod_affinity->required.push_back(existing({{"key", "In", {"value"}, {}}}));
  pod.spec.affinity->pod_anti_affinity->required.push_back(
      existing({{"key", "Exists", {}, {}}, {"key", "NotIn", {"value"}, {}}}));
  pod = Mutated(pod);
  const Json affinity = AffinityJson(pod);
  const Json& together = affinity["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"];
  const Json& apart = affinity["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"];
  ASSERT_EQ(together.size(), 2u);
  ASSERT_EQ(apart.size(), 2u);
  EXPECT_EQ(together[0]["labelSelector"]["matchExpressions"][0]["key"], "key");
  EXPECT_EQ(apart[0]["labelSelector"]["matchExpressions"][0]["key"], "key");
  EXPECT_EQ(together[1], Together(kGroupUniqueHashLabel, kKeyTestSample1, "topologyKey"));
  EXPECT_EQ(apart[1], Apart(kGroupUniqueHashLabel, kKeyTestSample1, "topologyKey"));
}

// ---- LWS environment variables (S144, S172, Q11) -----------------------------------------------

TEST(MutateLwsPodTest, S144_LwsEnvFirstInEveryContainer) {
  Pod pod = Mutated(
      MakePod("test-sample-1-1",
              {{kSetNameLabel, "test-sample"}, {kWorkerIndexLabel, "1"}, {kGroupIndexLabel, "1"}},
              kSize2, InitContainerSpec(), "lws-ns"));
  for (const Container* c : {&pod.spec.containers[0], &pod.spec.init_containers[0]}) {
    EXPECT_EQ(EnvNames(*c), (std::vector<std::string>{kLwsLeaderAddressEnv, kLwsGroupSizeEnv,
                                                      kLwsWorkerIndexEnv, "key1", "key2"}))
        << c->name;
    EXPECT_EQ(Env(*c, kLwsLeaderAddressEnv), "test-sample-1.test-sample.lws-ns");
    EXPECT_EQ(Env(*c, kLwsGroupSizeEnv), "2");
    EXPECT_EQ(Env(*c, kLwsWorkerIndexEnv), "1");
    EXPECT_EQ(Env(*c, "key2"), "value2");
  }
}

Pod EnvPod(std::string group, std::string worker, std::string ns, std::string size) {
  PodSpec spec = InitContainerSpec();
  return MakePod(
      "p", {{kSetNameLabel, "test-sample"}, {kGroupIndexLabel, group}, {kWorkerIndexLabel, worker}},
      {{kSizeAnnotation, size}}, spec, ns);
}

TEST(AddLwsVariablesTest, S172_Values) {
  struct Case {
    Pod pod;
    std::string address, size, worker;
  };
  const std::vector<Case> cases = {
      {EnvPod("0", "0", "default", "3"), "test-sample-0.test-sample.default", "3", "0"},
      {EnvPod("1", "3", "lws", "3"), "test-sample-1.test-sample.lws", "3", "3"},
  };
  for (Case c : cases) {
    ASSERT_TRUE(AddLwsVariables(&c.pod).ok());
    const Container& main = c.pod.spec.containers[0];
    EXPECT_EQ(main.env[0].name, kLwsLeaderAddressEnv);
    EXPECT_EQ(main.env[0].value, c.address);
    EXPECT_EQ(main.env[1].value, c.size);
    EXPECT_EQ(main.env[2].value, c.worker);
  }
}

TEST(AddLwsVariablesTest, Q11_UserValuesAreReplacedAndDuplicatesDropped) {
  Pod pod = EnvPod("1", "2", "default", "4");
  Container& c = pod.spec.containers[0];
  c.env = {{"key1", "a", {}},
           {kLwsGroupSizeEnv, "99", {}},
           {"key1", "b", {}},
           {"from", "", Json{{"valueFrom", {{"fieldRef", {{"fieldPath", "status.podIP"}}}}}}},
           {kLwsLeaderAddressEnv, "elsewhere", {}}};
  ASSERT_TRUE(AddLwsVariables(&pod).ok());
  EXPECT_EQ(EnvNames(c), (std::vector<std::string>{kLwsLeaderAddressEnv, kLwsGroupSizeEnv,
                                                   kLwsWorkerIndexEnv, "key1", "from"}));
  EXPECT_EQ(Env(c, kLwsGroupSizeEnv), "4");
  EXPECT_EQ(Env(c, "key1"), "a");
  EXPECT_EQ(c.env[4].rest["valueFrom"]["fieldRef"]["fieldPath"], "status.podIP");
}

TEST(AddLwsVariablesTest, MissingInputsAreErrors) {
  struct Case {
    std::string label_or_annotation;
    std::string want;
  };
  const std::string prefix = "Failure constructing environment variables, no ";
  const std::vector<Case> cases = {
      {kSetNameLabel, prefix + "name label found for pod lws/p"},
      {kGroupIndexLabel, prefix + "group index label found for pod lws/p"},
      {kSizeAnnotation, prefix + "size annotation found for pod lws/p"},
      {kWorkerIndexLabel, prefix + "worker index label found for pod lws/p"},
  };
  for (const Case& c : cases) {
    Pod pod = EnvPod("1", "2", "lws", "4");
    pod.metadata.labels.erase(c.label_or_annotation);
    pod.metadata.annotations.erase(c.label_or_annotation);
    const Status status = AddLwsVariables(&pod);
    EXPECT_EQ(status.code(), Code::kForbidden);
    EXPECT_EQ(status.message(), c.want);
  }
  Pod no_namespace = EnvPod("1", "2", "", "4");
  no_namespace.metadata.labels.erase(kGroupIndexLabel);
  EXPECT_EQ(AddLwsVariables(&no_namespace).message(), prefix + "group index label found for pod p");
}

// ---- Validation, gang scheduling (S145, S146) --------------------------------------------------

TEST(ValidateLwsPodTest, S145_AcceptsEverything) {
  EXPECT_TRUE(
      ValidateLwsPod(MakePod("randompod", {{"random-label", "random-value"}}, {}, WorkerSpec()))
          .ok());
  EXPECT_TRUE(ValidateLwsPod(MakePod("x", {{kSetNameLabel, "x"}}, {}, {})).ok());
}

TEST(MutateLwsPodTest, S146_GangSchedulingGroupName) {
  const Pod pod = MakePod("test-pod-0",
                          {{kSetNameLabel, "test"}, {kGroupIndexLabel, "0"}, {kRevisionLabel, "1"}},
                          {{kSizeAnnotation, "1"}}, WorkerSpec());
  EXPECT_EQ(Mutated(pod, {.gang_scheduling = true}).metadata.Annotation(kGangGroupNameAnnotation),
            "test-0-1");
  EXPECT_FALSE(Mutated(pod).metadata.annotations.contains(kGangGroupNameAnnotation));
  EXPECT_EQ(PodGroupName("lws", "1", "dd6699c7c"), "lws-1-dd6699c7c");
}

// ---- Errors -----------------------------------------------------------------------------------

TEST(MutateLwsPodTest, ErrorsCarryUpstreamMessagesAndLeaveThePodUnchanged) {
  struct Case {
    const char* what;
    Pod pod;
    Code code;
    std::string message;
  };
  const StringMap leader = {{kSetNameLabel, "test"}, {kWorkerIndexLabel, "0"}};
  const StringMap worker = {{kSetNameLabel, "test"}, {kGroupIndexLabel, "1"}};
  const std::vector<Case> cases = {
      {"no size", MakePod("test-1", leader, {}, WorkerSpec()), Code::kForbidden,
       "size annotation is unexpectedly missing for pod test-1"},
      {"bad size", MakePod("test-1", leader, {{kSizeAnnotation, "two"}}, WorkerSpec()),
       Code::kForbidden, R"(strconv.Atoi: parsing "two": invalid syntax)"},
      {"leader without ordinal", MakePod("leader", leader, kSize2, WorkerSpec()), Code::kForbidden,
       "parsing pod ordinal for pod leader"},
      {"worker without ordinal", MakePod("test-x", worker, kSize2, WorkerSpec()), Code::kForbidden,
       "parsing pod ordinal for pod test-x"},
      {"bad subgroup size",
       MakePod("test-1-1", worker, {{kSizeAnnotation, "4"}, {kSubGroupSizeAnnotation, "x"}},
               WorkerSpec()),
       Code::kForbidden, R"(strconv.Atoi: parsing "x": invalid syntax)"},
      {"zero subgroup size (Q12)",
       MakePod("test-1-1", worker, {{kSizeAnnotation, "4"}, {kSubGroupSizeAnnotation, "0"}},
               WorkerSpec()),
       Code::kInternal, "panic: runtime error: integer divide by zero [recovered]"},
      {"worker without group index",
       MakePod("test-1-1", {{kSetNameLabel, "test"}}, kSize2, WorkerSpec()), Code::kForbidden,
       "Failure constructing environment variables, no group index label found for pod "
       "default/test-1-1"},
      {"TPU worker without parent name", MakePod("-1", worker, kSize2, WorkerTpuSpec()),
       Code::kForbidden, "parsing parent name from pod -1"},
  };
  for (const Case& c : cases) {
    Pod pod = c.pod;
    const Status status = MutateLwsPod(&pod, {.gang_scheduling = true});
    EXPECT_EQ(status.code(), c.code) << c.what;
    EXPECT_EQ(status.message(), c.message) << c.what;
    EXPECT_EQ(Encode(pod), Encode(c.pod)) << c.what;
  }
}

// ---- Properties over generated LWS pods --------------------------------------------------------

// A leader or worker pod of group `g` as the StatefulSets would create it, with random options.
Pod GenLwsPod() {
  const int group = *rc::gen::inRange(0, 4);
  const int size = *rc::gen::inRange(1, 9);
  const int worker = *rc::gen::inRange(0, size);
  const std::string leader_name = "lws-" + std::to_string(group);
  StringMap labels = {{kSetNameLabel, "lws"}, {kRevisionLabel, "abc"}};
  StringMap annotations = {{kSizeAnnotation, std::to_string(size)}};
  if (worker == 0) {
    labels[kWorkerIndexLabel] = "0";
  } else {
    labels[kGroupIndexLabel] = std::to_string(group);
    annotations[kLeaderPodNameAnnotation] = leader_name;
  }
  const auto maybe = [&](const std::string& key, const std::string& value) {
    if (*rc::gen::arbitrary<bool>()) annotations[key] = value;
  };
  maybe(kExclusiveKeyAnnotation, "rack");
  maybe(kSubdomainPolicyAnnotation, kSubdomainUniquePerReplica);
  maybe(kLeaderRequestsTpusAnnotation, "true");
  if (*rc::gen::arbitrary<bool>()) {
    annotations[kSubGroupSizeAnnotation] = std::to_string(*rc::gen::inRange(1, size + 1));
    maybe(kSubGroupExclusiveKeyAnnotation, "host");
    maybe(kSubGroupPolicyTypeAnnotation, kSubGroupLeaderExcluded);
  }
  PodSpec spec = InitContainerSpec();
  spec.subdomain = "lws";
  if (*rc::gen::arbitrary<bool>()) spec.containers.push_back(MakeContainer("tpu", 4));
  if (*rc::gen::arbitrary<bool>()) spec.init_containers.push_back(MakeContainer("tpu-init", 4));
  const std::string name = worker == 0 ? leader_name : leader_name + "-" + std::to_string(worker);
  return MakePod(name, labels, annotations, spec);
}

// A second admission of an admitted pod changes nothing; a failed one changes nothing either.
RC_GTEST_PROP(MutateLwsPodTest, MutationIsIdempotent, ()) {
  const Pod original = GenLwsPod();
  const PodMutationOptions options{.gang_scheduling = *rc::gen::arbitrary<bool>()};
  Pod pod = original;
  if (!MutateLwsPod(&pod, options).ok()) {
    RC_ASSERT(Encode(pod) == Encode(original));
    RC_TAG("rejected");
    return;
  }
  const Json once = Encode(pod);
  RC_ASSERT(MutateLwsPod(&pod, options).ok());
  RC_ASSERT(Encode(pod) == once);
}

// The patch of MutationPatch turns the request object into the mutated pod.
RC_GTEST_PROP(MutationPatchTest, PatchReproducesTheMutation, ()) {
  const Pod original = GenLwsPod();
  const Json request = Encode(original);
  auto patch = MutationPatch(request);
  Pod mutated = original;
  const Status status = MutateLwsPod(&mutated);
  RC_ASSERT(patch.ok() == status.ok());
  if (!status.ok()) return;
  RC_ASSERT(request.patch(*patch) == Encode(mutated));
}

// ---- JSON Patch --------------------------------------------------------------------------------

TEST(JsonPatchBetweenTest, ApplyingThePatchYieldsAfter) {
  const Json before = Json::parse(R"({"metadata": {"labels": {"a/b": "1", "gone": "x"}},
                                      "spec": {"containers": [{"env": [{"name": "k", "value": "v"}]}]}})");
  const Json after = Json::parse(R"({"metadata": {"labels": {"a/b": "2", "c~d": "3"}},
                                     "spec": {"containers": [{"env": [{"name": "N", "value": "1"},
                                                                      {"name": "k", "value": "v"}]}],
                                              "subdomain": "s"}})");
  const Json patch = JsonPatchBetween(before, after);
  EXPECT_EQ(before.patch(patch), after);
  std::vector<std::string> paths;
  for (const Json& op : patch) paths.push_back(op["path"]);
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/metadata/labels/a~1b"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/metadata/labels/c~0d"), paths.end());
  EXPECT_EQ(JsonPatchBetween(after, after), Json::array());
}

const char* const kLeaderRequest = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {
    "name": "test-sample-1", "namespace": "default", "uid": "u-1",
    "labels": {"leaderworkerset.sigs.k8s.io/name": "test-sample",
               "leaderworkerset.sigs.k8s.io/worker-index": "0"},
    "annotations": {"leaderworkerset.sigs.k8s.io/size": "2"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "test-sample",
                         "uid": "u-0", "controller": true, "blockOwnerDeletion": true}],
    "managedFields": [{"manager": "kube-controller-manager", "operation": "Update"}]
  },
  "spec": {
    "containers": [{"name": "leader", "image": "nginx", "ports": [{"containerPort": 8080}],
                    "env": [{"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}]}],
    "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
    "hostname": "test-sample-1", "subdomain": "test-sample", "enableServiceLinks": false
  },
  "status": {}
})";

TEST(MutationPatchTest, PatchNamesOnlyWhatTheWebhookChanged) {
  const Json request = Json::parse(kLeaderRequest);
  auto patch = MutationPatch(request);
  ASSERT_TRUE(patch.ok()) << patch.status().ToString();
  Json want = request;
  want["metadata"]["labels"][kGroupIndexLabel] = "1";
  want["metadata"]["labels"][kGroupUniqueHashLabel] = kKeyTestSample1;
  want["spec"]["containers"][0]["env"] = Json::parse(R"([
    {"name": "LWS_LEADER_ADDRESS", "value": "test-sample-1.test-sample.default"},
    {"name": "LWS_GROUP_SIZE", "value": "2"},
    {"name": "LWS_WORKER_INDEX", "value": "0"},
    {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}])");
  EXPECT_EQ(request.patch(*patch), want);
  for (const Json& op : *patch) {
    const std::string path = op["path"];
    EXPECT_TRUE(path.starts_with("/metadata/labels/") || path.starts_with("/spec/containers/0/env"))
        << op.dump();
  }
}

TEST(MutationPatchTest, NonLwsPodGivesAnEmptyPatch) {
  Json request = Json::parse(kLeaderRequest);
  request["metadata"]["labels"].erase(kSetNameLabel);
  auto patch = MutationPatch(request);
  ASSERT_TRUE(patch.ok());
  EXPECT_EQ(*patch, Json::array());
  // Even when encoding would fill in a missing apiVersion.
  request.erase("apiVersion");
  EXPECT_EQ(*MutationPatch(request), Json::array());
}

TEST(MutationPatchTest, Errors) {
  Json request = Json::parse(kLeaderRequest);
  request["metadata"]["annotations"] = Json::object();
  auto denied = MutationPatch(request);
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().code(), Code::kForbidden);
  EXPECT_EQ(denied.status().message(),
            "size annotation is unexpectedly missing for pod test-sample-1");

  request["spec"]["containers"] = "not a list";
  auto malformed = MutationPatch(request);
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.status().code(), Code::kBadRequest);
}

}  // namespace
}  // namespace lws::api
