// File: cluster/disruption_controller.h
//
// The disruption controller of the simulated cluster: the I/O half of disruption_plan.h, as
// kube-controller-manager runs it. Informers keep the budgets, the pods and the controllers
// whose scale counts (StatefulSets, ReplicaSets, Deployments); any change queues one pass over
// every budget (a cluster has few), which writes the statuses that changed, records upstream's
// events (NoPods, UnmanagedPods, CalculateExpectedPodCountFailed, NotDeleted) and schedules a
// pass for when the earliest granted eviction's two minutes run out.
//
// Threading: everything runs on the loop given to the constructor.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "cluster/disruption_plan.h"

namespace lws::cluster {

inline constexpr std::string_view kDisruptionControllerName = "disruption-controller";

class DisruptionController {
 public:
  // REQUIRES: loop and client outlive the controller.
  DisruptionController(EventLoop* loop, const client::LocalClient* client);
  ~DisruptionController();

  Status Start();
  void Stop();
  std::uint64_t passes() const { return passes_; }

 private:
  void RequestPass(Time when);
  void RunPass();
  void SyncBudget(const store::ObjectPtr& budget, std::optional<Time>* recheck);
  std::vector<CoveredPod> CoveredPods(const Json& budget) const;
  // The controller `pod` names and its scale (finders of getExpectedScale).
  void FindController(const store::StoredObject& pod, CoveredPod* covered) const;

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  client::EventRecorder recorder_;
  std::vector<std::unique_ptr<client::Informer>> informers_;
  client::Informer* budgets_ = nullptr;
  client::Informer* pods_ = nullptr;
  client::Informer* statefulsets_ = nullptr;
  client::Informer* replicasets_ = nullptr;
  client::Informer* deployments_ = nullptr;
  bool running_ = false;
  std::optional<Time> pass_at_;  // the earliest pass queued
  std::optional<TaskId> pass_task_;
  std::uint64_t passes_ = 0;
  std::set<std::string> recorded_;  // events already recorded (budget uid/pod/reason/message)
};

}  // namespace lws::cluster
