// File: cluster/replicaset_controller.h
//
// The ReplicaSet controller of the simulated cluster: the I/O half of replicaset_plan.h, as
// kube-controller-manager runs it. OwnerController keeps the sets and their pods in memory and
// queues a sync per set on any change; a sync plans with PlanReplicaSet and applies the writes
// in order through the LocalClient, recording upstream's Events on the set (SuccessfulCreate
// "Created pod: <name>", SuccessfulDelete "Deleted pod: <name>", FailedCreate
// "Error creating: <error>", FailedDelete "Error deleting: <error>"). A failed create or delete
// stops the sync, sets the ReplicaFailure condition and retries (owner_controller.h).
//
// Threading: everything runs on the loop given to the constructor.
#pragma once

#include <cstdint>

#include "client/event_recorder.h"
#include "client/local/local_client.h"
#include "cluster/owner_controller.h"
#include "cluster/pod_writes.h"
#include "cluster/replicaset_plan.h"

namespace lws::cluster {

inline constexpr std::string_view kReplicaSetControllerName = "replicaset-controller";

class ReplicaSetController {
 public:
  // `client` should use the field manager "replicaset-controller".
  // REQUIRES: loop and client outlive the controller.
  ReplicaSetController(EventLoop* loop, const client::LocalClient* client);

  Status Start() { return queue_.Start(); }
  void Stop() { queue_.Stop(); }
  std::uint64_t syncs() const { return queue_.syncs(); }

 private:
  static constexpr std::size_t kPods = 0;  // the queue's controlled kind

  std::optional<Duration> Sync(const store::ObjectPtr& set_object);
  // The active pods of every ReplicaSet of the Deployment that controls `set`, for the
  // scale-down ranking; empty when no Deployment controls it.
  std::vector<std::shared_ptr<const api::Pod>> Related(const api::ReplicaSet& set) const;
  std::optional<Duration> Apply(const store::ObjectPtr& set_object, const ReplicaSetPlan& plan);

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  client::EventRecorder recorder_;
  OwnerController queue_;
  PodWrites writes_;
};

}  // namespace lws::cluster
