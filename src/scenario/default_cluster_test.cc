// The default cluster of `lws up` (cluster::DefaultClusterSpec) models real 8-GPU machines
// (issue 35, item 6): the repository's vLLM example, whose pods ask for 125 CPUs and 1200Gi as
// upstream's vLLM 405B example does, schedules and becomes Available unchanged.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/yaml.h"
#include "client/resource.h"
#include "cluster/cluster_spec.h"
#include "scenario/lws_world.h"
#include "testdata/testdata_dir.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

TEST(DefaultCluster, TheVllmExampleSchedulesUnchanged) {
  std::ifstream in(TestdataDir() + "/../examples/vllm-multinode-gpu.yaml");
  std::stringstream text;
  text << in.rdbuf();
  Result<api::Json> manifest = api::LoadYaml(text.str());
  ASSERT_TRUE(manifest.ok()) << manifest.status().ToString();
  LwsWorld world{WorldOptions{cluster::DefaultClusterSpec(), 1}};
  ASSERT_TRUE(world.Start().ok());
  (*manifest)["metadata"]["namespace"] = "default";  // kubectl apply's default namespace
  auto created = world.Create(client::kLeaderWorkerSets, *manifest);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::string name = (*manifest)["metadata"]["name"];
  EXPECT_TRUE(world.RunUntil([&] { return world.LwsCondition(name, "Available").status == "True"; },
                             10min));
  EXPECT_TRUE(world.Events("FailedScheduling").empty());
}

}  // namespace
}  // namespace lws::scenario
