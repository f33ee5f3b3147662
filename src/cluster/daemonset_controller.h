// File: cluster/daemonset_controller.h
//
// The DaemonSet controller of the simulated cluster: the I/O half of daemonset_plan.h, as
// kube-controller-manager runs it. OwnerController keeps the sets and their pods in memory and
// queues a sync per set on any change; a node informer queues every set when a node comes, goes,
// or changes its labels or spec (node pools scale in `lws up`). A sync plans with PlanDaemonSet
// and applies the writes in order through the LocalClient, recording upstream's Events on the
// set (SuccessfulCreate "Created pod: <name>", SuccessfulDelete "Deleted pod: <name>",
// FailedCreate "Error creating: <error>"). A failed write stops the sync and retries.
//
// Threading: everything runs on the loop given to the constructor.
#pragma once

#include <cstdint>
#include <memory>

#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "cluster/daemonset_plan.h"
#include "cluster/owner_controller.h"
#include "cluster/pod_writes.h"

namespace lws::cluster {

inline constexpr std::string_view kDaemonSetControllerName = "daemonset-controller";

class DaemonSetController {
 public:
  // `client` should use the field manager "daemonset-controller".
  // REQUIRES: loop and client outlive the controller.
  DaemonSetController(EventLoop* loop, const client::LocalClient* client);

  Status Start();
  void Stop();
  std::uint64_t syncs() const { return queue_.syncs(); }

 private:
  static constexpr std::size_t kPods = 0;  // the queue's controlled kind

  void OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now);
  std::optional<Duration> Sync(const store::ObjectPtr& set_object);
  std::optional<Duration> Apply(const store::ObjectPtr& set_object, const DaemonSetPlan& plan);

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  client::EventRecorder recorder_;
  OwnerController queue_;
  PodWrites writes_;
  std::unique_ptr<client::Informer> nodes_;
};

}  // namespace lws::cluster
