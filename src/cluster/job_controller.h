// File: cluster/job_controller.h
//
// The Job controller of the simulated cluster: the I/O half of job_plan.h, as
// kube-controller-manager runs it. OwnerController keeps the Jobs and their pods in memory and
// queues a sync per Job on any change; a sync plans with PlanJob and applies the writes in order
// through the LocalClient, recording upstream's Events on the Job (SuccessfulCreate "Created pod:
// <name>", SuccessfulDelete "Deleted pod: <name>", FailedCreate "Error creating: <error>", and the
// plan's own: Completed, BackoffLimitExceeded, Suspended, Resumed). A failed write stops the sync
// and retries (owner_controller.h).
//
// Threading: everything runs on the loop given to the constructor.
#pragma once

#include <cstdint>

#include "client/event_recorder.h"
#include "client/local/local_client.h"
#include "cluster/job_plan.h"
#include "cluster/owner_controller.h"
#include "cluster/pod_writes.h"

namespace lws::cluster {

inline constexpr std::string_view kJobControllerName = "job-controller";

class JobController {
 public:
  // `client` should use the field manager "job-controller".
  // REQUIRES: loop and client outlive the controller.
  JobController(EventLoop* loop, const client::LocalClient* client);

  Status Start() { return queue_.Start(); }
  void Stop() { queue_.Stop(); }
  std::uint64_t syncs() const { return queue_.syncs(); }

 private:
  static constexpr std::size_t kPods = 0;  // the queue's controlled kind

  std::optional<Duration> Sync(const store::ObjectPtr& job_object);
  std::optional<Duration> Apply(const store::ObjectPtr& job_object, const JobPlan& plan);

  EventLoop* const loop_;
  client::EventRecorder recorder_;
  OwnerController queue_;
  PodWrites writes_;
};

}  // namespace lws::cluster
