// File: cluster/deployment_controller.h
//
// The Deployment controller of the simulated cluster: the I/O half of deployment_plan.h, as
// kube-controller-manager runs it. OwnerController keeps the Deployments, their ReplicaSets and
// (for Recreate, which waits for old pods to stop) the pods of those sets in memory, and queues a
// sync per Deployment on any change; a sync plans with PlanDeployment and applies the writes in
// order through the LocalClient, recording upstream's Events on the Deployment
// (ScalingReplicaSet "Scaled up replica set web-5d8f from 0 to 3", ...). The status and the
// revision annotation are written together through the status subresource, which keeps the
// annotations of the body for apps kinds as kube-apiserver does.
//
// Threading: everything runs on the loop given to the constructor.
#pragma once

#include <cstdint>

#include "client/event_recorder.h"
#include "client/local/local_client.h"
#include "cluster/deployment_plan.h"
#include "cluster/owner_controller.h"

namespace lws::cluster {

inline constexpr std::string_view kDeploymentControllerName = "deployment-controller";

class DeploymentController {
 public:
  // `client` should use the field manager "deployment-controller".
  // REQUIRES: loop and client outlive the controller.
  DeploymentController(EventLoop* loop, const client::LocalClient* client);

  Status Start() { return queue_.Start(); }
  void Stop() { queue_.Stop(); }
  std::uint64_t syncs() const { return queue_.syncs(); }

 private:
  static constexpr std::size_t kSets = 0;  // the queue's controlled kinds
  static constexpr std::size_t kPods = 1;

  OwnerController::Options QueueOptions();
  // The Recreate Deployment that controls the ReplicaSet `set`, whose pods' changes matter.
  std::optional<store::ObjectName> RecreateOwnerOf(const store::ObjectName& set) const;
  std::optional<Duration> Sync(const store::ObjectPtr& deployment);
  std::optional<Duration> Apply(const store::ObjectPtr& deployment, const DeploymentPlan& plan);
  void CountCollision(const store::ObjectPtr& deployment, const DeploymentPlan& plan,
                      const std::string& set_name);

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  client::EventRecorder recorder_;
  OwnerController queue_;
};

}  // namespace lws::cluster
