// File: cluster/kubelet_testing.h
//
// A fixture for the simulated kubelets' tests: the embedded control plane on a virtual clock,
// nodes created Ready with a pool label, pods created already bound (there is no scheduler in
// these tests), and readers for the pod's phase, readiness and first container.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api/field.h"
#include "client/local/local_testing.h"
#include "cluster/kubelet.h"

namespace lws::cluster::kubelet_testing {

using std::chrono::milliseconds;
using std::chrono::seconds;

inline NodePoolSpec FixedPool(const std::string& name, double startup_seconds) {
  NodePoolSpec pool;
  pool.name = name;
  pool.startup = Distribution{Distribution::Kind::kFixed, startup_seconds, 0};
  return pool;
}

class KubeletFixture : public ::testing::Test {
 public:
  void StartKubelets(std::uint64_t seed = 1, KubeletOptions options = {}) {
    kubelets_ = std::make_unique<Kubelets>(&cp_.loop, &kubelet_client_, &spec_, Rng(seed), options);
    ASSERT_TRUE(kubelets_->Start().ok());
    cp_.loop.RunFor(milliseconds(1));
  }

  void AddNode(const std::string& name, const std::string& pool) {
    Json node = {{"apiVersion", "v1"},
                 {"kind", "Node"},
                 {"metadata", {{"name", name}, {"labels", {{kNodePoolLabel, pool}}}}},
                 {"status",
                  {{"allocatable", {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}}},
                   {"conditions",
                    {{{"type", "Ready"},
                      {"status", "True"},
                      {"reason", "KubeletReady"},
                      {"message", "kubelet is posting ready status"}}}}}}};
    Result<store::ObjectPtr> created = admin_.Create(client::kNodes, node);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  // A pod already bound to `node`; `annotations` and `restart_policy` ("" = default) optional.
  void AddPod(const std::string& name, const std::string& node, api::StringMap annotations = {},
              const std::string& restart_policy = "", int containers = 1) {
    Json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"nodeName", node}, {"containers", Json::array()}}}};
    for (int i = 0; i < containers; ++i) {
      pod["spec"]["containers"].push_back(
          {{"name", i == 0 ? "main" : "side" + std::to_string(i)}, {"image", "busybox:1.36"}});
    }
    if (!annotations.empty()) pod["metadata"]["annotations"] = annotations;
    if (!restart_policy.empty()) pod["spec"]["restartPolicy"] = restart_policy;
    Result<store::ObjectPtr> created = admin_.Create(client::kPods, pod);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  // The pod as stored; null when it is gone.
  Json Pod(const std::string& name) {
    Result<store::ObjectPtr> got = admin_.Get(client::kPods, "default", name);
    return got.ok() ? (*got)->document() : Json();
  }
  std::string Phase(const std::string& name) { return Pod(name)["status"].value("phase", ""); }
  Json Condition(const std::string& name, const std::string& type) {
    for (const Json& c : Pod(name)["status"].value("conditions", Json::array())) {
      if (c["type"] == type) return c;
    }
    return Json();
  }
  bool Ready(const std::string& name) {
    const Json c = Condition(name, "Ready");
    return c.is_object() && c["status"] == "True";
  }
  Json FirstContainer(const std::string& name) {
    const Json statuses = Pod(name)["status"].value("containerStatuses", Json::array());
    return statuses.empty() ? Json() : statuses[0];
  }
  Status DeletePod(const std::string& name) {
    return admin_.Delete(client::kPods, "default", name).status();
  }
  void RunFor(Duration d) { cp_.loop.RunFor(d); }

  client::testing::ControlPlane cp_;
  client::LocalClient admin_ = cp_.Client("test");
  client::LocalClient kubelet_client_ = cp_.Client("kubelet");
  ClusterSpec spec_;
  std::unique_ptr<Kubelets> kubelets_;
};

}  // namespace lws::cluster::kubelet_testing
