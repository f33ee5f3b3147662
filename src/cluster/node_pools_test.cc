// NodePools against the embedded control plane on a virtual clock: initial nodes, scale-up with
// its events and status, max size, stockouts, pods no pool fits, scale-down, zone failures and
// determinism. No scheduler runs here: tests write the PodScheduled=False condition themselves.
#include "cluster/node_pools.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>

#include "client/local/local_testing.h"
#include "cluster/kubelet.h"

namespace lws::cluster {
namespace {

using api::Json;
using std::chrono::minutes;
using std::chrono::seconds;

const client::Resource kConfigMaps{"", "v1", "configmaps"};

NodePoolSpec GpuPool(const std::string& name, int initial, int min, int max) {
  NodePoolSpec pool;
  pool.name = name;
  pool.initial_nodes = initial;
  pool.min_nodes = min;
  pool.max_nodes = max;
  pool.allocatable = {{"cpu", "96"}, {"memory", "1Ti"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}};
  pool.zones = {"zone-a", "zone-b"};
  pool.nodes_per_rack = 2;
  pool.provisioning_delay = seconds(90);
  pool.scale_down_delay = minutes(10);
  return pool;
}

Json GpuPod(const std::string& name, int gpus, const std::string& node = "") {
  Json resources = {{"nvidia.com/gpu", std::to_string(gpus)}, {"cpu", "1"}};
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec",
               {{"containers",
                 {{{"name", "main"},
                   {"image", "vllm"},
                   {"resources", {{"requests", resources}, {"limits", resources}}}}}}}}};
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  return pod;
}

struct EventRow {
  std::string object, type, reason, message;
  bool operator==(const EventRow&) const = default;
};

std::ostream& operator<<(std::ostream& os, const EventRow& e) {
  return os << e.object << " " << e.type << " " << e.reason << ": " << e.message;
}

class NodePoolsTest : public ::testing::Test {
 protected:
  void StartPools(std::uint64_t seed = 1) {
    pools_ = std::make_unique<NodePools>(&cp_.loop, &client_, &spec_, Rng(seed));
    Status started = pools_->Start();
    ASSERT_TRUE(started.ok()) << started.ToString();
    cp_.loop.RunFor(seconds(1));
  }

