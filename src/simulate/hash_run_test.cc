// groupIdentity Hash in `lws simulate` (upstream KEP 898): the groups of a Hash LWS are read
// through their keys and the leader Deployment (observation.h), and the dynamic Hash adds under
// scarcity is visible: with groupReplacementPolicy PostTermination a replacement leader is held
// until the whole old group is gone (the ReplicaSet deletes the old leader in the background, the
// garbage collector its workers once it is gone), so the GPUs the old leader released sit free
// meanwhile and another tenant quicker than that teardown takes them; Immediate places the
// replacement leader on them at once.
#include <gtest/gtest.h>

#include "simulate/report.h"
#include "simulate/run.h"
#include "simulate/sweep.h"

namespace lws::simulate {
namespace {

// Three nodes of 8 GPUs in stockout, 2 groups of a 4-GPU leader and a 4-GPU worker: one spare
// node, which the surge group takes. Pods stop 10 s after deletion, and another tenant takes
// what the rollout frees TENANT_DELAY later.
const char* kScenario = R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {name: hash-replacement}
cluster:
  nodePools:
  - name: gpu
    nodes: 3
    maxNodes: 6
    allocatable: {nvidia.com/gpu: "8", pods: "110"}
    startup: {distribution: fixed, value: 30s}
    termination: 10s
  capacityChanges: [{at: 0s, stockout: gpu, for: 10h}]
  otherTenants: {takeFreed: {probability: 1, delay: TENANT_DELAY}}
workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: model}
    spec:
      replicas: 2
      leaderWorkerTemplate:
        size: 2
        workerTemplate:
          spec:
            containers: [{name: c, image: img:1, resources: {limits: {nvidia.com/gpu: "4"}}}]
      rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 0, maxSurge: 1}}
timeline: [{at: 5m, lws: model, image: img:2}]
strategies:
- {name: hash-post, patch: {spec: {groupIdentity: Hash}}}
- {name: hash-imm, patch: {spec: {groupIdentity: Hash, groupReplacementPolicy: Immediate}}}
limits: {horizon: 40m, stall: 5m}
)";

Scenario Parse(const std::string& tenant_delay) {
  std::string text = kScenario;
  const std::string marker = "TENANT_DELAY";
  text.replace(text.find(marker), marker.size(), tenant_delay);
  Result<Scenario> s = ParseScenario(text, "hash.yaml", ".");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

struct Outcome {
  bool post_termination_completed;
  bool immediate_completed;
};

Outcome RunBoth(const std::string& tenant_delay, std::vector<Stall>* post_stalls = nullptr) {
  Scenario s = Parse(tenant_delay);
  Result<RunResult> post = RunScenario(s, s.strategies[0], 1);
  Result<RunResult> immediate = RunScenario(s, s.strategies[1], 1);
  EXPECT_TRUE(post.ok() && immediate.ok());
  if (!post.ok() || !immediate.ok()) return {};
  // maxUnavailable 0: Ready groups never drop below 2, whatever happens to the replacements.
  EXPECT_EQ(post->metrics.min_ready, 2);
  EXPECT_EQ(immediate->metrics.min_ready, 2);
  if (post_stalls != nullptr) *post_stalls = post->metrics.stalls;
  return {post->metrics.completed, immediate->metrics.completed};
}

TEST(HashRun, PostTerminationLetsAQuickerTenantTakeTheOldLeadersGpus) {
  std::vector<Stall> stalls;
  const Outcome quick = RunBoth("5s", &stalls);  // quicker than the 10 s + 10 s teardown
  EXPECT_FALSE(quick.post_termination_completed);
  EXPECT_TRUE(quick.immediate_completed);
  ASSERT_FALSE(stalls.empty());
  bool insufficient = false;
  for (const auto& [message, count] : stalls[0].reasons) {
    insufficient |= message.find("Insufficient nvidia.com/gpu") != std::string::npos;
  }
  EXPECT_TRUE(insufficient);
  const Outcome slow = RunBoth("30s");  // slower than the teardown: both complete
  EXPECT_TRUE(slow.post_termination_completed);
  EXPECT_TRUE(slow.immediate_completed);
}

TEST(HashRun, SameSeedSameReport) {
  Scenario s = Parse("5s");
  SweepOptions options;
  options.seeds = {1, 2};
  Result<Report> a = Sweep(s, options);
  Result<Report> b = Sweep(s, options);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ReportJson(*a).dump(), ReportJson(*b).dump());
}

}  // namespace
}  // namespace lws::simulate
