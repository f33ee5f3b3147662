// The ReplicaSet controller's snapshot and writes (replicaset_controller.h).
#include "cluster/replicaset_controller.h"

#include "base/log.h"
#include "client/request_bodies.h"
#include "cluster/pod_availability.h"
#include "store/decoded_view.h"

namespace lws::cluster {

namespace {

using Kind = ReplicaSetActionKind;

OwnerController::Options QueueOptions() {
  OwnerController::Options options;
  options.name = std::string(kReplicaSetControllerName);
  options.owner = client::kReplicaSets;
  options.controlled.push_back({client::kPods, "ReplicaSet", nullptr});
  return options;
}

// The decoded views of `objects`; undecodable ones are logged and skipped.
}  // namespace

ReplicaSetController::ReplicaSetController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kReplicaSetControllerName)),
      queue_(loop, client, QueueOptions(),
             [this](const store::ObjectPtr& set) { return Sync(set); }),
      writes_(client, &recorder_, &queue_, kPods, client::kReplicaSets) {}

std::optional<Duration> ReplicaSetController::Sync(const store::ObjectPtr& set_object) {
  Result<std::shared_ptr<const api::ReplicaSet>> set =
      store::DecodedView<api::ReplicaSet>(*set_object);
  if (!set.ok()) {
    Logger(std::string(kReplicaSetControllerName))
        ->warn("{}: cannot decode: {}", set_object->name().name, set.status().message());
    return std::nullopt;
  }
  ReplicaSetSnapshot snap;
  snap.set = **set;
  snap.now = loop_->Now();
  const store::ObjectName key{snap.set.metadata.namespace_, snap.set.metadata.name};
  snap.pods = store::DecodedViews<api::Pod>(queue_.Owned(kPods, key, snap.set.metadata.uid),
                                            std::string(kReplicaSetControllerName));
  // Reading every sibling's pods is for ranking a scale-down only: most syncs are not one.
  if (RanksPodsToDelete(snap)) snap.related = Related(snap.set);
  return Apply(set_object, PlanReplicaSet(snap));
}

std::vector<std::shared_ptr<const api::Pod>> ReplicaSetController::Related(
    const api::ReplicaSet& set) const {
  std::vector<std::shared_ptr<const api::Pod>> related;
  const api::OwnerReference* deployment = set.metadata.ControllerRef();
  if (deployment == nullptr || deployment->kind != "Deployment") return related;
  for (const auto& [key, sibling] : queue_.owners().objects()) {
    if (key.namespace_ != set.metadata.namespace_) continue;
    std::optional<ControllerOf> owner = ControllingOwner(*sibling, "Deployment");
    if (!owner || owner->uid != deployment->uid) continue;
    for (auto& pod : store::DecodedViews<api::Pod>(queue_.Owned(kPods, key, sibling->uid()),
                                                   std::string(kReplicaSetControllerName))) {
      if (IsPodActive(*pod)) related.push_back(std::move(pod));
    }
  }
  return related;
}

std::optional<Duration> ReplicaSetController::Apply(const store::ObjectPtr& set_object,
                                                    const ReplicaSetPlan& plan) {
  const store::StoredObject& set = *set_object;
  const store::ObjectName& key = set.name();
  std::optional<Duration> requeue;
  // A failed pod write (PodWrites recorded its event): the ReplicaFailure condition, and a retry.
  auto failed = [&](const std::string& reason, const Status& status) {
    if (status.code() != Code::kAlreadyExists && status.code() != Code::kConflict) {
      api::ReplicaSetStatus with =
          WithReplicaFailure(plan.status, reason, status.message(), loop_->Now());
      (void)client_->UpdateStatus(client::kReplicaSets,
                                  client::StatusWriteBody(set, api::Encode(with)));
    }
    return queue_.Failed(key, status);
  };
  for (const ReplicaSetAction& action : plan.actions) {
    Status status = Status::Ok();
    const char* reason = nullptr;  // a failed pod write's ReplicaFailure reason
    switch (action.kind) {
      case Kind::kCreatePod:
        status = writes_.Create(set, *action.pod);
        reason = "FailedCreate";
        break;
      case Kind::kDeletePod:
        status = writes_.Delete(set, action.name, action.uid);
        reason = "FailedDelete";
        break;
      case Kind::kUpdateStatus:
        status = writes_.WriteStatus(set, api::Encode(plan.status));
        break;
      case Kind::kRequeueAfter:
        requeue = action.requeue_after;
        break;
    }
    if (!status.ok()) return reason ? failed(reason, status) : queue_.Failed(key, status);
  }
  queue_.Succeeded(key);
  return requeue;
}

}  // namespace lws::cluster
