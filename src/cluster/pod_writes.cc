// The pod-owning controllers' writes (pod_writes.h).
#include "cluster/pod_writes.h"

#include <fmt/format.h>

#include "client/request_bodies.h"

namespace lws::cluster {

PodWrites::PodWrites(const client::LocalClient* client, client::EventRecorder* recorder,
                     OwnerController* queue, std::size_t pods, client::Resource owner_resource)
    : client_(client),
      recorder_(recorder),
      queue_(queue),
      pods_(pods),
      owner_resource_(std::move(owner_resource)) {}

Status PodWrites::Create(const store::StoredObject& owner, const api::Pod& pod) const {
  Result<store::ObjectPtr> answer = client_->Create(client::kPods, api::Encode(pod));
  if (!answer.ok()) {
    recorder_->Record(owner, "Warning", "FailedCreate",
                      fmt::format("Error creating: {}", answer.status().message()));
    return answer.status();
  }
  recorder_->Record(owner, "Normal", "SuccessfulCreate", "Created pod: " + (*answer)->name().name);
  queue_->Expect(owner.name(), pods_, **answer);
  return Status::Ok();
}

Status PodWrites::Delete(const store::StoredObject& owner, const std::string& name,
                         const std::string& uid) const {
  const store::ObjectName& key = owner.name();
  client::DeleteOptions options;
  options.precondition_uid = uid;
  Result<store::ObjectPtr> answer = client_->Delete(client::kPods, key.namespace_, name, options);
  // A pod already gone is what the deletion wanted (upstream ignores NotFound).
  if (!answer.ok() && answer.status().code() != Code::kNotFound) {
    recorder_->Record(owner, "Warning", "FailedDelete",
                      fmt::format("Error deleting: {}", answer.status().message()));
    return answer.status();
  }
  recorder_->Record(owner, "Normal", "SuccessfulDelete", "Deleted pod: " + name);
  if (answer.ok()) queue_->Expect(key, pods_, **answer);
  return Status::Ok();
}

Status PodWrites::WriteStatus(const store::StoredObject& owner, api::Json status) const {
  // The cached resourceVersion goes along, so a stale owner conflicts.
  Result<store::ObjectPtr> answer =
      client_->UpdateStatus(owner_resource_, client::StatusWriteBody(owner, std::move(status)));
  if (!answer.ok()) return answer.status();
  queue_->Expect(owner.name(), OwnerController::kOwnerInformer, **answer);
  return Status::Ok();
}

}  // namespace lws::cluster
