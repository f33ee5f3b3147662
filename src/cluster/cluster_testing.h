// File: cluster/cluster_testing.h
//
// A whole simulated cluster on a virtual clock for tests and benchmarks (no GoogleTest here):
// the control plane of client/local_testing.h plus LocalCluster, a client for the test's own
// requests, and small builders for node pools and StatefulSets.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "api/selector.h"
#include "client/local/local_testing.h"
#include "cluster/local_cluster.h"

namespace lws::cluster::testing {

// One pool of `nodes` nodes with `gpus` nvidia.com/gpu each, growing up to `max_nodes`.
inline NodePoolSpec GpuPool(std::string name, int nodes, int gpus, int max_nodes = -1) {
  NodePoolSpec pool;
  pool.name = std::move(name);
  pool.initial_nodes = nodes;
  pool.min_nodes = nodes;
  pool.max_nodes = max_nodes < 0 ? nodes : max_nodes;
  pool.allocatable = {
      {"cpu", "96"}, {"memory", "1Ti"}, {"nvidia.com/gpu", std::to_string(gpus)}, {"pods", "110"}};
  pool.zones = {"zone-a", "zone-b"};
  pool.startup = {Distribution::Kind::kFixed, 10, 0};
  pool.termination = std::chrono::seconds(5);
  pool.provisioning_delay = std::chrono::seconds(60);
  pool.scale_down_delay = std::chrono::minutes(5);
  return pool;
}

// apps/v1 StatefulSet `name` in default: `replicas` pods of one container asking for `gpus` GPUs.
inline api::Json StatefulSet(const std::string& name, int replicas, int gpus,
                             const std::string& policy = "OrderedReady",
                             const std::string& image = "vllm/vllm-openai:v0.6.0") {
  api::Json container = {{"name", "server"}, {"image", image}};
  if (gpus > 0) container["resources"]["limits"]["nvidia.com/gpu"] = std::to_string(gpus);
  return {{"apiVersion", "apps/v1"},
          {"kind", "StatefulSet"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"replicas", replicas},
            {"serviceName", name},
            {"podManagementPolicy", policy},
            {"selector", {{"matchLabels", {{"app", name}}}}},
            {"template",
             {{"metadata", {{"labels", {{"app", name}}}}},
              {"spec", {{"containers", {container}}, {"terminationGracePeriodSeconds", 30}}}}}}}};
}

struct SimCluster {
  explicit SimCluster(ClusterSpec spec, std::uint64_t seed = 1,
                      KubeletMode kubelet = KubeletMode::kAuto)
      : control_plane(seed), user(control_plane.Client("kubectl")) {
    LocalClusterOptions options;
    options.seed = seed;
    options.kubelet = kubelet;
    cluster = std::make_unique<LocalCluster>(
        &control_plane.loop,
        client::LocalApi{control_plane.server.get(), control_plane.store.get()}, std::move(spec),
        options);
  }

  Status Start() { return cluster->Start(); }
  VirtualLoop& loop() { return control_plane.loop; }

  // Runs the loop in steps of `step` until `done()` holds or `limit` of virtual time passed.
  // Returns whether `done()` held.
  bool RunUntil(const std::function<bool()>& done, Duration limit,
                Duration step = std::chrono::milliseconds(500)) {
    Time deadline = loop().Now() + limit;
    while (!done()) {
      if (loop().Now() >= deadline) return false;
      loop().RunFor(step);
    }
    return true;
  }

  // Pods of namespace default whose labels include app=<app>, and how many are Ready.
  std::vector<store::ObjectPtr> Pods(const std::string& app) const {
    store::ListOptions options;
    options.namespace_ = "default";
    options.label_selector = api::Selector::FromSet({{"app", app}});
    return user.List(client::kPods, options).value().items;
  }
  int ReadyPods(const std::string& app) const {
    int ready = 0;
    for (const store::ObjectPtr& pod : Pods(app)) {
      for (const api::Json& c : pod->document()["status"].value("conditions", api::Json::array())) {
        if (c.value("type", "") == "Ready" && c.value("status", "") == "True") ++ready;
      }
    }
    return ready;
  }

  client::testing::ControlPlane control_plane;
  client::LocalClient user;
  std::unique_ptr<LocalCluster> cluster;
};

}  // namespace lws::cluster::testing