  void CreatePod(const Json& pod) {
    Result<store::ObjectPtr> created = client_.Create(client::kPods, pod);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  // What the scheduler writes on a pod it cannot place.
  void MarkUnschedulable(const std::string& pod, const std::string& reason = "Unschedulable",
                         const std::string& message = "0/1 nodes are available") {
    Json patch = {{"status",
                   {{"conditions",
                     {{{"type", "PodScheduled"},
                       {"status", "False"},
                       {"reason", reason},
                       {"message", message}}}}}}};
    Result<store::ObjectPtr> patched =
        client_.Patch(client::kPods, "default", pod, client::PatchType::kMerge, patch, "status");
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }

  void PendingGpuPod(const std::string& name, int gpus) {
    CreatePod(GpuPod(name, gpus));
    MarkUnschedulable(name);
  }

  std::vector<std::string> NodeNames() {
    std::vector<std::string> names;
    store::ListResult list = client_.List(client::kNodes).value();
    for (const auto& node : list.items) {
      names.push_back(node->name().name);
    }
    return names;
  }

  Json Node(const std::string& name) {
    auto node = client_.Get(client::kNodes, "", name);
    EXPECT_TRUE(node.ok()) << name;
    return node.ok() ? (*node)->document() : Json();
  }

  // Events of the autoscaler, optionally only one reason, in the order they were first recorded.
  std::vector<EventRow> Events(const std::string& reason = "") {
    std::vector<std::pair<std::string, EventRow>> rows;
    store::ListResult list = client_.List(client::kEvents).value();
    for (const auto& event : list.items) {
      const Json& e = event->document();
      if (!reason.empty() && e["reason"] != reason) continue;
      rows.push_back({e["firstTimestamp"].get<std::string>() + store::MetaString(e, "name"),
                      {e["involvedObject"]["name"], e["type"], e["reason"], e["message"]}});
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<EventRow> out;
    for (auto& [key, row] : rows) out.push_back(row);
    return out;
  }

  std::string StatusText() {
    auto cm = client_.Get(kConfigMaps, "kube-system", kAutoscalerStatusConfigMap);
    if (!cm.ok()) return "";
    return (*cm)->document()["data"]["status"];
  }

  static const Json* FindCondition(const Json& node, const std::string& type) {
    for (const Json& c : node["status"]["conditions"]) {
      if (c["type"] == type) return &c;
    }
    return nullptr;
  }

  static std::vector<std::string> Taints(const Json& node) {
    std::vector<std::string> out;
    if (!node["spec"].contains("taints")) return out;
    for (const Json& t : node["spec"]["taints"]) {
      out.push_back(t["key"].get<std::string>() + ":" + t["effect"].get<std::string>() +
                    (t.contains("timeAdded") ? "@" : ""));
    }
    return out;
  }

  client::testing::ControlPlane cp_;
  client::LocalClient client_ = cp_.Client("test");
  ClusterSpec spec_;
  std::unique_ptr<NodePools> pools_;
};

TEST_F(NodePoolsTest, StartCreatesInitialNodesWithShapeLabelsAndReadyStatus) {
  NodePoolSpec pool = GpuPool("gpu-a", 4, 4, 6);
  pool.nodes_per_nvlink_domain = 4;
  pool.labels = {{"nvidia.com/gpu.product", "H100"}};
  pool.taints = {Json{{"key", "nvidia.com/gpu"}, {"value", "present"}, {"effect", "NoSchedule"}}};
  spec_.pools = {pool, GpuPool("cpu", 1, 1, 1)};
  spec_.pools[1].zones.clear();
  spec_.pools[1].nodes_per_rack = 0;
  StartPools();

  EXPECT_EQ(NodeNames(),
            (std::vector<std::string>{"cpu-0", "gpu-a-0", "gpu-a-1", "gpu-a-2", "gpu-a-3"}));
  const char* zones[] = {"zone-a", "zone-b", "zone-a", "zone-b"};
  const char* racks[] = {"gpu-a-rack-0", "gpu-a-rack-0", "gpu-a-rack-1", "gpu-a-rack-1"};
  for (int i = 0; i < 4; ++i) {
    Json node = Node(NodeName("gpu-a", i));
    const Json& labels = node["metadata"]["labels"];
    EXPECT_EQ(labels["kubernetes.io/hostname"], NodeName("gpu-a", i));
    EXPECT_EQ(labels["kubernetes.io/os"], "linux");
    EXPECT_EQ(labels["kubernetes.io/arch"], "amd64");
    EXPECT_EQ(labels[kNodePoolLabel], "gpu-a");
    EXPECT_EQ(labels[kZoneLabel], zones[i]) << i;
    EXPECT_EQ(labels[kRackLabel], racks[i]) << i;
    EXPECT_EQ(labels[kNvlinkDomainLabel], "gpu-a-nvl-0");
    EXPECT_EQ(labels["nvidia.com/gpu.product"], "H100");
    EXPECT_EQ(node["status"]["capacity"]["nvidia.com/gpu"], "8");
    EXPECT_EQ(node["status"]["allocatable"]["memory"], "1Ti");
    EXPECT_EQ(Taints(node), (std::vector<std::string>{"nvidia.com/gpu:NoSchedule"}));
    const Json* ready = FindCondition(node, "Ready");
    ASSERT_NE(ready, nullptr);
    EXPECT_EQ((*ready)["status"], "True");
    EXPECT_EQ((*ready)["reason"], "KubeletReady");
    EXPECT_EQ((*ready)["message"], "kubelet is posting ready status");
    for (const char* type : {"MemoryPressure", "DiskPressure", "PIDPressure"}) {
      ASSERT_NE(FindCondition(node, type), nullptr) << type;
      EXPECT_EQ((*FindCondition(node, type))["status"], "False");
    }
    EXPECT_EQ(node["status"]["nodeInfo"]["kubeletVersion"].get<std::string>().rfind("v1.32.", 0),
              0u);
    EXPECT_EQ(node["status"]["addresses"][0]["type"], "InternalIP");
  }
  // Distinct addresses within the pool.
  EXPECT_NE(Node("gpu-a-0")["status"]["addresses"][0]["address"],
            Node("gpu-a-1")["status"]["addresses"][0]["address"]);
  Json plain = Node("cpu-0");
  EXPECT_FALSE(plain["metadata"]["labels"].contains(kZoneLabel));
  EXPECT_FALSE(plain["metadata"]["labels"].contains(kRackLabel));
  EXPECT_FALSE(plain["metadata"]["labels"].contains(kNvlinkDomainLabel));

  auto states = pools_->pools();
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[0].name, "gpu-a");
  EXPECT_EQ(states[0].nodes, 4);
  EXPECT_EQ(states[0].max_nodes, 6);
  EXPECT_EQ(states[1].nodes, 1);
  EXPECT_NE(StatusText().find("autoscalerStatus: Running"), std::string::npos);
}

TEST_F(NodePoolsTest, StartKeepsExistingNodesAndCreatesOnlyMissingOnes) {
  spec_.pools = {GpuPool("gpu-a", 3, 3, 3)};
  StartPools();
  const std::string uid0 = store::MetaString(Node("gpu-a-0"), "uid");
  pools_->Stop();
  client::DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(client_.Delete(client::kNodes, "", "gpu-a-1", now).ok());

  StartPools();  // a resumed cluster: a new NodePools on the same store
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0", "gpu-a-1", "gpu-a-2"}));
  EXPECT_EQ(store::MetaString(Node("gpu-a-0"), "uid"), uid0);
  EXPECT_TRUE(pools_->Start().ok());  // a second Start does nothing
  cp_.loop.RunFor(seconds(1));
  EXPECT_EQ(NodeNames().size(), 3u);
  EXPECT_EQ(store::MetaString(Node("gpu-a-0"), "uid"), uid0);
}

TEST_F(NodePoolsTest, UnschedulablePodTriggersOneNodeAfterTheProvisioningDelay) {
  spec_.pools = {GpuPool("gpu-a", 0, 0, 3)};
  StartPools();
  PendingGpuPod("p", 8);
  cp_.loop.RunFor(seconds(1));
  EXPECT_EQ(
      Events(),
      (std::vector<EventRow>{
          {kAutoscalerStatusConfigMap, "Normal", "ScaledUpGroup",
           "Scale-up: setting group gpu-a size to 1 instead of 0 (max: 3)"},
          {"p", "Normal", "TriggeredScaleUp", "pod triggered scale-up: [{gpu-a 0->1 (max: 3)}]"},
      }));
  EXPECT_EQ(pools_->pools()[0].provisioning, 1);
  EXPECT_NE(StatusText().find("status: InProgress"), std::string::npos) << StatusText();

  cp_.loop.RunFor(seconds(87));  // 89 s since the request
  EXPECT_TRUE(NodeNames().empty());
  cp_.loop.RunFor(seconds(2));
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0"}));
  EXPECT_EQ((*FindCondition(Node("gpu-a-0"), "Ready"))["status"], "True");

  // The pod stays pending (no scheduler here) but fits the new node: nothing more is asked for.
  cp_.loop.RunFor(minutes(5));
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0"}));
  EXPECT_EQ(pools_->pools()[0].provisioning, 0);
  EXPECT_EQ(Events("TriggeredScaleUp").size(), 1u);
  EXPECT_NE(StatusText().find("status: NoActivity"), std::string::npos) << StatusText();
}

TEST_F(NodePoolsTest, PodsTheSchedulerCouldNotPlaceForLackOfAnyNodeTriggerScaleUp) {
  spec_.pools = {GpuPool("gpu-a", 0, 0, 3)};
  StartPools();
  CreatePod(GpuPod("no-nodes", 8));
  MarkUnschedulable("no-nodes", "SchedulerError", "no nodes available to schedule pods");
  CreatePod(GpuPod("other-error", 8));
  MarkUnschedulable("other-error", "SchedulerError", "binding rejected");
  CreatePod(GpuPod("not-marked", 8));
  cp_.loop.RunFor(seconds(91));
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0"}));
  std::vector<EventRow> triggered = Events("TriggeredScaleUp");
  ASSERT_EQ(triggered.size(), 1u);
  EXPECT_EQ(triggered[0].object, "no-nodes");
}

TEST_F(NodePoolsTest, PodsBeyondMaxSizeGetNotTriggerScaleUpAndTheStatusSaysWhy) {
  spec_.pools = {GpuPool("gpu-a", 0, 0, 2)};
  StartPools();
  for (const char* name : {"p-0", "p-1", "p-2"}) PendingGpuPod(name, 8);
  cp_.loop.RunFor(seconds(1));
  const std::string triggered = "pod triggered scale-up: [{gpu-a 0->2 (max: 2)}]";
  EXPECT_EQ(Events(), (std::vector<EventRow>{
                          {kAutoscalerStatusConfigMap, "Normal", "ScaledUpGroup",
                           "Scale-up: setting group gpu-a size to 2 instead of 0 (max: 2)"},
                          {"p-0", "Normal", "TriggeredScaleUp", triggered},
                          {"p-1", "Normal", "TriggeredScaleUp", triggered},
                          {"p-2", "Normal", "NotTriggerScaleUp",
                           "pod didn't trigger scale-up: 1 max node group size reached"},
                      }));
  const std::string status = StatusText();
  EXPECT_NE(status.find("message: max node group size reached"), std::string::npos) << status;
  EXPECT_NE(status.find("maxSize: 2"), std::string::npos) << status;
  EXPECT_NE(status.find("cloudProviderTarget: 2"), std::string::npos) << status;

  cp_.loop.RunFor(minutes(5));
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0", "gpu-a-1"}));
  EXPECT_EQ(Events("TriggeredScaleUp").size(), 2u);

  // p-2 keeps the periodic passes going; the status is rewritten only when it changes.
  auto version = [&] {
    auto cm = client_.Get(kConfigMaps, "kube-system", kAutoscalerStatusConfigMap);
    return cm.ok() ? store::MetaString((*cm)->document(), "resourceVersion") : "";
  };
  const std::string before = version();
  cp_.loop.RunFor(minutes(2));
  EXPECT_EQ(version(), before);
}

TEST_F(NodePoolsTest, StockoutBlocksScaleUpUntilItEnds) {
  spec_.pools = {GpuPool("gpu-a", 0, 0, 3)};
  spec_.changes = {
      {.at = seconds(10), .kind = CapacityChange::Kind::kStockoutBegin, .pool = "gpu-a"},
      {.at = seconds(300), .kind = CapacityChange::Kind::kStockoutEnd, .pool = "gpu-a"}};
  StartPools();
  cp_.loop.RunFor(seconds(20));
  EXPECT_TRUE(pools_->pools()[0].stocked_out);
  PendingGpuPod("p", 8);
  cp_.loop.RunFor(seconds(1));
  EXPECT_EQ(Events(),
            (std::vector<EventRow>{
                {"p", "Warning", "FailedScaleUp",
                 "Node scale up in zones zone-a associated with this pod failed: GCE out of "
                 "resources. Pod is at risk of not being scheduled."},
                {"p", "Normal", "NotTriggerScaleUp",
                 "pod didn't trigger scale-up: 1 in backoff after failed scale-up"},
            }));
  EXPECT_EQ(pools_->pools()[0].provisioning, 0);
  std::string status = StatusText();
  EXPECT_NE(status.find("status: Backoff"), std::string::npos) << status;
  EXPECT_NE(status.find("errorCode: RESOURCE_POOL_EXHAUSTED"), std::string::npos) << status;

  cp_.loop.RunFor(seconds(250));  // t = 271 s: still out
  EXPECT_TRUE(NodeNames().empty());
  EXPECT_TRUE(Events("TriggeredScaleUp").empty());
  cp_.loop.RunFor(seconds(30));  // t = 301 s
  EXPECT_FALSE(pools_->pools()[0].stocked_out);
  EXPECT_EQ(Events("TriggeredScaleUp").size(), 1u);
  EXPECT_EQ(StatusText().find("Backoff"), std::string::npos) << StatusText();
  cp_.loop.RunFor(seconds(90));
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0"}));
}

TEST_F(NodePoolsTest, PodThatFitsNoPoolShapeGetsTheFilterReasonsAndNoNode) {
  NodePoolSpec tainted = GpuPool("gpu-t", 0, 0, 4);
  tainted.taints = {Json{{"key", "dedicated"}, {"value", "infer"}, {"effect", "NoSchedule"}}};
  spec_.pools = {GpuPool("gpu-a", 0, 0, 4), GpuPool("gpu-b", 0, 0, 4), tainted};
  StartPools();
  PendingGpuPod("huge", 16);
  Json selective = GpuPod("selective", 1);
  selective["spec"]["nodeSelector"] = {{"accelerator", "tpu"}};
  CreatePod(selective);
  MarkUnschedulable("selective");
  cp_.loop.RunFor(minutes(10));
  EXPECT_TRUE(NodeNames().empty());
  EXPECT_EQ(
      Events(),
      (std::vector<EventRow>{
          {"huge", "Normal", "NotTriggerScaleUp",
           "pod didn't trigger scale-up: 2 Insufficient nvidia.com/gpu, "
           "1 node(s) had untolerated taint {dedicated: infer}"},
          // Issue 35 item 6: a pod larger than every node shape says so, once.
          {"huge", "Warning", "NoNodeLargeEnough",
           "pod requests nvidia.com/gpu 16, more than any node of this cluster "
           "has: the largest, of pool gpu-a, has nvidia.com/gpu 8 allocatable "
           "(give a pool larger nodes: docs/cluster-config.md)"},
          {"selective", "Normal", "NotTriggerScaleUp",
           "pod didn't trigger scale-up: 2 node(s) didn't match Pod's node affinity/selector, "
           "1 node(s) had untolerated taint {dedicated: infer}"},
      }));
}

TEST_F(NodePoolsTest, EmptyNodesAreRemovedAfterTheDelayButNotBelowMinNodes) {
  NodePoolSpec keep = GpuPool("keep", 2, 0, 2);
  keep.scale_down_delay = Duration::zero();  // disabled
  spec_.pools = {GpuPool("gpu-a", 4, 2, 4), keep};
  StartPools();
  CreatePod(GpuPod("busy", 8, "gpu-a-0"));
  cp_.loop.RunFor(minutes(10) - seconds(2));  // 9:59 since start
  EXPECT_EQ(NodeNames().size(), 6u);
  EXPECT_NE(StatusText().find("candidates: 2"), std::string::npos) << StatusText();
  cp_.loop.RunFor(seconds(2));
  // gpu-a-0 is busy; of the three empty ones the highest indexes go, down to min_nodes = 2.
  EXPECT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0", "gpu-a-1", "keep-0", "keep-1"}));
  EXPECT_EQ(Events("ScaleDownEmpty").size(), 2u);
  cp_.loop.RunFor(minutes(30));
  EXPECT_EQ(NodeNames().size(), 4u);
  EXPECT_NE(StatusText().find("status: NoCandidates"), std::string::npos);
}

TEST_F(NodePoolsTest, NodeAddedForPodsIsRemovedOnceEmpty) {
  spec_.pools = {GpuPool("gpu-a", 0, 0, 2)};
  StartPools();
  PendingGpuPod("p", 8);
  cp_.loop.RunFor(seconds(91));
  ASSERT_EQ(NodeNames(), (std::vector<std::string>{"gpu-a-0"}));
  // The pod goes away before anything binds it: the node is empty from its birth.
  client::DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(client_.Delete(client::kPods, "default", "p", now).ok());
  cp_.loop.RunFor(minutes(9));
  EXPECT_EQ(NodeNames().size(), 1u);
  cp_.loop.RunFor(minutes(1) + seconds(1));
  EXPECT_TRUE(NodeNames().empty());
}

TEST_F(NodePoolsTest, ZoneDownMarksExactlyThatZoneNotReadyAndZoneUpRestoresIt) {
  NodePoolSpec a = GpuPool("gpu-a", 4, 4, 4);
  a.taints = {Json{{"key", "nvidia.com/gpu"}, {"value", "present"}, {"effect", "NoSchedule"}}};
  spec_.pools = {a, GpuPool("gpu-b", 2, 2, 2)};
  spec_.changes = {
      {.at = seconds(60), .kind = CapacityChange::Kind::kZoneDown, .zone = "zone-a"},
      {.at = seconds(120), .kind = CapacityChange::Kind::kZoneUp, .zone = "zone-a"},
      {.at = seconds(130), .kind = CapacityChange::Kind::kNodeDown, .node = "gpu-b-1"}};
  StartPools();
  cp_.loop.RunFor(seconds(60));
  for (const std::string& name : NodeNames()) {
    Json node = Node(name);
    const bool in_zone = node["metadata"]["labels"][kZoneLabel] == "zone-a";
    const Json& ready = *FindCondition(node, "Ready");
    EXPECT_EQ(ready["status"], in_zone ? "Unknown" : "True") << name;
    std::vector<std::string> taints = Taints(node);
    const bool unreachable =
        std::find(taints.begin(), taints.end(), "node.kubernetes.io/unreachable:NoExecute@") !=
            taints.end() &&
        std::find(taints.begin(), taints.end(), "node.kubernetes.io/unreachable:NoSchedule@") !=
            taints.end();
    EXPECT_EQ(unreachable, in_zone) << name;
    if (in_zone) {
      EXPECT_EQ(ready["reason"], "NodeStatusUnknown");
      EXPECT_EQ(ready["message"], "Kubelet stopped posting node status.");
    }
  }
  EXPECT_EQ(Taints(Node("gpu-a-0")).front(),
            "nvidia.com/gpu:NoSchedule");  // the pool's taint stays
  // The status counts follow the nodes' Ready condition, cluster-wide and per pool.
  int ready_all = 0, ready_a = 0;
  for (const std::string& name : NodeNames()) {
    const bool ready = (*FindCondition(Node(name), "Ready"))["status"] == "True";
    ready_all += ready;
    ready_a += ready && name.starts_with("gpu-a");
  }
  ASSERT_LT(ready_all, 6);
  const std::string down_status = StatusText();
  EXPECT_NE(down_status.find(fmt::format("total: 6\n        ready: {}\n", ready_all)),
            std::string::npos)
      << down_status;
  EXPECT_NE(down_status.find(fmt::format("total: 4\n        ready: {}\n", ready_a)),
            std::string::npos)
      << down_status;

  cp_.loop.RunFor(seconds(61));  // t = 121 s
  for (const std::string& name : NodeNames()) {
    Json node = Node(name);
    EXPECT_EQ((*FindCondition(node, "Ready"))["reason"], "KubeletReady") << name;
    EXPECT_EQ((*FindCondition(node, "Ready"))["status"], "True") << name;
  }
  EXPECT_EQ(Taints(Node("gpu-a-0")), (std::vector<std::string>{"nvidia.com/gpu:NoSchedule"}));
  EXPECT_TRUE(Taints(Node("gpu-a-2")).size() == 1u);
  EXPECT_TRUE(Taints(Node("gpu-b-0")).empty());
  EXPECT_NE(StatusText().find("total: 6\n        ready: 6\n"), std::string::npos) << StatusText();

  cp_.loop.RunFor(seconds(10));  // t = 131 s: one node down
  EXPECT_EQ((*FindCondition(Node("gpu-b-1"), "Ready"))["status"], "Unknown");
  EXPECT_EQ((*FindCondition(Node("gpu-b-0"), "Ready"))["status"], "True");
}

TEST(SetNodeReady, IsIdempotentAndReportsMissingNodes) {
  client::testing::ControlPlane cp;
  client::LocalClient client = cp.Client("test");
  ASSERT_TRUE(client.Create(client::kNodes, NewNode(GpuPool("g", 1, 1, 1), 0, cp.loop.Now())).ok());
  ASSERT_TRUE(SetNodeReady(client, "g-0", false, cp.loop.Now()).ok());
  const std::string rv =
      store::MetaString((*client.Get(client::kNodes, "", "g-0"))->document(), "resourceVersion");
  ASSERT_TRUE(SetNodeReady(client, "g-0", false, cp.loop.Now()).ok());
  Json node = (*client.Get(client::kNodes, "", "g-0"))->document();
  EXPECT_EQ(store::MetaString(node, "resourceVersion"), rv);  // no write the second time
  EXPECT_EQ(node["spec"]["taints"].size(), 2u);
  ASSERT_TRUE(SetNodeReady(client, "g-0", true, cp.loop.Now()).ok());
  node = (*client.Get(client::kNodes, "", "g-0"))->document();
  EXPECT_FALSE(node["spec"].contains("taints"));
  EXPECT_EQ(SetNodeReady(client, "nope", false, cp.loop.Now()).code(), Code::kNotFound);
}

// One scenario's nodes (with boot ids) and events, for the determinism test.
std::pair<std::vector<std::string>, std::vector<std::string>> RunScenario(std::uint64_t seed) {
  client::testing::ControlPlane cp(seed);
  client::LocalClient client = cp.Client("test");
  ClusterSpec spec;
  spec.pools = {GpuPool("gpu-a", 1, 0, 3), GpuPool("gpu-b", 1, 0, 2)};
  spec.pools[0].scale_down_delay = minutes(3);
  spec.changes = {
      {.at = seconds(30), .kind = CapacityChange::Kind::kStockoutBegin, .pool = "gpu-a"},
      {.at = seconds(200), .kind = CapacityChange::Kind::kStockoutEnd, .pool = "gpu-a"}};
  NodePools pools(&cp.loop, &client, &spec, Rng(seed));
  EXPECT_TRUE(pools.Start().ok());
  Json pending = {
      {"status",
       {{"conditions",
         {{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}}}}}};
  for (int i = 0; i < 6; ++i) {
    cp.loop.RunFor(seconds(20));
    const std::string name = "p-" + std::to_string(i);
    EXPECT_TRUE(client.Create(client::kPods, GpuPod(name, 4 + i % 2 * 4)).ok());
    EXPECT_TRUE(
        client.Patch(client::kPods, "default", name, client::PatchType::kMerge, pending, "status")
            .ok());
  }
  cp.loop.RunFor(minutes(20));
  std::vector<std::string> nodes, events;
  store::ListResult node_list = client.List(client::kNodes).value();
  for (const auto& n : node_list.items) {
    nodes.push_back(n->name().name + " " +
                    n->document()["status"]["nodeInfo"]["bootID"].get<std::string>() + " " +
                    store::MetaString(n->document(), "creationTimestamp"));
  }
  store::ListResult event_list = client.List(client::kEvents).value();
  for (const auto& e : event_list.items) {
    events.push_back(e->name().name + " " + e->document()["reason"].get<std::string>() + " " +
                     e->document()["message"].get<std::string>());
  }
  return {nodes, events};
}

TEST(NodePoolsDeterminism, SameSeedSameNodesAndEvents) {
  auto first = RunScenario(42);
  auto second = RunScenario(42);
  EXPECT_EQ(first, second);
  EXPECT_GT(first.first.size(), 2u);   // the scenario scaled up
  EXPECT_GT(first.second.size(), 3u);  // and recorded events
  auto other = RunScenario(43);
  EXPECT_NE(first.first, other.first);  // boot ids come from the seed
}

}  // namespace
}  // namespace lws::cluster
