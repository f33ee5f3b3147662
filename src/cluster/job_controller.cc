// The Job controller's snapshot and writes (job_controller.h).
#include "cluster/job_controller.h"

#include <fmt/format.h>

#include "base/log.h"
#include "client/request_bodies.h"
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

std::vector<std::shared_ptr<const api::Pod>> PodViews(
    const std::vector<store::ObjectPtr>& objects) {
  std::vector<std::shared_ptr<const api::Pod>> out;
  for (const store::ObjectPtr& object : objects) {
    Result<std::shared_ptr<const api::Pod>> view = store::DecodedView<api::Pod>(*object);
    if (view.ok()) out.push_back(std::move(*view));
  }
  return out;
}

}  // namespace

JobController::JobController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kJobControllerName)),
      queue_(loop, client, QueueOptions(),
             [this](const store::ObjectPtr& job) { return Sync(job); }) {}

std::optional<Duration> JobController::Sync(const store::ObjectPtr& job_object) {
  Result<std::shared_ptr<const api::Job>> job = store::DecodedView<api::Job>(*job_object);
  if (!job.ok()) {
    Logger(std::string(kJobControllerName))
        ->warn("{}: cannot decode: {}", store::MetaString(job_object->json, "name"),
               job.status().message());
    return std::nullopt;
  }
  JobSnapshot snap;
  snap.job = **job;
  snap.now = loop_->Now();
  const store::ObjectName key{snap.job.metadata.namespace_, snap.job.metadata.name};
  snap.pods = PodViews(queue_.Owned(kPods, key, snap.job.metadata.uid));
  return Apply(job_object, PlanJob(snap));
}

std::optional<Duration> JobController::Apply(const store::ObjectPtr& job_object,
                                             const JobPlan& plan) {
  const api::Json& job_json = job_object->json;
  const store::ObjectName key = store::NameOf(job_json);
  std::optional<Duration> requeue;
  for (const JobAction& action : plan.actions) {
    switch (action.kind) {
      case Kind::kCreatePod: {
        Result<store::ObjectPtr> answer = client_->Create(client::kPods, api::Encode(*action.pod));
        if (!answer.ok()) {
          recorder_.Record(job_json, "Warning", "FailedCreate",
                           fmt::format("Error creating: {}", answer.status().message()));
          return queue_.Failed(key, answer.status());
        }
        recorder_.Record(job_json, "Normal", "SuccessfulCreate",
                         "Created pod: " + store::MetaString((*answer)->json, "name"));
        queue_.Expect(key, kPods, **answer);
        break;
      }
      case Kind::kDeletePod: {
        client::DeleteOptions options;
        options.precondition_uid = action.uid;
        Result<store::ObjectPtr> answer =
            client_->Delete(client::kPods, key.namespace_, action.name, options);
        if (!answer.ok() && answer.status().code() != Code::kNotFound) {
          recorder_.Record(job_json, "Warning", "FailedDelete",
                           fmt::format("Error deleting: {}", answer.status().message()));
          return queue_.Failed(key, answer.status());
        }
        recorder_.Record(job_json, "Normal", "SuccessfulDelete", "Deleted pod: " + action.name);
        if (answer.ok()) queue_.Expect(key, kPods, **answer);
        break;
      }
      case Kind::kUpdateStatus: {
        Result<store::ObjectPtr> answer = client_->UpdateStatus(
            client::kJobs, client::StatusWriteBody(job_json, api::Encode(plan.status)));
        if (!answer.ok()) return queue_.Failed(key, answer.status());
        queue_.Expect(key, OwnerController::kOwnerInformer, **answer);
        break;
      }
      case Kind::kEvent:
        recorder_.Record(job_json, action.type, action.reason, action.message);
        break;
      case Kind::kRequeueAfter:
        requeue = requeue ? std::min(*requeue, action.requeue_after) : action.requeue_after;
        break;
    }
  }
  queue_.Succeeded(key);
  return requeue;
}

}  // namespace lws::cluster
