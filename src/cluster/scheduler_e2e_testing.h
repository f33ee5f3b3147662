// File: cluster/scheduler_e2e_testing.h
//
// A fixture for the scheduler reconciler's tests: the embedded control plane on a virtual clock
// (client::testing::ControlPlane), a Scheduler on it, and helpers that create 8-GPU nodes and
// GPU pods through the API and read back where pods landed, their PodScheduled condition and
// their events.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "client/local/local_testing.h"
#include "cluster/scheduler.h"
#include "cluster/scheduler_testing.h"

namespace lws::cluster::scheduler_testing {

using api::Json;

// A pod of `gpus` GPUs (requests and limits) and 100m cpu that passes validation.
inline api::Pod GpuPodSpec(const std::string& name, int gpus, api::StringMap labels = {}) {
  api::Pod pod = MakePod(name, {{"cpu", Q("100m")}, {"nvidia.com/gpu", Q(std::to_string(gpus))}},
                         std::move(labels));
  pod.spec.containers[0].image = "vllm/vllm-openai";
  pod.spec.containers[0].resources.limits = {{"nvidia.com/gpu", Q(std::to_string(gpus))}};
  return pod;
}

class SchedulerE2eTest : public ::testing::Test {
 protected:
  void StartScheduler(SchedulerOptions options = {}) {
    scheduler_ = std::make_unique<Scheduler>(&cp_.loop, &scheduler_client_, options);
    ASSERT_TRUE(scheduler_->Start().ok());
  }

  // An 8-cpu, 32Gi, 8-GPU, Ready node (scheduler_testing.h's shape), created through the API.
  void AddNode(const std::string& name, api::StringMap labels = {},
               std::vector<api::Taint> taints = {}) {
    api::Node node = MakeNode(name, std::move(labels));
    node.status.capacity = node.status.allocatable;
    node.spec.taints = std::move(taints);
    Result<store::ObjectPtr> created = admin_.Create(client::kNodes, api::Encode(node));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    ASSERT_EQ((*created)->document()["status"]["allocatable"]["nvidia.com/gpu"],
              "8");  // status kept
  }

  void CreatePod(const api::Pod& pod) {
    Result<store::ObjectPtr> created = admin_.Create(client::kPods, api::Encode(pod));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  void CreateGpuPod(const std::string& name, int gpus) { CreatePod(GpuPodSpec(name, gpus)); }

  void DeletePod(const std::string& name, std::int64_t grace_seconds) {
    client::DeleteOptions options;
    options.grace_period_seconds = grace_seconds;
    Result<store::ObjectPtr> deleted = admin_.Delete(client::kPods, "default", name, options);
    ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  }

  Json PodJson(const std::string& name) {
    auto got = admin_.Get(client::kPods, "default", name);
    return got.ok() ? (*got)->document() : Json();
  }
  std::string NodeOf(const std::string& name) {
    Json pod = PodJson(name);
    return pod.is_null() ? "<absent>" : pod["spec"].value("nodeName", "");
  }
  // The pod's PodScheduled condition, or null.
  Json PodScheduled(const std::string& name) {
    Json pod = PodJson(name);
    for (const Json& c : pod["status"].value("conditions", Json::array())) {
      if (c.value("type", "") == "PodScheduled") return c;
    }
    return Json();
  }
  // Events about pod `name` with `reason`.
  std::vector<Json> EventsFor(const std::string& name, const std::string& reason) {
    std::vector<Json> out;
    const store::ListResult events = admin_.List(client::kEvents).value();
    for (const store::ObjectPtr& e : events.items) {
      if (e->document().at("involvedObject").value("name", "") == name &&
          e->document().value("reason", "") == reason) {
        out.push_back(e->document());
      }
    }
    return out;
  }
  // The GPUs requested by live pods bound to `node`.
  int GpusOn(const std::string& node) {
    int total = 0;
    const store::ListResult pods = admin_.List(client::kPods).value();
    for (const store::ObjectPtr& p : pods.items) {
      const Json& spec = p->document().at("spec");
      if (spec.value("nodeName", "") != node) continue;
      for (const Json& c : spec.at("containers")) {
        total += std::stoi(c.at("resources").at("requests").value("nvidia.com/gpu", "0"));
      }
    }
    return total;
  }

  void Run(Duration d = std::chrono::seconds(1)) { cp_.loop.RunFor(d); }

  client::testing::ControlPlane cp_;
  client::LocalClient admin_ = cp_.Client("test");
  client::LocalClient scheduler_client_ = cp_.Client("default-scheduler");
  std::unique_ptr<Scheduler> scheduler_;
};

// The message the pure core gives when every one of `n` nodes lacks GPUs.
inline std::string NoGpuMessage(int n) {
  const std::string count = std::to_string(n);
  return "0/" + count + " nodes are available: " + count +
         " Insufficient nvidia.com/gpu. preemption: 0/" + count + " nodes are available: " + count +
         " No preemption victims found for incoming pod..";
}

}  // namespace lws::cluster::scheduler_testing
