// The pod webhook for Hash leaders and workers (KEP 898). Ported from upstream
// pkg/webhooks/pod_webhook_hash_test.go (TestHashLeaderDNSDefaults,
// TestHashLeaderUniquePerReplicaSubdomain, TestHashLeaderSubGroupLabels,
// TestHashWorkerSubGroupKeyFromGroupKey; hostnames in the final "<lws>-<key[:8]>" form) and
// pod_webhook_default_test.go TestPodWebhookDefaultLeaderAddress.
#include <gtest/gtest.h>

#include "api/group_identity.h"
#include "api/pod_mutation.h"
#include "api/pod_names.h"

namespace lws::api {
namespace {

Pod HashPod(const std::string& name, const std::string& worker_index, StringMap annotations = {}) {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = {{kSetNameLabel, "hash"}, {kWorkerIndexLabel, worker_index}};
  pod.metadata.annotations = {{kSizeAnnotation, "2"}, {kGroupIdentityAnnotation, "Hash"}};
  for (auto& [k, v] : annotations) pod.metadata.annotations[k] = v;
  Container c;
  c.name = "main";
  c.image = "busybox";
  pod.spec.containers = {c};
  pod.spec.subdomain = "hash";
  return pod;
}

PodMutationOptions Seeded() {
  PodMutationOptions options;
  options.random_key_suffix = [] { return std::string("abcdefghijklmnop"); };
  return options;
}

std::string Env(const Pod& pod, const std::string& name) {
  const EnvVar* var = pod.spec.containers[0].FindEnv(name);
  return var == nullptr ? "" : var->value;
}

TEST(PodMutationHashTest, LeaderGetsARandomKeyHostnameGateAndAddress) {
  Pod pod = HashPod("hash-7d9f8b6c4-x2kkp", "0");
  ASSERT_TRUE(MutateLwsPod(&pod, Seeded()).ok());
  const std::string key = GroupUniqueKey("default", "abcdefghijklmnop");
  EXPECT_EQ(key.size(), 40u);
  EXPECT_EQ(pod.metadata.Label(kGroupUniqueHashLabel), key);
  EXPECT_EQ(pod.metadata.Label(kGroupIndexLabel), key);
  EXPECT_EQ(pod.spec.hostname, "hash-" + key.substr(0, 8));
  EXPECT_EQ(pod.spec.subdomain, "hash");
  EXPECT_EQ(Env(pod, kLwsLeaderAddressEnv), pod.spec.hostname + ".hash.default");
  EXPECT_EQ(pod.spec.rest["schedulingGates"],
            Json::array({{{"name", "leaderworkerset.sigs.k8s.io/group-replacement"}}}));
  // Called again (reinvocation): the same key, one gate.
  ASSERT_TRUE(MutateLwsPod(&pod, Seeded()).ok());
  EXPECT_EQ(pod.metadata.Label(kGroupUniqueHashLabel), key);
  EXPECT_EQ(pod.spec.rest["schedulingGates"].size(), 1u);
}

TEST(PodMutationHashTest, UniquePerReplicaSubdomainIsTheHostname) {
  Pod pod = HashPod("hash-7d9f8b6c4-x2kkp", "0",
                    {{kSubdomainPolicyAnnotation, kSubdomainUniquePerReplica}});
  ASSERT_TRUE(MutateLwsPod(&pod, Seeded()).ok());
  EXPECT_EQ(pod.spec.subdomain, pod.spec.hostname);
}

TEST(PodMutationHashTest, SubGroupKeysComeFromTheGroupKey) {
  Pod leader = HashPod("hash-7d9f8b6c4-x2kkp", "0", {{kSubGroupSizeAnnotation, "2"}});
  ASSERT_TRUE(MutateLwsPod(&leader, Seeded()).ok());
  const std::string key = leader.metadata.Label(kGroupUniqueHashLabel);
  EXPECT_EQ(leader.metadata.Label(kSubGroupIndexLabel), "0");
  EXPECT_EQ(leader.metadata.Label(kSubGroupUniqueHashLabel), SubGroupUniqueKey(key, "0"));

  Pod worker = HashPod("hash-9f2ac71b-3", "", {{kSubGroupSizeAnnotation, "2"}});
  worker.metadata.annotations[kSizeAnnotation] = "4";
  worker.metadata.labels.erase(kWorkerIndexLabel);
  worker.metadata.labels[kGroupIndexLabel] = key;
  worker.metadata.labels[kGroupUniqueHashLabel] = key;
  worker.metadata.annotations[kLeaderPodNameAnnotation] = "hash-7d9f8b6c4-x2kkp";
  worker.metadata.annotations[kLeaderAddressAnnotation] = "hash-9f2ac71b.hash.default";
  ASSERT_TRUE(MutateLwsPod(&worker, Seeded()).ok());
  EXPECT_EQ(worker.metadata.Label(kWorkerIndexLabel), "3");
  EXPECT_EQ(worker.metadata.Label(kSubGroupIndexLabel), "1");
  EXPECT_EQ(worker.metadata.Label(kSubGroupUniqueHashLabel), SubGroupUniqueKey(key, "1"));
  EXPECT_EQ(Env(worker, kLwsLeaderAddressEnv), "hash-9f2ac71b.hash.default");
  EXPECT_FALSE(worker.spec.rest.contains("schedulingGates"));
}

TEST(PodMutationHashTest, OrdinalLeaderAddressIsUnchanged) {
  Pod pod;
  pod.metadata.name = "test-lws-3";
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = {{kSetNameLabel, "test-lws"}, {kWorkerIndexLabel, "0"}};
  pod.metadata.annotations = {{kSizeAnnotation, "2"}};
  Container c;
  c.name = "main";
  c.image = "busybox";
  pod.spec.containers = {c};
  pod.spec.subdomain = "test-lws";
  ASSERT_TRUE(MutateLwsPod(&pod).ok());
  EXPECT_EQ(Env(pod, kLwsLeaderAddressEnv), "test-lws-3.test-lws.default");
  EXPECT_FALSE(pod.spec.rest.contains("schedulingGates"));
}

TEST(PodMutationHashTest, AHashLeaderWithoutARandomSourceIsRefused) {
  Pod pod = HashPod("hash-7d9f8b6c4-x2kkp", "0");
  EXPECT_FALSE(MutateLwsPod(&pod).ok());
}

}  // namespace
}  // namespace lws::api
