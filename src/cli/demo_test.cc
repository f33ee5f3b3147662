#include "cli/demo.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/lws_types.h"
#include "api/yaml.h"
#include "client/local/local_testing.h"
#include "cluster/cluster_config.h"
#include "testdata/testdata_dir.h"

namespace lws::cli {
namespace {

using api::Json;
using client::kLeaderWorkerSets;
using client::kPods;
using client::kStatefulSets;
using PatchType = client::PatchType;

std::string ReadRepoFile(const std::string& path) {
  std::ifstream in(TestdataDir() + "/../" + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(DemoManifests, AreTheExampleFilesByteForByte) {
  EXPECT_EQ(DemoManifest(), ReadRepoFile("examples/lws/demo.yaml"));
  EXPECT_EQ(DemoClusterConfig(), ReadRepoFile("examples/cluster/demo-cluster.yaml"));
  Result<cluster::ClusterSpec> cluster =
      cluster::ParseClusterConfig(DemoClusterConfig(), "demo-cluster.yaml");
  ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
  EXPECT_EQ(cluster->pools.size(), 2u);
}

// Plays the LWS controller's part in the simplest way: whenever the LWS has a generation it has
// not handled, it writes what a finished rollout to that generation leaves behind (leader
// StatefulSet and leader pods labelled with a revision named after the generation, ready
// groups, Available). `max_generation` makes it stop reacting, like a stuck controller.
class FakeController {
 public:
  explicit FakeController(client::testing::ControlPlane& cp) : client_(cp.Client("fake-lws")) {}

  void Converge() {
    Result<store::ObjectPtr> lws = client_.Get(kLeaderWorkerSets, "default", "demo");
    ASSERT_TRUE(lws.ok());
    std::int64_t generation = (*lws)->document()["metadata"]["generation"];
    if (generation == converged_ || generation > max_generation) return;
    std::string hash = "hash-" + std::to_string(generation);
    Apply(kStatefulSets, StatefulSet("demo", hash, 4, {{api::kWorkerIndexLabel, "0"}}, Json()));
    for (int i = 0; i < 4; ++i) {
      std::string name = "demo-" + std::to_string(i);
      Json pod = Apply(kPods, LeaderPod(name, i, hash));
      Patch(kPods, name,
            {{"status",
              {{"phase", "Running"}, {"conditions", {{{"type", "Ready"}, {"status", "True"}}}}}}});
      Json owner = {{"apiVersion", "v1"},
                    {"kind", "Pod"},
                    {"name", name},
                    {"uid", pod["metadata"]["uid"]},
                    {"controller", true}};
      Apply(kStatefulSets,
            StatefulSet(name, hash, 3, {{api::kGroupIndexLabel, std::to_string(i)}}, owner));
      Patch(kStatefulSets, name,
            {{"status", {{"replicas", 3}, {"readyReplicas", 3}, {"availableReplicas", 3}}}});
    }
    Json available = {{"type", "Available"},
                      {"status", "True"},
                      {"reason", "AllGroupsReady"},
                      {"message", "All replicas are ready"},
                      {"lastTransitionTime", "2024-01-01T00:00:00Z"}};
    client_
        .Patch(kLeaderWorkerSets, "default", "demo", PatchType::kMerge,
               {{"status",
                 {{"conditions", {available}},
                  {"observedGeneration", generation},
                  {"readyReplicas", 4},
                  {"updatedReplicas", 4}}}},
               "status")
        .value();
    converged_ = generation;
  }

  std::int64_t max_generation = INT64_MAX;

 private:
  static Json StatefulSet(const std::string& name, const std::string& hash, int replicas,
                          api::StringMap selector, Json owner) {
    selector[api::kSetNameLabel] = "demo";
    Json labels = selector;
    labels[api::kRevisionLabel] = hash;
    Json meta = {{"name", name}, {"namespace", "default"}, {"labels", labels}};
    if (!owner.is_null()) meta["ownerReferences"] = {owner};
    Json pod_spec = {{"containers", {{{"name", "c"}, {"image", "vllm"}}}}};
    return {{"apiVersion", "apps/v1"},
            {"kind", "StatefulSet"},
            {"metadata", meta},
            {"spec",
             {{"replicas", replicas},
              {"serviceName", "demo"},
              {"selector", {{"matchLabels", selector}}},
              {"template", {{"metadata", {{"labels", labels}}}, {"spec", pod_spec}}}}}};
  }

  static Json LeaderPod(const std::string& name, int index, const std::string& hash) {
    Json labels = {{api::kSetNameLabel, "demo"},
                   {api::kWorkerIndexLabel, "0"},
                   {api::kGroupIndexLabel, std::to_string(index)},
                   {api::kRevisionLabel, hash}};
    return {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", labels}}},
            {"spec", {{"containers", {{{"name", "c"}, {"image", "vllm"}}}}}}};
  }

  // Creates `object`, or relabels the existing one: only the revision label changes between
  // generations.
  Json Apply(const client::Resource& resource, const Json& object) {
    Result<store::ObjectPtr> created = client_.Create(resource, object);
    if (created.ok()) return (*created)->document();
    EXPECT_EQ(created.status().code(), Code::kAlreadyExists) << created.status().ToString();
    Json labels = {{"metadata", {{"labels", object["metadata"]["labels"]}}}};
    return client_.Patch(resource, "default", object["metadata"]["name"], PatchType::kMerge, labels)
        .value()
        ->document();
  }

  void Patch(const client::Resource& resource, const std::string& name, const Json& status) {
    Result<store::ObjectPtr> patched =
        client_.Patch(resource, "default", name, PatchType::kMerge, status, "status");
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
  }

  client::LocalClient client_;
  std::int64_t converged_ = 0;
};

struct DemoRun {
  client::testing::ControlPlane cp{7, /*install_lws_crd=*/true};
  FakeController controller{cp};
  bool controller_on = true;
  std::ostringstream out;
  DemoOptions options;

  DemoRun() {
    options.available_timeout = std::chrono::seconds(2);
    options.rollout_timeout = std::chrono::seconds(3);
    options.poll_interval = std::chrono::milliseconds(100);
    options.kubeconfig = "/tmp/kubeconfig";
    // The "controller" acts between polls, on virtual time.
    options.wait = [this](Duration d) {
      cp.loop.RunFor(d);
      if (controller_on) controller.Converge();
      return true;
    };
  }
  int Run() { return RunDemo(cp.Client("lws-demo"), cp.loop.clock(), out, options); }
  Json Lws() {
    return cp.Client("test").Get(kLeaderWorkerSets, "default", "demo").value()->FullJson();
  }
  static std::string Image(const Json& lws, const char* tmpl) {
    return lws["spec"]["leaderWorkerTemplate"][tmpl]["spec"]["containers"][0]["image"];
  }
};

TEST(RunDemo, CreatesTheLwsAndGivesUpWhenItNeverBecomesAvailable) {
  DemoRun run;
  run.controller_on = false;
  Time start = run.cp.loop.Now();
  EXPECT_EQ(run.Run(), kDemoFailed);
  EXPECT_GE(run.cp.loop.Now() - start, std::chrono::seconds(2));
  std::string out = run.out.str();
  EXPECT_NE(out.find("leaderworkerset.leaderworkerset.x-k8s.io/demo created\n"), std::string::npos)
      << out;
  // Nothing changed while waiting: the view was printed once.
  EXPECT_NE(out.find("  +0.0s  -          0/4    0        -- -- -- --     - (gen 1 unobserved)\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("+0.1s"), std::string::npos) << out;
  EXPECT_NE(out.find("lws up --demo: not Available after 2.0s:\n"
                     "  the controller has not observed generation 1 (status is at 0)\n"),
            std::string::npos)
      << out;
  // Created through the API's write path, as the demo's field manager, with the manifest's spec.
  Json lws = run.Lws();
  EXPECT_EQ(lws["metadata"]["managedFields"][0]["manager"], "lws-demo");
  EXPECT_EQ(lws["spec"]["replicas"], 4);
  EXPECT_EQ(lws["spec"]["leaderWorkerTemplate"]["size"], 4);
  EXPECT_EQ(DemoRun::Image(lws, "workerTemplate"), "vllm/vllm-openai:v0.6.0");
}

TEST(RunDemo, RollsOutTheNewImageAndSummarises) {
  DemoRun run;
  ASSERT_EQ(run.Run(), kDemoDone) << run.out.str();
  std::string out = run.out.str();
  Json lws = run.Lws();
  EXPECT_EQ(lws["metadata"]["generation"], 2);
  EXPECT_EQ(DemoRun::Image(lws, "leaderTemplate"), "vllm/vllm-openai:v0.6.1");
  EXPECT_EQ(DemoRun::Image(lws, "workerTemplate"), "vllm/vllm-openai:v0.6.1");
  EXPECT_NE(out.find("== Available after 0.1s\n== rolling out vllm/vllm-openai:v0.6.1\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  0          4/4    4        n+ n+ n+ n+     Available\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("rollout complete in 0.1s\n  fewest ready groups: 4 of 4"), std::string::npos)
      << out;
  EXPECT_NE(out.find("export KUBECONFIG=/tmp/kubeconfig\n"), std::string::npos) << out;
  // Not on a terminal: a log, every line within 80 columns, no terminal sequence.
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 80u) << line;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;

  // A second run finds the LWS (as `lws up --data-dir` would) and rolls back to the old image.
  run.out.str("");
  ASSERT_EQ(run.Run(), kDemoDone) << run.out.str();
  EXPECT_NE(run.out.str().find("demo exists already: reusing it"), std::string::npos)
      << run.out.str();
  EXPECT_EQ(DemoRun::Image(run.Lws(), "workerTemplate"), "vllm/vllm-openai:v0.6.0");
}

TEST(RunDemo, OnATerminalRedrawsEachPhaseInPlace) {
  DemoRun run;
  run.options.view = ViewStyle{true, 80};
  ASSERT_EQ(run.Run(), kDemoDone) << run.out.str();
  std::string out = run.out.str();
  // Each poll moves back over the row and draws it again; the phases' tables and the summary
  // start on lines of their own.
  EXPECT_NE(out.find("\r\x1b[1A\x1b[J  +0.1s  "), std::string::npos) << out;
  EXPECT_NE(
      out.find(
          "\n== Available after 0.1s\n== rolling out vllm/vllm-openai:v0.6.1\n   TIME  PARTITION"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("     Available\nrollout complete in 0.1s\n"), std::string::npos) << out;
}

TEST(RunDemo, SaysWhereARolloutIsStuck) {
  DemoRun run;
  run.controller.max_generation = 1;  // becomes Available, never reacts to the image change
  EXPECT_EQ(run.Run(), kDemoFailed);
  EXPECT_NE(run.out.str().find(
                "lws up --demo: rollout stuck after 3.0s:\n  the controller has not observed "
                "generation 2 (status is at 1)\n"),
            std::string::npos)
      << run.out.str();
}

TEST(RunDemo, StopsWhenInterrupted) {
  DemoRun run;
  run.options.wait = [](Duration) { return false; };
  EXPECT_EQ(run.Run(), kDemoInterrupted);
  EXPECT_NE(run.out.str().find("interrupted"), std::string::npos);
}

}  // namespace
}  // namespace lws::cli
