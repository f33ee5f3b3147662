// The ReplicaSet controller's snapshot and writes (replicaset_controller.h).
#include "cluster/replicaset_controller.h"

#include <fmt/format.h>

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
template <class T>
std::vector<std::shared_ptr<const T>> Views(const std::vector<store::ObjectPtr>& objects) {
  std::vector<std::shared_ptr<const T>> out;
  for (const store::ObjectPtr& object : objects) {
    Result<std::shared_ptr<const T>> view = store::DecodedView<T>(*object);
    if (view.ok()) {
      out.push_back(std::move(*view));
    } else {
      Logger(std::string(kReplicaSetControllerName))
          ->warn("skipping undecodable {}: {}", store::MetaString(object->json, "name"),
                 view.status().message());
    }
  }
  return out;
}

}  // namespace

ReplicaSetController::ReplicaSetController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kReplicaSetControllerName)),
      queue_(loop, client, QueueOptions(),
             [this](const store::ObjectPtr& set) { return Sync(set); }) {}

std::optional<Duration> ReplicaSetController::Sync(const store::ObjectPtr& set_object) {
  Result<std::shared_ptr<const api::ReplicaSet>> set =
      store::DecodedView<api::ReplicaSet>(*set_object);
  if (!set.ok()) {
    Logger(std::string(kReplicaSetControllerName))
        ->warn("{}: cannot decode: {}", store::MetaString(set_object->json, "name"),
               set.status().message());
    return std::nullopt;
  }
  ReplicaSetSnapshot snap;
  snap.set = **set;
  snap.now = loop_->Now();
  const store::ObjectName key{snap.set.metadata.namespace_, snap.set.metadata.name};
  snap.pods = Views<api::Pod>(queue_.Owned(kPods, key, snap.set.metadata.uid));
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
    std::optional<ControllerOf> owner = ControllingOwner(sibling->json, "Deployment");
    if (!owner || owner->uid != deployment->uid) continue;
    for (auto& pod : Views<api::Pod>(
             queue_.Owned(kPods, key, store::MetaString(sibling->json, "uid")))) {
      if (IsPodActive(*pod)) related.push_back(std::move(pod));
    }
  }
  return related;
}

std::optional<Duration> ReplicaSetController::Apply(const store::ObjectPtr& set_object,
                                                    const ReplicaSetPlan& plan) {
  const api::Json& set_json = set_object->json;
  const store::ObjectName key = store::NameOf(set_json);
  std::optional<Duration> requeue;
  // A failed write: the event, the ReplicaFailure condition, and a retry.
  auto failed = [&](const std::string& reason, const std::string& verb, const Status& status) {
    recorder_.Record(set_json, "Warning", reason, fmt::format("Error {}: {}", verb, status.message()));
    if (status.code() != Code::kAlreadyExists && status.code() != Code::kConflict) {
      api::ReplicaSetStatus with = WithReplicaFailure(plan.status, reason, status.message(), loop_->Now());
      (void)client_->UpdateStatus(client::kReplicaSets,
                                  client::StatusWriteBody(set_json, api::Encode(with)));
    }
    return queue_.Failed(key, status);
  };
  for (const ReplicaSetAction& action : plan.actions) {
    switch (action.kind) {
      case Kind::kCreatePod: {
        Result<store::ObjectPtr> answer = client_->Create(client::kPods, api::Encode(*action.pod));
        if (!answer.ok()) return failed("FailedCreate", "creating", answer.status());
        recorder_.Record(set_json, "Normal", "SuccessfulCreate",
                         "Created pod: " + store::MetaString((*answer)->json, "name"));
        queue_.Expect(key, kPods, **answer);
        break;
      }
      case Kind::kDeletePod: {
        client::DeleteOptions options;
        options.precondition_uid = action.uid;
        Result<store::ObjectPtr> answer =
            client_->Delete(client::kPods, key.namespace_, action.name, options);
        // A pod already gone is what the deletion wanted (upstream ignores NotFound).
        if (!answer.ok() && answer.status().code() != Code::kNotFound) {
          return failed("FailedDelete", "deleting", answer.status());
        }
        recorder_.Record(set_json, "Normal", "SuccessfulDelete", "Deleted pod: " + action.name);
        if (answer.ok()) queue_.Expect(key, kPods, **answer);
        break;
      }
      case Kind::kUpdateStatus: {
        // The cached resourceVersion goes along, so a stale set conflicts.
        Result<store::ObjectPtr> answer = client_->UpdateStatus(
            client::kReplicaSets, client::StatusWriteBody(set_json, api::Encode(plan.status)));
        if (!answer.ok()) return queue_.Failed(key, answer.status());
        queue_.Expect(key, OwnerController::kOwnerInformer, **answer);
        break;
      }
      case Kind::kRequeueAfter:
        requeue = action.requeue_after;
        break;
    }
  }
  queue_.Succeeded(key);
  return requeue;
}

}  // namespace lws::cluster
