// The Job controller's snapshot and writes (job_controller.h).
#include "cluster/job_controller.h"

#include "base/log.h"
#include "store/decoded_view.h"

namespace lws::cluster {

namespace {

using Kind = JobActionKind;

OwnerController::Options QueueOptions() {
  OwnerController::Options options;
  options.name = std::string(kJobControllerName);
  options.owner = client::kJobs;
  options.controlled.push_back({client::kPods, "Job", nullptr});
  return options;
}

}  // namespace

JobController::JobController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      recorder_(client, &loop->clock(), std::string(kJobControllerName)),
      queue_(loop, client, QueueOptions(),
             [this](const store::ObjectPtr& job) { return Sync(job); }),
      writes_(client, &recorder_, &queue_, kPods, client::kJobs) {}

std::optional<Duration> JobController::Sync(const store::ObjectPtr& job_object) {
  Result<std::shared_ptr<const api::Job>> job = store::DecodedView<api::Job>(*job_object);
  if (!job.ok()) {
    Logger(std::string(kJobControllerName))
        ->warn("{}: cannot decode: {}", job_object->name().name, job.status().message());
    return std::nullopt;
  }
  JobSnapshot snap;
  snap.job = **job;
  snap.now = loop_->Now();
  const store::ObjectName key{snap.job.metadata.namespace_, snap.job.metadata.name};
  snap.pods = store::DecodedViews<api::Pod>(queue_.Owned(kPods, key, snap.job.metadata.uid),
                                            std::string(kJobControllerName));
  return Apply(job_object, PlanJob(snap));
}

std::optional<Duration> JobController::Apply(const store::ObjectPtr& job_object,
                                             const JobPlan& plan) {
  const store::StoredObject& job = *job_object;
  const store::ObjectName& key = job.name();
  std::optional<Duration> requeue;
  for (const JobAction& action : plan.actions) {
    Status status = Status::Ok();
    switch (action.kind) {
      case Kind::kCreatePod:
        status = writes_.Create(job, *action.pod);
        break;
      case Kind::kDeletePod:
        status = writes_.Delete(job, action.name, action.uid);
        break;
      case Kind::kUpdateStatus:
        status = writes_.WriteStatus(job, api::Encode(plan.status));
        break;
      case Kind::kEvent:
        recorder_.Record(job, action.type, action.reason, action.message);
        break;
      case Kind::kRequeueAfter:
        requeue = requeue ? std::min(*requeue, action.requeue_after) : action.requeue_after;
        break;
    }
    if (!status.ok()) return queue_.Failed(key, status);
  }
  queue_.Succeeded(key);
  return requeue;
}

}  // namespace lws::cluster
